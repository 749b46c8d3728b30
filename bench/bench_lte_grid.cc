/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE receiver's per-subframe front end (OFDM demodulation and the CRS
// channel estimate), subframes per second, for a 20 MHz 2x2 cell: 100 PRB,
// FFT 2048, 2 CRS ports, 2 receive antennas, normal CP.
//
//   CPU   ofdm_demodulator + channel_estimator on one core (this thread).
//   GPU   grid_gpu (lte/grid/cuda/), --batch subframes per batch (20):
//         end to end, host to host: submit() from the caller's (pageable)
//         buffer, two batches in flight, collect() into the grid and
//         estimate vectors; and the kernels alone (its FFT and kernels, in
//         device time, from run() one batch at a time).
// The input is complex white noise (the work does not depend on the
// values). Checks before any figure is printed: the GPU's first batch equals
// the CPU's on the same samples (grid within 1e-4 of its RMS, estimate
// within 1e-3 of its RMS, noise_var within 1%: test_grid_cuda's tolerances);
// the end-to-end figure is not above the PCIe bound for the bytes it moves
// (15 x 2048 x 2 antennas x 8 bytes in, the grid and the estimate out, per
// subframe) at the pinned copy rates measured in the run, nor the kernel
// figure above the GPU memory's bound for the input read and the results
// written (bench_checks.h).
//   --batch N       subframes per GPU batch (20)
//   --seconds S     about how long each figure is measured (2)
//   --device D      CUDA device ordinal (0)
//   --cpu           the CPU figure only
#include "bench/bench_checks.h"
#include "cuda/cuda_probe.h"
#include "lte/common/lte_cell.h"
#include "lte/common/resource_grid.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/ofdm_demod.h"
#ifdef GPURX_HAVE_CUDA
#include "lte/grid/cuda/grid_gpu.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace gr::gpurx;
using namespace gr::gpurx::core::lte;

namespace {

struct options {
    int batch = 20;
    double seconds = 2.0;
    int device = 0;
    bool cpu_only = false;
};

options parse(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc)
                bench::fail(a + " needs a value");
            return argv[++i];
        };
        if (a == "--batch")
            o.batch = std::atoi(value());
        else if (a == "--seconds")
            o.seconds = std::atof(value());
        else if (a == "--device")
            o.device = std::atoi(value());
        else if (a == "--cpu")
            o.cpu_only = true;
        else
            bench::fail("unknown option " + a + " (--batch N, --seconds S, --device D, --cpu)");
    }
    if (o.batch < 1 || !(o.seconds > 0))
        bench::fail("--batch must be at least 1 and --seconds positive");
    return o;
}

constexpr int n_rx = 2, fft_size = 2048;

cell bench_cell()
{
    cell c;
    c.n_prb = 100;
    c.cell_id = 301;
    c.ports = 2;
    return c;
}

subframe_time time_of(long abs)
{
    subframe_time t;
    t.sfn = int((abs / 10) % 1024);
    t.subframe = int(abs % 10);
    return t;
}

//! \p count subframes of complex white noise, [subframe][antenna][15 N].
std::vector<cf> noise_samples(int count)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> g(0.0f, 0.70710678f);
    std::vector<cf> v(size_t(count) * n_rx * 15 * fft_size);
    for (auto& x : v)
        x = cf(g(rng), g(rng));
    return v;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

//! The CPU's grids and estimates of \p count subframes of \p samples, from time \p first on.
struct cpu_chain {
    ofdm_demodulator dem{ bench_cell(), fft_size, n_rx };
    channel_estimator ce{ bench_cell(), n_rx };
    void run(const cf* samples, long first, int count, std::vector<subframe_grid>& g, std::vector<channel_estimate>& e)
    {
        g.resize(size_t(count));
        e.resize(size_t(count));
        const size_t per = size_t(dem.subframe_samples());
        for (int b = 0; b < count; b++) {
            const cf* rx[n_rx];
            for (int a = 0; a < n_rx; a++)
                rx[a] = samples + (size_t(b) * n_rx + size_t(a)) * per;
            dem.demodulate(rx, time_of(first + b), g[size_t(b)]);
            if (!ce.estimate(g[size_t(b)], e[size_t(b)]))
                bench::fail("the CPU estimator refused subframe " + std::to_string(b));
        }
    }
};

double run_cpu(const options& o, const std::vector<cf>& samples, int count)
{
    cpu_chain cpu;
    std::vector<subframe_grid> g;
    std::vector<channel_estimate> e;
    cpu.run(samples.data(), 0, count, g, e); // warm-up: FFTW's plan
    long done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    while (seconds_since(t0) < o.seconds) {
        cpu.run(samples.data(), count + done, count, g, e);
        done += count;
    }
    const double rate = double(done) / seconds_since(t0);
    std::printf("CPU, one core: %s subframes/s (%ld subframes, ofdm_demodulator + channel_estimator)\n",
                bench::num(rate).c_str(), done);
    return rate;
}

#ifdef GPURX_HAVE_CUDA
double rms(const std::vector<cf>& v)
{
    double s = 0.0;
    for (const cf& x : v)
        s += std::norm(x);
    return v.empty() ? 0.0 : std::sqrt(s / double(v.size()));
}

double worst(const std::vector<cf>& a, const std::vector<cf>& b)
{
    if (a.size() != b.size())
        return INFINITY;
    double w = 0.0;
    for (size_t i = 0; i < a.size(); i++)
        w = std::max(w, double(std::abs(a[i] - b[i])));
    return w;
}

void run_gpu(const options& o, const std::vector<cf>& samples, double cpu_rate)
{
    const auto& probe = core::probe_cuda();
    if (o.device < 0 || o.device >= int(probe.devices.size()) || !probe.devices[size_t(o.device)].usable) {
        std::printf("GPU: no usable CUDA device %d: nothing to measure on the GPU\n", o.device);
        return;
    }
    const std::string dev_name = probe.devices[size_t(o.device)].name;
    const int B = o.batch;
    grid_gpu gpu(bench_cell(), fft_size, n_rx, B, o.device);
    std::vector<subframe_grid> grids;
    std::vector<channel_estimate> ests;

    // 1. The first batch against the CPU.
    {
        cpu_chain cpu;
        std::vector<subframe_grid> cg;
        std::vector<channel_estimate> ce;
        cpu.run(samples.data(), 0, B, cg, ce);
        if (gpu.run(samples.data(), time_of(0), grids, ests) != B)
            bench::fail("the GPU's estimate failed on a subframe of the first batch");
        for (int b = 0; b < B; b++) {
            const double gw = worst(grids[size_t(b)].re, cg[size_t(b)].re), grid_rms = rms(cg[size_t(b)].re);
            const double ew = worst(ests[size_t(b)].h, ce[size_t(b)].h), er = rms(ce[size_t(b)].h);
            const double nv = ests[size_t(b)].noise_var, cnv = ce[size_t(b)].noise_var;
            if (!(gw <= 1e-4 * grid_rms) || !(ew <= 1e-3 * er) || !(std::fabs(nv - cnv) <= 0.01 * cnv + 1e-6))
                bench::fail("subframe " + std::to_string(b) + " of the first batch differs from the CPU's: grid " +
                            bench::num(gw / grid_rms) + " of its RMS, estimate " + bench::num(ew / er) +
                            " of its RMS, noise_var " + bench::num(nv) + " against " + bench::num(cnv));
        }
        std::printf("GPU %d (%s): the first batch of %d subframes equals the CPU's\n", o.device, dev_name.c_str(),
                    B);
    }

    // 2. End to end: two batches in flight, the same samples, times running on.
    long abs = B;
    for (int w = 0; w < 4; w++) { // warm-up
        if (gpu.in_flight() == 2)
            gpu.collect(grids, ests);
        gpu.submit(samples.data(), time_of(abs));
        abs += B;
    }
    while (gpu.in_flight() > 0)
        gpu.collect(grids, ests);
    long done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    while (seconds_since(t0) < o.seconds || done < 8L * B) {
        if (gpu.in_flight() == 2) {
            if (gpu.collect(grids, ests) != B)
                bench::fail("a GPU estimate failed during the timed run");
            done += B;
        }
        gpu.submit(samples.data(), time_of(abs));
        abs += B;
    }
    while (gpu.in_flight() > 0) {
        if (gpu.collect(grids, ests) != B)
            bench::fail("a GPU estimate failed during the timed run");
        done += B;
    }
    const double e2e = double(done) / seconds_since(t0);

    // 3. The kernels alone (device time), one batch at a time.
    double kernel_ms = 0.0;
    int runs = 0;
    const auto t1 = std::chrono::steady_clock::now();
    while (seconds_since(t1) < o.seconds / 2 || runs < 8) {
        gpu.run(samples.data(), time_of(abs), grids, ests);
        abs += B;
        kernel_ms += gpu.last_kernel_ms();
        runs++;
    }
    const double kernels = double(runs) * B / (kernel_ms * 1e-3);

    // Bounds.
    const double in_bytes = 15.0 * fft_size * n_rx * sizeof(cf);
    const double out_bytes = double(grids[0].re.size() + ests[0].h.size()) * sizeof(cf) + sizeof(float) + sizeof(int);
    const bench::link_rates link = bench::measure_link(o.device);
    const double link_bound = 1e9 / std::max({ in_bytes / link.h2d, out_bytes / link.d2h,
                                               (in_bytes + out_bytes) / link.both });
    bench::check_bound("GPU end to end", e2e, link_bound, "subframes/s",
                       "PCIe: " + bench::num(in_bytes) + " B in and " + bench::num(out_bytes) +
                           " B out per subframe at " + link.describe());
    const bench::gpu_limits lim = bench::gpu_limits::of(o.device);
    const double mem_bound = lim.dram_gbs * 1e9 / (in_bytes + out_bytes);
    bench::check_bound("GPU kernels", kernels, mem_bound, "subframes/s",
                       "device memory: the input read and the results written once, " + bench::num(lim.dram_gbs) +
                           " GB/s peak");
    std::printf("GPU %d (%s), batches of %d, two in flight:\n", o.device, dev_name.c_str(), B);
    std::printf("  end to end, host to host: %s subframes/s (%ld subframes; PCIe bound %s: %s)\n",
                bench::num(e2e).c_str(), done, bench::num(link_bound).c_str(), link.describe().c_str());
    std::printf("  kernels and FFT alone:    %s subframes/s (%.3f ms per batch, device time)\n",
                bench::num(kernels).c_str(), kernel_ms / runs);
    std::printf("  against the CPU's one core: end to end %.1fx, kernels %.1fx; 20 MHz 2x2 cells in real time "
                "(1000 subframes/s each): %.1f end to end, %.1f kernels alone\n",
                e2e / cpu_rate, kernels / cpu_rate, e2e / 1000.0, kernels / 1000.0);
}
#endif

} // namespace

int main(int argc, char** argv)
{
    const options o = parse(argc, argv);
    std::printf("bench_lte_grid: 100 PRB, FFT %d, 2 CRS ports, %d receive antennas, normal CP\n", fft_size, n_rx);
    const std::vector<cf> samples = noise_samples(o.batch);
    const double cpu_rate = run_cpu(o, samples, o.batch);
    if (o.cpu_only)
        return 0;
#ifdef GPURX_HAVE_CUDA
    run_gpu(o, samples, cpu_rate);
#else
    (void)cpu_rate;
    std::printf("GPU: built without CUDA: nothing to measure on the GPU\n");
#endif
    return 0;
}
