/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Per-frame records shared by the batching pipeline and every batch kernel.
//
// The pipeline knows where a frame's bytes are (frame_desc) and nothing about
// what they mean. Each family declares its own per-frame parameter and result
// types (trivially copyable structs, e.g. turbo::frame_params); the pipeline
// stages them beside the descriptors and copies them to and from the GPU as
// opaque fixed-size records (frame_types).
#ifndef INCLUDED_GPURX_PIPELINE_FRAME_H
#define INCLUDED_GPURX_PIPELINE_FRAME_H

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gr {
namespace gpurx {
namespace core {

//! Where one frame of a batch lives inside the batch's staging areas.
struct frame_desc {
    uint64_t in_offset;  //!< byte offset of the frame's input in the input data area
    uint64_t out_offset; //!< byte offset of the frame's output in the output data area
    uint32_t in_bytes;   //!< input bytes of this frame
    uint32_t out_bytes;  //!< output bytes of this frame
};
static_assert(sizeof(frame_desc) == 24, "frame_desc is shared with device code");

//! Sizes of a family's per-frame parameter and result records.
struct frame_types {
    size_t param_bytes = 0;
    size_t result_bytes = 0;

    template <typename Params, typename Result>
    static frame_types of()
    {
        static_assert(std::is_trivially_copyable<Params>::value &&
                          std::is_trivially_copyable<Result>::value,
                      "frame parameters and results are copied as bytes");
        return { sizeof(Params), sizeof(Result) };
    }
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
