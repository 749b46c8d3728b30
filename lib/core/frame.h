/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Per-frame records shared by the batching pipeline and every batch kernel.
// Plain structs with fixed layout: they are copied to and from the GPU as-is.
#ifndef INCLUDED_GPURX_CORE_FRAME_H
#define INCLUDED_GPURX_CORE_FRAME_H

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! Where one frame of a batch lives inside the batch's staging areas.
struct frame_desc {
    uint64_t in_offset;  //!< byte offset of the frame's input in the input data area
    uint64_t out_offset; //!< byte offset of the frame's output in the output data area
    uint32_t in_bytes;   //!< input bytes of this frame
    uint32_t out_bytes;  //!< output bytes of this frame
    uint32_t param;      //!< kernel-defined (e.g. the turbo block size K)
    uint32_t flags;      //!< kernel-defined
};
static_assert(sizeof(frame_desc) == 32, "frame_desc is shared with device code");

//! Status codes a kernel (or the pipeline) reports per frame.
enum frame_status : int32_t {
    FRAME_OK = 0,
    FRAME_REJECTED = 1, //!< never processed (malformed input); output is zeros
    FRAME_FAILED = 2,   //!< processed, but the kernel reports failure (e.g. CRC)
};

//! What a kernel reports per frame, next to its output bytes.
struct frame_result {
    int32_t status;     //!< frame_status
    int32_t iterations; //!< iterations used (decoders), 0 otherwise
    int32_t check;      //!< 1 check passed, 0 failed, -1 no check ran
    int32_t reserved;
};
static_assert(sizeof(frame_result) == 16, "frame_result is shared with device code");

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
