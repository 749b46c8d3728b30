/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// bench_turbo_cpu: the CPU LTE turbo decoders' throughput per core, counting
// information bits, set up as srsRAN's turbo bench is (so the two can run
// side by side, docs/benchmarks.md): each thread decodes its own 16 distinct
// noisy codewords round-robin for a fixed time, all iterations (no early
// stop), BPSK over AWGN at Eb/N0. Each thread has its own kernel (from the
// registry, as the pipeline makes them) and calls it on batches of 16
// frames, so what is timed is the implementation's whole per-frame work:
// quantisation and layout of the float (or int8) LLRs, decoding, output.
//
// Checked (bench_checks.h) before the figure is printed: the first pass's
// outputs equal those of the implementation's registry reference on the same
// codewords (cpu-window16-simd: as many bit errors as cpu-fixed16-simd's within
// the registry's tolerance, 0.2% of the bits; the references themselves bit
// for bit); every timed batch
// writes every codeword's result with all iterations run (the results are
// cleared before each); the last timed batch's outputs equal the first
// pass's. Bound: the threads' vector issue at 256 lane bytes per clock for 32
// lane bytes per bit and iteration. A failed check prints an error and exits
// with status 1.
//
//   bench_turbo_cpu [--impl NAME|auto] [--threads N] [--seconds S] [--K K]
//                   [--iterations I] [--ebn0 DB] [--input float|int8]
#include "bench_checks.h"
#include "common/awgn_llr.h"
#include "pipeline/worker_pool.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;

namespace {

struct options {
    std::string impl = "auto";
    int threads = 1;
    double seconds = 5;
    int K = 6144;
    int iterations = 6;
    double ebn0 = 1.0;
    bool int8 = false;
};

constexpr int FRAMES = 16; // distinct codewords per thread, as srsRAN's bench

struct thread_result {
    double seconds = 0;
    long codewords = 0;
    long bit_errors = 0, bits = 0, block_errors = 0;
    std::string problem; //!< a failed check ("" when none)
};

//! One thread's codewords: its kernel's input and the information bits.
struct thread_codewords {
    std::vector<std::vector<uint8_t>> in, truth;
};

thread_codewords make_codewords(const options& o, int id)
{
    const int K = o.K;
    const size_t n = 3 * size_t(K) + 12;
    core::awgn_llr_source rng(1000 + 7919 * uint64_t(id));
    const double esn0 = o.ebn0 + 10 * std::log10(double(K) / double(n));
    std::vector<uint8_t> c(n);
    std::vector<float> llr(n);
    thread_codewords cw;
    for (int f = 0; f < FRAMES; f++) {
        std::vector<uint8_t> truth(K);
        for (auto& b : truth)
            b = rng.next() >> 31;
        core::lte_turbo_encoder(K).encode(truth.data(), c.data());
        rng.llrs(c.data(), n, esn0, llr.data());
        std::vector<uint8_t> in(o.int8 ? n : n * 4);
        if (o.int8) // int8 at 1/8 LLR per unit (the int8 scale given to the kernel)
            for (size_t i = 0; i < n; i++)
                in[i] = uint8_t(int8_t(std::max(-127.0f, std::min(127.0f, std::nearbyint(llr[i] * 8)))));
        else
            std::memcpy(in.data(), llr.data(), n * 4);
        cw.in.push_back(std::move(in));
        cw.truth.push_back(std::move(truth));
    }
    return cw;
}

// One thread: its codewords, its kernel, batches of FRAMES until time is up.
// \p expected: the reference's outputs of this thread's codewords.
void run_thread(const options& o, int id, const thread_codewords& cw, const bench::expected_outputs& expected,
                std::atomic<bool>& go, thread_result& out)
{
    core::turbo_config cfg;
    cfg.iterations = o.iterations;
    cfg.implementation = o.impl;
    const auto choice = core::choose_turbo_implementation(cfg);
    auto kernel = core::turbo_kernel_factories(cfg, choice, 0.125f).cpu();
    core::worker_pool pool(1); // the calling thread only

    const int K = o.K;
    const size_t n = 3 * size_t(K) + 12;
    const size_t esize = o.int8 ? 1 : 4;
    const size_t in_stride = (n * esize + 63) & ~size_t(63), out_stride = (size_t(K) + 63) & ~size_t(63);
    std::vector<uint8_t> in(in_stride * FRAMES), outb(out_stride * FRAMES);
    std::vector<core::frame_desc> fd(FRAMES);
    const auto params = std::vector<core::turbo::frame_params>(
        FRAMES, core::turbo::frame_params_for(K, o.int8 ? core::turbo::INPUT_INT8 : core::turbo::INPUT_FLOAT32));
    std::vector<core::turbo::frame_result> res(FRAMES);
    for (int f = 0; f < FRAMES; f++) {
        std::memcpy(&in[f * in_stride], cw.in[f].data(), n * esize);
        fd[f] = { f * in_stride, f * out_stride, uint32_t(n * esize), uint32_t(K) };
    }
    const core::batch_view b{ fd.data(), FRAMES, params.data(), in.data(), outb.data(), res.data(), nullptr };
    kernel->run(b, pool); // warm-up; also the check of this thread's codewords
    const std::string what = "thread " + std::to_string(id);
    bench::frame_check first(what + ", first pass", &expected);
    for (int f = 0; f < FRAMES; f++) {
        long e = 0;
        for (int k = 0; k < K; k++)
            e += outb[f * out_stride + k] != cw.truth[f][k];
        out.bit_errors += e;
        out.block_errors += e > 0;
        out.bits += K;
        first.add(size_t(f), &outb[f * out_stride], size_t(K), res[f].iterations == o.iterations);
    }
    out.problem = first.problem(FRAMES);
    const std::vector<uint8_t> first_out = outb;
    while (!go.load())
        std::this_thread::yield();
    const auto t0 = clk::now();
    const auto until = t0 + std::chrono::duration<double>(o.seconds);
    long batches = 0;
    do {
        // Cleared results prove that this batch decoded every codeword.
        std::memset(res.data(), 0, res.size() * sizeof(res[0]));
        kernel->run(b, pool);
        batches++;
        for (const auto& r : res)
            if (r.iterations != o.iterations)
                out.problem = "a timed batch left a codeword without its " + std::to_string(o.iterations) +
                              " iterations: no figure";
    } while (out.problem.empty() && clk::now() < until);
    out.seconds = std::chrono::duration<double>(clk::now() - t0).count();
    out.codewords = batches * FRAMES;
    if (out.problem.empty() && outb != first_out)
        out.problem = "the last timed batch's outputs differ from the first pass's: no figure";
}

} // namespace

int main(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto val = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--impl")
            o.impl = val();
        else if (a == "--threads")
            o.threads = std::atoi(val());
        else if (a == "--seconds")
            o.seconds = std::atof(val());
        else if (a == "--K")
            o.K = std::atoi(val());
        else if (a == "--iterations")
            o.iterations = std::atoi(val());
        else if (a == "--ebn0")
            o.ebn0 = std::atof(val());
        else if (a == "--input")
            o.int8 = std::string(val()) == "int8";
        else {
            std::fprintf(stderr,
                         "usage: bench_turbo_cpu [--impl NAME|auto] [--threads N] [--seconds S] [--K K] "
                         "[--iterations I] [--ebn0 DB] [--input float|int8]\n");
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    core::turbo_config cfg;
    cfg.implementation = o.impl;
    const auto choice = core::choose_turbo_implementation(cfg);
    const auto probe = core::turbo_kernel_factories(cfg, choice, 0.125f).cpu();
    std::printf("bench_turbo_cpu: %s, K=%d, %d full iterations, no early stop, Eb/N0=%.2f dB, %s LLRs, "
                "%d thread(s), %.1f s, %d distinct codewords per thread\n",
                probe->name(), o.K, o.iterations, o.ebn0, o.int8 ? "int8" : "float", o.threads, o.seconds, FRAMES);
    if (o.threads < 1 || o.K < 40 || o.iterations < 1 || o.seconds <= 0) {
        std::fprintf(stderr, "--threads, --K, --iterations and --seconds must be positive (K >= 40)\n");
        return 2;
    }
    // The reference's outputs of every thread's codewords (one run), before
    // anything is timed.
    std::vector<thread_codewords> cws;
    for (int t = 0; t < o.threads; t++)
        cws.push_back(make_codewords(o, t));
    const auto info = bench::registry_info(core::turbo_implementations(0.125f), choice.cpu);
    std::vector<bench::expected_outputs> expected(o.threads);
    {
        core::turbo_config rc = cfg;
        rc.iterations = o.iterations;
        rc.implementation = info.reference.empty() ? choice.cpu : info.reference;
        const auto rchoice = core::choose_turbo_implementation(rc);
        const auto params =
            core::turbo::frame_params_for(o.K, o.int8 ? core::turbo::INPUT_INT8 : core::turbo::INPUT_FLOAT32);
        std::vector<std::vector<uint8_t>> all;
        for (const auto& c : cws)
            all.insert(all.end(), c.in.begin(), c.in.end());
        const auto outs = bench::reference_outputs(
            "turbo " + rc.implementation, core::turbo_kernel_factories(rc, rchoice, 0.125f),
            core::turbo::frame_types_of(), all, [&](size_t) { return &params; }, [&](size_t) { return size_t(o.K); },
            [&](const core::completed_frame& f) {
                return f.result_as<core::turbo::frame_result>()->iterations == o.iterations;
            });
        for (int t = 0; t < o.threads; t++) {
            auto& e = expected[t];
            bench::set_rule(e, info, choice.cpu);
            e.sent = cws[t].truth;
            e.out.assign(outs.begin() + size_t(t) * FRAMES, outs.begin() + size_t(t + 1) * FRAMES);
        }
    }
    std::vector<thread_result> r(o.threads);
    std::vector<std::thread> th;
    std::atomic<bool> go{ false };
    for (int t = 0; t < o.threads; t++)
        th.emplace_back(run_thread, std::cref(o), t, std::cref(cws[t]), std::cref(expected[t]), std::ref(go),
                        std::ref(r[t]));
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // set-up done
    go = true;
    for (auto& t : th)
        t.join();
    double total = 0, mn = 1e30, mx = 0;
    long be = 0, bits = 0, ble = 0, cw = 0;
    for (const auto& x : r)
        if (!x.problem.empty())
            bench::fail(std::string(probe->name()) + ": " + x.problem);
    for (const auto& x : r) {
        const double mbps = double(x.codewords) * o.K / x.seconds / 1e6;
        total += mbps;
        mn = std::min(mn, mbps);
        mx = std::max(mx, mbps);
        be += x.bit_errors;
        bits += x.bits;
        ble += x.block_errors;
        cw += x.codewords;
    }
    const auto limits = bench::cpu_limits::of_this_machine();
    const double lane = 32.0 * o.iterations;
    bench::check_bound(std::string(probe->name()) + " TOTAL", total, limits.bound_gbps(o.threads, lane) * 1e3, "Mbit/s",
                       limits.why(o.threads, lane));
    std::printf("BER check (first pass): bits=%ld bit_errors=%ld BER=%.3e block_errors=%ld of %d\n", bits, be,
                bits ? double(be) / bits : 0.0, ble, FRAMES * o.threads);
    std::printf("checked: first pass %s (%s); every timed batch decoded every codeword with %d iterations; "
                "bound %.0f Mbit/s\n",
                expected[0].rule().c_str(), (std::to_string(FRAMES * o.threads) + " codewords").c_str(), o.iterations,
                limits.bound_gbps(o.threads, lane) * 1e3);
    std::printf("codewords=%ld\nper-thread Mbit/s (info bits): mean=%.2f min=%.2f max=%.2f\n", cw, total / o.threads,
                mn, mx);
    std::printf("TOTAL Mbit/s (info bits): %.2f  (us per codeword per thread: %.2f)\n", total,
                1e6 * o.K / (total / o.threads * 1e6));
    return 0;
}
