/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// How a batch of transport blocks is laid out in a kernel's working memory,
// the same on the CPU and the GPU: each TB's descrambled int8 LLRs, then
// its code blocks as the turbo decoder's frames (inputs, hard outputs,
// descriptors, parameters, results), then the turbo decoder's own scratch.
//
// Code blocks are ordered in two groups, so each is one turbo launch with
// one early-stop CRC: first the TBs of one code block (checked by CRC24A),
// then the code blocks of larger TBs (CRC24B), each TB's in order.
#ifndef INCLUDED_GPURX_SCH_SCH_BATCH_H
#define INCLUDED_GPURX_SCH_SCH_BATCH_H

#include "pipeline/frame.h"
#include "sch/sch_arith.h"
#include "turbo/turbo_frame.h"
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

//! Bytes between code blocks' decoder inputs (3K+12 int8, 16-byte aligned).
constexpr size_t CB_IN_STRIDE = (MAX_CB_LLRS + 15) & ~size_t(15);
constexpr size_t CB_OUT_STRIDE = 6144;
//! The same with the turbo decoder's coded output (sch_config::extrinsic_output):
//! hard bits, then 3K+12 floats (turbo_out_bytes()).
constexpr size_t CB_CODED_OUT_STRIDE = 6144 + (3 * 6144 + 12) * sizeof(float);

//! One code block of a batch: TB (frame) index and block number r.
struct cb_entry {
    int32_t tb;
    int32_t r;
};

struct batch_layout {
    size_t max_frames, max_cbs, max_g;
    size_t descrambled, cb_in, cb_out, cb_desc, cb_params, cb_results, cb_entries, turbo_scratch;
    size_t tb_first; //!< [TB] its first code block's position (int32)
    size_t tb_crc;   //!< [TB] CRC24A accumulator (uint32, GPU)
    size_t cb_ok;    //!< [code block] its CRC checks (int32, GPU)
    size_t cb_nonzero; //!< [code block] its decoder input's non-zero soft values (int32)
    size_t tb_shapes; //!< [TB] 3 gather-table slots (int32, GPU)
    size_t cb_soft; //!< CPU: the soft buffers' new contents, committed when the batch completes
    size_t cb_out_stride; //!< bytes between code blocks' decoder outputs
    size_t bytes;

    //! \p coded: the decoder outputs the coded bits' extrinsic LLRs too
    batch_layout(size_t max_frames, size_t max_code_blocks, size_t max_g, size_t turbo_scratch_bytes,
                 bool soft_staging = false, bool coded = false);
    //! Where TB \p f's descrambled LLRs start (G int8 each).
    GPURX_HD size_t descrambled_of(size_t f) const { return descrambled + f * ((max_g + 15) & ~size_t(15)); }
};

//! The batch's code blocks in launch order, and how many belong to TBs of
//! one code block (the first group).
struct cb_list {
    std::vector<cb_entry> entries;
    std::vector<int32_t> first; //!< [TB]: its first code block's position
    size_t single = 0;
    void build(const frame_params* tbs, size_t n);
};

//! The turbo decoder's descriptor and parameters of code block \p e, whose
//! position in launch order is \p i; \p out_stride: batch_layout::cb_out_stride.
void cb_turbo_frame(const frame_params& p, const cb_entry& e, size_t i, size_t out_stride, frame_desc& d,
                    turbo::frame_params& tp);

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
