/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline_holder.h"

#include <stdexcept>

namespace gr {
namespace gpurx {

std::chrono::microseconds flush_timeout_from_us(int flush_us)
{
    if (flush_us < 0)
        throw std::invalid_argument("flush_us must be >= 0, got " + std::to_string(flush_us));
    return std::chrono::microseconds(flush_us);
}

pipeline_holder::pipeline_holder(const core::pipeline_config& cfg,
                                 const std::string& backend,
                                 int device,
                                 gr::logger_ptr logger)
    : d_cfg(cfg), d_logger(std::move(logger))
{
    d_cfg.validate();
    d_backend = core::select_backend(backend, device);
    d_logger->info("{}", d_backend.reason);
}

void pipeline_holder::start(core::batch_kernel& kernel)
{
    d_pipe = core::make_pipeline(kernel, d_backend, d_cfg);
}

void pipeline_holder::stop()
{
    if (!d_pipe)
        return;
    d_pipe->drain();
    if (d_pipe->pending() > 0)
        d_logger->warn("stopped with {} frame(s) still in the pipeline; they were "
                       "processed but the flowgraph no longer accepts output",
                       d_pipe->pending());
    d_pipe.reset();
}

} // namespace gpurx
} // namespace gr
