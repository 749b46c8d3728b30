/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The computation a batching pipeline runs on each batch: one implementation
// of a family on one backend. A CPU kernel runs a batch on host memory with
// the engine's worker pool; a CUDA kernel enqueues it on a stream of one GPU.
#ifndef INCLUDED_GPURX_PIPELINE_BATCH_KERNEL_H
#define INCLUDED_GPURX_PIPELINE_BATCH_KERNEL_H

#include "pipeline/frame.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

class worker_pool;

//! One batch, as the kernel sees it. On the CUDA backend every pointer is a
//! device pointer; on the CPU backend every pointer is a host pointer.
struct batch_view {
    const frame_desc* frames; //!< nframes descriptors
    size_t nframes;
    const void* params;    //!< nframes family parameter records
    const uint8_t* in;     //!< input data area
    uint8_t* out;          //!< output data area
    void* results;         //!< nframes family result records, written by the kernel
    uint8_t* scratch;      //!< scratch_bytes() of working memory, contents undefined
    //! Frames the slot holds (the max_frames its scratch was sized for), 0
    //! where unknown. A kernel that lays its scratch out for capacity
    //! rather than nframes puts a frame's working memory at the same place
    //! in every batch, so batches of varying size reuse the pages the
    //! largest one touched instead of touching new ones (on the CPU each
    //! first touch is a page fault).
    size_t capacity = 0;

    template <typename P>
    const P* params_as() const
    {
        return static_cast<const P*>(params);
    }
    template <typename R>
    R* results_as() const
    {
        return static_cast<R*>(results);
    }
};

class batch_kernel
{
public:
    virtual ~batch_kernel() = default;
    //! The implementation's registry name (e.g. "cuda-fixed16-dpx").
    virtual const char* name() const = 0;
    //! Working memory a batch needs (per slot, on the backend's side).
    virtual size_t scratch_bytes(size_t max_frames) const { return 0; }
};

class cpu_kernel : public batch_kernel
{
public:
    //! Process a batch synchronously on the host; \p pool may run parts of it.
    virtual void run(const batch_view& batch, worker_pool& pool) = 0;
};

class cuda_kernel : public batch_kernel
{
public:
    /*!
     * Enqueue the batch's work on \p cuda_stream (a cudaStream_t) of the
     * current device. Must not synchronize. \p host is the same batch's
     * descriptors and parameters in host memory, for launch decisions (e.g.
     * the largest frame); its data pointers are not to be used.
     */
    virtual void enqueue(const batch_view& device, const batch_view& host, void* cuda_stream) = 0;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
