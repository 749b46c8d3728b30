/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/batch_engine.h"
#include "cuda/cuda_check.h"
#include "cuda/device_context.h"
#include "pipeline/host_topology.h"

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr size_t align16(size_t n) { return (n + 15) & ~size_t(15); }

// Staging layout, identical on host and device so one copy moves each part:
//   input:  [frame_desc x max_frames][params x max_frames][input data]
//   output: [results x max_frames][output data]
// Slot i runs on device devices[i % n]: consecutive batches alternate between
// GPUs, and since the pipeline completes slots in order, frames still leave
// in submission order.
class cuda_batch_engine final : public batch_engine
{
    struct device_state {
        std::shared_ptr<device_context> ctx;
        std::unique_ptr<cuda_kernel> kernel;
        std::string bus_id;    // "0000:18:00.0"; "" when CUDA does not say
        int numa_node = -1;    // -1: unknown, or a host of one node
        std::vector<int> cpus; // the node's CPUs on a host of several nodes, else empty
        device_stage_times times; // profiling: completed batches
    };
    // Timing events of a profiled launch: before the input copies, after
    // them, after the kernel, after the output copies.
    struct timing_events {
        cudaEvent_t ev[4] = { nullptr, nullptr, nullptr, nullptr };
    };
    struct slot {
        device_state* dev = nullptr;
        size_t dev_index = 0;
        stream_lease stream;
        memory_lease host_in, host_out, dev_in, dev_out, dev_scratch;
        bool in_flight = false;
        timing_events timing;
        bool timed = false; // the launch in flight recorded the timing events
        double h2d_bytes = 0, d2h_bytes = 0;
    };
    slot_geometry d_geo;
    std::vector<device_state> d_devices;
    std::vector<slot> d_slots;
    size_t d_frames_bytes, d_params_bytes, d_results_bytes;
    bool d_profiling = false;

    // Adds a completed slot's stage times to its device's (caller's thread:
    // done() and wait() are called from the pipeline's owner only).
    void account(slot& s)
    {
        if (!s.timed)
            return;
        s.timed = false;
        float ms[3];
        for (int k = 0; k < 3; k++)
            GPURX_CUDA_CHECK_CTX(cudaEventElapsedTime(&ms[k], s.timing.ev[k], s.timing.ev[k + 1]),
                                 "batch timing on CUDA device " + std::to_string(s.dev->ctx->device()));
        auto& t = s.dev->times;
        t.batches++;
        t.h2d_s += ms[0] * 1e-3;
        t.kernel_s += ms[1] * 1e-3;
        t.d2h_s += ms[2] * 1e-3;
        t.h2d_bytes += s.h2d_bytes;
        t.d2h_bytes += s.d2h_bytes;
    }

public:
    cuda_batch_engine(const cuda_kernel_factory& make_kernel,
                      size_t nslots,
                      const slot_geometry& g,
                      const std::vector<int>& devices)
        : d_geo(g),
          d_devices(devices.size()),
          d_slots(nslots),
          d_frames_bytes(align16(g.max_frames * sizeof(frame_desc))),
          d_params_bytes(align16(g.max_frames * g.types.param_bytes)),
          d_results_bytes(align16(g.max_frames * g.types.result_bytes))
    {
        if (devices.empty())
            throw std::invalid_argument("cuda_batch_engine: no device");
        const bool numa = numa_node_count() > 1;
        for (size_t d = 0; d < devices.size(); d++) {
            auto& dev = d_devices[d];
            dev.ctx = device_context::acquire(devices[d]);
            dev.ctx->make_current();
            dev.kernel = make_kernel(devices[d]);
            char bus[32] = { 0 };
            GPURX_CUDA_CHECK_CTX(cudaDeviceGetPCIBusId(bus, sizeof(bus), devices[d]),
                                 "PCI bus id of CUDA device " + std::to_string(devices[d]));
            dev.bus_id = bus;
            dev.numa_node = pci_numa_node(dev.bus_id);
            if (numa)
                dev.cpus = numa_node_cpus(dev.numa_node);
        }
        const size_t in_bytes = d_frames_bytes + d_params_bytes + g.in_capacity;
        const size_t out_bytes = d_results_bytes + g.out_capacity;
        for (size_t i = 0; i < d_slots.size(); i++) {
            auto& s = d_slots[i];
            s.dev_index = i % d_devices.size();
            s.dev = &d_devices[s.dev_index];
            auto& ctx = *s.dev->ctx;
            s.stream = ctx.stream();
            // Pinned pages are placed when allocated, on the node of the CPU
            // that allocates them: allocated from the device's node, the
            // staging its threads write and its DMA reads stays on that
            // node. (A buffer reused from the context's pool keeps the
            // node it was allocated on.)
            scoped_thread_pin near_device(s.dev->cpus);
            s.host_in = ctx.pinned(in_bytes);
            s.host_out = ctx.pinned(out_bytes);
            s.dev_in = ctx.device_memory(in_bytes);
            s.dev_out = ctx.device_memory(out_bytes);
            if (const size_t sb = s.dev->kernel->scratch_bytes(g.max_frames))
                s.dev_scratch = ctx.device_memory(sb);
        }
    }

    ~cuda_batch_engine() override
    {
        // Leases go back to the pool only after their last use has finished.
        for (auto& s : d_slots) {
            if (s.in_flight)
                cudaEventSynchronize(s.stream.event());
            for (cudaEvent_t e : s.timing.ev)
                if (e)
                    cudaEventDestroy(e);
        }
    }

    size_t ndevices() const override { return d_devices.size(); }
    size_t device_of(size_t i) const override { return d_slots[i].dev_index; }
    std::vector<int> device_cpus(size_t d) const override { return d_devices[d].cpus; }
    std::string device_label(size_t d) const override
    {
        const auto& dev = d_devices[d];
        return "cuda " + std::to_string(dev.ctx->device()) + ", PCI " + (dev.bus_id.empty() ? "?" : dev.bus_id) +
               ", NUMA node " + (dev.numa_node < 0 ? std::string("-") : std::to_string(dev.numa_node));
    }
    // Switching on starts the sums again (a benchmark's timed part). Called
    // from the pipeline's owner while no device thread launches with a
    // changed flag: d_profiling is written only when it changes.
    void set_profiling(bool on) override
    {
        for (auto& d : d_devices)
            d.times = device_stage_times{};
        if (on)
            for (auto& s : d_slots)
                for (cudaEvent_t& e : s.timing.ev)
                    if (!e) {
                        s.dev->ctx->make_current();
                        GPURX_CUDA_CHECK_CTX(cudaEventCreate(&e), "timing event on CUDA device " +
                                                                      std::to_string(s.dev->ctx->device()));
                    }
        if (d_profiling != on)
            d_profiling = on;
    }
    std::vector<device_stage_times> stage_times() const override
    {
        std::vector<device_stage_times> v;
        for (const auto& d : d_devices)
            v.push_back(d.times);
        return v;
    }

    size_t nslots() const override { return d_slots.size(); }
    frame_desc* frames(size_t i) override { return d_slots[i].host_in.get<frame_desc>(); }
    uint8_t* params(size_t i) override { return d_slots[i].host_in.get<uint8_t>() + d_frames_bytes; }
    uint8_t* in_data(size_t i) override
    {
        return d_slots[i].host_in.get<uint8_t>() + d_frames_bytes + d_params_bytes;
    }
    const uint8_t* results(size_t i) override { return d_slots[i].host_out.get<uint8_t>(); }
    const uint8_t* out_data(size_t i) override
    {
        return d_slots[i].host_out.get<uint8_t>() + d_results_bytes;
    }

    void launch(size_t i,
                size_t nframes,
                size_t in_bytes,
                size_t out_bytes,
                const input_run* runs,
                size_t nruns) override
    {
        auto& s = d_slots[i];
        const cudaStream_t st = s.stream.stream();
        s.dev->ctx->make_current();
        auto* hin = s.host_in.get<uint8_t>();
        auto* din = s.dev_in.get<uint8_t>();
        auto* hout = s.host_out.get<uint8_t>();
        auto* dout = s.dev_out.get<uint8_t>();
        const size_t data_in = d_frames_bytes + d_params_bytes;
        const size_t pb = nframes * d_geo.types.param_bytes;
        const size_t rb = nframes * d_geo.types.result_bytes;
        s.timed = d_profiling && s.timing.ev[0];
        if (s.timed) {
            s.h2d_bytes = double(nframes * sizeof(frame_desc) + pb + in_bytes);
            s.d2h_bytes = double(rb + out_bytes);
            GPURX_CUDA_CHECK(cudaEventRecord(s.timing.ev[0], st));
        }
        GPURX_CUDA_CHECK(cudaMemcpyAsync(
            din, hin, nframes * sizeof(frame_desc), cudaMemcpyHostToDevice, st));
        if (pb)
            GPURX_CUDA_CHECK(cudaMemcpyAsync(
                din + d_frames_bytes, hin + d_frames_bytes, pb, cudaMemcpyHostToDevice, st));
        copy_input(din + data_in, hin + data_in, in_bytes, runs, nruns, st);
        if (s.timed)
            GPURX_CUDA_CHECK(cudaEventRecord(s.timing.ev[1], st));
        const batch_view dev{ reinterpret_cast<const frame_desc*>(din),
                              nframes,
                              din + d_frames_bytes,
                              din + data_in,
                              dout + d_results_bytes,
                              dout,
                              s.dev_scratch.get<uint8_t>() };
        const batch_view host{ frames(i), nframes, params(i), nullptr, nullptr, nullptr, nullptr };
        s.dev->kernel->enqueue(dev, host, st);
        if (s.timed)
            GPURX_CUDA_CHECK(cudaEventRecord(s.timing.ev[2], st));
        if (rb)
            GPURX_CUDA_CHECK(cudaMemcpyAsync(hout, dout, rb, cudaMemcpyDeviceToHost, st));
        if (out_bytes)
            GPURX_CUDA_CHECK(cudaMemcpyAsync(hout + d_results_bytes,
                                             dout + d_results_bytes,
                                             out_bytes,
                                             cudaMemcpyDeviceToHost,
                                             st));
        if (s.timed)
            GPURX_CUDA_CHECK(cudaEventRecord(s.timing.ev[3], st));
        GPURX_CUDA_CHECK(cudaEventRecord(s.stream.event(), st));
        s.in_flight = true;
    }

    // The input data area: the caller's runs straight from its memory, the
    // staged parts between them from the staging, each in one copy.
    static void copy_input(uint8_t* dst,
                           const uint8_t* staged,
                           size_t in_bytes,
                           const input_run* runs,
                           size_t nruns,
                           cudaStream_t st)
    {
        size_t at = 0;
        for (size_t r = 0; r <= nruns; r++) {
            const size_t end = r < nruns ? runs[r].offset : in_bytes;
            if (end > at)
                GPURX_CUDA_CHECK(cudaMemcpyAsync(
                    dst + at, staged + at, end - at, cudaMemcpyHostToDevice, st));
            if (r == nruns)
                break;
            GPURX_CUDA_CHECK(cudaMemcpyAsync(
                dst + runs[r].offset, runs[r].src, runs[r].bytes, cudaMemcpyHostToDevice, st));
            at = runs[r].offset + runs[r].bytes;
        }
    }

    bool done(size_t i) override
    {
        auto& s = d_slots[i];
        if (!s.in_flight)
            return true;
        const cudaError_t e = cudaEventQuery(s.stream.event());
        if (e == cudaErrorNotReady)
            return false;
        GPURX_CUDA_CHECK_CTX(e, "batch completion on CUDA device " +
                                    std::to_string(s.dev->ctx->device()));
        s.in_flight = false;
        account(s);
        return true;
    }

    void wait(size_t i) override
    {
        auto& s = d_slots[i];
        if (!s.in_flight)
            return;
        GPURX_CUDA_CHECK_CTX(cudaEventSynchronize(s.stream.event()),
                             "batch completion on CUDA device " +
                                 std::to_string(s.dev->ctx->device()));
        s.in_flight = false;
        account(s);
    }

    std::string name() const override
    {
        std::string n = std::string("cuda (") + d_devices[0].kernel->name() + ", device";
        n += d_devices.size() > 1 ? "s " : " ";
        for (size_t d = 0; d < d_devices.size(); d++)
            n += (d ? "," : "") + std::to_string(d_devices[d].ctx->device());
        return n + ")";
    }
};

} // namespace

std::unique_ptr<batch_engine> make_cuda_engine(const cuda_kernel_factory& make_kernel,
                                               size_t nslots,
                                               const slot_geometry& geometry,
                                               const std::vector<int>& devices)
{
    return std::make_unique<cuda_batch_engine>(make_kernel, nslots, geometry, devices);
}

} // namespace core
} // namespace gpurx
} // namespace gr
