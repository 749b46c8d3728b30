/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Executes batches for a batch_pipeline: owns the staging memory of each
// in-flight slot and runs (or enqueues) the kernel on it.
#ifndef INCLUDED_GPURX_PIPELINE_BATCH_ENGINE_H
#define INCLUDED_GPURX_PIPELINE_BATCH_ENGINE_H

#include "pipeline/batch_kernel.h"
#include "pipeline/frame.h"
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! Sizes of one slot's staging areas.
struct slot_geometry {
    size_t max_frames;   //!< descriptors / parameters / results per batch
    size_t in_capacity;  //!< bytes of input data per batch
    size_t out_capacity; //!< bytes of output data per batch
    frame_types types;   //!< the family's per-frame records
};

/*!
 * A part of a batch's input data area that is not in the staging: its bytes
 * are read from the caller's memory when the batch launches
 * (batch_pipeline::submit_many_in_place()). On CUDA they go to the GPU
 * straight from there, which saves the host a copy of every input byte
 * (at PCIe rates, the host's memory bandwidth, not the bus, limits that copy).
 */
struct input_run {
    size_t offset;      //!< where the run starts in the input data area
    size_t bytes;       //!< its length
    const uint8_t* src; //!< the caller's bytes (pinned: full DMA rate)
};

/*!
 * What one device's batches spent on the device, summed over the batches
 * completed since profiling was switched on (the CUDA engine times each
 * batch's input copies, kernel and output copies with CUDA events). A copy
 * engine and the SMs each run one thing at a time per device for these
 * batches, so a sum divided by the wall time is how busy that part was.
 */
struct device_stage_times {
    uint64_t batches = 0;
    double h2d_s = 0, kernel_s = 0, d2h_s = 0;
    double h2d_bytes = 0, d2h_bytes = 0;
};

class batch_engine
{
public:
    virtual ~batch_engine() = default;
    virtual size_t nslots() const = 0;
    // Host-side staging of a slot (pinned on the CUDA backend).
    virtual frame_desc* frames(size_t slot) = 0;
    virtual uint8_t* params(size_t slot) = 0; //!< max_frames x param_bytes
    virtual uint8_t* in_data(size_t slot) = 0;
    virtual const uint8_t* results(size_t slot) = 0; //!< max_frames x result_bytes
    virtual const uint8_t* out_data(size_t slot) = 0;
    //! Start the batch in \p slot: nframes descriptors, their parameters and
    //! in_bytes of input are staged, except the \p nruns runs of \p runs
    //! (sorted by offset, disjoint), which are read from where they point;
    //! out_bytes of output will be produced. May return before the work is
    //! done (CUDA) or after (CPU).
    virtual void launch(size_t slot,
                        size_t nframes,
                        size_t in_bytes,
                        size_t out_bytes,
                        const input_run* runs = nullptr,
                        size_t nruns = 0) = 0;
    //! True when the slot's batch has completed (non-blocking).
    virtual bool done(size_t slot) = 0;
    //! Block until the slot's batch has completed.
    virtual void wait(size_t slot) = 0;
    /*!
     * A check the engine may ask while a batch runs on the host (the CPU
     * engine: launch()'s calling thread, between work items): once it
     * returns true the batch stops taking new work, and cancelled() says so.
     * Engines whose launch() only enqueues the work (CUDA) ignore it.
     */
    virtual void set_cancel_check(std::function<bool()> check) { (void)check; }
    /*!
     * True when the slot's last launch stopped early on the cancel check:
     * some of its frames were not run, its outputs and results are
     * incomplete, and the batch has to be launched again.
     */
    virtual bool cancelled(size_t slot) { (void)slot; return false; }
    //! "cpu", or "cuda" with the device(s) the slots run on.
    virtual std::string name() const = 0;

    // Devices, for a pipeline that stages and launches each device's
    // batches from threads of its own (pipeline_config::device_threads).
    // launch() of slots of different devices may then run at once, from
    // different threads; the slots of one device are launched by one thread
    // at a time, and done()/wait() of a slot are called only once its
    // launch() has returned (the pipeline orders that).

    //! Devices the slots are spread over (the CPU engine: 1).
    virtual size_t ndevices() const { return 1; }
    //! Which of them (0..ndevices()-1) slot \p slot runs on.
    virtual size_t device_of(size_t slot) const
    {
        (void)slot;
        return 0;
    }
    //! CPUs near device \p d (its NUMA node's, on a host of several nodes);
    //! empty: no preference.
    virtual std::vector<int> device_cpus(size_t d) const
    {
        (void)d;
        return {};
    }
    //! Device \p d for reports ("cuda 1, PCI 0000:18:00.0, NUMA node 0").
    virtual std::string device_label(size_t d) const
    {
        (void)d;
        return "cpu";
    }
    //! Time each batch on its device from now on (device_stage_times),
    //! the sums starting from zero; off at first: the timing events cost a
    //! little per batch.
    virtual void set_profiling(bool on) { (void)on; }
    //! Per device (ndevices() entries), or empty when the engine keeps none.
    virtual std::vector<device_stage_times> stage_times() const { return {}; }
};

//! Makes the kernel a CPU engine runs.
using cpu_kernel_factory = std::function<std::unique_ptr<cpu_kernel>()>;
//! Makes the kernel one GPU runs (called once per device, that device current).
using cuda_kernel_factory = std::function<std::unique_ptr<cuda_kernel>(int device)>;

/*!
 * The CPU engine: launch() runs the kernel on the host, spread over a
 * persistent pool of \p cpu_threads workers (0: one per hardware thread).
 * Staging memory is reserved, not written, so untouched capacity costs no RAM.
 */
std::unique_ptr<batch_engine> make_cpu_engine(std::unique_ptr<cpu_kernel> kernel,
                                              size_t nslots,
                                              const slot_geometry& geometry,
                                              size_t cpu_threads);

/*!
 * The CUDA engine over one or more GPUs: slot i runs on devices[i % n], each
 * slot with its own stream, pinned host staging and device buffers leased from
 * that device's persistent context, and each device with its own kernel.
 * launch() enqueues copy-in, the kernel and copy-out and returns at once.
 * Only in builds with CUDA (cuda_batch_engine.cc, on lib/cuda's runtime).
 */
#ifdef GPURX_HAVE_CUDA
std::unique_ptr<batch_engine> make_cuda_engine(const cuda_kernel_factory& make_kernel,
                                               size_t nslots,
                                               const slot_geometry& geometry,
                                               const std::vector<int>& devices);
#endif

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
