/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The tail-biting convolutional code of TS 36.212 §5.1.3.1 (BCH, DCI) and
// its rate matching, §5.1.4.2: what the transmitter does, and the receive
// side's rate de-matching that turns E received LLRs back into the 3K the
// Viterbi decoder takes.
//
// Coded bits are kept INTERLEAVED by step, the order the Viterbi family
// takes them: d[3k + i] = d_k^(i), i = 0, 1, 2 for the generators 133, 171,
// 165 (octal), k = 0..K-1. The stream d^(i) is therefore d[i], d[3 + i], ...
//
// Rate matching (§5.1.4.2): each stream d^(i) goes through the sub-block
// interleaver (32 columns, R = ceil(K/32) rows, 32R - K <NULL> dummy bits
// first, columns permuted by Table 5.1.4-2, read column by column), the
// three interleaved streams are collected one after the other (w_k, K_w =
// 96R) and e_k is w_(j mod K_w) for the k-th j whose w is not <NULL>. The
// 3K non-NULL bits therefore repeat with period 3K: e_k = d[pattern(k mod 3K)].
#ifndef INCLUDED_GPURX_LTE_CODING_LTE_CC_H
#define INCLUDED_GPURX_LTE_CODING_LTE_CC_H

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! 36.212 §5.1.3.1: constraint length 7, rate 1/3, generators in octal,
//! the MSB tapping the current input bit.
constexpr int cc_constraint_length = 7;
constexpr unsigned cc_generators[3] = { 0133, 0171, 0165 };
//! Tail-biting needs the last 6 information bits for the start state.
constexpr int cc_min_bits = cc_constraint_length - 1;
//! 36.212 Table 5.1.4-2: the sub-block interleaver's inter-column permutation.
constexpr int cc_column_permutation[32] = { 1,  17, 9,  25, 5,  21, 13, 29, 3,  19, 11,
                                            27, 7,  23, 15, 31, 0,  16, 8,  24, 4,  20,
                                            12, 28, 2,  18, 10, 26, 6,  22, 14, 30 };
//! A limit on each LLR's magnitude on the receive side: infinite or absurd
//! inputs are clipped to it (NaN counts as 0, no information) so that the
//! decoder's metrics stay finite.
constexpr float cc_llr_limit = 1e6f;

/*!
 * 36.212 §5.1.3.1: tail-biting encoding of \p K bits c_0..c_{K-1} (0/1;
 * nonzero counts as 1) into 3K coded bits d[3k + i] = d_k^(i). The shift
 * register starts as s_i = c_{K-1-i}. Throws std::invalid_argument naming K
 * when K < 6.
 */
void cc_encode(const uint8_t* c, int K, uint8_t* d);
std::vector<uint8_t> cc_encode(const std::vector<uint8_t>& c);

/*!
 * 36.212 §5.1.4.2 for D = K bits per stream: \p E bits e_0..e_{E-1} from
 * the 3K coded bits \p d (cc_encode's order). E may be below 3K (some coded
 * bits are not sent) or above (they repeat). Throws naming K (< 1) or E (< 1).
 */
void cc_rate_match(const uint8_t* d, int K, int E, uint8_t* e);
std::vector<uint8_t> cc_rate_match(const std::vector<uint8_t>& d, int E);

/*!
 * The receive side: adds the \p E LLRs \p e_llr into the 3K outputs
 * \p d_llr (cc_encode's order, what tail_biting_decoder::decode takes): the
 * LLRs of a repeated coded bit are summed, a coded bit never sent gets 0.
 * Each input is first made finite (cc_llr_limit). No allocation. Throws
 * naming K (< 1) or E (< 1).
 */
void cc_rate_dematch(const float* e_llr, int E, int K, float* d_llr);

/*!
 * Where e_k comes from: the index into d (cc_encode's order) of the k-th
 * non-NULL bit of w, k = 0..3K-1 (e_k = d[pattern[k mod 3K]]). Written into
 * \p pattern (resized to 3K). Throws naming K (< 1).
 */
void cc_rate_match_pattern(int K, std::vector<int>& pattern);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
