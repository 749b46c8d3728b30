/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The computation a batching pipeline runs on each batch. One object serves
// both backends: run_cpu() on host memory, enqueue_cuda() on device memory.
#ifndef INCLUDED_GPURX_CORE_BATCH_KERNEL_H
#define INCLUDED_GPURX_CORE_BATCH_KERNEL_H

#include "frame.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! One batch, as the kernel sees it. On the CUDA backend every pointer is a
//! device pointer; on the CPU backend every pointer is a host pointer.
struct batch_view {
    const frame_desc* frames; //!< nframes descriptors
    size_t nframes;
    const uint8_t* in;     //!< input data area
    uint8_t* out;          //!< output data area
    frame_result* results; //!< nframes results, to be written by the kernel
    uint8_t* scratch;      //!< scratch_bytes() of working memory, contents undefined
};

class batch_kernel
{
public:
    virtual ~batch_kernel() = default;
    //! Working memory a batch needs (per slot, on the backend's side).
    virtual size_t scratch_bytes(size_t max_frames) const { return 0; }
    //! Process a batch synchronously on the host.
    virtual void run_cpu(const batch_view& batch) = 0;
    //! Enqueue the batch's work on \p cuda_stream (a cudaStream_t). Must not
    //! synchronize. \p host_frames are the same descriptors in host memory, for
    //! launch-configuration decisions (e.g. the largest frame in the batch).
    virtual void enqueue_cuda(const batch_view& device_batch,
                              const frame_desc* host_frames,
                              void* cuda_stream) = 0;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
