/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The receive steps of one transport block on the CPU, in the order they
// run; the CUDA kernels (cuda/sch_*.cu) do the same with the same integer
// arithmetic (sch_arith.h), so the two backends agree bit for bit.
//   1. descramble():  quantise the G LLRs to int8 (steps of 1/8) and undo
//                     the scrambling, in transmission order;
//   2. dematch():     per code block, gather its E LLRs through the uplink
//                     deinterleaver and the circular buffer, sum repeated
//                     bits, combine with the HARQ soft buffer (saturating
//                     int16) and give the turbo decoder its 3K+12 int8
//                     LLRs, filler bits as certain zeros;
//   3. (the turbo decoder, per code block);
//   4. assemble():    check each code block's CRC, join the blocks' data
//                     bits into the TB and check its CRC24A;
//   5. (sch_config::extrinsic_output) extrinsic(): per code block, each
//                     received bit's extrinsic LLR from the decoder's coded
//                     output, then scramble_extrinsic() per TB.
#ifndef INCLUDED_GPURX_SCH_SCH_STEPS_H
#define INCLUDED_GPURX_SCH_SCH_STEPS_H

#include "sch/sch_frame.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

//! Step 1: \p in holds G float32 or int8 LLRs (p.input); \p out G int8.
void descramble(const frame_params& p, const uint8_t* in, int8_t* out);
//! descramble()'s plain loops, which its SIMD build (sch_steps_fast.h) must
//! equal value for value.
void descramble_reference(const frame_params& p, const uint8_t* in, int8_t* out);

/*!
 * Step 2 for code block \p r. \p order: its circular_order() table (\p n
 * entries). \p soft_in: its soft buffer (3K+12 int16), or nullptr for none;
 * combined with when p.combine. \p soft_out: the buffer's new contents (may
 * be soft_in; ignored when soft_in is nullptr). \p dec: 3K+12 int8.
 * \p sums: 3K+12 int32 of working memory.
 */
void dematch(const frame_params& p, int r, const int8_t* descrambled, const int32_t* order,
             size_t n, const int16_t* soft_in, int16_t* soft_out, int8_t* dec, int32_t* sums);

//! Step 2's count for cb_informed(): the non-zero values of a code block's
//! decoder input \p dec of \p n int8 soft values.
int nonzero_soft_values(const int8_t* dec, int n);

/*!
 * Step 4: \p blocks points to code block 0's K hard bits, the others
 * following every \p stride bytes; \p out gets the TB's tbs bits; \p res
 * its CRCs (iterations left as they are). \p checks, when given: the turbo
 * decoder's early-termination result of each code block (1 passed, 0
 * failed, -1 none ran), its block CRC (CRC24A for one block, else CRC24B) on
 * exactly these hard bits; a block whose result is 0 or 1 is not checked
 * again.
 */
void assemble(const frame_params& p, const uint8_t* blocks, size_t stride, uint8_t* out,
              frame_result& res, const int32_t* checks = nullptr);

/*!
 * Step 5 for code block \p r: for each of its E received bits e (TB
 * position j = at + e, through the uplink's channel interleaver), with c =
 * order[e mod n] its codeword position,
 *     out[j] = scale * coded[c] + (dec[c] - rx[j]) / 8
 * (the int8 values in LLR units): what the decoder knows of bit c, its
 * extrinsic plus its input, less this copy's own received LLR, so that a
 * detector taking it as a-priori counts no observation twice. Without
 * repetition or HARQ combining dec[c] is rx[j] and out[j] is the coded
 * extrinsic itself; with them it adds the other copies' LLRs (the rule of
 * lte_rate_match::feedback()). Still descrambled: scramble_extrinsic()
 * follows. \p coded: the turbo decoder's 3K+12 coded extrinsics; \p dec
 * its int8 input (dematch()); \p scale: sch_config::extrinsic_scale.
 */
void extrinsic(const frame_params& p, int r, const int8_t* descrambled, const int32_t* order, size_t n,
               const int8_t* dec, const float* coded, float scale, float* out);
//! Step 5, per TB: \p out (G floats) negated where the scrambling bit is 1.
void scramble_extrinsic(const frame_params& p, float* out);

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
