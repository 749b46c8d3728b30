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
// Every figure is checked first (bench_checks.h): every frame decoded, the
// warm-up's outputs and one timed frame in 61 equal to cpu-reference's on the
// same frames (bit for bit where the registry says bit_exact; cpu-simd on
// float input as many bit errors within the registry's tolerance, 1% of the
// bits), and the figure not above its bound:
// on the CPU the threads' vector issue (an 8-bit lane per state and trellis
// step at 256 lane bytes per clock), on CUDA the bytes per frame over PCIe at
// the pinned rates measured in the run. A failed check prints an error and
// exits with status 1.
//
//   bench_viterbi [--quick] [--frame-bits N] [--K k]
//   bench_viterbi --impl cpu-simd [--threads 1] [--input int8] [--frames 50000] [--frame-bits N] [--K k]
#include "bench/bench_checks.h"
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
        else {
            std::fprintf(stderr,
                         "usage: bench_viterbi [--quick] [--frame-bits N] [--K 5|7|9]\n"
                         "       bench_viterbi --impl NAME [--threads N] [--input float|int8|hard] [--frames N]\n"
                         "                     [--frame-bits N] [--K 5|7|9]\n");
            return std::strcmp(argv[i], "--help") && std::strcmp(argv[i], "-h") ? 2 : 0;
        }
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
    const auto cpu = bench::cpu_limits::of_this_machine();
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
        const auto expected = bench::viterbi_expected(cfg, staged, frame_bits, core::backend_kind::cpu);
        const std::string kernel = core::viterbi_kernel_factories(cfg, choice).cpu()->name();
        const std::string what = kernel + ", " + input + " input, " + std::to_string(threads) + " thread(s)";
        const auto f = pipeline_gbps(cfg, { core::backend_kind::cpu, {}, "" }, staged, frame_bits, 64, frames,
                                     threads, expected, what);
        // The workers and the submitting thread.
        const size_t used = threads ? threads + 1 : 0;
        const double lane = bench::viterbi_cpu_lane_bytes_per_bit(code.states());
        bench::check_bound(what, f.gbps * 1e3, cpu.bound_gbps(used, lane) * 1e3, "Mbit/s", cpu.why(used, lane));
        std::printf("%s: K=%d rate 1/%d, terminated %d-bit frames, %s input, %zu thread(s): %.1f Mbit/s\n",
                    kernel.c_str(), K, code.n(), frame_bits, input.c_str(), threads, f.gbps * 1e3);
        std::printf("checked: %s; bound %.0f Mbit/s\n", f.checked.c_str(), cpu.bound_gbps(used, lane) * 1e3);
        return 0;
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t scale = quick ? 1 : 5;
    const double lane = bench::viterbi_cpu_lane_bytes_per_bit(code.states());
    std::printf("K=%d rate 1/%d, terminated frames of %d bits, float32 LLRs in, bits out; %u CPU threads\n",
                K, code.n(), frame_bits, cores);
    std::printf("Checked: every frame decoded; the warm-up's outputs and one timed frame in %d equal to "
                "cpu-reference's (bit for bit; cpu-simd as many bit errors within the registry's tolerance). "
                "Bound: CPU rows %s; "
                "CUDA rows the bytes per frame over PCIe at the pinned rates measured in this run.\n\n",
                int(bench::sample_every), cpu.why(cores, lane).c_str());
    std::printf("| implementation | backend | Gbit/s | ratio to cpu-reference on all cores | bound Gbit/s | frames "
                "timed (compared) |\n|---|---|---|---|---|---|\n");
    const core::backend_choice cpu_backend{ core::backend_kind::cpu, {}, "" };
    // One CPU figure: its frames checked (in the run) and its bound, then printed.
    auto cpu_row = [&](const char* impl, const staged_frames& staged, size_t max_batch, size_t total, size_t threads,
                       const std::string& label) {
        cfg.implementation = impl;
        const auto expected = bench::viterbi_expected(cfg, staged, frame_bits, core::backend_kind::cpu);
        const std::string what = std::string(impl) + ", " + label;
        const auto f = pipeline_gbps(cfg, cpu_backend, staged, frame_bits, max_batch, total, threads, expected, what);
        const size_t used = threads ? threads + 1 : 0;
        const double bound = cpu.bound_gbps(used, lane);
        bench::check_bound(what, f.gbps, bound, "Gbit/s", cpu.why(used, lane));
        return std::make_pair(f, bound);
    };
    auto print = [](const char* impl, const std::string& label, const bench::pipeline_figure& f, double ratio,
                    double bound) {
        std::printf("| %s | %s | %.4f | %.3f | %.0f | %zu (%zu) |\n", impl, label.c_str(), f.gbps, ratio, bound,
                    f.frames, f.compared);
    };
    const std::string all_cores = "cpu, " + std::to_string(cores) + " cores";
    const auto ref_all = cpu_row("cpu-reference", llrs, cores, 12 * cores * scale, 0, all_cores);
    const auto ref_one = cpu_row("cpu-reference", llrs, 1, 12 * scale, 1, "cpu, 1 core");
    const double ref = ref_all.first.gbps;
    print("cpu-reference", all_cores, ref_all.first, 1.0, ref_all.second);
    print("cpu-reference", "cpu, 1 core", ref_one.first, ref_one.first.gbps / ref, ref_one.second);
    const auto tiled_all = cpu_row("cpu-tiled", llrs, cores, 3 * cores * scale, 0, all_cores);
    print("cpu-tiled", all_cores, tiled_all.first, tiled_all.first.gbps / ref, tiled_all.second);
    for (const staged_frames* staged : { &llrs, &llrs8 }) {
        const std::string kind = staged == &llrs ? "float32 in" : "int8 in";
        const auto all = cpu_row("cpu-simd", *staged, 4 * cores, 100 * cores * scale, 0, all_cores + ", " + kind);
        const auto one = cpu_row("cpu-simd", *staged, 16, 100 * scale, 1, "cpu, 1 core, " + kind);
        print("cpu-simd", all_cores + ", " + kind, all.first, all.first.gbps / ref, all.second);
        print("cpu-simd", "cpu, 1 core, " + kind, one.first, one.first.gbps / ref, one.second);
    }
    const auto& probe = core::probe_cuda();
#ifdef GPURX_HAVE_CUDA
    if (!probe.devices.empty() && probe.devices[0].usable) {
        const auto link = bench::measure_link(0);
        std::printf("(CUDA rows: %s)\n", link.describe().c_str());
        const core::backend_choice gpu{ core::backend_kind::cuda, { 0 }, "" };
        for (const char* name : { "cuda-warp", "cuda-tiled" }) {
            cfg.implementation = name;
            const auto choice = core::choose_viterbi_implementation(cfg);
            if (choice.cuda != name) {
                std::printf("| %s | (cannot run: %s) | | | | |\n", name, choice.note.c_str());
                continue;
            }
            // The tiled layout is far slower: fewer frames keep its run short.
            const bool tiled = std::string(name) == "cuda-tiled";
            const size_t frames = tiled ? 1024 * scale : 16384 * scale;
            for (const staged_frames* staged : { &llrs, &llrs8 }) {
                if (tiled && staged == &llrs8)
                    continue;
                const std::string label = "cuda (" + probe.devices[0].name + "), " +
                                          (staged == &llrs ? "float32 in" : "int8 in");
                const std::string what = std::string(name) + ", " + label;
                const auto expected = bench::viterbi_expected(cfg, *staged, frame_bits, core::backend_kind::cuda);
                const auto f = pipeline_gbps(cfg, gpu, *staged, frame_bits, tiled ? 256 : 2048, frames, 0, expected,
                                             what);
                const double bound = bench::link_bound_gbps({ link }, frame_bits, f.bus);
                bench::check_bound(what, f.gbps, bound, "Gbit/s", bench::link_why(f.bus));
                print(name, label, f, f.gbps / ref, bound);
            }
        }
    }
#else
    (void)probe;
#endif
    return 0;
}
