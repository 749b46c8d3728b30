/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Viterbi decoding on the GPU, information bits per second, in one run:
//   1. kernel only: a resident batch of noisy frames decoded again and
//      again (no transfers), per CUDA implementation, code, input kind and
//      frame length;
//   2. end to end through the batching pipeline (pinned host input to host
//      output, copies overlapping kernels over several slots), int8 and
//      float32 LLRs, against the PCIe bound of that input;
//   3. the latency of a single frame through an idle pipeline.
// The CPU figures and the peers (libfec, gr-fec) come from bench_viterbi and
// the peer programs, run in the same session (scripts/gpuhost-check.sh).
//
//   bench_viterbi_gpu [--quick] [--pcie-gbs 55]
#include "bench/viterbi_bench_frames.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"
#include "viterbi/viterbi_frame.h"
#include "viterbi/viterbi_implementations.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
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

// A resident batch of nframes frames (cycling through the staged ones) and
// the named CUDA implementation, ready to run again and again.
struct resident_batch {
    std::unique_ptr<core::cuda_kernel> kernel;
    std::vector<core::frame_desc> fd;
    std::vector<core::viterbi::frame_params> params;
    void *dfd = nullptr, *dpar = nullptr, *din = nullptr, *dout = nullptr, *dres = nullptr, *dscr = nullptr;
    cudaStream_t st{};
    core::batch_view dev{}, host{};
    std::vector<core::viterbi::frame_result> results;

    resident_batch(const core::viterbi_config& cfg, const bench::staged_frames& frames, int frame_bits, int nframes)
    {
        const auto choice = core::choose_viterbi_implementation(cfg);
        if (choice.cuda != cfg.implementation)
            throw std::runtime_error(cfg.implementation + " cannot run this: " + choice.note);
        kernel = core::viterbi_kernel_factories(cfg, choice).cuda(0);
        const size_t in_bytes = frames.bytes[0].size();
        const size_t in_stride = (in_bytes + 15) & ~size_t(15);
        const size_t out_stride = (size_t(frame_bits) + 15) & ~size_t(15);
        fd.resize(nframes);
        params.assign(nframes, { frame_bits, frames.input });
        std::vector<uint8_t> hin(in_stride * nframes);
        for (int f = 0; f < nframes; f++) {
            fd[f] = { f * in_stride, f * out_stride, uint32_t(in_bytes), uint32_t(frame_bits) };
            std::memcpy(&hin[f * in_stride], frames.bytes[f % frames.bytes.size()].data(), in_bytes);
        }
        ck(cudaMalloc(&dfd, fd.size() * sizeof(core::frame_desc)), "malloc");
        ck(cudaMalloc(&dpar, params.size() * sizeof(core::viterbi::frame_params)), "malloc");
        ck(cudaMalloc(&din, hin.size()), "malloc");
        ck(cudaMalloc(&dout, out_stride * nframes), "malloc");
        ck(cudaMalloc(&dres, nframes * sizeof(core::viterbi::frame_result)), "malloc");
        ck(cudaMalloc(&dscr, std::max<size_t>(1, kernel->scratch_bytes(nframes))), "malloc scratch");
        ck(cudaMemcpy(dfd, fd.data(), fd.size() * sizeof(core::frame_desc), cudaMemcpyHostToDevice), "cpy");
        ck(cudaMemcpy(dpar, params.data(), params.size() * sizeof(core::viterbi::frame_params),
                      cudaMemcpyHostToDevice),
           "cpy");
        ck(cudaMemcpy(din, hin.data(), hin.size(), cudaMemcpyHostToDevice), "cpy");
        dev = { static_cast<core::frame_desc*>(dfd), size_t(nframes), dpar, static_cast<uint8_t*>(din),
                static_cast<uint8_t*>(dout), dres, static_cast<uint8_t*>(dscr) };
        host = { fd.data(), size_t(nframes), params.data(), nullptr, nullptr, nullptr, nullptr };
        ck(cudaStreamCreate(&st), "stream");
        kernel->enqueue(dev, host, st); // warm-up
        ck(cudaStreamSynchronize(st), "sync");
        // Every frame must have decoded: a benchmark of rejected frames
        // would measure nothing.
        results.resize(nframes);
        ck(cudaMemcpy(results.data(), dres, nframes * sizeof(core::viterbi::frame_result), cudaMemcpyDeviceToHost),
           "cpy");
        for (const auto& r : results)
            if (r.status != core::viterbi::FRAME_DECODED)
                throw std::runtime_error("a frame was rejected");
    }
    ~resident_batch()
    {
        cudaStreamDestroy(st);
        for (void* p : { dfd, dpar, din, dout, dres, dscr })
            cudaFree(p);
    }
    //! Median kernel time over reps launches, in ms.
    double median_ms(int reps)
    {
        cudaEvent_t e0, e1;
        ck(cudaEventCreate(&e0), "event");
        ck(cudaEventCreate(&e1), "event");
        std::vector<float> times;
        for (int r = 0; r < reps; r++) {
            ck(cudaEventRecord(e0, st), "record");
            kernel->enqueue(dev, host, st);
            ck(cudaEventRecord(e1, st), "record");
            ck(cudaEventSynchronize(e1), "sync");
            float ms;
            ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
            times.push_back(ms);
        }
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    }
};

double kernel_gbps(const core::viterbi_config& cfg, const bench::staged_frames& frames, int frame_bits, int nframes,
                   int reps)
{
    resident_batch b(cfg, frames, frame_bits, nframes);
    return double(frame_bits) * nframes / (b.median_ms(reps) * 1e-3) / 1e9;
}

// Mean and worst latency (us) of single frames, each submitted to an idle
// pipeline and taken out as soon as it completes.
void single_frame_latency(const core::viterbi_config& cfg, const bench::staged_frames& frames, int frame_bits,
                          int count, double& mean_us, double& max_us)
{
    const auto choice = core::choose_viterbi_implementation(cfg);
    core::pipeline_config pc;
    pc.types = core::viterbi::frame_types_of();
    pc.slots = 2;
    pc.max_batch = 1; // a batch of one completes as soon as it is submitted
    pc.max_in_bytes = frames.bytes[0].size();
    pc.max_out_bytes = size_t(frame_bits);
    pc.flush_timeout = std::chrono::microseconds(0);
    auto pipe = core::make_pipeline(core::viterbi_kernel_factories(cfg, choice),
                                    { core::backend_kind::cuda, { 0 }, "" }, pc);
    const core::viterbi::frame_params params{ frame_bits, frames.input };
    std::vector<double> us;
    for (int i = 0; i < count + 5; i++) {
        const auto& x = frames.bytes[i % frames.bytes.size()];
        const auto t0 = clk::now();
        pipe->submit(x.data(), x.size(), size_t(frame_bits), &params);
        pipe->flush();
        pipe->front(true);
        const auto t1 = clk::now();
        pipe->pop();
        if (i >= 5) // the first ones warm the path up
            us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    double sum = 0;
    max_us = 0;
    for (double u : us) {
        sum += u;
        max_us = std::max(max_us, u);
    }
    mean_us = sum / double(us.size());
}

struct code_case {
    const char* name;
    int K;
    std::vector<unsigned> polys;
    core::viterbi::termination term;
};

} // namespace

int main(int argc, char** argv)
{
    bool quick = false;
    double pcie_gbs = 55.0; // measured pinned host-to-device bandwidth of the H100 host, GB/s
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--pcie-gbs") && i + 1 < argc)
            pcie_gbs = std::atof(argv[++i]);
        else {
            std::fprintf(stderr, "usage: bench_viterbi_gpu [--quick] [--pcie-gbs GB/s]\n");
            return 2;
        }
    }
    const auto& probe = core::probe_cuda();
    if (probe.devices.empty() || !probe.devices[0].usable) {
        std::printf("no usable CUDA device: nothing to measure\n");
        return 0;
    }
    int sms = 0;
    ck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
    const int reps = quick ? 3 : 7;
    std::printf("device: %s (%d SMs); information bits per second\n\n", probe.devices[0].name.c_str(), sms);

    using T = core::viterbi::termination;
    const code_case k7{ "K=7 (133,171) r1/2", 7, { 0133, 0171 }, T::terminated };
    const code_case gsm{ "GSM K=5 (23,33) r1/2", 5, { 023, 033 }, T::terminated };
    const code_case k9{ "K=9 (753,561) r1/2", 9, { 0753, 0561 }, T::terminated };
    const code_case lte{ "LTE K=7 (133,171,165) r1/3 tail-biting", 7, { 0133, 0171, 0165 }, T::tail_biting };
    const code_case lte_t{ "K=7 (133,171,165) r1/3", 7, { 0133, 0171, 0165 }, T::terminated };

    std::printf("## Kernel only (resident batch, no transfers)\n\n");
    std::printf("| implementation | code | termination | input | frame bits | frames | Gbit/s |\n"
                "|---|---|---|---|---|---|---|\n");
    struct row {
        const char* impl;
        const code_case* code;
        core::viterbi::input_kind input;
        int frame_bits;
        int nframes;
    };
    const int full = quick ? 32768 : 131072; // frames to fill the GPU many times over
    using I = core::viterbi::input_kind;
    const std::vector<row> rows = {
        { "cuda-thread", &k7, I::INPUT_INT8, 2048, full },
        { "cuda-thread", &k7, I::INPUT_SOFT, 2048, full },
        { "cuda-thread", &k7, I::INPUT_HARD, 2048, full },
        { "cuda-thread", &k7, I::INPUT_INT8, 256, 8 * full },
        { "cuda-thread", &k7, I::INPUT_INT8, 16384, full / 8 },
        { "cuda-thread", &gsm, I::INPUT_INT8, 2048, full },
        { "cuda-thread", &gsm, I::INPUT_HARD, 2048, full },
        { "cuda-thread", &lte_t, I::INPUT_INT8, 2048, full },
        { "cuda-warp", &k7, I::INPUT_INT8, 2048, full / 8 },
        { "cuda-warp", &k9, I::INPUT_INT8, 2048, full / 8 },
        { "cuda-thread", &lte, I::INPUT_INT8, 2048, full / 16 },
        { "cuda-thread", &lte, I::INPUT_SOFT, 2048, full / 16 },
        { "cuda-tiled", &lte, I::INPUT_INT8, 2048, 1024 },
        { "cuda-tiled", &k7, I::INPUT_HARD, 2048, 1024 },
    };
    for (const auto& r : rows) {
        core::viterbi_config cfg;
        cfg.K = r.code->K;
        cfg.polynomials = r.code->polys;
        cfg.termination = r.code->term;
        cfg.max_frame_bits = r.frame_bits;
        cfg.implementation = r.impl;
        const auto frames = bench::noisy_frames(cfg, r.frame_bits, r.input, 64);
        try {
            const double g = kernel_gbps(cfg, frames, r.frame_bits, r.nframes, reps);
            std::printf("| %s | %s | %s | %s | %d | %d | %.2f |\n", r.impl, r.code->name,
                        core::viterbi::termination_name(r.code->term), bench::input_name(r.input), r.frame_bits,
                        r.nframes, g);
        } catch (const std::exception& e) {
            std::printf("| %s | %s | %s | %s | %d | %d | (%s) |\n", r.impl, r.code->name,
                        core::viterbi::termination_name(r.code->term), bench::input_name(r.input), r.frame_bits,
                        r.nframes, e.what());
        }
        std::fflush(stdout);
    }

    std::printf("\n## End to end (host to host through the pipeline), K=7 r1/2, 2048-bit terminated frames\n\n");
    std::printf("| implementation | input | bytes in per bit | PCIe bound Gbit/s | Gbit/s | ratio to bound |\n"
                "|---|---|---|---|---|---|\n");
    for (I input : { I::INPUT_INT8, I::INPUT_SOFT }) {
        core::viterbi_config cfg;
        cfg.max_frame_bits = 2048;
        cfg.implementation = "cuda-thread";
        const auto frames = bench::noisy_frames(cfg, 2048, input, 64);
        // Input bytes per information bit (the tail steps included).
        const double bytes_per_bit = double(frames.bytes[0].size()) / 2048.0;
        const double bound = pcie_gbs * 8.0 / bytes_per_bit / 8.0; // GB/s over bytes per bit, in Gbit/s
        const size_t batch = input == I::INPUT_INT8 ? 16384 : 8192;
        for (size_t staging : { size_t(1), size_t(8), size_t(12), size_t(16) }) {
            const double g = bench::pipeline_gbps(cfg, { core::backend_kind::cuda, { 0 }, "" }, frames, 2048,
                                                  batch, (quick ? 4 : 24) * batch, 0, 4, staging);
            std::printf("| cuda-thread, submit_many, %zu staging threads | %s | %.2f | %.1f | %.2f | %.2f |\n",
                        staging, bench::input_name(input), bytes_per_bit, bound, g, g / bound);
            std::fflush(stdout);
        }
        // The kernel alone on a batch of this size (the end-to-end batches'
        // own ceiling: a batch smaller than the GPU's thread capacity leaves
        // it partly idle unless batches overlap).
        std::printf("| cuda-thread kernel only, batch of %zu | %s | | | %.2f | |\n", batch, bench::input_name(input),
                    kernel_gbps(cfg, frames, 2048, int(batch), reps));
        for (size_t b : { batch / 2, batch, 2 * batch })
            for (size_t slots : { size_t(4), size_t(8) }) {
                const double gp = bench::pipeline_gbps_in_place(cfg, { core::backend_kind::cuda, { 0 }, "" }, frames,
                                                                2048, b, (quick ? 8 : 32) * batch, slots);
                std::printf("| cuda-thread, written in place, batch %zu, %zu slots | %s | %.2f | %.1f | %.2f | %.2f |\n",
                            b, slots, bench::input_name(input), bytes_per_bit, bound, gp, gp / bound);
                std::fflush(stdout);
            }
        const double g = bench::pipeline_gbps(cfg, { core::backend_kind::cuda, { 0 }, "" }, frames, 2048, batch,
                                              (quick ? 4 : 24) * batch, 0, 4);
        std::printf("| cuda-thread, submit per frame | %s | %.2f | %.1f | %.2f | %.2f |\n",
                    bench::input_name(input), bytes_per_bit, bound, g, g / bound);
        std::fflush(stdout);
    }

    std::printf("\n## Latency of a single frame (idle pipeline, batch of one), K=7 r1/2 terminated\n\n");
    std::printf("| implementation | input | frame bits | mean us | worst us |\n|---|---|---|---|---|\n");
    for (int bits : { 256, 2048 }) {
        core::viterbi_config cfg;
        cfg.max_frame_bits = bits;
        cfg.implementation = "cuda-thread";
        const auto frames = bench::noisy_frames(cfg, bits, I::INPUT_INT8, 16);
        double mean_us = 0, max_us = 0;
        single_frame_latency(cfg, frames, bits, quick ? 50 : 300, mean_us, max_us);
        std::printf("| cuda-thread | int8 | %d | %.0f | %.0f |\n", bits, mean_us, max_us);
    }
    return 0;
}
