/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What every benchmark checks before it prints a figure, shared by bench/*.cc
// (bench_checks.py is the same for the Python benchmarks):
//
//  1. Its frames decoded: every frame submitted came out, none rejected, each
//     with the family's "done" status, and their outputs equal a reference
//     run's output of the same inputs - bit for bit where the registry marks
//     the implementation bit_exact, else within the family's tolerance
//     (frame_check; set_rule() reads the registry). The frames are counted
//     and the count printed.
//  2. The figure is not above its physical bound (check_bound):
//     - host to host through the pipeline: the bytes that cross PCIe per
//       frame (descriptor, parameter record, 16-byte aligned input one way;
//       result record and aligned output the other) at the pinned link rates
//       measured in the same run (measure_link), each way and both at once;
//     - kernel only: the GPU's instruction issue (no SM issues more than 4
//       warp instructions, 128 thread instructions, per clock, at the peak
//       clock) for the instructions the arithmetic needs at least, and its
//       memory for the bytes the kernel must read and write (gpu_limits);
//     - CPU: no core issues more than 256 bytes of vector lanes (four
//       512-bit instructions) per clock at its highest clock (cpu_limits).
//     A figure more than bound_margin above its bound is refused: the
//     measured link rates and the timers are good to a few percent.
//  A failed check prints "error: ..." naming the figure and its bound (or the
//  frames that failed) on stderr and exits with status 1; the figure is not
//  printed as a result.
//
// The pipeline harness (timed_pipeline) runs an untimed warm-up of whole
// batches, waits until it has drained, then times the measured frames from
// their first submission until the last one is out: every timed frame's work
// lies inside the timed window.
#ifndef INCLUDED_GPURX_BENCH_BENCH_CHECKS_H
#define INCLUDED_GPURX_BENCH_BENCH_CHECKS_H

#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"

#ifdef GPURX_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace gr {
namespace gpurx {
namespace bench {

//! Prints "error: <what>" and exits with status 1 (stdout flushed first).
[[noreturn]] inline void fail(const std::string& what)
{
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", what.c_str());
    std::exit(1);
}

inline std::string num(double v, int digits = 3)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", digits + 1, v);
    return b;
}

// ---------------------------------------------------------------- bounds

//! A figure more than this fraction above its bound is refused.
constexpr double bound_margin = 0.05;

/*!
 * Returns \p value when it is a finite number not above \p bound (plus
 * bound_margin); otherwise fails naming \p figure, the value, the bound and
 * \p why (how the bound is made). \p unit: "Gbit/s", "GB/s", ...
 */
inline double check_bound(const std::string& figure, double value, double bound, const std::string& unit,
                          const std::string& why)
{
    if (!std::isfinite(value) || value < 0)
        fail(figure + ": the measurement gave " + num(value) + " " + unit + ", not a figure");
    if (!(bound > 0) || !std::isfinite(bound))
        fail(figure + ": no bound to check " + num(value) + " " + unit + " against (" + why + ")");
    if (value > bound * (1.0 + bound_margin))
        fail(figure + " = " + num(value) + " " + unit + " is above its physical bound " + num(bound) + " " + unit +
             " (" + why + "), " + num(value / bound) + " times it: not printed as a result");
    return value;
}

//! Pinned host <-> device copy rates of one GPU, GB/s (1e9 bytes per second).
struct link_rates {
    double h2d = 0, d2h = 0;
    double both = 0; //!< H2D and D2H at once, both directions together
    bool measured() const { return h2d > 0 && d2h > 0 && both > 0; }
    std::string describe() const
    {
        return "pinned H2D " + num(h2d) + " GB/s, D2H " + num(d2h) + " GB/s, both at once " + num(both) +
               " GB/s, measured in this run";
    }
};

//! Bytes one frame moves over PCIe through the CUDA engine: its descriptor,
//! parameter record and input (16-byte aligned) in; its result record and
//! output (aligned) out.
struct frame_bytes {
    double h2d = 0, d2h = 0;
};

inline size_t align16(size_t n) { return (n + 15) & ~size_t(15); }

inline frame_bytes pipeline_frame_bytes(const core::frame_types& t, size_t in_bytes, size_t out_bytes)
{
    return { double(sizeof(core::frame_desc) + t.param_bytes + align16(in_bytes)),
             double(t.result_bytes + align16(out_bytes)) };
}

/*!
 * The host-to-host bound in Gbit/s for frames of \p bits bits (information
 * or coded, as the figure counts them) that move \p b: the slowest of the
 * two directions and of both at once. \p links: the links of the GPUs the
 * frames are spread over (each its own link; their sum bounds them all).
 */
inline double link_bound_gbps(const std::vector<link_rates>& links, double bits, const frame_bytes& b)
{
    double h2d = 0, d2h = 0, both = 0;
    for (const auto& l : links) {
        h2d += l.h2d;
        d2h += l.d2h;
        both += l.both;
    }
    // GB/s is bytes per ns: ns per frame, and bits per ns = Gbit/s.
    const double ns = std::max({ b.h2d / h2d, b.d2h / d2h, (b.h2d + b.d2h) / both });
    return bits / ns;
}

inline std::string link_why(const frame_bytes& b)
{
    return "PCIe: " + num(b.h2d) + " B in and " + num(b.d2h) + " B out per frame at the pinned rates measured in this run";
}

#ifdef GPURX_HAVE_CUDA
inline void cuda_ok(cudaError_t e, const char* what)
{
    if (e != cudaSuccess)
        fail(std::string(what) + ": " + cudaGetErrorString(e));
}

/*!
 * The pinned copy rates of \p device: 256 MiB host to device, device to
 * host, then both at once on two streams; the best of 5 each. The current
 * device is restored.
 */
inline link_rates measure_link(int device = 0)
{
    int current = 0;
    cuda_ok(cudaGetDevice(&current), "cudaGetDevice");
    cuda_ok(cudaSetDevice(device), "cudaSetDevice");
    const size_t n = size_t(256) << 20;
    void *h1, *h2, *d1, *d2;
    cuda_ok(cudaHostAlloc(&h1, n, 0), "cudaHostAlloc");
    cuda_ok(cudaHostAlloc(&h2, n, 0), "cudaHostAlloc");
    cuda_ok(cudaMalloc(&d1, n), "cudaMalloc");
    cuda_ok(cudaMalloc(&d2, n), "cudaMalloc");
    std::memset(h1, 1, n);
    std::memset(h2, 2, n);
    cudaStream_t s1, s2;
    cuda_ok(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
    cuda_ok(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
    auto timed = [&](bool up, bool down) {
        double best = 1e30;
        for (int rep = 0; rep < 5; rep++) {
            cuda_ok(cudaDeviceSynchronize(), "sync");
            const auto t0 = std::chrono::steady_clock::now();
            if (up)
                cuda_ok(cudaMemcpyAsync(d1, h1, n, cudaMemcpyHostToDevice, s1), "H2D copy");
            if (down)
                cuda_ok(cudaMemcpyAsync(h2, d2, n, cudaMemcpyDeviceToHost, s2), "D2H copy");
            cuda_ok(cudaDeviceSynchronize(), "sync");
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        return best;
    };
    link_rates r;
    r.h2d = double(n) / timed(true, false) / 1e9;
    r.d2h = double(n) / timed(false, true) / 1e9;
    r.both = 2.0 * double(n) / timed(true, true) / 1e9;
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(d1);
    cudaFree(d2);
    cudaFreeHost(h1);
    cudaFreeHost(h2);
    cuda_ok(cudaSetDevice(current), "cudaSetDevice");
    return r;
}

//! What bounds a kernel on one GPU (from the device's attributes).
struct gpu_limits {
    int sms = 0;
    double clock_ghz = 0;  //!< peak SM clock
    double dram_gbs = 0;   //!< peak device memory bandwidth, GB/s
    double l2_bytes = 0;

    static gpu_limits of(int device)
    {
        int sms = 0, clock_khz = 0, mem_khz = 0, bus_bits = 0, l2 = 0;
        cuda_ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
        cuda_ok(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device), "attribute");
        cuda_ok(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device), "attribute");
        cuda_ok(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device), "attribute");
        cuda_ok(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "attribute");
        gpu_limits g;
        g.sms = sms;
        g.clock_ghz = clock_khz * 1e-6;
        g.dram_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9; // double data rate
        g.l2_bytes = l2;
        return g;
    }
    std::string describe() const
    {
        return std::to_string(sms) + " SMs at " + num(clock_ghz) + " GHz peak, memory " + num(dram_gbs) +
               " GB/s peak, L2 " + num(l2_bytes / 1048576.0) + " MiB";
    }
    //! Thread instructions per ns: 4 warp instructions per SM per clock.
    double issue_per_ns() const { return sms * 128.0 * clock_ghz; }
};

/*!
 * Kernel-only bound in Gbit/s: a launch of \p bits bits that needs at least
 * \p instr_per_bit thread instructions per bit and must read and write
 * \p bytes (its input and output): the instruction issue limit, the memory
 * (beyond what the L2 may hold from the previous launch, from DRAM) and the
 * SMs' load/store path (128 bytes per SM per clock).
 */
inline double kernel_bound_gbps(const gpu_limits& g, double bits, double instr_per_bit, double bytes)
{
    const double ns = std::max({ bits * instr_per_bit / g.issue_per_ns(),
                                 std::max(0.0, bytes - g.l2_bytes) / g.dram_gbs,
                                 bytes / (g.sms * 128.0 * g.clock_ghz) });
    return bits / ns;
}

inline std::string kernel_why(const gpu_limits& g, double instr_per_bit, double bytes_per_bit)
{
    return "kernel: at least " + num(instr_per_bit) + " instructions and " + num(bytes_per_bit) +
           " bytes read/written per bit on " + g.describe();
}
#endif

//! What bounds a CPU figure: hardware threads at the highest clock.
struct cpu_limits {
    unsigned threads = 1;
    double max_ghz = 6.5;
    std::string clock_source = "no cpufreq: 6.5 GHz, above any shipping core";

    static cpu_limits of_this_machine()
    {
        cpu_limits c;
        c.threads = std::max(1u, std::thread::hardware_concurrency());
        double khz = 0;
        for (unsigned i = 0; i < c.threads; i++) {
            std::ifstream f("/sys/devices/system/cpu/cpu" + std::to_string(i) + "/cpufreq/cpuinfo_max_freq");
            double v = 0;
            if (f >> v)
                khz = std::max(khz, v);
        }
        if (khz > 0) {
            c.max_ghz = khz * 1e-6;
            c.clock_source = "cpuinfo_max_freq";
        }
        return c;
    }
    /*!
     * Bound in Gbit/s for \p threads threads (at most the machine's) when a
     * bit takes at least \p lane_bytes_per_bit bytes of vector-lane work:
     * 256 bytes per thread per clock.
     */
    double bound_gbps(size_t threads_used, double lane_bytes_per_bit) const
    {
        const double t = double(std::min<size_t>(threads_used ? threads_used : threads, threads));
        return t * max_ghz * 256.0 / lane_bytes_per_bit;
    }
    std::string why(size_t threads_used, double lane_bytes_per_bit) const
    {
        return "CPU: " + std::to_string(std::min<size_t>(threads_used ? threads_used : threads, threads)) +
               " threads x 256 lane bytes per clock x " + num(max_ghz) + " GHz (" + clock_source + "), at least " +
               num(lane_bytes_per_bit) + " lane bytes per bit";
    }
};

// ---------------------------------------------------------- verification

//! How a frame's output is compared with the reference's.
enum class compare_kind {
    bytes,     //!< byte for byte (decoded bits, one per byte); a unit is a byte
    sign_f32,  //!< float32 LLRs by their sign (+, -, 0); a unit is an LLR
    sign_i8,   //!< int8 LLRs by their sign
};

//! The reference's outputs of the staged inputs, and how strictly to compare.
struct expected_outputs {
    std::string reference;                  //!< its registry name
    bool exact = true;                      //!< equal bit for bit (the registry's bit_exact)
    compare_kind kind = compare_kind::bytes;
    double tolerance = 0.002;               //!< when not exact (see rule())
    std::vector<std::vector<uint8_t>> out;  //!< per staged frame
    //! The transmitted bits per staged frame (compare_kind::bytes), when known.
    std::vector<std::vector<uint8_t>> sent;

    /*!
     * Not exact, with the transmitted bits: the implementation must decode
     * as well as its reference (bit errors at most 1.1 times the
     * reference's plus tolerance of the bits: near the waterfall a
     * codeword may go either way, and a few iterations leave errors that
     * differ between schedules). Not exact, without them: at most tolerance
     * of the units (bits, LLR signs) differ from the reference's.
     */
    std::string rule() const
    {
        if (exact)
            return "bit for bit with " + reference;
        if (!sent.empty())
            return "bit errors at most 1.1 x " + reference + "'s + " + num(tolerance * 100) + "% of the bits";
        return std::string(kind == compare_kind::bytes ? "bits" : "LLR signs") + " within " + num(tolerance * 100) +
               "% of " + reference + "'s";
    }
    //! Bit errors of the reference's output of staged frame \p i.
    size_t reference_errors(size_t i) const
    {
        if (d_ref_errors.size() != out.size()) {
            d_ref_errors.assign(out.size(), 0);
            for (size_t f = 0; f < out.size() && f < sent.size(); f++)
                for (size_t k = 0; k < out[f].size() && k < sent[f].size(); k++)
                    d_ref_errors[f] += out[f][k] != sent[f][k];
        }
        return d_ref_errors[i];
    }

private:
    mutable std::vector<size_t> d_ref_errors;
};

/*!
 * The tally of one figure's frames: each frame out is counted, its status
 * checked, and (when asked) its output compared with the expected output of
 * the staged frame it carries. require() fails unless every frame submitted
 * came out decoded and the compared ones agree.
 */
class frame_check
{
public:
    frame_check(std::string what, const expected_outputs* e) : d_what(std::move(what)), d_exp(e) {}

    void add(size_t staged, const uint8_t* data, size_t bytes, bool decoded, bool compare = true)
    {
        frames++;
        if (!decoded) {
            failed++;
            return;
        }
        if (!compare || !d_exp)
            return;
        if (staged >= d_exp->out.size())
            fail(d_what + ": frame of staged input " + std::to_string(staged) + ", which has no expected output");
        const auto& e = d_exp->out[staged];
        compared++;
        if (e.size() != bytes) {
            differing_frames++;
            differing += bytes;
            units += bytes;
            errors += bytes;
            return;
        }
        size_t n = 0, d = 0;
        if (d_exp->kind == compare_kind::bytes) {
            n = bytes;
            if (std::memcmp(e.data(), data, bytes) != 0)
                for (size_t i = 0; i < bytes; i++)
                    d += e[i] != data[i];
            if (staged < d_exp->sent.size()) {
                const auto& t = d_exp->sent[staged];
                ref_errors += d_exp->reference_errors(staged);
                // Equal to the reference: the same errors.
                if (d == 0)
                    errors += d_exp->reference_errors(staged);
                else
                    for (size_t i = 0; i < bytes && i < t.size(); i++)
                        errors += data[i] != t[i];
            }
        } else if (d_exp->kind == compare_kind::sign_f32) {
            // Bitwise, not short-circuit, with |b| <= FLT_MAX for "finite"
            // (false for NaN): a loop without branches, which the compiler
            // vectorises. The short-circuit form ran one element at a time,
            // 23 us per 48 KB frame: compared one frame in 61, about 380 ns
            // per frame taken out, the busiest part of bench_mimo's caller.
            n = bytes / 4;
            const uint8_t* ep = e.data();
            for (size_t i = 0; i < n; i++) {
                float a, b;
                std::memcpy(&a, ep + 4 * i, 4);
                std::memcpy(&b, data + 4 * i, 4);
                d += size_t(!(std::fabs(b) <= FLT_MAX) | ((a > 0) != (b > 0)) | ((a < 0) != (b < 0)));
            }
        } else {
            n = bytes;
            const uint8_t* ep = e.data();
            for (size_t i = 0; i < n; i++) {
                const int8_t a = int8_t(ep[i]), b = int8_t(data[i]);
                d += size_t(((a > 0) != (b > 0)) | ((a < 0) != (b < 0)));
            }
        }
        units += n;
        differing += d;
        differing_frames += d > 0;
    }

    //! Fails unless \p submitted frames came out, all decoded, the compared
    //! ones as expected (and at least one compared when outputs are expected).
    void require(uint64_t submitted) const
    {
        const std::string p = problem(submitted);
        if (!p.empty())
            fail(p);
    }

    //! What require() would fail with, "" when all is well.
    std::string problem(uint64_t submitted) const
    {
        if (frames != submitted)
            return d_what + ": " + std::to_string(submitted) + " frames submitted, " + std::to_string(frames) +
                   " came out: no figure";
        if (failed)
            return d_what + ": " + std::to_string(failed) + " of " + std::to_string(frames) +
                   " frames rejected or not decoded: no figure";
        if (!d_exp)
            return "";
        if (compared == 0)
            return d_what + ": no output compared with " + d_exp->reference + ": no figure";
        bool ok;
        if (d_exp->exact)
            ok = differing == 0;
        else if (!d_exp->sent.empty() && d_exp->kind == compare_kind::bytes)
            ok = double(errors) <= 1.1 * double(ref_errors) + d_exp->tolerance * double(units);
        else
            ok = double(differing) <= d_exp->tolerance * double(units);
        if (ok)
            return "";
        return d_what + ": " + std::to_string(differing_frames) + " of " + std::to_string(compared) +
               " compared frames differ from " + d_exp->reference + " (" + std::to_string(differing) + " of " +
               std::to_string(units) + (d_exp->kind == compare_kind::bytes ? " bits" : " LLR signs") +
               (d_exp->sent.empty() ? std::string()
                                    : "; bit errors " + std::to_string(errors) + ", the reference's " +
                                          std::to_string(ref_errors)) +
               "; required: " + d_exp->rule() + "): no figure";
    }

    //! "N frames decoded, M compared (rule)".
    std::string summary() const
    {
        std::string s = std::to_string(frames) + " frames decoded";
        if (d_exp)
            s += ", " + std::to_string(compared) + " compared: " + d_exp->rule() +
                 (differing ? " (" + std::to_string(differing) + " units differ)" : "");
        return s;
    }

    uint64_t frames = 0, failed = 0, compared = 0, units = 0, differing = 0, differing_frames = 0;
    uint64_t errors = 0, ref_errors = 0; //!< bit errors against the transmitted bits (when known)

private:
    std::string d_what;
    const expected_outputs* d_exp;
};

/*!
 * The reference's outputs: each input through a CPU pipeline of \p kernels
 * (its cpu factory) with the parameter record params(i) and out_bytes(i)
 * bytes out; decoded(frame) says whether the frame's result is a decoded
 * one. Fails naming \p what when a frame does not decode.
 */
template <class Params, class OutBytes, class Decoded>
std::vector<std::vector<uint8_t>> reference_outputs(const std::string& what,
                                                    const core::kernel_factories& kernels,
                                                    const core::frame_types& types,
                                                    const std::vector<std::vector<uint8_t>>& inputs,
                                                    Params params,
                                                    OutBytes out_bytes,
                                                    Decoded decoded)
{
    size_t max_in = 1, max_out = 0;
    for (size_t i = 0; i < inputs.size(); i++) {
        max_in = std::max(max_in, inputs[i].size());
        max_out = std::max(max_out, size_t(out_bytes(i)));
    }
    core::pipeline_config pc;
    pc.types = types;
    pc.slots = 2;
    pc.max_batch = 64;
    pc.max_in_bytes = max_in;
    pc.max_out_bytes = max_out;
    auto pipe = core::make_pipeline(kernels, { core::backend_kind::cpu, {}, "" }, pc);
    std::vector<std::vector<uint8_t>> out;
    out.reserve(inputs.size());
    auto take = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            if (f->rejected || !decoded(*f))
                fail(what + ": the reference run did not decode staged input " + std::to_string(out.size()));
            out.emplace_back(f->data, f->data + f->out_bytes);
            pipe->pop();
            block = false;
        }
    };
    for (size_t i = 0; i < inputs.size(); i++) {
        while (!pipe->can_accept())
            take(true);
        pipe->submit(inputs[i].data(), inputs[i].size(), out_bytes(i), params(i));
    }
    pipe->drain();
    take(false);
    if (out.size() != inputs.size())
        fail(what + ": the reference run lost frames");
    return out;
}

//! The registry entry \p name of \p all (fails when there is none).
template <class Config>
core::implementation_info registry_info(const std::vector<core::implementation<Config>>& all, const std::string& name)
{
    for (const auto& e : all)
        if (e.info.name == name)
            return e.info;
    fail("no implementation \"" + name + "\" in the registry");
}

/*!
 * How the outputs of the implementation \p name (registry entry \p info) are
 * checked: against its registry reference (itself when it is a reference),
 * bit for bit when the registry says so, else with the registry's fraction
 * of decisions as the tolerance (\p fallback when it states none).
 */
inline void set_rule(expected_outputs& e, const core::implementation_info& info, const std::string& name,
                     double fallback = 0.002)
{
    e.reference = info.reference.empty() ? name : info.reference;
    e.exact = info.reference.empty() || info.tolerance.bit_exact;
    e.tolerance = info.tolerance.decisions > 0 ? info.tolerance.decisions : fallback;
}

// ------------------------------------------------------------- harness

//! Frames of the timed part whose output is compared (the others are
//! counted and their status checked): one in sample_every, a prime, so the
//! compared ones cycle through every staged input; the warm-up compares all.
constexpr uint64_t sample_every = 61;

/*!
 * Runs \p warm frames (untimed), waits until they are all out, then \p total
 * frames timed from their first submission until the last is out; returns
 * those seconds. submit(pipe, first, n) hands over frames from number
 * \p first (counting the warm-up's), at most \p n, and returns how many it
 * took (>= 1 when pipe.can_accept()); out(frame, number, timed) sees each
 * frame out in order. Completed frames are collected after every
 * \p collect_every frames submitted, and whenever the pipeline is full.
 * Fails when a frame is lost.
 */
template <class Submit, class Out>
double timed_pipeline(core::batch_pipeline& pipe, size_t warm, size_t total, size_t collect_every, Submit submit,
                      Out out)
{
    using clk = std::chrono::steady_clock;
    size_t in = 0, done = 0, since = 0;
    // A batch's completed frames at a time: one completion query per run,
    // not per frame (on CUDA a driver call, which frame by frame cost the
    // caller more than the rest of its bookkeeping).
    auto take = [&](bool block) {
        for (;;) {
            const core::completed_run r = pipe.front_many(block);
            if (r.empty())
                return;
            for (size_t i = 0; i < r.size(); i++)
                out(r[i], done + i, done + i >= warm);
            pipe.pop_many(r.size());
            done += r.size();
            block = false;
        }
    };
    auto feed = [&](size_t until) {
        while (in < until) {
            if (!pipe.can_accept()) {
                take(true);
                continue;
            }
            const size_t n = submit(pipe, in, until - in);
            if (n == 0)
                fail("the pipeline took no frame although it accepts");
            in += n;
            since += n;
            if (since >= collect_every) {
                take(false);
                since = 0;
            }
        }
        pipe.drain();
        take(false);
    };
    feed(warm);
    if (done != warm)
        fail("warm-up: " + std::to_string(warm) + " frames in, " + std::to_string(done) + " out");
    const auto t0 = clk::now();
    feed(warm + total);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (done != warm + total)
        fail("timed run: " + std::to_string(total) + " frames in, " + std::to_string(done - warm) + " out");
    return secs;
}

} // namespace bench
} // namespace gpurx
} // namespace gr

#endif
