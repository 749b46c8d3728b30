/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Geometry and interleaver tables of cpu-window16-simd (turbo_window_decoder.h).
//
// A codeword's K steps are cut into P windows of W = K/P steps, and window w
// of codeword c runs in SIMD lane t = c*P + w of a 16-lane int16 vector: row j
// of a buffer holds step j of every window ("lane layout"). With P < 16
// (small K) several codewords of one K share the vector (C = 16/P of them).
//
// The QPP interleaver maps rows to rows. For W dividing K,
//   pi(j + tW) = pi(j) + f1 tW + f2 (2 j t W + t^2 W^2)  =  pi(j)  (mod W),
// so the P elements of interleaved row j all come from ONE natural row,
// R(j) = pi(j) mod W, with a lane permutation (QPP is contention-free, so the
// windows they come from, floor(pi(j + tW)/W), are all different). Moving a
// row between the two decoders' layouts is a vector load, an in-register
// lane shuffle and a vector store: no per-element gathers.
#ifndef INCLUDED_GPURX_TURBO_TURBO_WINDOW_PLAN_H
#define INCLUDED_GPURX_TURBO_TURBO_WINDOW_PLAN_H

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo_win {

constexpr int LANES = 16;      //!< int16 lanes of one vector (AVX2 width)
constexpr int MAX_WINDOWS = 16; //!< windows per codeword at most
// P is a power of two: lanes are split into codeword and window by shift
// and mask (turbo_window_decoder.cc, turbo_window_kernel.h).
static_assert((MAX_WINDOWS & (MAX_WINDOWS - 1)) == 0 && LANES % MAX_WINDOWS == 0, "windows: a power of two");
//! Windows shorter than this lose BER (their edges start from the previous
//! iteration's metrics): 64-step windows cost 0.06 dB at K = 1024, 384-step
//! ones 0.007 dB at K = 6144 (docs/cpu-turbo.md). Fewer windows cost no
//! throughput as long as a batch has C codewords of the K to fill the lanes.
constexpr int MIN_WINDOW = 128;

//! Windows per codeword for K: the largest power of two <= MAX_WINDOWS that
//! divides K and leaves windows of at least MIN_WINDOW steps (1 for K < 256,
//! 16 for K >= 2048).
int windows_for(int K);

struct plan {
    int K = 0, P = 0, W = 0;
    int C = 0; //!< codewords per vector: LANES / P
    //! Interleaved row j's elements come from natural row nat_row[j];
    //! natural row r's go to interleaved row int_row[r].
    std::vector<uint16_t> nat_row, int_row;
    //! Lane gathers, 16 source lanes per row (lanes of codeword c stay in
    //! c's group): natural row r into interleaved row int_row[r] is
    //! dst[t] = src[to_int[16 r + t]]; interleaved row j into natural row
    //! nat_row[j] is dst[t] = src[to_nat[16 j + t]].
    std::vector<uint8_t> to_int, to_nat;
    //! The same gathers as AVX2 byte-shuffle controls, 64 bytes per row:
    //! 32 for vpshufb of the source (bytes from the same 128-bit half, else
    //! 0x80) and 32 for vpshufb of the source with its halves swapped.
    std::vector<uint8_t> to_int_ctl, to_nat_ctl;
};

//! The plan of block size K (one of the 188 LTE sizes; throws otherwise),
//! built on first use and kept: thread-safe, the reference stays valid.
const plan& plan_for(int K);

} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
