/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// bench_turbo: LTE turbo decoder throughput, counting information bits.
//
//  1. kernel only: a resident batch of noisy codewords decoded again and again
//     (CUDA events around the launches);
//  2. end to end through the batching pipeline, host input to host output,
//     PCIe copies included, float32 and int8 LLRs; the input is written into
//     the pinned staging in place (begin_frame), so what is timed is
//     copy-in + decode + copy-out, overlapped across 3 slots;
//  3. the CPU backend on all cores, same codewords;
//  4. latency of a single codeword through the pipeline (flush_us = 0).
//
// The headline configuration is the default one: 16-bit fixed point (kernel
// 4) for the max-log-MAP variants, float for log-MAP; the variants table
// compares it with the float kernels.
//
//   bench_turbo [--quick] [--markdown] [--only KERNEL GUARD [P]] [--e2e N] [--batch-sms N] [--sweep]
//               [--devices]   (1 GPU against all GPUs, kernel-bound and end to end)
#include "common/awgn_llr.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_fixed.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <memory>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;

namespace {

// The CUDA implementations by their old kernel numbers (--only, the variants
// table): 1 cuda-float-block, 2 cuda-float-window, 3 cuda-float-state, 4
// cuda-fixed16-dpx.
void select_kernel(core::turbo_config& cfg, int kernel)
{
    static const char* names[] = { "", "cuda-float-block", "cuda-float-window", "cuda-float-state", "cuda-fixed16-dpx" };
    cfg.fixed_point = kernel == 4;
    cfg.implementation = names[kernel];
}

void ck(cudaError_t e, const char* what)
{
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Noisy LLRs of one random codeword at Eb/N0 = 1 dB (the waterfall region).
std::vector<float> noisy_codeword(int K, uint64_t seed)
{
    core::awgn_llr_source rng(seed);
    std::vector<uint8_t> bits(K), c(3 * K + 12);
    for (auto& b : bits)
        b = rng.next() >> 31;
    core::lte_turbo_encoder(K).encode(bits.data(), c.data());
    std::vector<float> llr(c.size());
    rng.llrs(c.data(), c.size(), 1.0 + 10 * std::log10(double(K) / (3 * K + 12)), llr.data());
    return llr;
}

int default_P(int K) { return core::turbo::subblocks_for(0, K); } // automatic: windows of <= 48 steps

core::turbo_config make_cfg(core::turbo::algorithm a, int iters, int P)
{
    core::turbo_config c;
    c.algorithm = a;
    c.iterations = iters;
    c.subblocks = P;
    return c;
}

// A resident batch of nframes noisy codewords of size K on one GPU, and the
// CUDA implementation the configuration chooses (the registry's), ready to
// run again and again.
struct resident_batch {
    int device, K, nframes;
    std::unique_ptr<core::cuda_kernel> kernel;
    std::vector<core::frame_desc> fd;
    std::vector<core::turbo::frame_params> params;
    void *dfd = nullptr, *dpar = nullptr, *din = nullptr, *dout = nullptr, *dres = nullptr, *dscr = nullptr;
    cudaStream_t st{};
    core::batch_view dev{}, host{};

    resident_batch(int device_, int K_, const core::turbo_config& cfg_in, int nframes_)
        : device(device_), K(K_), nframes(nframes_)
    {
        ck(cudaSetDevice(device), "set device");
        core::turbo_config cfg = cfg_in;
        const auto choice = core::choose_turbo_implementation(cfg);
        kernel = core::turbo_kernel_factories(cfg, choice).cuda(device);
        const size_t n = 3 * size_t(K) + 12;
        const size_t in_stride = (n * sizeof(float) + 15) & ~size_t(15);
        const size_t out_stride = (core::turbo_out_bytes(K, false) + 15) & ~size_t(15);
        fd.resize(nframes);
        params.assign(nframes, core::turbo::frame_params_for(K));
        std::vector<uint8_t> hin(in_stride * nframes);
        for (int f = 0; f < nframes; f++) {
            fd[f] = { f * in_stride, f * out_stride, uint32_t(n * 4), uint32_t(K) };
            const auto llr = noisy_codeword(K, 1000 + f % 64);
            std::memcpy(&hin[f * in_stride], llr.data(), n * 4);
        }
        ck(cudaMalloc(&dfd, fd.size() * sizeof(core::frame_desc)), "malloc");
        ck(cudaMalloc(&dpar, params.size() * sizeof(core::turbo::frame_params)), "malloc");
        ck(cudaMalloc(&din, hin.size()), "malloc");
        ck(cudaMalloc(&dout, out_stride * nframes), "malloc");
        ck(cudaMalloc(&dres, nframes * sizeof(core::turbo::frame_result)), "malloc");
        ck(cudaMalloc(&dscr, kernel->scratch_bytes(nframes)), "malloc");
        ck(cudaMemcpy(dfd, fd.data(), fd.size() * sizeof(core::frame_desc), cudaMemcpyHostToDevice), "cpy");
        ck(cudaMemcpy(dpar, params.data(), params.size() * sizeof(core::turbo::frame_params), cudaMemcpyHostToDevice), "cpy");
        ck(cudaMemcpy(din, hin.data(), hin.size(), cudaMemcpyHostToDevice), "cpy");
        dev = { static_cast<core::frame_desc*>(dfd), size_t(nframes), dpar, static_cast<uint8_t*>(din),
                static_cast<uint8_t*>(dout), dres, static_cast<uint8_t*>(dscr) };
        host = { fd.data(), size_t(nframes), params.data(), nullptr, nullptr, nullptr, nullptr };
        ck(cudaStreamCreate(&st), "stream");
        run(); // warm-up
        ck(cudaStreamSynchronize(st), "sync");
    }
    void run()
    {
        ck(cudaSetDevice(device), "set device");
        kernel->enqueue(dev, host, st);
    }
    ~resident_batch()
    {
        cudaSetDevice(device);
        cudaStreamDestroy(st);
        for (void* p : { dfd, dpar, din, dout, dres, dscr })
            cudaFree(p);
    }
};

// Launches timed together by kernel_gbps (--burst N): with N > 1 the host's
// launch work overlaps the previous launch, so the figure is the kernel's own.
int g_burst = 1;

// Kernel-only Gbit/s for nframes codewords of size K.
double kernel_gbps(int K, const core::turbo_config& cfg, int nframes, int reps)
{
    resident_batch b(0, K, cfg, nframes);
    cudaEvent_t e0, e1;
    ck(cudaEventCreate(&e0), "event");
    ck(cudaEventCreate(&e1), "event");
    std::vector<float> times;
    for (int r = 0; r < reps; r++) {
        ck(cudaEventRecord(e0, b.st), "record");
        for (int k = 0; k < g_burst; k++)
            b.run();
        ck(cudaEventRecord(e1, b.st), "record");
        ck(cudaEventSynchronize(e1), "sync");
        float ms;
        ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    const double ms = times[times.size() / 2] / g_burst;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return double(K) * nframes / (ms * 1e-3) / 1e9;
}

// Kernel-bound Gbit/s of several GPUs at once: each decodes its own resident
// batch reps times; the wall time covers all of them.
double multi_kernel_gbps(const std::vector<int>& devices, int K, const core::turbo_config& cfg, int nframes, int reps)
{
    std::vector<std::unique_ptr<resident_batch>> b;
    for (int d : devices)
        b.push_back(std::make_unique<resident_batch>(d, K, cfg, nframes));
    const auto t0 = clk::now();
    for (int r = 0; r < reps; r++)
        for (auto& x : b)
            x->run();
    for (auto& x : b) {
        ck(cudaSetDevice(x->device), "set device");
        ck(cudaStreamSynchronize(x->st), "sync");
    }
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    return double(K) * nframes * reps * devices.size() / secs / 1e9;
}

// End-to-end Gbit/s through the pipeline on `where`.
double pipeline_gbps(int K, const core::turbo_config& cfg, const core::backend_choice& where,
                     bool int8, size_t max_batch, size_t total_frames)
{
    const size_t n = 3 * size_t(K) + 12;
    const size_t in_bytes = int8 ? n : n * 4;
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.slots = 3;
    pc.max_batch = max_batch;
    pc.max_in_bytes = in_bytes;
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(1000000);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice, 0.25f), where, pc);
    const auto params = core::turbo::frame_params_for(K, int8 ? core::turbo::INPUT_INT8 : core::turbo::INPUT_FLOAT32);
    // 64 distinct codewords, cycled; written into the staging in place.
    std::vector<std::vector<uint8_t>> src;
    for (int i = 0; i < 64; i++) {
        const auto llr = noisy_codeword(K, 77 + i);
        std::vector<uint8_t> b(in_bytes);
        if (int8) {
            for (size_t j = 0; j < n; j++)
                b[j] = uint8_t(int8_t(std::max(-127.0f, std::min(127.0f, std::nearbyint(llr[j] / 0.25f)))));
        } else {
            std::memcpy(b.data(), llr.data(), in_bytes);
        }
        src.push_back(std::move(b));
    }
    size_t in = 0, out = 0;
    const size_t warm = pc.slots * max_batch;
    clk::time_point t0 = clk::now();
    auto take = [&](bool block) {
        while (pipe->front(block)) {
            pipe->pop();
            if (++out == warm)
                t0 = clk::now();
            block = false;
        }
    };
    // The first pass over each slot stages real data; later passes reuse
    // what is already staged, as a producer writing in place would.
    std::vector<bool> staged(pc.slots * max_batch, false);
    while (in < total_frames + warm) {
        if (!pipe->can_accept()) {
            take(true);
            continue;
        }
        uint8_t* p = pipe->begin_frame(in_bytes, K, &params);
        const size_t pos = in % staged.size();
        if (!staged[pos] || where.kind == core::backend_kind::cpu) {
            std::memcpy(p, src[in % src.size()].data(), in_bytes);
            staged[pos] = true;
        }
        pipe->commit_frame();
        in++;
        take(false);
    }
    pipe->drain();
    take(false);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    return double(K) * (out - warm) / secs / 1e9;
}

double latency_us(int K, const core::turbo_config& cfg, const core::backend_choice& where)
{
    const auto llr = noisy_codeword(K, 5);
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.cpu_threads = 1;
    pc.slots = 1;
    pc.max_batch = 1;
    pc.max_in_bytes = llr.size() * 4;
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(0);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice), where, pc);
    const auto params = core::turbo::frame_params_for(K);
    std::vector<double> t;
    for (int r = 0; r < 50; r++) {
        const auto t0 = clk::now();
        pipe->submit(llr.data(), llr.size() * 4, K, &params);
        pipe->front(true);
        pipe->pop();
        t.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    bool quick = false, md = false;
    bool multi = false;
    int only_kernel = 0, only_guard = 0, only_P = 128, e2e_runs = 0, batch_per_sm = 24;
    bool sweep = false;
    for (int i = 1; i < argc; i++) {
        // --e2e N: the end-to-end measures alone, N times each (spread).
        if (!std::strcmp(argv[i], "--e2e") && i + 1 < argc)
            e2e_runs = std::atoi(argv[i + 1]);
        // --batch-sms N: end-to-end batches of N codewords per SM (default 24,
        // 8 waves of kernel 4: the last wave's tail weighs little).
        if (!std::strcmp(argv[i], "--batch-sms") && i + 1 < argc)
            batch_per_sm = std::atoi(argv[i + 1]);
        // --only KERNEL GUARD: one timed launch of one variant at the
        // headline point, for profilers.
        if (!std::strcmp(argv[i], "--only") && i + 2 < argc) {
            only_kernel = std::atoi(argv[i + 1]);
            only_guard = std::atoi(argv[i + 2]);
            if (i + 3 < argc && argv[i + 3][0] != '-')
                only_P = std::atoi(argv[i + 3]);
        }
        // --sweep: kernel only, default kernel, K=6144, over P and guard.
        if (!std::strcmp(argv[i], "--burst") && i + 1 < argc)
            g_burst = std::max(1, std::atoi(argv[i + 1]));
        if (!std::strcmp(argv[i], "--devices"))
            multi = true;
        if (!std::strcmp(argv[i], "--sweep"))
            sweep = true;
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        if (!std::strcmp(argv[i], "--markdown"))
            md = true;
    }
    const auto& probe = core::probe_cuda();
    if (probe.devices.empty() || !probe.devices[0].usable) {
        std::printf("bench_turbo: no usable CUDA device; nothing to measure\n");
        return 0;
    }
    const core::backend_choice gpu{ core::backend_kind::cuda, { 0 }, "" };
    const core::backend_choice cpu{ core::backend_kind::cpu, {}, "" };
    const int sms = probe.devices[0].multiprocessors;
    std::printf("device: %s (%d SMs); CPU threads: %u\n", probe.devices[0].name.c_str(), sms,
                std::thread::hardware_concurrency());

    using A = core::turbo::algorithm;
    const A S = core::turbo::SCALED_MAX_LOG_MAP;
    if (only_kernel) {
        auto cfg = make_cfg(S, 6, only_P);
        cfg.guard = only_guard;
        select_kernel(cfg, only_kernel);
        std::printf("kernel %d guard %d P %d: %.2f Gbit/s\n", only_kernel, only_guard, only_P,
                    kernel_gbps(6144, cfg, 24 * sms, 1));
        return 0;
    }
    if (multi) {
        // One GPU against every GPU, in the same run: kernel-bound, and end to
        // end (int8 in, host to host) through one pipeline over the devices.
        std::vector<int> all;
        for (const auto& d : probe.devices)
            if (d.usable)
                all.push_back(d.ordinal);
        const auto cfg = make_cfg(S, 6, default_P(6144));
        const int nf = 24 * sms, reps = quick ? 10 : 40;
        const double k1 = multi_kernel_gbps({ 0 }, 6144, cfg, nf, reps);
        const double kn = multi_kernel_gbps(all, 6144, cfg, nf, reps);
        const core::backend_choice gpus{ core::backend_kind::cuda, all, "" };
        const size_t frames = quick ? 20000 : 60000;
        const double e1 = pipeline_gbps(6144, cfg, gpu, true, 528, frames);
        const double en = pipeline_gbps(6144, cfg, gpus, true, 528, frames);
        std::printf("| measure | 1 GPU Gbit/s | %zu GPUs Gbit/s | ratio |\n|---|---|---|---|\n", all.size());
        std::printf("| kernel-bound, K=6144, 6 it. | %.2f | %.2f | %.2f |\n", k1, kn, kn / k1);
        std::printf("| end to end int8 (one pipeline, 3 slots per GPU) | %.2f | %.2f | %.2f |\n", e1, en, en / e1);
        return 0;
    }
    if (sweep) {
        std::printf("| P | W | guard | kernel Gbit/s |\n|---|---|---|---|\n");
        for (int P : { 48, 64, 96, 128, 192, 256 })
            for (int g : { 0, 8, 16 }) {
                auto cfg = make_cfg(S, 6, P);
                cfg.guard = g;
                std::printf("| %d | %d | %d | %.2f |\n", P, 6144 / P, g, kernel_gbps(6144, cfg, 24 * sms, 5));
                std::fflush(stdout);
            }
        return 0;
    }
    if (e2e_runs > 0) {
        const auto cfg = make_cfg(S, 6, default_P(6144));
        for (int r = 0; r < e2e_runs; r++)
            std::printf("end to end, K=6144, batches of %d: float32 %.2f Gbit/s, int8 %.2f Gbit/s\n",
                        batch_per_sm * sms,
                        pipeline_gbps(6144, cfg, gpu, false, batch_per_sm * sms, 200000),
                        pipeline_gbps(6144, cfg, gpu, true, batch_per_sm * sms, 200000));
        return 0;
    }
    // 1. Headline: K=6144, 6 iterations, scaled max-log-MAP.
    {
        const int K = 6144, P = default_P(K);
        const auto cfg = make_cfg(S, 6, P);
        const int nframes = 24 * sms;
        const double kern = kernel_gbps(K, cfg, nframes, quick ? 5 : 20);
        const double e2e_f = pipeline_gbps(K, cfg, gpu, false, batch_per_sm * sms, quick ? 40000 : 200000);
        const double e2e_i = pipeline_gbps(K, cfg, gpu, true, batch_per_sm * sms, quick ? 40000 : 200000);
        // CPU: batches of 16 vectors of SIMD_LANES codewords, one per core.
        const double cpu_rate = pipeline_gbps(K, cfg, cpu, false, 16 * core::turbo_fx::SIMD_LANES,
                                              quick ? 1024 : 4096);
        auto cfg_float = cfg;
        cfg_float.fixed_point = false;
        const double cpu_float = pipeline_gbps(K, cfg_float, cpu, false, 64, quick ? 200 : 800);
        const double lat = latency_us(K, cfg, gpu);
        const double lat_cpu = latency_us(K, cfg, cpu);
        std::printf("\nK=6144, 6 iterations, scaled max-log-MAP, P=%d (W=%d, automatic), information bits:\n\n",
                    P, core::turbo::window_length(K, P));
        std::printf("| measure | Gbit/s | ratio |\n|---|---|---|\n");
        std::printf("| kernel only (%d codewords per launch) | %.2f | %.2f of the 20 Gbit/s target |\n", nframes, kern, kern / 20);
        std::printf("| end to end, float32 LLRs (12 B/bit in) | %.2f | %.2f of PCIe-bound 4.5 |\n", e2e_f, e2e_f / 4.5);
        std::printf("| end to end, int8 LLRs (3 B/bit in) | %.2f | %.2f of PCIe-bound 18 |\n", e2e_i, e2e_i / 18);
        std::printf("| CPU backend, %u threads | %.3f | GPU e2e float / CPU = %.0fx |\n",
                    std::thread::hardware_concurrency(), cpu_rate, e2e_f / cpu_rate);
        std::printf("| CPU backend, float arithmetic (one codeword per thread) | %.3f | fixed-point SIMD / float = %.1fx |\n",
                    cpu_float, cpu_rate / cpu_float);
        std::printf("| latency of one codeword, GPU | %.0f us | CPU: %.0f us |\n", lat, lat_cpu);
        std::fflush(stdout);
    }
    // 2. Kernel variants at the headline point (the float ones decode
    //    identically at guard 0; guard 16 is the default).
    {
        const int K = 6144, nframes = 24 * sms;
        struct variant { const char* name; int kernel, guard, P; };
        const variant vs[] = {
            { "v4: 16-bit fixed point, two codewords per thread (DPX), P=128, guard 16 (default)", 4, 16, 128 },
            { "v4, P=128, guard 8", 4, 8, 128 },
            { "v4, P=128, guard 0", 4, 0, 128 },
            { "v4, P=96, guard 16", 4, 16, 96 },
            { "v1: paper layout, alpha of the codeword in shared memory, P=96, guard 0", 1, 0, 96 },
            { "v2: a thread per window, alpha checkpoints every 8 steps, P=96, guard 0", 2, 0, 96 },
            { "v2, P=96, guard 16", 2, 16, 96 },
            { "v2, P=128, guard 16", 2, 16, 128 },
            { "v3: a thread per trellis state, warp shuffles, checkpoints, P=96, guard 0", 3, 0, 96 },
            { "v3, P=96, guard 16", 3, 16, 96 } };
        for (const auto& v : vs) {
            auto cfg = make_cfg(S, 6, v.P);
            select_kernel(cfg, v.kernel);
            cfg.guard = v.guard;
            std::printf("| %s | %.2f |\n", v.name, kernel_gbps(K, cfg, nframes, quick ? 5 : 20));
            std::fflush(stdout);
        }
    }
    // 3. Kernel-only table: K x iterations x algorithm.
    const std::vector<A> algs = { core::turbo::LOG_MAP, core::turbo::MAX_LOG_MAP, S };
    for (int K : { 40, 1024, 6144 }) {
        const int P = default_P(K);
        const int nframes = K <= 1024 ? 64 * sms : 24 * sms;
        std::printf("\nkernel only, K=%d, P=%d, %d codewords per launch, Gbit/s:\n\n", K, P, nframes);
        std::printf("| algorithm |");
        for (int it = 1; it <= 8; it++)
            std::printf(" %d it |", it);
        std::printf("\n|---|---|---|---|---|---|---|---|---|\n");
        for (A a : algs) {
            std::printf("| %s |", core::turbo::algorithm_name(a));
            for (int it = 1; it <= 8; it++) {
                if (quick && it != 1 && it != 6) {
                    std::printf(" - |");
                    continue;
                }
                std::printf(" %.2f |", kernel_gbps(K, make_cfg(a, it, P), nframes, quick ? 3 : 10));
                std::fflush(stdout);
            }
            std::printf("\n");
        }
    }
    (void)md;
    return 0;
}
