/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PIPELINE_OPTIONS_H
#define INCLUDED_GPURX_PIPELINE_OPTIONS_H

#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief How a gr-gpurx block batches frames and where it runs them: the same
 * settings, with the same meaning, for every block of every family.
 *
 * Frames are collected into batches; a batch is launched when it holds
 * max_batch frames, when its oldest frame has waited flush_us, or at the end
 * of the input. Up to `slots` batches per device are in flight at once, so
 * one batch's copies overlap another's computation.
 *
 * - max_batch: frames per batch, 1..1048576 (the block refuses, naming
 *   max_batch and the memory it would take, what does not fit the machine)
 * - slots: batches in flight per device, 1..64
 * - flush_us: the longest a frame waits for its batch to fill, in
 *   microseconds, 0..10000000 (0: every frame is launched at once)
 * - backend: "auto" (CUDA when usable, else the CPU, with one log line),
 *   "cuda" (an error when no listed GPU is usable) or "cpu"
 * - devices: the GPUs batches are spread over: one ordinal ("0"), a list
 *   ("0,1") or "all"; frames still leave in order. Ignored on the CPU.
 * - cpu_threads: CPU backend workers, 0 (one per hardware thread) or 1..1024
 *
 * Stops: tb.stop() (and lock()) interrupts a batch running on the CPU at
 * its next work item, so the flowgraph stops promptly however long the
 * batch would take; a GPU batch in flight is waited for. No new batch is
 * launched at a stop. The frames a block has taken but not delivered (at
 * most slots x max_batch: completed ones waiting for room downstream, the
 * partial batch, an interrupted batch) stay in the block, counted in a log
 * line, and go out first, in order, when the flowgraph starts again
 * (tb.start() after tb.wait(), or unlock()); an interrupted batch then runs
 * again. Without a restart they are lost, as the items in GNU Radio's own
 * stream buffers are.
 */
struct GPURX_API pipeline_options {
    int max_batch = 64;
    int slots = 3;
    int flush_us = 1000;
    std::string backend = "auto";
    std::string devices = "0";
    int cpu_threads = 0;

    pipeline_options() = default;
    pipeline_options(int max_batch,
                     int slots = 3,
                     int flush_us = 1000,
                     const std::string& backend = "auto",
                     const std::string& devices = "0",
                     int cpu_threads = 0)
        : max_batch(max_batch),
          slots(slots),
          flush_us(flush_us),
          backend(backend),
          devices(devices),
          cpu_threads(cpu_threads)
    {
    }
    //! "max_batch=64 slots=3 flush_us=1000 backend=auto devices=0 cpu_threads=0"
    std::string to_string() const;
};

} // namespace gpurx
} // namespace gr

#endif
