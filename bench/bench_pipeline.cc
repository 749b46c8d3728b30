/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// bench_pipeline: host-to-host throughput of the batch_copy pipeline against
// the pinned PCIe bandwidth measured in the same run.
//
// For each batch size (1 KiB .. 64 MiB) and slot count (1..4) it streams
// batches through the CUDA pipeline: frames are written straight into the
// pinned staging (begin_frame), copied in, scaled, copied out, and read back
// from pinned staging. With several slots, one batch's copy-in, another's
// kernel and a third's copy-out run at once, so the ceiling is the
// bidirectional PCIe rate (H2D and D2H concurrently), measured here first.
//
//   bench_pipeline [--quick] [--markdown]
#include "copy/copy_kernel.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;

namespace {

void ck(cudaError_t e, const char* what)
{
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct pcie_ref {
    double h2d, d2h, bidir; // GB/s
};

// Pinned copies of 256 MiB: each direction alone, then both at once.
pcie_ref measure_pcie()
{
    const size_t n = size_t(256) << 20;
    void *h1, *h2, *d1, *d2;
    ck(cudaHostAlloc(&h1, n, 0), "cudaHostAlloc");
    ck(cudaHostAlloc(&h2, n, 0), "cudaHostAlloc");
    ck(cudaMalloc(&d1, n), "cudaMalloc");
    ck(cudaMalloc(&d2, n), "cudaMalloc");
    std::memset(h1, 1, n);
    std::memset(h2, 2, n);
    cudaStream_t s1, s2;
    ck(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
    ck(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
    auto timed = [&](bool up, bool down) {
        double best = 1e30;
        for (int rep = 0; rep < 5; rep++) {
            ck(cudaDeviceSynchronize(), "sync");
            auto t0 = clk::now();
            if (up)
                ck(cudaMemcpyAsync(d1, h1, n, cudaMemcpyHostToDevice, s1), "h2d");
            if (down)
                ck(cudaMemcpyAsync(h2, d2, n, cudaMemcpyDeviceToHost, s2), "d2h");
            ck(cudaDeviceSynchronize(), "sync");
            best = std::min(best, std::chrono::duration<double>(clk::now() - t0).count());
        }
        return best;
    };
    pcie_ref r;
    r.h2d = n / timed(true, false) / 1e9;
    r.d2h = n / timed(false, true) / 1e9;
    r.bidir = 2.0 * n / timed(true, true) / 1e9;
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(d1);
    cudaFree(d2);
    cudaFreeHost(h1);
    cudaFreeHost(h2);
    return r;
}

// GB/s of input (= of output) through the pipeline.
double run_pipeline(size_t batch_bytes, size_t slots, bool quick)
{
    const size_t frame_bytes = std::min<size_t>(batch_bytes, size_t(1) << 20);
    const size_t frames_per_batch = batch_bytes / frame_bytes;
    core::copy_config copy;
    copy.vlen = frame_bytes / sizeof(float);
    core::pipeline_config cfg;
    cfg.slots = slots;
    cfg.max_batch = frames_per_batch;
    cfg.max_in_bytes = cfg.max_out_bytes = frame_bytes;
    cfg.flush_timeout = std::chrono::microseconds(1000000);
    auto pipe = core::make_pipeline(core::copy_kernel_factories(copy), { core::backend_kind::cuda, { 0 }, "" }, cfg);

    const size_t target = quick ? (size_t(1) << 30) : (size_t(4) << 30);
    size_t nbatches = std::max<size_t>(target / batch_bytes, 3 * slots + 8);
    nbatches = std::min<size_t>(nbatches, 200000);
    const size_t warm = std::min<size_t>(nbatches / 10 + slots, 50);
    volatile uint8_t sink = 0;
    size_t out_frames = 0;
    clk::time_point t0;
    auto consume = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            sink = sink ^ f->data[0] ^ f->data[f->out_bytes - 1]; // touch the output
            pipe->pop();
            out_frames++;
            block = false;
        }
    };
    const size_t total_frames = nbatches * frames_per_batch;
    const size_t warm_frames = warm * frames_per_batch;
    size_t in_frames = 0;
    while (in_frames < total_frames) {
        if (in_frames == warm_frames) {
            pipe->drain();
            consume(false);
            t0 = clk::now();
        }
        if (pipe->can_accept()) {
            uint8_t* p = pipe->begin_frame(frame_bytes, frame_bytes, nullptr);
            p[0] = uint8_t(in_frames); // the payload is written in place by the producer
            pipe->commit_frame();
            in_frames++;
        } else {
            consume(true);
        }
        consume(false);
    }
    pipe->drain();
    consume(false);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (out_frames != total_frames)
        throw std::runtime_error("frames lost in the benchmark");
    return double(total_frames - warm_frames) * frame_bytes / secs / 1e9;
}

} // namespace

int main(int argc, char** argv)
{
    bool quick = false, markdown = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--markdown"))
            markdown = true;
    }
    const auto& probe = core::probe_cuda();
    if (probe.devices.empty() || !probe.devices[0].usable) {
        std::printf("bench_pipeline: no usable CUDA device (%s); nothing to measure\n",
                    probe.problem.empty() && !probe.devices.empty()
                        ? probe.devices[0].problem.c_str()
                        : probe.problem.c_str());
        return 0;
    }
    std::printf("device: %s\n", probe.devices[0].name.c_str());
    const pcie_ref ref = measure_pcie();
    std::printf("pinned PCIe, same run: H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s total\n",
                ref.h2d, ref.d2h, ref.bidir);
    std::printf("\nbatch_copy pipeline, host->device->host; figure = GB/s each way "
                "(ratio = 2 x figure / bidirectional PCIe)\n");
    const std::vector<size_t> sizes = { 1 << 10, 16 << 10, 256 << 10, 1 << 20, 4 << 20,
                                        16 << 20, 64 << 20 };
    if (markdown)
        std::printf("\n| batch | 1 slot | 2 slots | 3 slots | 4 slots |\n|---|---|---|---|---|\n");
    else
        std::printf("%10s %16s %16s %16s %16s\n", "batch", "1 slot", "2 slots", "3 slots", "4 slots");
    for (size_t b : sizes) {
        char label[32];
        if (b >= (1 << 20))
            std::snprintf(label, sizeof label, "%zu MiB", b >> 20);
        else
            std::snprintf(label, sizeof label, "%zu KiB", b >> 10);
        std::printf(markdown ? "| %s |" : "%10s", label);
        for (size_t slots = 1; slots <= 4; slots++) {
            const double gbs = run_pipeline(b, slots, quick);
            std::printf(markdown ? " %.1f GB/s (%.0f%%) |" : " %7.1f (%4.0f%%)", gbs,
                        100.0 * 2 * gbs / ref.bidir);
            std::fflush(stdout);
        }
        std::printf("\n");
    }
    return 0;
}
