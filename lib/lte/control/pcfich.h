/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PCFICH (36.211 §6.7): the control format indicator, 32 scrambled bits in
// 4 REGs of symbol 0, one of three codewords (36.212 Table 5.3.4-1).
#ifndef INCLUDED_GPURX_LTE_CONTROL_PCFICH_H
#define INCLUDED_GPURX_LTE_CONTROL_PCFICH_H

#include "lte/common/resource_grid.h"

#include <array>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The 32-bit codeword of CFI 1..3 (36.212 Table 5.3.4-1).
std::array<uint8_t, 32> cfi_codeword(int cfi);

//! The 16 REs (offsets l * n_sc + k) of PCFICH's symbols, in order (§6.7.4).
std::array<int32_t, 16> pcfich_res(const cell& c);

struct pcfich_result {
    int cfi = 0;              //!< 1..3; 0 when nothing was received (all LLRs 0)
    float correlation = 0.0f; //!< the best codeword's correlation with the soft bits, -1..1 (1: every bit agrees)
    float margin = 0.0f;      //!< its lead over the second best, in the same unit
    std::array<float, 3> score{}; //!< sum of L_i (2 b_i - 1) per CFI
};

//! CFI by maximum correlation of 32 descrambled LLRs with the codewords.
pcfich_result cfi_from_llrs(const float* llr);

/*!
 * Demodulates, descrambles (c_init = (subframe + 1)(2 N_ID + 1) 2^9 + N_ID,
 * §6.7.1) and decodes the PCFICH of the grid's subframe (g.time).
 */
pcfich_result decode_pcfich(const cell& c, const subframe_grid& g, const channel_estimate& h);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
