/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "../core/batch_engine.h"
#include "cuda_check.h"
#include "device_context.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace {

// Staging layout, identical on host and device so one copy moves each part:
//   input:  [frame_desc x max_frames][input data]
//   output: [frame_result x max_frames][output data]
class cuda_batch_engine final : public batch_engine
{
    struct slot {
        stream_lease stream;
        memory_lease host_in, host_out, dev_in, dev_out, dev_scratch;
        bool in_flight = false;
    };
    batch_kernel& d_kernel;
    slot_geometry d_geo;
    std::shared_ptr<device_context> d_ctx;
    std::vector<slot> d_slots;
    size_t d_frames_bytes, d_results_bytes;

public:
    cuda_batch_engine(batch_kernel& kernel, size_t nslots, const slot_geometry& g, int device)
        : d_kernel(kernel),
          d_geo(g),
          d_ctx(device_context::acquire(device)),
          d_slots(nslots),
          d_frames_bytes(g.max_frames * sizeof(frame_desc)),
          d_results_bytes(g.max_frames * sizeof(frame_result))
    {
        for (auto& s : d_slots) {
            s.stream = d_ctx->stream();
            s.host_in = d_ctx->pinned(d_frames_bytes + g.in_capacity);
            s.host_out = d_ctx->pinned(d_results_bytes + g.out_capacity);
            s.dev_in = d_ctx->device_memory(d_frames_bytes + g.in_capacity);
            s.dev_out = d_ctx->device_memory(d_results_bytes + g.out_capacity);
            if (const size_t sb = kernel.scratch_bytes(g.max_frames))
                s.dev_scratch = d_ctx->device_memory(sb);
        }
    }

    ~cuda_batch_engine() override
    {
        // Leases go back to the pool only after their last use has finished.
        for (auto& s : d_slots)
            if (s.in_flight)
                cudaEventSynchronize(s.stream.event());
    }

    size_t nslots() const override { return d_slots.size(); }
    frame_desc* frames(size_t i) override { return d_slots[i].host_in.get<frame_desc>(); }
    uint8_t* in_data(size_t i) override
    {
        return d_slots[i].host_in.get<uint8_t>() + d_frames_bytes;
    }
    frame_result* results(size_t i) override
    {
        return d_slots[i].host_out.get<frame_result>();
    }
    const uint8_t* out_data(size_t i) override
    {
        return d_slots[i].host_out.get<uint8_t>() + d_results_bytes;
    }

    void launch(size_t i, size_t nframes, size_t in_bytes, size_t out_bytes) override
    {
        auto& s = d_slots[i];
        const cudaStream_t st = s.stream.stream();
        d_ctx->make_current();
        auto* hin = s.host_in.get<uint8_t>();
        auto* din = s.dev_in.get<uint8_t>();
        auto* hout = s.host_out.get<uint8_t>();
        auto* dout = s.dev_out.get<uint8_t>();
        GPURX_CUDA_CHECK(cudaMemcpyAsync(
            din, hin, nframes * sizeof(frame_desc), cudaMemcpyHostToDevice, st));
        GPURX_CUDA_CHECK(cudaMemcpyAsync(din + d_frames_bytes,
                                         hin + d_frames_bytes,
                                         in_bytes,
                                         cudaMemcpyHostToDevice,
                                         st));
        batch_view dev{ reinterpret_cast<const frame_desc*>(din),
                        nframes,
                        din + d_frames_bytes,
                        dout + d_results_bytes,
                        reinterpret_cast<frame_result*>(dout),
                        s.dev_scratch.get<uint8_t>() };
        d_kernel.enqueue_cuda(dev, frames(i), st);
        GPURX_CUDA_CHECK(cudaMemcpyAsync(
            hout, dout, nframes * sizeof(frame_result), cudaMemcpyDeviceToHost, st));
        if (out_bytes)
            GPURX_CUDA_CHECK(cudaMemcpyAsync(hout + d_results_bytes,
                                             dout + d_results_bytes,
                                             out_bytes,
                                             cudaMemcpyDeviceToHost,
                                             st));
        GPURX_CUDA_CHECK(cudaEventRecord(s.stream.event(), st));
        s.in_flight = true;
    }

    bool done(size_t i) override
    {
        auto& s = d_slots[i];
        if (!s.in_flight)
            return true;
        const cudaError_t e = cudaEventQuery(s.stream.event());
        if (e == cudaErrorNotReady)
            return false;
        GPURX_CUDA_CHECK_CTX(e, "batch completion");
        s.in_flight = false;
        return true;
    }

    void wait(size_t i) override
    {
        auto& s = d_slots[i];
        if (!s.in_flight)
            return;
        GPURX_CUDA_CHECK_CTX(cudaEventSynchronize(s.stream.event()), "batch completion");
        s.in_flight = false;
    }

    const char* name() const override { return "cuda"; }
};

} // namespace

std::unique_ptr<batch_engine> make_cuda_engine(batch_kernel& kernel,
                                               size_t nslots,
                                               const slot_geometry& geometry,
                                               int device)
{
    return std::make_unique<cuda_batch_engine>(kernel, nslots, geometry, device);
}

} // namespace core
} // namespace gpurx
} // namespace gr
