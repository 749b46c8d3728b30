/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_TEST_UTIL_H
#define INCLUDED_GPURX_TEST_UTIL_H

#include "cuda/cuda_probe.h"
#include "pipeline/backend.h"
#include "pipeline/batch_pipeline.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace gr {
namespace gpurx {
namespace test {

//! "" when CUDA device 0 is usable, else why not.
inline std::string cuda_unusable_reason()
{
    const auto& p = core::probe_cuda();
    if (!p.compiled_in)
        return "built without CUDA";
    if (!p.problem.empty())
        return p.problem;
    if (p.devices.empty())
        return "no CUDA device found";
    if (!p.devices[0].usable)
        return p.devices[0].problem;
    return "";
}

inline core::backend_choice cpu_backend() { return { core::backend_kind::cpu, {}, "test" }; }
inline core::backend_choice cuda_backend(std::vector<int> devices = { 0 })
{
    return { core::backend_kind::cuda, std::move(devices), "test" };
}

//! The pipeline configuration of the test helpers: two CPU workers, two
//! slots, batches of \p max_batch frames, a 100 ms flush (the sizes are
//! the caller's).
inline core::pipeline_config test_pipeline_config(const core::frame_types& types, size_t max_batch)
{
    core::pipeline_config pc;
    pc.types = types;
    pc.cpu_threads = 2;
    pc.slots = 2;
    pc.max_batch = max_batch;
    pc.flush_timeout = std::chrono::microseconds(100000);
    return pc;
}

/*!
 * The loop every test helper runs over a pipeline: submit() waits for room
 * by taking finished frames, finish() drains and takes the rest; take(frame)
 * sees every completed frame once, in submission order.
 */
template <typename Take>
class frame_runner
{
public:
    frame_runner(core::batch_pipeline& pipe, Take take) : d_pipe(pipe), d_take(std::move(take)) {}

    template <typename... Args>
    void submit(Args&&... args)
    {
        while (!d_pipe.can_accept())
            take_ready(true);
        d_pipe.submit(std::forward<Args>(args)...);
        d_submitted++;
    }

    //! Takes what has completed; with \p block, waits for one frame first.
    void take_ready(bool block)
    {
        while (const auto* r = d_pipe.front(block)) {
            d_take(*r);
            d_pipe.pop();
            d_taken++;
            block = false;
        }
    }

    //! Drains the pipeline; throws, naming \p who, when frames were lost.
    void finish(const char* who)
    {
        d_pipe.drain();
        take_ready(false);
        if (d_taken != d_submitted)
            throw std::runtime_error(std::string(who) + ": " + std::to_string(d_submitted - d_taken) +
                                     " frame(s) lost");
    }

private:
    core::batch_pipeline& d_pipe;
    Take d_take;
    size_t d_submitted = 0, d_taken = 0;
};

template <typename Take>
frame_runner<Take> run_frames(core::batch_pipeline& pipe, Take take)
{
    return frame_runner<Take>(pipe, std::move(take));
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
