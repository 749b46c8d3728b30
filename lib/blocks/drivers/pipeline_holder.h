/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What every pipeline-backed block does with its pipeline_options: validate
// them (errors name the option), resolve the backend once (one log line),
// make the pipeline on the first start(), and keep it across stop()/start()
// (a flowgraph's lock()/unlock()), so a reconfiguration loses no frame.
#ifndef INCLUDED_GPURX_BLOCKS_PIPELINE_HOLDER_H
#define INCLUDED_GPURX_BLOCKS_PIPELINE_HOLDER_H

#include "blocks/drivers/frame_adapter.h"
#include "pipeline/backend.h"
#include "pipeline/batch_pipeline.h"
#include <gnuradio/gpurx/pipeline_options.h>
#include <gnuradio/logger.h>
#include <atomic>
#include <memory>
#include <string>

namespace gr {
namespace gpurx {

//! The pipeline settings of \p options for \p adapter's frames; throws
//! std::invalid_argument naming the bad option.
core::pipeline_config pipeline_config_of(const pipeline_options& options, const frame_adapter& adapter);

class pipeline_holder
{
public:
    //! Validates \p options and resolves the backend (throws on bad values).
    pipeline_holder(const frame_adapter& adapter, const pipeline_options& options, gr::logger_ptr logger);

    /*!
     * Makes the pipeline if it does not exist yet. Throws std::runtime_error
     * naming max_batch and slots, with the memory, when it cannot be made.
     * The blocks call it from check_topology(), which GNU Radio runs in the
     * thread that calls tb.start(): an exception there makes tb.start()
     * raise, where one from start() (run in the block's own thread) would
     * leave tb.start() waiting forever.
     */
    void prepare();
    /*!
     * Makes the pipeline on the first call (unless prepare() has); later
     * calls keep it. Never throws: when the pipeline cannot be made it logs
     * the error and returns false, pipe() stays nullptr and failure() says
     * why; the drivers then report it and end their stream.
     */
    bool start();
    //! Why the pipeline could not be made ("" when it was, or not yet tried).
    const std::string& failure() const { return d_failure; }
    /*!
     * Waits for the batches in flight and launches nothing new. Every frame
     * still in the pipeline (completed but not delivered, in the partial
     * batch, or in a batch cancelled by the stop) stays for the next
     * start(), and the log counts them: without a restart they are lost, as
     * the items in GNU Radio's own buffers are.
     */
    void stop();

    /*!
     * Asks a batch running on the CPU to stop at its next work item (the
     * PDU driver's poller thread, which GNU Radio cannot interrupt). The
     * block's own thread needs no call: a batch it runs stops by itself
     * once GNU Radio interrupts that thread (tb.stop(), lock()). A cancelled
     * batch loses no frame: it runs again after the restart. start() clears
     * the request.
     */
    void request_stop() { d_stop_requested = true; }
    /*!
     * The drivers call this in their thread before touching the pipeline:
     * after a restart it launches what the stop held back (cancelled
     * batches, the partial batch), so those frames go out first.
     */
    void resume_if_restarted();
    /*!
     * The start of a stream driver's work(): the pipeline, with what the
     * last stop held launched first (resume_if_restarted()); nullptr when
     * start() could not make it, logged here: the caller ends its stream
     * (WORK_DONE) rather than leave the flowgraph waiting.
     */
    core::batch_pipeline* pipe_for_work();
    /*!
     * For an owner that runs one short frame at a time and needs its result
     * (the gr-fec objects): no cancel check, so a stop of the flowgraph
     * around it never leaves a frame without output. Call before prepare().
     */
    void never_cancel() { d_cancellable = false; }

    core::batch_pipeline* pipe() { return d_pipe.get(); }
    const core::batch_pipeline* pipe() const { return d_pipe.get(); }
    const core::backend_choice& backend() const { return d_backend; }
    std::string backend_name() const { return core::backend_name(d_backend.kind); }
    const gr::logger_ptr& logger() const { return d_logger; }

private:
    const frame_adapter& d_adapter;
    core::pipeline_config d_cfg;
    core::backend_choice d_backend;
    gr::logger_ptr d_logger;
    std::unique_ptr<core::batch_pipeline> d_pipe;
    std::string d_failure;
    std::atomic<bool> d_stop_requested{ false };
    bool d_resume = false; // started again: resume_if_restarted() has work
    bool d_cancellable = true;
};

} // namespace gpurx
} // namespace gr

#endif
