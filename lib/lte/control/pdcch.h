/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PDCCH's soft bits (36.211 §6.8): 72 per CCE, demodulated from the CCE's 9
// REGs (control_layout's cce_re) and descrambled with the subframe's
// sequence, c_init = floor(n_s / 2) 2^9 + N_ID (§6.8.2), which runs over
// the multiplexed CCEs, so CCE n's bits are its bits 72 n .. 72 n + 71.
#ifndef INCLUDED_GPURX_LTE_CONTROL_PDCCH_H
#define INCLUDED_GPURX_LTE_CONTROL_PDCCH_H

#include "lte/common/resource_grid.h"
#include "lte/control/control_layout.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The descrambled LLRs of every CCE, [72 n + i], of the grid's subframe.
std::vector<float> pdcch_cce_llrs(const control_layout& lay, const subframe_grid& g, const channel_estimate& h);

/*!
 * The received power of each CCE over the noise: the mean over its 36 REs
 * and the grid's antennas of |r|^2 / N0 (N0 = h.noise_var). About 1 where
 * nothing was sent (a CCE left empty, 36.211 §6.8.2's <NIL>), 1 + SNR where
 * a PDCCH was: what lets blind decoding skip the candidates on empty CCEs.
 * Each value averages 36 x n_rx exponential samples where nothing was
 * sent, so it deviates from 1 by about 1 / sqrt(36 n_rx). Empty when
 * N0 is not positive and finite (no gating possible).
 */
std::vector<float> pdcch_cce_power(const control_layout& lay, const subframe_grid& g, const channel_estimate& h);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
