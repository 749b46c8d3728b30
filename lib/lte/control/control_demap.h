/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The soft bits of control-channel quadruplets (PCFICH, PDCCH, 36.211
// §6.7, §6.8): QPSK symbols sent from port 0 alone, or with transmit
// diversity (SFBC, §6.3.4.3) over 2 or 4 ports, received on every antenna
// of the grid and combined with the channel estimate.
#ifndef INCLUDED_GPURX_LTE_CONTROL_CONTROL_DEMAP_H
#define INCLUDED_GPURX_LTE_CONTROL_CONTROL_DEMAP_H

#include "lte/common/resource_grid.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The largest LLR magnitude the demapper returns (a noiseless grid would
//! give unbounded ones).
constexpr float control_llr_limit = 1.0e4f;

/*!
 * 8 LLRs per quadruplet (L = ln P(1)/P(0), QPSK of 36.211 §7.1.2: bit 2i on
 * the in-phase axis) of \p n_quads quadruplets whose REs are \p re[4 q ..
 * 4 q + 3] (offsets l * n_sc + k in the grid, in the order their symbols
 * were sent). \p ports: 1 (port 0, maximum-ratio combining over the
 * antennas), 2 (SFBC pairs of symbols on ports 0 and 1) or 4 (a
 * quadruplet's first pair on ports 0 and 2, its second on 1 and 3). The
 * channel estimate must have at least \p ports ports and the grid's
 * antennas. Non-finite input gives LLR 0, never NaN.
 */
void demap_control_quadruplets(const subframe_grid& g, const channel_estimate& h, int ports, const int32_t* re,
                               int n_quads, float* llr);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
