/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// MIMO detector throughput in coded bits detected per second (vectors x nt x
// bits per symbol), per implementation, shape, modulation and vectors per
// channel (N), for each backend the build has:
//   kernel  the CUDA kernels alone on a device-resident batch (QR per frame
//           included): prepare + detect + finish, timed with events
//   qr      the per-frame preparation alone (QR, or the LMMSE filter), as
//           coded bits of the frames it serves per second
//   e2e     through the batch pipeline, host in to host out (cuda backend),
//           frames of C channels (--e2e-channels, default 64; mimo_frame.h)
//           submitted with submit_many() from a contiguous pool; with
//           --in-place, left in that pool (pinned) and DMA'd from there
//           (submit_many_in_place(): no host copy of the input)
//   pcie    the bound PCIe sets on e2e: the bytes each frame moves in and out
//           (records included) at the pinned rates measured in this run,
//           each way and both at once
//   cpu     the CPU twin through the pipeline on all cores
// With --int8-out, also e2e, its PCIe bound and the CPU twin with int8 LLRs
// out (llr_type "int8": a quarter of the output bytes), next to the float
// figures of the same run.
// Noisy Rayleigh channels at 16 dB, no priors.
//
// Every figure is checked first (bench_checks.h): every frame's status is OK
// (or rank-deficient: finite LLRs), and the LLRs' signs agree with those of
// the implementation's CPU twin (its registry reference, cpu-<algorithm>) on
// the same channels for at least 99% of the coded bits (kernel: every frame of
// the timed launches' last; e2e and cpu: the warm-up's frames and one timed
// frame in 61). Bounds: kernel and qr, the GPU's memory for the bytes the
// launch must read and write (the channels and vectors in, the LLRs out; qr:
// the channels), beyond what its L2 holds; e2e, PCIe as above; cpu, the
// threads' load/store ports at 256 bytes per clock for those bytes. A failed
// check prints an error and exits with status 1.
//
//   bench_mimo [--quick] [--vectors N] [--frames F] [--only NAME] [--no-cpu] [--staging T]
//              [--e2e-batch B] [--e2e-bits X] [--e2e-reps R] [--e2e-channels C] [--slots S] [--int8-out] [--nt N] [--bits B] [--kernel-only]
//              [--reps R] [--graph] [--in-place] [--devices [--device-threads N]]
// B: channels per batch (frames of C channels: B / C frames); X: coded bits
// timed per e2e figure (at least; 1e9, --quick 1e8); R: e2e runs per figure,
// the median reported with the range (3; --quick 1);
// --nt, --bits: only the rows of that many streams / bits per symbol;
// --kernel-only: the kernel and qr columns alone (no e2e, no CPU twin);
// --reps: batches timed for those two columns (20; --quick 3);
// --graph: after each row, the host's microseconds per batch of enqueue()
// calls and the device's per batch from CUDA graph replays (no launch costs):
// the whole batch, the prepare step alone, the detect step alone.
// --devices: 1, 2, 4, 8 and all GPUs in one run (bench_devices.h), one shape
// (the first row the filters leave: cuda-mtt-fast 4x4 16-QAM by default),
// float LLRs out: kernel-bound (each GPU its own resident batch of --frames
// channels, 200000 by default, 50000 with --quick; the launches of all GPUs
// timed together over about half a second; every frame of each GPU's last
// launch checked) and end to end through one pipeline over the GPUs (frames
// of --e2e-channels channels written into the staging in place a batch of
// --e2e-batch channels at a time, --slots per GPU, --e2e-bits coded bits per
// GPU timed; the caller launching, then --device-threads threads per GPU,
// default 1), with the host's topology, links and copy rate
// (bench_host_survey.h), per device where each end-to-end run spent its
// time, and each figure's ratio to linear.
#include "bench_checks.h"
#include "bench_devices.h"
#include "mimo/mimo_frame.h"
#include "mimo/mimo_implementations.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"
#include "cuda/host_pinning.h"
#ifdef GPURX_HAVE_CUDA
#include "cuda/cuda_check.h"
#include "mimo/cuda/mimo_launch.h"
#include "bench_host_survey.h"
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;
using cf = std::complex<float>;

namespace {

struct shape_case {
    std::string impl;
    int nt, nr, bits, k;
};

// F frames of N vectors: H ~ CN(0, 1), y = H s + n at 16 dB per receive antenna.
std::vector<std::vector<cf>> make_frames(const shape_case& c, int frames, int vectors, float n0)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> g(0.0f, std::sqrt(0.5f));
    std::normal_distribution<float> noise(0.0f, std::sqrt(n0 / 2));
    const float scale = c.bits == 2 ? 0.7071f : c.bits == 4 ? 0.3162f : c.bits == 6 ? 0.1543f : 0.0767f;
    const int m = 1 << (c.bits / 2);
    std::uniform_int_distribution<int> level(0, m - 1);
    std::vector<std::vector<cf>> out(frames);
    for (auto& f : out) {
        std::vector<cf> h(size_t(c.nr) * c.nt);
        for (auto& x : h)
            x = cf(g(rng), g(rng));
        f = h;
        for (int v = 0; v < vectors; v++) {
            std::vector<cf> s(c.nt);
            for (auto& x : s)
                x = cf(float(2 * level(rng) - (m - 1)) * scale, float(2 * level(rng) - (m - 1)) * scale);
            for (int r = 0; r < c.nr; r++) {
                cf acc(noise(rng), noise(rng));
                for (int t = 0; t < c.nt; t++)
                    acc += h[size_t(r) * c.nt + t] * s[t];
                f.push_back(acc);
            }
        }
    }
    return out;
}

using core::mimo::llr_format;

core::mimo_config config_of(const shape_case& c, const std::string& impl,
                            llr_format llr = llr_format::float32)
{
    core::mimo_config cfg;
    cfg.llr_type = llr;
    cfg.nt = c.nt;
    cfg.nr = c.nr;
    cfg.modulation = core::qam::modulation_of_bits(c.bits);
    cfg.k = c.k;
    cfg.implementation = impl;
    return cfg;
}

size_t g_slots = 3; // --slots: batches in flight in the e2e and CPU pipelines
bool g_in_place = false; // --in-place: e2e input DMA'd from the pool (pinned), not staged

//! A frame that was detected: status OK, or rank-deficient (finite LLRs).
bool detected(const core::completed_frame& f)
{
    if (f.rejected)
        return false;
    const int32_t st = f.result_as<core::mimo::frame_result>()->status;
    return st == core::mimo::STATUS_OK || st == core::mimo::STATUS_RANK_DEFICIENT;
}

//! The LLRs of every channel of `frames` (one channel per frame) from the
//! CPU twin \p twin: what every implementation's LLR signs must agree with.
struct channel_reference {
    std::string twin;
    llr_format llr = llr_format::float32;
    std::vector<std::vector<uint8_t>> out; //!< per channel
};

channel_reference reference_of(const shape_case& c, const std::string& twin, const std::vector<std::vector<cf>>& frames,
                               int vectors, float n0, llr_format llr)
{
    auto cfg = config_of(c, twin, llr);
    cfg.noise_variance = n0;
    const auto choice = core::choose_mimo_implementation(cfg);
    if (choice.cpu != twin)
        bench::fail("mimo: the CPU twin " + twin + " cannot run this shape (" + choice.note + ")");
    const core::mimo::frame_params p = core::mimo::frame_params_for(cfg, vectors, -1.0f, 1);
    const size_t in_bytes = core::mimo::frame_in_bytes(p);
    std::vector<std::vector<uint8_t>> in(frames.size());
    for (size_t i = 0; i < frames.size(); i++) {
        const auto* b = reinterpret_cast<const uint8_t*>(frames[i].data());
        in[i].assign(b, b + in_bytes);
    }
    channel_reference r;
    r.twin = twin;
    r.llr = llr;
    r.out = bench::reference_outputs(
        "mimo " + twin, core::mimo_kernel_factories(cfg, choice), core::mimo::frame_types_of(), in,
        [&](size_t) { return &p; }, [&](size_t) { return core::mimo::frame_out_bytes(p, llr); }, detected);
    return r;
}

//! Expected outputs of frames that hold the channels channels_of(i), from \p ref.
template <class Channels>
bench::expected_outputs expected_of(const channel_reference& ref, size_t nframes, Channels channels_of)
{
    bench::expected_outputs e;
    e.reference = ref.twin;
    e.exact = false;
    e.kind = ref.llr == llr_format::int8 ? bench::compare_kind::sign_i8 : bench::compare_kind::sign_f32;
    e.tolerance = 0.01;
    e.out.resize(nframes);
    for (size_t i = 0; i < nframes; i++)
        for (size_t ch : channels_of(i))
            e.out[i].insert(e.out[i].end(), ref.out[ch].begin(), ref.out[ch].end());
    return e;
}

//! Input and output bytes per coded bit of a frame of \p p.
double bytes_per_coded_bit(const core::mimo::frame_params& p, llr_format llr)
{
    const double bits = double(p.channels) * p.vectors * p.nt * p.bits_per_symbol;
    return double(core::mimo::frame_in_bytes(p) + core::mimo::frame_out_bytes(p, llr)) / bits;
}

struct figure {
    double gbps = 0, bound = 0;
    size_t frames = 0, compared = 0;
};

std::vector<bench::link_rates> g_links; // device 0's, measured at the start (CUDA)

// Gbit/s through a pipeline on `where` (frames cycled), checked: an untimed
// warm-up of one full pipeline (every frame compared), drained, then the
// timed frames (at least twice the warm-up) from the first submission until
// the last is out (one in 61 compared). staging_threads > 0: the frames go
// in as a contiguous pool through submit_many() (one call per run of
// frames, the copies into the staging spread over that many threads), as a
// producer holding many equal frames would; 0: one submit() per frame.
// \p max_batch and \p total count channels; a frame holds \p channels of
// them (the channels of `frames`, one after another).
figure pipeline_gbps(const shape_case& c, const std::string& impl, const core::backend_choice& where,
                     const std::vector<std::vector<cf>>& frames, int vectors, float n0, size_t max_batch,
                     size_t total, size_t threads, const channel_reference& ref, const std::string& what,
                     size_t staging_threads = 0, llr_format llr = llr_format::float32, int channels = 1)
{
    auto cfg = config_of(c, impl, llr);
    cfg.noise_variance = n0;
    cfg.max_channels = channels;
    const auto choice = core::choose_mimo_implementation(cfg);
    const core::mimo::frame_params p = core::mimo::frame_params_for(cfg, vectors, -1.0f, channels);
    total = std::max<size_t>(1, total / size_t(channels));
    core::pipeline_config pc;
    pc.types = core::mimo::frame_types_of();
    pc.slots = g_slots;
    pc.max_batch = std::max<size_t>(1, max_batch / size_t(channels));
    pc.max_in_bytes = core::mimo::frame_in_bytes(p);
    pc.max_out_bytes = core::mimo::frame_out_bytes(p, llr);
    pc.flush_timeout = std::chrono::microseconds(1000);
    pc.cpu_threads = threads;
    if (staging_threads)
        pc.staging_threads = staging_threads;
    // The pool for submit_many() (and the frames of submit()): the channels
    // repeated, back to back.
    const size_t in_bytes = pc.max_in_bytes, pool = staging_threads ? pc.max_batch : 0;
    const size_t nsrc = std::max<size_t>(pool, (frames.size() + channels - 1) / channels);
    const size_t cb = core::mimo::channel_in_bytes(p);
    // In place, frames sit at the staging's stride (16-byte aligned) and the
    // pool is pinned; a staged pool is plain memory, as a producer's is.
    const bool in_place = g_in_place && pool && where.kind == core::backend_kind::cuda;
    const size_t stride = in_place ? (in_bytes + 15) & ~size_t(15) : in_bytes;
    std::vector<uint8_t> src(nsrc * stride);
    for (size_t i = 0; i < nsrc; i++)
        for (size_t ch = 0; ch < size_t(channels); ch++)
            std::memcpy(&src[i * stride + ch * cb], frames[(i * channels + ch) % frames.size()].data(), cb);
    // Source frame i holds channels (i * channels + ch) mod the channel count.
    const auto expected = expected_of(ref, nsrc, [&](size_t i) {
        std::vector<size_t> v(channels);
        for (size_t ch = 0; ch < size_t(channels); ch++)
            v[ch] = (i * channels + ch) % frames.size();
        return v;
    });
    std::unique_ptr<core::pinned_host_region> pin;
    if (in_place)
        pin = std::make_unique<core::pinned_host_region>(src.data(), src.size());
    // Made after the pool and its pinning, so destroyed before them: the
    // pipeline waits for its batches (and their DMA from the pool) first.
    auto pipe = core::make_pipeline(core::mimo_kernel_factories(cfg, choice), where, pc);
    const size_t warm = pipe->config().slots * pc.max_batch;
    total = std::max(total, 2 * warm);
    total = (total + pc.max_batch - 1) / pc.max_batch * pc.max_batch;
    bench::frame_check check(what, &expected);
    const double secs = bench::timed_pipeline(
        *pipe, warm, total, 1,
        [&](core::batch_pipeline& pp, size_t in, size_t left) -> size_t {
            if (pool) {
                const size_t at = in % pool, n = std::min(pool - at, left);
                return in_place ? pp.submit_many_in_place(&src[at * stride], in_bytes, pc.max_out_bytes, &p, n)
                                : pp.submit_many(&src[at * in_bytes], in_bytes, in_bytes, pc.max_out_bytes, &p, n);
            }
            pp.submit(&src[(in % nsrc) * in_bytes], pc.max_in_bytes, pc.max_out_bytes, &p);
            return 1;
        },
        [&](const core::completed_frame& f, size_t number, bool timed) {
            if (f.seq != number)
                bench::fail(what + ": frame " + std::to_string(f.seq) + " came out as number " + std::to_string(number));
            check.add(pool ? number % pool : number % nsrc, f.data, f.out_bytes, detected(f),
                      !timed || number % bench::sample_every == 0);
        });
    check.require(warm + total);
    figure r;
    r.frames = total;
    r.compared = check.compared;
    const double gbps = double(total) * channels * vectors * c.nt * c.bits / secs / 1e9;
    const double coded_bits = double(channels) * vectors * c.nt * c.bits;
    if (where.kind == core::backend_kind::cpu) {
        const auto limits = bench::cpu_limits::of_this_machine();
        const double lane = bytes_per_coded_bit(p, llr);
        r.bound = limits.bound_gbps(threads, lane);
        r.gbps = bench::check_bound(what, gbps, r.bound, "Gbit/s", limits.why(threads, lane));
    } else {
        const auto b = bench::pipeline_frame_bytes(pc.types, pc.max_in_bytes, pc.max_out_bytes);
        r.bound = bench::link_bound_gbps(g_links, coded_bits, b);
        r.gbps = bench::check_bound(what, gbps, r.bound, "Gbit/s", bench::link_why(b));
    }
    return r;
}

// The coded Gbit/s PCIe allows frames of \p channels channels of \p vectors
// vectors: their bytes in and out at the link rates measured in this run (0
// without a GPU).
double pcie_bound_gbps(const shape_case& c, int vectors, int channels, llr_format llr = llr_format::float32)
{
    if (g_links.empty())
        return 0;
    core::mimo_config cfg = config_of(c, c.impl, llr);
    cfg.max_channels = channels;
    const auto p = core::mimo::frame_params_for(cfg, vectors, -1.0f, channels);
    const double bits = double(channels) * vectors * c.nt * c.bits;
    return bench::link_bound_gbps(g_links, bits,
                                  bench::pipeline_frame_bytes(core::mimo::frame_types_of(), core::mimo::frame_in_bytes(p),
                                                              core::mimo::frame_out_bytes(p, llr)));
}

#ifdef GPURX_HAVE_CUDA
// Kernel-only and QR-only Gbit/s on a device-resident batch of all frames.
struct kernel_rates {
    double kernel = 0, qr = 0;
    double kernel_bound = 0, qr_bound = 0; //!< the GPU memory's bounds of the two
    size_t compared = 0;                   //!< frames checked
    // --graph: microseconds per batch of the host's enqueue() calls, and of
    // CUDA graph replays (device time without the host's launch costs) of
    // enqueue(), of the prepare step alone and of the detect step alone.
    double host_us = 0, graph_us = 0, graph_prep_us = 0, graph_detect_us = 0;
};

// Microseconds per batch of \p body (one batch's launches on st), captured
// `per` times into one CUDA graph and replayed.
template <typename Body>
double graph_us(cudaStream_t st, int reps, Body body)
{
    constexpr int per = 10;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaEvent_t a, b;
    GPURX_CUDA_CHECK(cudaEventCreate(&a));
    GPURX_CUDA_CHECK(cudaEventCreate(&b));
    GPURX_CUDA_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < per; i++)
        body();
    GPURX_CUDA_CHECK(cudaStreamEndCapture(st, &g));
    GPURX_CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
    GPURX_CUDA_CHECK(cudaGraphLaunch(ge, st)); // warm-up
    const int launches = std::max(1, reps / per);
    GPURX_CUDA_CHECK(cudaEventRecord(a, st));
    for (int i = 0; i < launches; i++)
        GPURX_CUDA_CHECK(cudaGraphLaunch(ge, st));
    GPURX_CUDA_CHECK(cudaEventRecord(b, st));
    GPURX_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    GPURX_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    GPURX_CUDA_CHECK(cudaGraphExecDestroy(ge));
    GPURX_CUDA_CHECK(cudaGraphDestroy(g));
    GPURX_CUDA_CHECK(cudaEventDestroy(a));
    GPURX_CUDA_CHECK(cudaEventDestroy(b));
    return ms * 1e3 / (double(launches) * per);
}

/*!
 * A device-resident batch on one GPU: \p nf frames of one channel each,
 * frame f holding channel f mod data.size() (what the reference's channels
 * are), with the shape's CUDA implementation, ready to run again and again.
 */
struct mimo_resident {
    int device = 0;
    std::unique_ptr<core::cuda_kernel> kernel;
    core::mimo::frame_params p{};
    size_t nf = 0, in_b = 0, out_b = 0, out_stride = 0, in_total = 0;
    std::vector<core::frame_desc> fd;
    std::vector<core::mimo::frame_params> params;
    void *d_fd = nullptr, *d_params = nullptr, *d_in = nullptr, *d_out = nullptr, *d_results = nullptr,
         *d_scratch = nullptr;
    core::batch_view dev{}, host{};
    cudaStream_t st{};

    mimo_resident(const core::implementation<core::mimo_config>& impl, const core::mimo_config& cfg,
                  const std::vector<std::vector<cf>>& data, size_t nframes, int vectors, int device_)
        : device(device_), nf(nframes)
    {
        GPURX_CUDA_CHECK(cudaSetDevice(device));
        kernel = impl.make_cuda(cfg, device);
        p = core::mimo::frame_params_for(cfg, vectors);
        in_b = core::mimo::frame_in_bytes(p);
        out_b = core::mimo::frame_out_bytes(p, cfg.llr_type);
        const size_t in_stride = (in_b + 15) & ~size_t(15);
        out_stride = (out_b + 15) & ~size_t(15);
        fd.resize(nf);
        params.assign(nf, p);
        std::vector<uint8_t> in(nf * in_stride);
        for (size_t f = 0; f < nf; f++) {
            fd[f] = { f * in_stride, f * out_stride, uint32_t(in_b), uint32_t(out_b) };
            std::memcpy(&in[f * in_stride], data[f % data.size()].data(), in_b);
        }
        in_total = in.size();
        GPURX_CUDA_CHECK(cudaMalloc(&d_fd, nf * sizeof(core::frame_desc)));
        GPURX_CUDA_CHECK(cudaMalloc(&d_params, nf * sizeof(p)));
        GPURX_CUDA_CHECK(cudaMalloc(&d_in, in.size()));
        GPURX_CUDA_CHECK(cudaMalloc(&d_out, nf * out_stride));
        GPURX_CUDA_CHECK(cudaMalloc(&d_results, nf * sizeof(core::mimo::frame_result)));
        GPURX_CUDA_CHECK(cudaMalloc(&d_scratch, kernel->scratch_bytes(nf)));
        GPURX_CUDA_CHECK(cudaMemcpy(d_fd, fd.data(), nf * sizeof(core::frame_desc), cudaMemcpyHostToDevice));
        GPURX_CUDA_CHECK(cudaMemcpy(d_params, params.data(), nf * sizeof(p), cudaMemcpyHostToDevice));
        GPURX_CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice));
        dev = { static_cast<core::frame_desc*>(d_fd), nf, d_params, static_cast<uint8_t*>(d_in),
                static_cast<uint8_t*>(d_out), d_results, static_cast<uint8_t*>(d_scratch) };
        host = { fd.data(), nf, params.data(), nullptr, nullptr, nullptr, nullptr };
        GPURX_CUDA_CHECK(cudaStreamCreate(&st));
        launch(); // warm-up (and shared memory limits)
        finish();
    }
    ~mimo_resident()
    {
        cudaSetDevice(device);
        cudaStreamDestroy(st);
        for (void* ptr : { d_fd, d_params, d_in, d_out, d_results, d_scratch })
            cudaFree(ptr);
    }
    mimo_resident(const mimo_resident&) = delete;
    mimo_resident& operator=(const mimo_resident&) = delete;

    //! Enqueues one launch, without waiting.
    void launch()
    {
        GPURX_CUDA_CHECK(cudaSetDevice(device));
        kernel->enqueue(dev, host, st);
    }
    //! Waits for what is enqueued.
    void finish()
    {
        GPURX_CUDA_CHECK(cudaSetDevice(device));
        GPURX_CUDA_CHECK(cudaStreamSynchronize(st));
    }
    //! Clears the outputs and results on the stream: what check() finds
    //! after the launches enqueued next, they wrote.
    void clear()
    {
        GPURX_CUDA_CHECK(cudaSetDevice(device));
        GPURX_CUDA_CHECK(cudaMemsetAsync(d_out, 0xff, nf * out_stride, st));
        GPURX_CUDA_CHECK(cudaMemsetAsync(d_results, 0xff, nf * sizeof(core::mimo::frame_result), st));
    }
    /*!
     * Every frame of the last launch detected, its LLR signs as the CPU
     * twin's (\p ref) within the tolerance; fails (no figure) otherwise.
     * Returns the frames compared.
     */
    size_t check(const std::string& what, const channel_reference& ref)
    {
        finish();
        std::vector<uint8_t> out(nf * out_stride);
        std::vector<core::mimo::frame_result> res(nf);
        GPURX_CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost));
        GPURX_CUDA_CHECK(cudaMemcpy(res.data(), d_results, nf * sizeof(res[0]), cudaMemcpyDeviceToHost));
        const auto expected = expected_of(ref, ref.out.size(), [](size_t i) { return std::vector<size_t>{ i }; });
        bench::frame_check check(what, &expected);
        for (size_t f = 0; f < nf; f++)
            check.add(f % ref.out.size(), &out[f * out_stride], out_b,
                      res[f].status == core::mimo::STATUS_OK ||
                          res[f].status == core::mimo::STATUS_RANK_DEFICIENT);
        check.require(nf);
        return check.compared;
    }
    //! What a launch must read (channels, vectors, records) and write (LLRs, results).
    double bytes() const
    {
        return double(in_total + nf * (sizeof(core::frame_desc) + sizeof(p) + out_stride +
                                       sizeof(core::mimo::frame_result)));
    }
};

// Frame f of the batch of \p nf frames is channel f mod data.size() (=
// ref.out.size()) of the reference.
kernel_rates kernel_gbps(const shape_case& c, const std::vector<std::vector<cf>>& data, size_t nf, int vectors,
                         float n0, int reps, const channel_reference& ref, const std::string& what, bool graph = false)
{
    auto cfg = config_of(c, c.impl);
    cfg.noise_variance = n0;
    const auto choice = core::choose_mimo_implementation(cfg);
    const auto registry = core::mimo_registry();
    const auto* e = registry.find(choice.cuda);
    if (!e)
        return {};
    mimo_resident m(*e, cfg, data, nf, vectors, 0);
    auto& kernel = m.kernel;
    const auto& dev = m.dev;
    const auto& host = m.host;
    const cudaStream_t st = m.st;
    cudaEvent_t a, b;
    GPURX_CUDA_CHECK(cudaEventCreate(&a));
    GPURX_CUDA_CHECK(cudaEventCreate(&b));
    const double bits = double(nf) * vectors * c.nt * c.bits;
    kernel_rates r;
    float ms = 0;
    // Cleared before the timed launches: what check() finds after them, they wrote.
    m.clear();
    m.finish();
    GPURX_CUDA_CHECK(cudaEventRecord(a, st));
    const auto h0 = clk::now();
    for (int i = 0; i < reps; i++)
        kernel->enqueue(dev, host, st);
    r.host_us = std::chrono::duration<double, std::micro>(clk::now() - h0).count() / reps;
    GPURX_CUDA_CHECK(cudaEventRecord(b, st));
    GPURX_CUDA_CHECK(cudaEventSynchronize(b));
    GPURX_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    const double kernel_gbps = bits * reps / (ms * 1e-3) / 1e9;
    // The last timed launch's frames, before anything else runs.
    r.compared = m.check(what, ref);
    const auto g = bench::gpu_limits::of(0);
    // No instruction count is stated for the detectors: the memory bounds
    // them, for what a launch must read (channels, vectors) and write (LLRs).
    const double bytes = m.bytes();
    r.kernel_bound = bench::kernel_bound_gbps(g, bits, 0, bytes);
    r.kernel = bench::check_bound(what + ", kernel", kernel_gbps, r.kernel_bound, "Gbit/s",
                                  bench::kernel_why(g, 0, bytes / bits));
    core::mimo_gpu_settings s{};
    s.algorithm = int(cfg.algorithm);
    s.k = cfg.k;
    s.max_channels = cfg.max_channels;
    GPURX_CUDA_CHECK(cudaEventRecord(a, st));
    for (int i = 0; i < reps; i++)
        core::cuda_mimo_prepare(dev, nf, s, st);
    GPURX_CUDA_CHECK(cudaEventRecord(b, st));
    GPURX_CUDA_CHECK(cudaEventSynchronize(b));
    GPURX_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    // The preparation reads at least every channel matrix.
    const double qr_bytes = double(nf) * c.nr * c.nt * sizeof(cf);
    r.qr_bound = bench::kernel_bound_gbps(g, bits, 0, qr_bytes);
    r.qr = bench::check_bound(what + ", qr alone", bits * reps / (ms * 1e-3) / 1e9, r.qr_bound, "Gbit/s",
                              bench::kernel_why(g, 0, qr_bytes / bits));
    if (graph) {
        // The implementation's settings for the detect step alone (mimo_cuda_kernel.cc).
        core::mimo_gpu_settings d = s;
        d.variant = c.impl == "cuda-mtt-fast" ? core::MIMO_GPU_MTT_FAST : core::MIMO_GPU_PLAIN;
        d.sorted_qr = cfg.sorted_qr && cfg.algorithm != core::mimo::algorithm::ml &&
                      cfg.algorithm != core::mimo::algorithm::lmmse;
        d.clip = cfg.algorithm == core::mimo::algorithm::kbest || cfg.algorithm == core::mimo::algorithm::one_pass
                     ? cfg.clip
                     : std::numeric_limits<float>::infinity();
        kernel->enqueue(dev, host, st); // the preparation the detect step reads
        r.graph_us = graph_us(st, reps, [&] { kernel->enqueue(dev, host, st); });
        r.graph_prep_us = graph_us(st, reps, [&] { core::cuda_mimo_prepare(dev, nf, s, st); });
        kernel->enqueue(dev, host, st);
        r.graph_detect_us = graph_us(st, reps, [&] {
            core::cuda_mimo_detect(dev, nf, nf * size_t(vectors), c.bits, d, st, 1u << c.nt);
        });
    }
    GPURX_CUDA_CHECK(cudaEventDestroy(a));
    GPURX_CUDA_CHECK(cudaEventDestroy(b));
    return r;
}

// ------------------------------------------------ several GPUs (--devices)

/*!
 * Kernel-bound coded Gbit/s of several GPUs at once: each detects its own
 * resident batch of \p nf channels; the launches of all of them are timed
 * together (wall time, about half a second: bench::reps_for the first GPU's
 * launch). Checked: every frame of each GPU's last launch as the CPU twin,
 * and the figure not above the sum of the GPUs' memory bounds.
 */
bench::device_figure multi_kernel_gbps(const std::vector<int>& devices, const shape_case& c,
                                       const std::vector<std::vector<cf>>& data, size_t nf, int vectors, float n0,
                                       const channel_reference& ref, const std::string& what)
{
    auto cfg = config_of(c, c.impl);
    cfg.noise_variance = n0;
    const auto choice = core::choose_mimo_implementation(cfg);
    const auto registry = core::mimo_registry();
    const auto* e = registry.find(choice.cuda);
    if (!e)
        bench::fail(what + ": no CUDA implementation runs " + c.impl + " (" + choice.note + ")");
    std::vector<std::unique_ptr<mimo_resident>> b;
    for (int d : devices)
        b.push_back(std::make_unique<mimo_resident>(*e, cfg, data, nf, vectors, d));
    // One launch timed alone on the first GPU sets how many are timed.
    const auto t0 = clk::now();
    b[0]->launch();
    b[0]->finish();
    const int reps = bench::reps_for(std::chrono::duration<double>(clk::now() - t0).count());
    for (auto& x : b) {
        x->clear();
        x->finish();
    }
    const double secs = bench::timed_launches(
        b.size(), reps, [&](size_t i) { b[i]->launch(); }, [&](size_t i) { b[i]->finish(); });
    bench::device_figure f;
    const double bits = double(nf) * vectors * c.nt * c.bits;
    std::string why;
    for (auto& x : b) {
        f.compared += x->check(what + ", device " + std::to_string(x->device), ref);
        const auto g = bench::gpu_limits::of(x->device);
        f.bound += bench::kernel_bound_gbps(g, bits, 0, x->bytes());
        why = bench::kernel_why(g, 0, x->bytes() / bits) + ", summed over " + std::to_string(devices.size()) +
              " device(s)";
    }
    f.gbps = bench::check_bound(what, bits * reps * double(devices.size()) / secs / 1e9, f.bound, "Gbit/s", why);
    f.frames = nf * devices.size();
    f.secs = secs;
    return f;
}

/*!
 * End to end through one pipeline over \p where's GPUs: frames of
 * \p channels channels, batches of \p max_batch channels (g_slots per GPU),
 * \p total channels timed (at least twice the warm-up), the producer writing
 * each frame into the staging in place a batch at a time
 * (bench::submit_in_place: the warm-up writes every staging position, the
 * timed frames reuse it). Checked: every frame detected, the warm-up's and
 * one timed frame in 61 as the CPU twin; the figure not above the GPUs'
 * links alone, summed (\p links).
 */
bench::device_figure multi_e2e_gbps(const shape_case& c, const core::backend_choice& where,
                                    const std::vector<std::vector<cf>>& data, int vectors, float n0, int channels,
                                    size_t max_batch, size_t total, size_t device_threads,
                                    const std::vector<bench::link_rates>& links, const channel_reference& ref,
                                    const std::string& what)
{
    auto cfg = config_of(c, c.impl);
    cfg.noise_variance = n0;
    cfg.max_channels = channels;
    const auto choice = core::choose_mimo_implementation(cfg);
    const core::mimo::frame_params p = core::mimo::frame_params_for(cfg, vectors, -1.0f, channels);
    core::pipeline_config pc;
    pc.types = core::mimo::frame_types_of();
    pc.slots = g_slots;
    pc.max_batch = std::max<size_t>(1, max_batch / size_t(channels));
    pc.max_in_bytes = core::mimo::frame_in_bytes(p);
    pc.max_out_bytes = core::mimo::frame_out_bytes(p, cfg.llr_type);
    pc.device_threads = device_threads;
    pc.profile = true;
    // Source frame i holds channels (i * channels + ch) mod N of the N the
    // reference has: nsrc distinct frames, and staging position j holds
    // source frame j mod nsrc.
    const size_t n = data.size(), nsrc = n / std::gcd(n, size_t(channels));
    const size_t cb = core::mimo::channel_in_bytes(p), in_bytes = pc.max_in_bytes;
    std::vector<uint8_t> src(nsrc * in_bytes);
    for (size_t i = 0; i < nsrc; i++)
        for (size_t ch = 0; ch < size_t(channels); ch++)
            std::memcpy(&src[i * in_bytes + ch * cb], data[(i * channels + ch) % n].data(), cb);
    const auto expected = expected_of(ref, nsrc, [&](size_t i) {
        std::vector<size_t> v(channels);
        for (size_t ch = 0; ch < size_t(channels); ch++)
            v[ch] = (i * channels + ch) % n;
        return v;
    });
    auto pipe = core::make_pipeline(core::mimo_kernel_factories(cfg, choice), where, pc);
    const size_t warm = pipe->config().slots * pc.max_batch; // the slots of every GPU
    size_t frames = std::max(total / size_t(channels), 2 * warm);
    frames = (frames + pc.max_batch - 1) / pc.max_batch * pc.max_batch;
    bench::frame_check check(what, &expected);
    double compare_s = 0; // the timed part's comparisons (what the caller spends on them)
    const double secs = bench::timed_pipeline(
        *pipe, warm, frames, pc.max_batch,
        [&](core::batch_pipeline& pp, size_t in, size_t left) -> size_t {
            return bench::submit_in_place(pp, in, left, warm, pc.max_batch, in_bytes, pc.max_out_bytes, &p,
                                          [&](uint8_t* dst, size_t pos) {
                                              std::memcpy(dst, &src[(pos % nsrc) * in_bytes], in_bytes);
                                          });
        },
        [&](const core::completed_frame& f, size_t number, bool timed) {
            if (f.seq != number)
                bench::fail(what + ": frame " + std::to_string(f.seq) + " came out as number " + std::to_string(number));
            const bool compare = !timed || number % bench::sample_every == 0;
            if (!(timed && compare)) {
                check.add(size_t(f.user) % nsrc, f.data, f.out_bytes, detected(f), compare);
                return;
            }
            const auto c0 = clk::now();
            check.add(size_t(f.user) % nsrc, f.data, f.out_bytes, detected(f), true);
            compare_s += std::chrono::duration<double>(clk::now() - c0).count();
        });
    check.require(warm + frames);
    const double coded_bits = double(channels) * vectors * c.nt * c.bits;
    const auto fb = bench::pipeline_frame_bytes(pc.types, pc.max_in_bytes, pc.max_out_bytes);
    bench::device_figure r;
    r.bound = bench::link_bound_gbps(links, coded_bits, fb);
    r.gbps = bench::check_bound(what, coded_bits * double(frames) / secs / 1e9, r.bound, "Gbit/s", bench::link_why(fb));
    r.frames = frames;
    r.compared = check.compared;
    r.secs = secs;
    r.stages = pipe->stats();
    r.device_threads = device_threads;
    r.compare_s = compare_s;
    return r;
}

/*!
 * --devices: 1, 2, 4, 8 and all GPUs in one run, one shape (see the head of
 * this file). Returns the exit status.
 */
int run_devices(const core::cuda_probe_result& probe, const bench::devices_options& opt, const shape_case& c,
                int vectors, size_t kernel_channels, size_t e2e_batch, int e2e_channels, double bits_per_gpu)
{
    const auto host = bench::survey_host(probe);
    const float n0 = float(c.nt) * std::pow(10.0f, -1.6f);
    const auto data = make_frames(c, 4096, vectors, n0);
    const std::string twin = std::string("cpu-") + (c.impl.find("mtt") != std::string::npos ? "mtt" : c.impl.substr(5));
    const auto ref = reference_of(c, twin, data, vectors, n0, llr_format::float32);
    const std::string shape = c.impl + " " + std::to_string(c.nt) + "x" + std::to_string(c.nr) + " " +
                              std::to_string(1 << c.bits) + "-QAM";
    const double channel_bits = double(vectors) * c.nt * c.bits;
    const size_t channels_per_gpu =
        std::max(12 * e2e_batch, size_t(bits_per_gpu / channel_bits) / e2e_batch * e2e_batch);
    const size_t threads = opt.device_threads > 0 ? size_t(opt.device_threads) : 1;
    auto cfg = config_of(c, c.impl);
    cfg.max_channels = e2e_channels;
    const auto p = core::mimo::frame_params_for(cfg, vectors, -1.0f, e2e_channels);
    const auto fb = bench::pipeline_frame_bytes(core::mimo::frame_types_of(), core::mimo::frame_in_bytes(p),
                                                core::mimo::frame_out_bytes(p, llr_format::float32));
    const double frame_bits = channel_bits * e2e_channels;
    bench::devices_figures fig;
    for (size_t ci = 0; ci < host.counts.size(); ci++) {
        const size_t k = host.counts[ci];
        const std::string tag = shape + ", " + std::to_string(k) + " GPU" + (k > 1 ? "s" : "");
        const core::backend_choice where{ core::backend_kind::cuda, host.first(k), "" };
        const auto lk = host.links_of(k);
        fig.kern.push_back(
            multi_kernel_gbps(host.first(k), c, data, kernel_channels, vectors, n0, ref, "kernel-bound, " + tag).gbps);
        const auto a = multi_e2e_gbps(c, where, data, vectors, n0, e2e_channels, e2e_batch, channels_per_gpu * k, 0,
                                      lk, ref, "end to end, in place, caller launches, " + tag);
        bench::print_stages("end to end, in place (begin_frames), the caller launches, " + tag, a, frame_bits);
        const auto t = multi_e2e_gbps(c, where, data, vectors, n0, e2e_channels, e2e_batch, channels_per_gpu * k,
                                      threads, lk, ref, "end to end, in place, device threads launch, " + tag);
        bench::print_stages("end to end, in place (begin_frames), " + std::to_string(threads) +
                                " thread(s) per GPU launch, " + tag,
                            t, frame_bits);
        std::printf("frames timed (compared), %s: caller launches %zu (%zu), threads launch %zu (%zu)\n", tag.c_str(),
                    a.frames, a.compared, t.frames, t.compared);
        std::fflush(stdout);
        fig.caller.push_back(a.gbps);
        fig.by_threads.push_back(t.gbps);
        fig.add_bounds(host, ci, lk, frame_bits, fb);
    }
    std::printf("\n%s, N = %d vectors per channel, 16 dB Rayleigh, float LLRs out, coded Gbit/s; kernel-bound: %zu "
                "channels per GPU per launch; end to end: frames of %d channels (%.0f B over PCIe in, %.0f B out), "
                "batches of %zu channels, %zu slots per GPU, %zu channels per GPU timed; (of linear): k times the "
                "1-GPU figure of the column\n\n",
                shape.c_str(), vectors, kernel_channels, e2e_channels, fb.h2d, fb.d2h, e2e_batch, g_slots,
                channels_per_gpu);
    std::printf("%s", fig.report(host.counts, 3).c_str());
    std::printf("host memory estimate: twice the best copy rate (%.1f GB/s) over the %.0f B a frame moves through "
                "host memory (DMA in and out)\nstage times: CUDA events around each batch's copies and kernel, "
                "profiling on in every end-to-end run above\n",
                host.best_copy, fb.h2d + fb.d2h);
    return 0;
}
#endif

} // namespace

int main(int argc, char** argv)
{
    bool quick = false, cpu = true, int8_out = false, e2e_on = true, graph = false;
    int vectors = 12, frames = 20000, only_nt = 0, only_bits = 0, reps = 0;
    size_t staging = 8, e2e_batch = 65536;
    double e2e_bits = 1e9;
    int e2e_reps = 3;
    int e2e_channels = 64;
    std::string only;
    bench::devices_options devices;
    [[maybe_unused]] bool frames_given = false; // read by --devices (CUDA builds)
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (bench::parse_devices(devices, argc, argv, i))
            ;
        else if (!std::strcmp(argv[i], "--no-cpu"))
            cpu = false;
        else if (!std::strcmp(argv[i], "--int8-out"))
            int8_out = true;
        else if (!std::strcmp(argv[i], "--vectors") && i + 1 < argc)
            vectors = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = std::atoi(argv[++i]);
            frames_given = true;
        }
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!std::strcmp(argv[i], "--slots") && i + 1 < argc)
            g_slots = size_t(std::max(1, std::atoi(argv[++i])));
        else if (!std::strcmp(argv[i], "--staging") && i + 1 < argc)
            staging = size_t(std::atol(argv[++i]));
        else if (!std::strcmp(argv[i], "--e2e-batch") && i + 1 < argc)
            e2e_batch = size_t(std::atol(argv[++i]));
        else if (!std::strcmp(argv[i], "--e2e-reps") && i + 1 < argc)
            e2e_reps = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--e2e-bits") && i + 1 < argc)
            e2e_bits = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--e2e-channels") && i + 1 < argc)
            e2e_channels = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--nt") && i + 1 < argc)
            only_nt = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--bits") && i + 1 < argc)
            only_bits = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--graph"))
            graph = true;
        else if (!std::strcmp(argv[i], "--in-place"))
            g_in_place = true;
        else if (!std::strcmp(argv[i], "--kernel-only")) {
            e2e_on = false;
            cpu = false;
        } else {
            std::printf("usage: bench_mimo [--quick] [--vectors N] [--frames F] [--only NAME] [--no-cpu] "
                        "[--staging T] [--e2e-batch B] [--e2e-bits X] [--e2e-reps R] [--e2e-channels C] [--slots S] [--int8-out] [--nt N] [--bits B] [--kernel-only] [--reps R] [--graph] [--in-place] [--devices [--device-threads N]]\n");
            return std::strcmp(argv[i], "--help") ? 1 : 0;
        }
    }
    if (quick) {
        frames = std::min(frames, 2000);
        e2e_bits = std::min(e2e_bits, 1e8);
        e2e_reps = 1;
    }
    // Channels through the pipeline per e2e figure: at least a dozen batches
    // past the warm-up,
    // and at least --e2e-bits coded bits (1e9; a dozen batches of a fast
    // shape last a few milliseconds, where one hiccup of the host decides
    // the figure).
    const std::vector<shape_case> cases = {
        { "cuda-mtt-fast", 4, 4, 4, 16 }, { "cuda-mtt", 4, 4, 4, 16 },     { "cuda-mtt-fast", 4, 4, 6, 16 },
        { "cuda-mtt", 4, 4, 6, 16 },      { "cuda-mtt-fast", 2, 2, 4, 16 }, { "cuda-mtt-fast", 2, 2, 6, 16 },
        { "cuda-mtt-fast", 4, 4, 2, 16 }, { "cuda-mtt-fast", 8, 8, 4, 16 }, { "cuda-one-pass", 4, 4, 4, 16 },
        { "cuda-one-pass", 4, 4, 6, 16 }, { "cuda-kbest", 4, 4, 4, 16 },    { "cuda-kbest", 4, 4, 6, 16 },
        { "cuda-lmmse", 4, 4, 4, 16 },    { "cuda-lmmse", 4, 4, 6, 16 },    { "cuda-lmmse", 8, 8, 4, 16 },
        { "cuda-ml", 2, 2, 4, 16 },       { "cuda-ml", 4, 4, 2, 16 },
        // The rest of the report grid (QPSK to 256-QAM, 2x2 and 4x4).
        { "cuda-mtt-fast", 2, 2, 2, 16 }, { "cuda-mtt-fast", 2, 2, 8, 16 }, { "cuda-mtt-fast", 4, 4, 8, 16 },
    };
    if (devices.on) {
        const auto& probe = core::probe_cuda();
        const std::string why = bench::no_devices_reason(probe);
        if (!why.empty()) {
            std::printf("bench_mimo --devices: %s: nothing to measure\n", why.c_str());
            return 0;
        }
#ifdef GPURX_HAVE_CUDA
        for (const auto& c : cases)
            if ((only.empty() || c.impl == only) && (!only_nt || c.nt == only_nt) &&
                (!only_bits || c.bits == only_bits)) {
                const size_t kernel_channels = frames_given ? size_t(frames) : quick ? 50000 : 200000;
                return run_devices(probe, devices, c, vectors, kernel_channels, e2e_batch, e2e_channels, e2e_bits);
            }
        bench::fail("--devices: no shape matches --only/--nt/--bits");
#endif
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const bool gpu = core::probe_cuda().compiled_in && !core::probe_cuda().devices.empty() &&
                     core::probe_cuda().devices[0].usable;
    std::printf("N = %d vectors per channel, %d channels per kernel batch, 16 dB Rayleigh, no priors; "
                "coded Gbit/s = vectors x nt x bits / s; %u CPU threads\n",
                vectors, frames, cores);
    if (g_in_place && staging > 0)
        std::printf("e2e: submit_many_in_place from a pinned pool (no host copy of the input), ");
    else
        std::printf("e2e: submit_many, %zu staging threads, ", staging);
#ifdef GPURX_HAVE_CUDA
    if (gpu)
        g_links = { bench::measure_link(0) };
#endif
    std::printf("%zu channels per batch in frames of %d channels; pcie: the bound on e2e (%s)\n", e2e_batch,
                e2e_channels, g_links.empty() ? "no GPU" : g_links[0].describe().c_str());
    std::printf("checked: every frame detected (status OK or rank-deficient), LLR signs within 1%% of the CPU "
                "twin's on the same channels (kernel: every frame; e2e and cpu: the warm-up's and one timed frame "
                "in %d); kernel and qr not above the GPU memory's bound for their bytes; cpu not above %u threads' "
                "load/store ports at 256 bytes per clock at %.2f GHz (%s) for the bytes in and out per coded bit\n",
                int(bench::sample_every), cores, bench::cpu_limits::of_this_machine().max_ghz,
                bench::cpu_limits::of_this_machine().clock_source.c_str());
    std::printf("e2e: the median of %d runs, and their range\n", e2e_reps);
    std::printf("| implementation | nt x nr | modulation | k | kernel | qr alone | e2e (pipeline) | e2e range | pcie bound | "
                "e2e / min(kernel, pcie) | cpu twin, %u threads |%s\n"
                "|---|---|---|---|---|---|---|---|---|---|---|%s\n",
                cores,
                int8_out ? " e2e, int8 out | e2e int8 range | pcie bound, int8 out | e2e int8 / float | cpu twin, int8 out |" : "",
                int8_out ? "---|---|---|---|---|" : "");
    for (const auto& c : cases) {
        if ((!only.empty() && c.impl != only) || (only_nt && c.nt != only_nt) ||
            (only_bits && c.bits != only_bits))
            continue;
        const float n0 = float(c.nt) * std::pow(10.0f, -1.6f);
        const size_t e2e_total =
            std::max({ size_t(quick ? 40000 : 400000), 12 * e2e_batch,
                       size_t(e2e_bits / (double(vectors) * c.nt * c.bits)) });
        const auto data = make_frames(c, std::min(frames, 4096), vectors, n0);
        const std::string twin = std::string("cpu-") + (c.impl.find("mtt") != std::string::npos ? "mtt"
                                                         : c.impl.substr(5));
#ifdef GPURX_HAVE_CUDA
        if (gpu) {
            const auto registry = core::mimo_registry();
            if (const auto* e = registry.find(c.impl))
                if (e->info.reference != twin)
                    bench::fail(c.impl + ": the registry's reference is " + e->info.reference + ", not " + twin);
        }
#endif
        const std::string shape = c.impl + " " + std::to_string(c.nt) + "x" + std::to_string(c.nr) + " " +
                                  std::to_string(1 << c.bits) + "-QAM";
        // The twin's LLRs of every channel: what every figure's frames must agree with.
        const bool need_float = gpu || cpu, need_int8 = int8_out && ((gpu && e2e_on) || cpu);
        const channel_reference ref = need_float ? reference_of(c, twin, data, vectors, n0, llr_format::float32)
                                                 : channel_reference{};
        const channel_reference ref8 = need_int8 ? reference_of(c, twin, data, vectors, n0, llr_format::int8)
                                                 : channel_reference{};
        double k = 0, q = 0, e2e = 0, host = 0, e2e8 = 0, host8 = 0;
        double e2e_bound = 0, e2e8_bound = 0;
        struct range {
            double lo, hi;
        } e2e_range{ 0, 0 }, e2e8_range{ 0, 0 };
        std::string graph_line;
#ifdef GPURX_HAVE_CUDA
        if (gpu) {
            const auto r = kernel_gbps(c, data, size_t(frames), vectors, n0, reps > 0 ? reps : quick ? 3 : 20, ref,
                                       shape, graph);
            k = r.kernel;
            q = r.qr;
            if (graph)
                graph_line = "  graph: " + c.impl + " " + std::to_string(c.nt) + "x" + std::to_string(c.nr) +
                             " " + std::to_string(1 << c.bits) + "-QAM: batch " + std::to_string(r.graph_us) +
                             " us (" + std::to_string(double(frames) * vectors * c.nt * c.bits / r.graph_us / 1e3) +
                             " Gbit/s), prepare " + std::to_string(r.graph_prep_us) + " us, detect " +
                             std::to_string(r.graph_detect_us) + " us; host enqueue " +
                             std::to_string(r.host_us) + " us per batch\n";
            // The median of e2e_reps runs, and their range: a single run on
            // a shared host now and then loses half its rate for reasons
            // outside the program (docs/benchmarks.md, "How the benchmarks check themselves").
            auto e2e_runs = [&](llr_format llr, range& rg, double& bound) {
                std::vector<double> v;
                for (int r = 0; r < e2e_reps; r++) {
                    const auto f = pipeline_gbps(
                        c, c.impl, { core::backend_kind::cuda, { 0 }, "" }, data, vectors, n0, e2e_batch, e2e_total,
                        0, llr == llr_format::int8 ? ref8 : ref,
                        shape + ", e2e" + (llr == llr_format::int8 ? ", int8 out" : "") + ", run " + std::to_string(r),
                        staging, llr, e2e_channels);
                    v.push_back(f.gbps);
                    bound = f.bound;
                }
                std::sort(v.begin(), v.end());
                rg = { v.front(), v.back() };
                return v[v.size() / 2];
            };
            if (e2e_on)
                e2e = e2e_runs(llr_format::float32, e2e_range, e2e_bound);
            if (int8_out && e2e_on)
                e2e8 = e2e_runs(llr_format::int8, e2e8_range, e2e8_bound);
        }
#endif
        if (cpu) {
            const size_t total = c.impl == "cuda-ml" || c.bits >= 6 ? 64 * cores : 600 * cores;
            host = pipeline_gbps(c, twin, { core::backend_kind::cpu, {}, "" }, data, vectors, n0, cores,
                                 quick ? total / 4 : total, cores, ref, shape + ", cpu twin " + twin)
                       .gbps;
            if (int8_out)
                host8 = pipeline_gbps(c, twin, { core::backend_kind::cpu, {}, "" }, data, vectors, n0, cores,
                                      quick ? total / 4 : total, cores, ref8, shape + ", cpu twin " + twin + ", int8 out",
                                      0, llr_format::int8)
                            .gbps;
        }
        const double bound = e2e_bound > 0 ? e2e_bound : pcie_bound_gbps(c, vectors, e2e_channels);
        const double ceiling = std::min(k, bound);
        std::printf("| %s | %dx%d | %d-QAM | %s | %.3f | %.3f | %.3f | %.2f-%.2f | %.2f | %.0f%% | %.4f |",
                    c.impl.c_str(), c.nt, c.nr, 1 << c.bits,
                    c.impl == "cuda-kbest" ? std::to_string(c.k).c_str() : "-", k, q, e2e, e2e_range.lo,
                    e2e_range.hi, bound, ceiling > 0 ? 100.0 * e2e / ceiling : 0.0, host);
        if (int8_out)
            std::printf(" %.3f | %.2f-%.2f | %.2f | %.2f | %.4f |", e2e8, e2e8_range.lo, e2e8_range.hi,
                        e2e8_bound > 0 ? e2e8_bound : pcie_bound_gbps(c, vectors, e2e_channels, llr_format::int8),
                        e2e > 0 ? e2e8 / e2e : 0.0, host8);
        std::printf("\n%s", graph_line.c_str());
        std::fflush(stdout);
    }
    if (!gpu)
        std::printf("(no usable CUDA device: GPU columns are 0)\n");
    return 0;
}
