/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the benchmarks' --devices modes share (bench_turbo, bench_viterbi_gpu,
// bench_mimo, bench_lte_sch), none of it CUDA: which GPU counts a run
// measures, the --devices options, how kernel-bound launches on several GPUs
// are timed, the in-place producer of the end-to-end runs, and the tables
// (figures per GPU count with their ratio to linear; per device where an
// end-to-end run spent its time). The host's side (topology, links, copy
// rate) is bench_host_survey.h.
#ifndef INCLUDED_GPURX_BENCH_BENCH_DEVICES_H
#define INCLUDED_GPURX_BENCH_BENCH_DEVICES_H

#include "cuda/cuda_probe.h"
#include "pipeline/batch_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gr {
namespace gpurx {
namespace bench {

/*!
 * The GPU counts a --devices run measures: 1, 2, 4 and 8 where the host has
 * that many, then all of them when that is none of those (6 GPUs: 1, 2, 4,
 * 6). Empty when there is none.
 */
inline std::vector<size_t> device_counts(size_t available)
{
    std::vector<size_t> counts;
    for (size_t k : { 1, 2, 4, 8 })
        if (k <= available)
            counts.push_back(k);
    if (available > 0 && counts.back() != available)
        counts.push_back(available);
    return counts;
}

//! The usable devices of \p probe, by ordinal (the first k of them make a run of k GPUs).
inline std::vector<int> usable_devices(const core::cuda_probe_result& probe)
{
    std::vector<int> v;
    for (const auto& d : probe.devices)
        if (d.usable)
            v.push_back(d.ordinal);
    return v;
}

//! Why a --devices run measures nothing on this machine ("" when it can).
inline std::string no_devices_reason(const core::cuda_probe_result& probe)
{
    if (!probe.compiled_in)
        return "built without CUDA";
    if (!usable_devices(probe).empty())
        return "";
    if (!probe.problem.empty())
        return "no usable CUDA device (" + probe.problem + ")";
    if (!probe.devices.empty())
        return "no usable CUDA device (" + probe.devices[0].problem + ")";
    return "no usable CUDA device";
}

/*!
 * The --devices options every such benchmark takes:
 *   --devices            1, 2, 4, 8 and all GPUs in one run
 *   --device-threads N   host threads per GPU that stage and launch its
 *                        batches in the runs that use them (default: the
 *                        benchmark's)
 * Both "--opt N" and "--opt=N" are accepted.
 */
struct devices_options {
    bool on = false;
    int device_threads = 0; //!< 0: the benchmark's default

    /*!
     * Takes argv[i] (and its value) when it is one of these options: returns
     * true and leaves \p i on the last argument used. Throws
     * std::invalid_argument naming the option and its value when the value
     * is missing or not a whole number in 1..64.
     */
    bool parse(int argc, char** argv, int& i)
    {
        const std::string a = argv[i];
        if (a == "--devices") {
            on = true;
            return true;
        }
        const std::string name = "--device-threads";
        std::string value;
        if (a == name) {
            if (i + 1 >= argc)
                throw std::invalid_argument(name + ": needs a value (threads per GPU, 1..64)");
            value = argv[++i];
        } else if (a.rfind(name + "=", 0) == 0) {
            value = a.substr(name.size() + 1);
        } else {
            return false;
        }
        char* end = nullptr;
        const long v = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || v < 1 || v > 64)
            throw std::invalid_argument(name + " " + value + ": must be a whole number in 1..64");
        device_threads = int(v);
        return true;
    }
};

/*!
 * devices_options::parse() for a benchmark's argument loop: a bad value
 * prints "error: ..." naming the option and value and exits with status 2
 * (a usage error).
 */
inline bool parse_devices(devices_options& o, int argc, char** argv, int& i)
{
    try {
        return o.parse(argc, argv, i);
    } catch (const std::invalid_argument& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "error: %s\n", e.what());
        std::exit(2);
    }
}

//! \p value as a fraction of linear scaling: k times the one-GPU figure \p one (0 without one).
inline double of_linear(double value, double one, size_t k) { return one > 0 ? value / (one * double(k)) : 0.0; }

/*!
 * \p value as a fraction of what linear scaling allows where the host lets
 * it: the lower of k times \p one and \p bound (a bound the host sets, e.g.
 * the links all at once; <= 0: none).
 */
inline double of_linear_or_bound(double value, double one, size_t k, double bound)
{
    double ceiling = one * double(k);
    if (bound > 0)
        ceiling = std::min(ceiling, bound);
    return ceiling > 0 ? value / ceiling : 0.0;
}

/*!
 * Launches needed for a wall-timed kernel-bound figure: enough that \p target_s
 * seconds pass at \p one_launch_s per launch (so the host's launch calls and
 * the final synchronisation weigh little), within [lo, hi].
 */
inline int reps_for(double one_launch_s, double target_s = 0.5, int lo = 5, int hi = 2000)
{
    if (!(one_launch_s > 0) || !std::isfinite(one_launch_s))
        return lo;
    const double r = std::ceil(target_s / one_launch_s);
    return int(std::max<double>(lo, std::min<double>(hi, r)));
}

/*!
 * Wall seconds of \p reps launches on each of \p ndev devices, all at once:
 * launch(i) enqueues one launch on device i without waiting, the devices in
 * turn, reps times; finish(i) waits for device i. The wall time covers all
 * of them (kernel-bound: each GPU its own resident batch). \p launch_s,
 * when given, gets per device the host seconds spent inside launch(i): with
 * one thread launching on every GPU, their sum per round is the least time a
 * round of launches takes, whatever the GPUs.
 */
template <class Launch, class Finish>
double timed_launches(size_t ndev, int reps, Launch launch, Finish finish, std::vector<double>* launch_s = nullptr)
{
    using clk = std::chrono::steady_clock;
    std::vector<double> host(ndev, 0.0);
    const auto t0 = clk::now();
    for (int r = 0; r < reps; r++)
        for (size_t i = 0; i < ndev; i++) {
            const auto a = clk::now();
            launch(i);
            host[i] += std::chrono::duration<double>(clk::now() - a).count();
        }
    for (size_t i = 0; i < ndev; i++)
        finish(i);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (launch_s)
        *launch_s = host;
    return secs;
}

/*!
 * timed_launches() with a thread per device, as a deployment drives each
 * GPU from a thread of its own: thread i enqueues launch(i) \p reps times
 * without waiting, then finish(i). The wall time runs from the moment every
 * thread is released until the last has finished; \p launch_s, when given,
 * gets per device the host seconds inside launch(i). What one thread must
 * do per launch (a kernel's host-side set-up, the driver's calls) then no
 * longer adds up over the GPUs. launch and finish of different devices run
 * at once; of one device, in its thread, in order.
 */
template <class Launch, class Finish>
double
timed_launches_threaded(size_t ndev, int reps, Launch launch, Finish finish, std::vector<double>* launch_s = nullptr)
{
    using clk = std::chrono::steady_clock;
    std::vector<double> host(ndev, 0.0);
    std::mutex m;
    std::condition_variable cv;
    bool go = false;
    std::vector<std::thread> threads;
    threads.reserve(ndev);
    for (size_t i = 0; i < ndev; i++)
        threads.emplace_back([&, i] {
            {
                std::unique_lock<std::mutex> lock(m);
                cv.wait(lock, [&] { return go; });
            }
            double h = 0;
            for (int r = 0; r < reps; r++) {
                const auto a = clk::now();
                launch(i);
                h += std::chrono::duration<double>(clk::now() - a).count();
            }
            finish(i);
            host[i] = h; // each thread its own element
        });
    const auto t0 = clk::now();
    {
        std::lock_guard<std::mutex> lock(m);
        go = true;
    }
    cv.notify_all();
    for (auto& t : threads)
        t.join();
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (launch_s)
        *launch_s = host;
    return secs;
}

/*!
 * The producer writing in place (the submit step of timed_pipeline): frames
 * booked a batch at a time with begin_frames(), so that frame \p in goes to
 * staging position in mod \p warm (whole batches, the slots in turn; warm:
 * the pipeline's slots over all devices times \p max_batch). The warm-up
 * (in < warm) writes each position once, write(dst, position); the timed
 * frames reuse what is staged there, unless \p always_write. Each frame's
 * user tag is its position. At the first timed frame the pipeline's stage
 * times start again (reset_stats: the timed part's alone). Returns the
 * frames booked.
 */
template <class Write>
size_t submit_in_place(core::batch_pipeline& p,
                       size_t in,
                       size_t n,
                       size_t warm,
                       size_t max_batch,
                       size_t in_bytes,
                       size_t out_bytes,
                       const void* params,
                       Write write,
                       bool always_write = false)
{
    if (in == warm)
        p.reset_stats();
    // Whole batches: runs never cross a multiple of max_batch.
    const size_t pos = in % warm;
    n = std::min(n, max_batch - in % max_batch);
    const core::frame_run r = p.begin_frames(n, in_bytes, out_bytes, params, pos, 1);
    if (in < warm || always_write)
        for (size_t i = 0; i < r.count; i++)
            write(r.frame(i), pos + i);
    p.commit_frames();
    return r.count;
}

//! A checked multi-device figure and what stands behind it.
struct device_figure {
    double gbps = 0, bound = 0; //!< the checked figure and its bound
    size_t frames = 0, compared = 0;
    double secs = 0;                                 //!< timed wall time (end to end)
    std::vector<core::pipeline_device_stats> stages; //!< per device, timed part (end to end)
    size_t device_threads = 0;                       //!< the pipeline's (end to end)
    //! Of the caller's time, comparing the sampled frames' outputs (timed
    //! part; 0: not measured).
    double compare_s = 0;
};

//! A column of a scaling table: one figure per GPU count.
struct scaling_column {
    std::string title;
    std::vector<double> values; //!< per row, the counts' order
    bool ratio = true;          //!< print "(x)": the row's ratio to linear (k times the first row)
    int decimals = 2;
};

/*!
 * A markdown table, a row per GPU count (\p counts, the first one the
 * reference of the ratios): per column the figure, and where the column
 * asks, its ratio to linear in parentheses.
 */
inline std::string scaling_table(const std::vector<size_t>& counts, const std::vector<scaling_column>& cols)
{
    std::string s = "| GPUs |";
    for (const auto& c : cols)
        s += " " + c.title + (c.ratio ? " (of linear)" : "") + " |";
    s += "\n|---|";
    for (size_t i = 0; i < cols.size(); i++)
        s += "---|";
    s += "\n";
    char b[96];
    for (size_t r = 0; r < counts.size(); r++) {
        s += "| " + std::to_string(counts[r]) + " |";
        for (const auto& c : cols) {
            const double v = r < c.values.size() ? c.values[r] : 0.0;
            // Linear: the first row's figure per GPU times this row's GPUs.
            const double base = c.values.empty() || counts[0] == 0 ? 0.0 : c.values[0] / double(counts[0]);
            if (c.ratio)
                std::snprintf(b, sizeof b, " %.*f (%.2f) |", c.decimals, v, of_linear(v, base, counts[r]));
            else
                std::snprintf(b, sizeof b, " %.*f |", c.decimals, v);
            s += b;
        }
        s += "\n";
    }
    return s;
}

/*!
 * The scaling targets, a line per GPU count past the first: the
 * kernel-bound figure (\p kernel) at least 0.95 of linear, each end-to-end
 * column of \p e2e at least 0.8 of linear where the host allows it (of the
 * lower of linear and \p host_bound, the host's bound at that count: its
 * links all at once, its memory). "met" or "MISSED" after each ratio.
 */
inline std::string target_lines(const std::vector<size_t>& counts,
                                const std::vector<double>& kernel,
                                const std::vector<scaling_column>& e2e,
                                const std::vector<double>& host_bound)
{
    constexpr double kernel_target = 0.95, e2e_target = 0.8;
    std::string s;
    char b[256];
    auto verdict = [](double x, double t) { return x >= t ? "met" : "MISSED"; };
    for (size_t r = 1; r < counts.size(); r++) {
        const double kx = r < kernel.size() && !kernel.empty() ? of_linear(kernel[r], kernel[0], counts[r]) : 0.0;
        std::snprintf(b, sizeof b, "%zu GPUs: kernel-bound %.2f of linear (target %.2f: %s)", counts[r], kx,
                      kernel_target, verdict(kx, kernel_target));
        s += b;
        for (const auto& c : e2e) {
            if (r >= c.values.size() || c.values.empty())
                continue;
            const double bound = r < host_bound.size() ? host_bound[r] : 0.0;
            const double x = of_linear_or_bound(c.values[r], c.values[0], counts[r], bound);
            std::snprintf(b, sizeof b, "; %s %.2f of min(linear, host bound %.1f) (target %.2f: %s)",
                          c.title.c_str(), x, bound, e2e_target, verdict(x, e2e_target));
            s += b;
        }
        s += "\n";
    }
    return s;
}

inline std::string percent(double x) { return std::to_string(int(std::lround(100 * x))) + "%"; }

/*!
 * Where an end-to-end run's time went, per device: the host's copies into
 * the staging (GB/s while copying, share of the wall time the device's
 * copy threads were busy), enqueueing (us per batch), the caller waiting
 * for the device's batches (share of the wall time), and on the device the
 * input copies, kernel and output copies (GB/s or ms per batch, and how
 * busy the copy engines and SMs were). The busiest part bounds the run.
 * \p frame_bits: the bits a frame counts (what one caller alone could feed).
 */
inline void print_stages(const std::string& what, const device_figure& f, double frame_bits)
{
    std::printf("\n%s: %.2f Gbit/s, %.3f s timed, device threads per GPU: %zu\n\n", what.c_str(), f.gbps, f.secs,
                f.device_threads);
    std::printf("busy: a stage's time summed over the batches / wall time; a stage's time includes waiting "
                "behind the same GPU's other slots, so near or above 100%% that part never rests\n\n");
    std::printf("| device | batches | host copy GB/s (busy) | enqueue us/batch (busy) | caller waits for it | "
                "H2D GB/s (busy) | kernel ms/batch (busy) | D2H GB/s (busy) |\n|---|---|---|---|---|---|---|---|\n");
    double waited = 0, busiest = 0;
    std::string busiest_what = "-";
    auto note = [&](double busy, const std::string& name) {
        if (busy > busiest) {
            busiest = busy;
            busiest_what = name;
        }
    };
    const double w = f.secs > 0 ? f.secs : 1;
    for (const auto& d : f.stages) {
        const double nb = double(std::max<uint64_t>(1, d.batches));
        const auto& g = d.device;
        const double gb = double(std::max<uint64_t>(1, g.batches));
        char copy[64] = "-";
        if (d.staged_bytes > 0 && d.copy_s > 0)
            std::snprintf(copy, sizeof copy, "%.1f (%s)", d.staged_bytes / d.copy_s / 1e9,
                          percent(d.copy_s / w).c_str());
        std::printf("| %s | %llu | %s | %.0f (%s) | %s | %.1f (%s) | %.3f (%s) | %.1f (%s) |\n", d.label.c_str(),
                    (unsigned long long)d.batches, copy, 1e6 * d.launch_s / nb, percent(d.launch_s / w).c_str(),
                    percent(d.wait_s / w).c_str(), g.h2d_s > 0 ? g.h2d_bytes / g.h2d_s / 1e9 : 0.0,
                    percent(g.h2d_s / w).c_str(), 1e3 * g.kernel_s / gb, percent(g.kernel_s / w).c_str(),
                    g.d2h_s > 0 ? g.d2h_bytes / g.d2h_s / 1e9 : 0.0, percent(g.d2h_s / w).c_str());
        waited += d.wait_s;
        note((d.copy_s + d.launch_s) / w, "the thread(s) staging and launching for " + d.label);
        note(g.h2d_s / w, "H2D copies of " + d.label);
        note(g.kernel_s / w, "kernel of " + d.label);
        note(g.d2h_s / w, "D2H copies of " + d.label);
    }
    // The caller books every frame, takes every frame out and checks it,
    // and without device threads copies and enqueues too: what it did not
    // spend waiting for a device, it spent working.
    const double caller_busy = 1 - waited / w;
    note(caller_busy, "the caller (booking, taking out, checking frames)");
    // Per frame, what the caller spent when not waiting: the rate one
    // thread could feed at most, whatever the GPUs.
    const double ns = f.frames ? 1e9 * (w - waited) / double(f.frames) : 0;
    std::printf("\ncaller busy (not waiting for a device): %s of the wall time, %.0f ns per frame (alone it "
                "could feed %.1f Gbit/s of %.0f-bit frames); busiest: %s, %s\n",
                percent(caller_busy).c_str(), ns, ns > 0 ? frame_bits / ns : 0.0, frame_bits, busiest_what.c_str(),
                percent(busiest).c_str());
    if (f.compare_s > 0 && f.frames)
        std::printf("of the caller's time, comparing the sampled frames' outputs with the reference's: %.0f ns per "
                    "frame\n",
                    1e9 * f.compare_s / double(f.frames));
}

} // namespace bench
} // namespace gpurx
} // namespace gr

#endif
