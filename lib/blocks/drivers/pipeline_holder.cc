/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/pipeline_holder.h"

#include <boost/thread/thread.hpp>

#include <stdexcept>

namespace gr {
namespace gpurx {

std::string pipeline_options::to_string() const
{
    return "max_batch=" + std::to_string(max_batch) + " slots=" + std::to_string(slots) +
           " flush_us=" + std::to_string(flush_us) + " backend=" + backend + " devices=" + devices +
           " cpu_threads=" + std::to_string(cpu_threads);
}

namespace {
void check_range(const char* name, long value, long lo, long hi)
{
    if (value < lo || value > hi)
        throw std::invalid_argument(std::string(name) + " must be in " + std::to_string(lo) +
                                    ".." + std::to_string(hi) + ", got " + std::to_string(value));
}
} // namespace

core::pipeline_config pipeline_config_of(const pipeline_options& o, const frame_adapter& a)
{
    check_range("max_batch", o.max_batch, 1, 1 << 20);
    check_range("slots", o.slots, 1, 64);
    check_range("flush_us", o.flush_us, 0, 10000000);
    check_range("cpu_threads", o.cpu_threads, 0, 1024);
    core::pipeline_config c;
    c.max_batch = size_t(o.max_batch);
    c.slots = size_t(o.slots);
    c.flush_timeout = std::chrono::microseconds(o.flush_us);
    c.cpu_threads = size_t(o.cpu_threads);
    c.max_in_bytes = a.max_in_items() * a.in_item_bytes();
    c.max_out_bytes = a.max_out_bytes();
    c.types = a.types();
    c.validate();
    return c;
}

pipeline_holder::pipeline_holder(const frame_adapter& adapter,
                                 const pipeline_options& options,
                                 gr::logger_ptr logger)
    : d_adapter(adapter), d_cfg(pipeline_config_of(options, adapter)), d_logger(std::move(logger))
{
    if (adapter.kernels().cuda) {
        d_backend = core::select_backend(options.backend, options.devices);
    } else {
        // A family (or configuration) with no CUDA implementation in this
        // build: nothing to choose, and the log line says so rather than
        // naming a request nobody made.
        if (options.backend == "cuda")
            throw std::runtime_error("backend=\"cuda\" cannot be used: this block has no CUDA "
                                     "implementation in this build (gpurx-info lists them)");
        core::select_backend(options.backend, options.devices); // still refuses a bad backend name
        d_backend = { core::backend_kind::cpu, {}, "running on the CPU: this block has no CUDA implementation" };
    }
    // At construction, not in start(): GNU Radio cannot report an exception
    // thrown from start() (tb.start() would never return).
    core::check_pipeline_memory(d_cfg, d_backend);
    if (d_backend.warn)
        d_logger->warn("{}", d_backend.reason);
    else
        d_logger->info("{}", d_backend.reason);
    // Once per block: a named implementation that was not honoured (a
    // warning), and why "auto" runs less than a production implementation
    // on the backend that runs.
    const auto choice = adapter.implementation();
    if (!choice.warning.empty())
        d_logger->warn("{}", choice.warning);
    const std::string& note = choice.note_for(d_backend.kind);
    if (!note.empty())
        d_logger->info("{}", note);
}

void pipeline_holder::prepare()
{
    if (d_pipe)
        return;
    const size_t nslots = d_backend.kind == core::backend_kind::cuda
                              ? d_cfg.slots * d_backend.devices.size()
                              : d_cfg.slots;
    try {
        d_pipe = core::make_pipeline(d_adapter.kernels(), d_backend, d_cfg);
    } catch (const std::bad_alloc&) {
        throw std::runtime_error("max_batch=" + std::to_string(d_cfg.max_batch) + " with slots=" +
                                 std::to_string(d_cfg.slots) + " needs " +
                                 std::to_string(d_cfg.slot_bytes() * nslots) +
                                 " bytes of staging memory, which could not be allocated: "
                                 "lower max_batch or slots");
    } catch (const std::exception& e) {
        // Worker threads that could not be started, pinned or device memory
        // the CUDA runtime refused (the process's limits, another user).
        throw std::runtime_error("max_batch=" + std::to_string(d_cfg.max_batch) + " with slots=" +
                                 std::to_string(d_cfg.slots) + " (" +
                                 std::to_string(d_cfg.slot_bytes() * nslots) +
                                 " bytes of staging, cpu_threads=" + std::to_string(d_cfg.cpu_threads) +
                                 "): the pipeline could not be made: " + e.what());
    }
    d_failure.clear();
    // Asked by the CPU engine between work items, in the thread that runs
    // the batch: the block's thread, which tb.stop() and lock() interrupt,
    // or the PDU driver's poller, which request_stop() stops. GNU Radio
    // waits for a block's work to return before it stops, so without this a
    // long batch (K-best with a large K, ML) would hold up tb.stop() and
    // tb.wait() for as long as it runs.
    if (d_cancellable)
        d_pipe->set_cancel_check([this] {
            return d_stop_requested.load(std::memory_order_relaxed) ||
                   boost::this_thread::interruption_requested();
        });
    d_logger->debug("pipeline on {}", d_pipe->engine_name());
}

bool pipeline_holder::start()
{
    d_stop_requested = false;
    if (d_pipe) {
        // Made by check_topology(), or kept since the last run: what the
        // last stop held goes out first (resume_if_restarted()).
        d_resume = true;
        return true;
    }
    try {
        prepare();
    } catch (const std::exception& e) {
        d_failure = e.what();
        d_logger->error("{}", d_failure);
        return false;
    }
    return true;
}

void pipeline_holder::stop()
{
    if (!d_pipe)
        return;
    // No new launch: a CPU batch would run here, in stop(), for as long as
    // it takes; the frames wait for the restart instead.
    d_pipe->wait_in_flight();
    if (d_pipe->pending() > 0)
        d_logger->warn("stopped with {} frame(s) in the pipeline ({} of them not yet processed): "
                       "they are delivered first if the flowgraph starts again, and lost if it "
                       "does not",
                       d_pipe->pending(), d_pipe->unfinished());
}

void pipeline_holder::resume_if_restarted()
{
    if (!d_resume || !d_pipe)
        return;
    d_resume = false;
    if (d_pipe->held() || d_pipe->has_unlaunched())
        d_pipe->resume();
}

core::batch_pipeline* pipeline_holder::pipe_for_work()
{
    if (!d_pipe) {
        d_logger->error("not running ({}): the stream ends here", d_failure);
        return nullptr;
    }
    resume_if_restarted();
    return d_pipe.get();
}

} // namespace gpurx
} // namespace gr
