/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Executes batches for a batch_pipeline: owns the staging memory of each
// in-flight slot and runs (or enqueues) the kernel on it.
#ifndef INCLUDED_GPURX_CORE_BATCH_ENGINE_H
#define INCLUDED_GPURX_CORE_BATCH_ENGINE_H

#include "batch_kernel.h"
#include "frame.h"
#include <cstddef>
#include <cstdint>
#include <memory>

namespace gr {
namespace gpurx {
namespace core {

//! Sizes of one slot's staging areas.
struct slot_geometry {
    size_t max_frames;    //!< descriptors / results per batch
    size_t in_capacity;   //!< bytes of input data per batch
    size_t out_capacity;  //!< bytes of output data per batch
};

class batch_engine
{
public:
    virtual ~batch_engine() = default;
    virtual size_t nslots() const = 0;
    // Host-side staging of a slot (pinned on the CUDA backend).
    virtual frame_desc* frames(size_t slot) = 0;
    virtual uint8_t* in_data(size_t slot) = 0;
    virtual frame_result* results(size_t slot) = 0;
    virtual const uint8_t* out_data(size_t slot) = 0;
    //! Start the batch in \p slot: nframes descriptors and in_bytes of input
    //! are staged; out_bytes of output will be produced. May return before
    //! the work is done (CUDA) or after (CPU).
    virtual void launch(size_t slot, size_t nframes, size_t in_bytes, size_t out_bytes) = 0;
    //! True when the slot's batch has completed (non-blocking).
    virtual bool done(size_t slot) = 0;
    //! Block until the slot's batch has completed.
    virtual void wait(size_t slot) = 0;
    virtual const char* name() const = 0;
};

//! The plain synchronous engine: launch() runs the kernel on the host.
std::unique_ptr<batch_engine>
make_cpu_engine(batch_kernel& kernel, size_t nslots, const slot_geometry& geometry);

/*!
 * The CUDA engine: each slot has its own stream, pinned host staging and
 * device buffers, leased from the device's persistent context. launch()
 * enqueues copy-in, the kernel and copy-out and returns at once.
 * Throws std::runtime_error when built without CUDA.
 */
std::unique_ptr<batch_engine> make_cuda_engine(batch_kernel& kernel,
                                               size_t nslots,
                                               const slot_geometry& geometry,
                                               int device);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
