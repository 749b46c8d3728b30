/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE pseudo-random sequence (36.211 §7.2) that scrambles a codeword
// (§6.3.1 PDSCH, §5.3.1 PUSCH), 32 bits at a time, and the tables with
// which a GPU warp starts anywhere in it: the registers are linear, so
// their state n steps on is a 31x31 GF(2) matrix power applied to the start.
#ifndef INCLUDED_GPURX_SCH_LTE_SCRAMBLING_H
#define INCLUDED_GPURX_SCH_LTE_SCRAMBLING_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

/*!
 * Words w = 0..n-1 of the sequence for \p c_init: bit b of words[w] is
 * c(32 w + b).
 */
void gold_words(uint32_t c_init, uint32_t* words, size_t n);
//! The registers' states at n = Nc (word 0): then gold_word(x1, x2) and
//! gold_x1/x2_advance32 (sch_arith.h) give the words in turn.
void gold_start(uint32_t c_init, uint32_t& x1, uint32_t& x2);
//! c(0..n-1), one bit per byte.
std::vector<uint8_t> gold_bits(uint32_t c_init, size_t n);

/*!
 * The GPU's tables: a warp takes a group of 32 words (1024 bits). The
 * registers' states at each group's start (x1's directly; x2's as a matrix
 * on c_init, which the warp applies cooperatively, a column per lane), and
 * per lane the matrix of its 32 lane steps into the group.
 */
constexpr int GOLD_GROUPS = 2048; //!< 2^21 bits
struct gold_warp_tables {
    std::vector<uint32_t> x1_group;   //!< [g]: x1's state at 1600 + 1024 g
    std::vector<uint32_t> x2_group;   //!< [g][j]: column j of x2's matrix to 1600 + 1024 g
    std::vector<uint32_t> lane_x1;    //!< [l][j]: column j of x1's 32 l steps
    std::vector<uint32_t> lane_x2;    //!< [l][j]: column j of x2's 32 l steps
};
const gold_warp_tables& gold_warp();
//! Word \p w by the GPU's route (for its test).
uint32_t gold_word_by_group(const gold_warp_tables& t, uint32_t c_init, uint32_t w);

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
