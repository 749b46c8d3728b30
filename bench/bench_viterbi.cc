/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Viterbi decoder throughput, information bits per second, through the
// batching pipeline (host to host: soft float32 LLRs in, bits out), for each
// implementation the build has, in one run:
//   cuda-tiled (the paper's layout), cpu-reference, cpu-tiled and cpu-simd
//   (float32 and int8 input) on all cores and on one.
// Default: K=7 (0133, 0171), rate 1/2, terminated frames of 2048 bits, noisy
// (Eb/N0 4 dB); --frame-bits N, --K 5|7|9, --quick.
//
// --impl NAME measures that CPU implementation alone, in Mbit/s, on
// --threads N worker threads (default 1; 0: all cores) with --input
// float|int8|hard frames (default int8, LLRs scaled by 4: viterbi_bench_frames.h) over
// --frames N frames: the per-core figure to set beside a single-threaded
// peer decoder (pin both with taskset -c).
//
//   bench_viterbi [--quick] [--frame-bits N] [--K k]
//   bench_viterbi --impl cpu-simd [--threads 1] [--input int8] [--frames 50000] [--frame-bits N] [--K k]
#include "bench/viterbi_bench_frames.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"
#include "viterbi/viterbi_implementations.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using bench::pipeline_gbps;
using bench::staged_frames;

int main(int argc, char** argv)
{
    bool quick = false;
    int frame_bits = 2048, K = 7;
    std::string impl, input = "int8";
    size_t threads = 1, frames = 50000;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--impl") && i + 1 < argc)
            impl = argv[++i];
        else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = size_t(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--input") && i + 1 < argc)
            input = argv[++i];
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = size_t(std::atoll(argv[++i]));
        else if (!std::strcmp(argv[i], "--frame-bits") && i + 1 < argc)
            frame_bits = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--K") && i + 1 < argc)
            K = std::atoi(argv[++i]);
    }
    core::viterbi_config cfg;
    cfg.K = K;
    cfg.polynomials = K == 5 ? std::vector<unsigned>{ 023, 033 }
                             : K == 9 ? std::vector<unsigned>{ 0753, 0561 } : std::vector<unsigned>{ 0133, 0171 };
    cfg.max_frame_bits = frame_bits;
    cfg.chunk = 64;
    const auto code = cfg.code();
    // 64 noisy frames, cycled: BPSK over AWGN at Eb/N0 = 4 dB, LLR = 2y/sigma^2.
    const staged_frames llrs = bench::noisy_frames(cfg, frame_bits, core::viterbi::INPUT_SOFT, 64);
    const staged_frames llrs8 = bench::noisy_frames(cfg, frame_bits, core::viterbi::INPUT_INT8, 64);
    const staged_frames hard = bench::noisy_frames(cfg, frame_bits, core::viterbi::INPUT_HARD, 64);
    if (!impl.empty()) {
        const staged_frames& staged = input == "float" ? llrs : input == "hard" ? hard : llrs8;
        if (input != "float" && input != "int8" && input != "hard") {
            std::fprintf(stderr, "--input must be float, int8 or hard, got \"%s\"\n", input.c_str());
            return 2;
        }
        cfg.implementation = impl;
        const auto choice = core::choose_viterbi_implementation(cfg);
        if (choice.cpu != impl) {
            std::fprintf(stderr, "--impl %s: not a CPU implementation that runs this code (%s)\n", impl.c_str(),
                         choice.note.c_str());
            return 2;
        }
        const double gbps = pipeline_gbps(cfg, { core::backend_kind::cpu, {}, "" }, staged, frame_bits, 64,
                                          frames, threads);
        const std::string kernel = core::viterbi_kernel_factories(cfg, choice).cpu()->name();
        std::printf("%s: K=%d rate 1/%d, terminated %d-bit frames, %s input, %zu thread(s): %.1f Mbit/s\n",
                    kernel.c_str(), K, code.n(), frame_bits, input.c_str(), threads, gbps * 1e3);
        return 0;
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t scale = quick ? 1 : 5;
    std::printf("K=%d rate 1/%d, terminated frames of %d bits, float32 LLRs in, bits out; %u CPU threads\n",
                K, code.n(), frame_bits, cores);
    std::printf("| implementation | backend | Gbit/s | ratio to cpu-reference on all cores |\n|---|---|---|---|\n");
    cfg.implementation = "cpu-reference";
    const core::backend_choice cpu{ core::backend_kind::cpu, {}, "" };
    const double ref_all = pipeline_gbps(cfg, cpu, llrs, frame_bits, cores, 12 * cores * scale, 0);
    const double ref_one = pipeline_gbps(cfg, cpu, llrs, frame_bits, 1, 12 * scale, 1);
    std::printf("| cpu-reference | cpu, %u cores | %.3f | 1.00 |\n", cores, ref_all);
    std::printf("| cpu-reference | cpu, 1 core | %.4f | %.3f |\n", ref_one, ref_one / ref_all);
    cfg.implementation = "cpu-tiled";
    const double tiled_all = pipeline_gbps(cfg, cpu, llrs, frame_bits, cores, 3 * cores * scale, 0);
    std::printf("| cpu-tiled | cpu, %u cores | %.4f | %.3f |\n", cores, tiled_all, tiled_all / ref_all);
    cfg.implementation = "cpu-simd";
    for (const staged_frames* staged : { &llrs, &llrs8 }) {
        const char* kind = staged == &llrs ? "float32 in" : "int8 in";
        const double all = pipeline_gbps(cfg, cpu, *staged, frame_bits, 4 * cores, 100 * cores * scale, 0);
        const double one = pipeline_gbps(cfg, cpu, *staged, frame_bits, 16, 100 * scale, 1);
        std::printf("| cpu-simd | cpu, %u cores, %s | %.3f | %.2f |\n", cores, kind, all, all / ref_all);
        std::printf("| cpu-simd | cpu, 1 core, %s | %.4f | %.3f |\n", kind, one, one / ref_all);
    }
    const auto& probe = core::probe_cuda();
    if (!probe.devices.empty() && probe.devices[0].usable) {
        for (const char* name : { "cuda-warp", "cuda-tiled" }) {
            cfg.implementation = name;
            const auto choice = core::choose_viterbi_implementation(cfg);
            if (choice.cuda != name) {
                std::printf("| %s | (cannot run: %s) | | |\n", name, choice.note.c_str());
                continue;
            }
            // The tiled layout is far slower: fewer frames keep its run short.
            const size_t frames = std::string(name) == "cuda-tiled" ? 1024 * scale : 16384 * scale;
            const double gpu = pipeline_gbps(cfg, { core::backend_kind::cuda, { 0 }, "" }, llrs, frame_bits,
                                             std::string(name) == "cuda-tiled" ? 256 : 2048, frames, 0);
            std::printf("| %s | cuda (%s), float32 in | %.3f | %.2f |\n", name, probe.devices[0].name.c_str(),
                        gpu, gpu / ref_all);
            if (std::string(name) == "cuda-warp") {
                const double gpu8 = pipeline_gbps(cfg, { core::backend_kind::cuda, { 0 }, "" }, llrs8,
                                                  frame_bits, 2048, frames, 0);
                std::printf("| %s | cuda (%s), int8 in | %.3f | %.2f |\n", name,
                            probe.devices[0].name.c_str(), gpu8, gpu8 / ref_all);
            }
        }
    }
    return 0;
}
