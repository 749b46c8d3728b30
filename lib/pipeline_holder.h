/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What every pipeline-backed block does in its constructor, start() and stop():
// resolve the backend once (one log line), lease the pipeline's resources in
// start(), drain and give them back in stop().
#ifndef INCLUDED_GPURX_PIPELINE_HOLDER_H
#define INCLUDED_GPURX_PIPELINE_HOLDER_H

#include "core/backend.h"
#include "core/batch_pipeline.h"
#include <gnuradio/logger.h>
#include <memory>
#include <string>

namespace gr {
namespace gpurx {

class pipeline_holder
{
public:
    //! Validates \p cfg and resolves \p backend/\p device (throws on bad values).
    pipeline_holder(const core::pipeline_config& cfg,
                    const std::string& backend,
                    int device,
                    gr::logger_ptr logger);

    void start(core::batch_kernel& kernel);
    //! Waits for every batch in flight; frames that completed but could not be
    //! emitted any more (the flowgraph is stopping) are counted in the log.
    void stop();

    core::batch_pipeline* pipe() { return d_pipe.get(); }
    const core::batch_pipeline* pipe() const { return d_pipe.get(); }
    const core::backend_choice& backend() const { return d_backend; }
    const core::pipeline_config& config() const { return d_cfg; }

private:
    core::pipeline_config d_cfg;
    core::backend_choice d_backend;
    gr::logger_ptr d_logger;
    std::unique_ptr<core::batch_pipeline> d_pipe;
};

//! Parse a flush timeout in microseconds (int) into a duration; throws
//! std::invalid_argument naming flush_us when negative.
std::chrono::microseconds flush_timeout_from_us(int flush_us);

} // namespace gpurx
} // namespace gr

#endif
