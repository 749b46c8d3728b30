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
//     the pinned staging in place (begin_frames, a batch at a time), so what
//     is timed is copy-in + decode + copy-out, overlapped across 3 slots;
//  3. the CPU backend on all cores, same codewords;
//  4. latency of a single codeword through the pipeline (flush_us = 0).
//
// The CUDA implementations go by their registry names (turbo_implementations.h):
// cuda-fixed16-dpx (16-bit fixed point, the default for the max-log-MAP
// variants), cuda-float-window (float, the default for log-MAP),
// cuda-float-state, cuda-float-block; the variants table compares them.
//
// Every figure is checked first (bench_checks.h): every codeword ran all its
// iterations, and the outputs equal those of the implementation's registry
// reference on the same codewords (cuda-fixed16-dpx: cpu-fixed16-simd, bit
// for bit; the float kernels and cpu-window16-simd: as many bit errors as
// cpu-float / cpu-fixed16-simd within the registry's tolerance, 0.2% of the
// bits): kernel only, every codeword of the last
// launch; end to end, the warm-up's and one timed codeword in 61; latency,
// every codeword. Bounds: kernel only, the GPU's instruction issue for 16
// instructions per bit and iteration (2 component decoders x forward and
// backward x 8 states, one 16x2 instruction per two states) and its memory for
// the batch's bytes; end to end, the bytes per codeword over PCIe at the
// pinned rates measured at the start of the run; CPU, the threads' vector
// issue (32 lane bytes per bit and iteration). A failed check prints an
// error and exits with status 1.
//
//   bench_turbo [--quick] [--only NAME GUARD [P]] [--e2e N] [--batch-sms N] [--sweep] [--burst N]
//               [--devices [--device-threads N]]
//   --devices: 1, 2, 4, 8 and all GPUs in one run, kernel-bound and end to end
//   (int8 in place with the caller or a thread per GPU launching, and
//   submit_many copied by N threads per GPU), with the host's topology, its
//   copy rate at 1..all threads, the links alone and all at once, and where
//   each end-to-end run spent its time per device (stage times).
// NAME: a CUDA implementation's registry name (cuda-float-block,
// cuda-float-window, cuda-float-state, cuda-fixed16-dpx).
#include "bench_checks.h"
#include "bench_devices.h"
#include "bench_host_survey.h"
#include "common/awgn_llr.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_fixed.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"
#include "pipeline/host_topology.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;

namespace {

void ck(cudaError_t e, const char* what)
{
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Noisy LLRs of one random codeword at Eb/N0 = 1 dB (the waterfall region);
// \p sent: its information bits.
std::vector<float> noisy_codeword(int K, uint64_t seed, std::vector<uint8_t>* sent = nullptr)
{
    core::awgn_llr_source rng(seed);
    std::vector<uint8_t> bits(K), c(3 * K + 12);
    for (auto& b : bits)
        b = rng.next() >> 31;
    core::lte_turbo_encoder(K).encode(bits.data(), c.data());
    std::vector<float> llr(c.size());
    rng.llrs(c.data(), c.size(), 1.0 + 10 * std::log10(double(K) / (3 * K + 12)), llr.data());
    if (sent)
        *sent = bits;
    return llr;
}

//! Distinct codewords (seeds base, base+1, ...) as the decoder's input
//! bytes (float32 LLRs, or int8 ones at \p int8_scale per unit) and their
//! information bits.
struct codewords {
    std::vector<std::vector<uint8_t>> in, sent;
};

codewords codeword_inputs(int K, uint64_t base, bool int8, float int8_scale, int count = 64)
{
    codewords cw;
    auto& v = cw.in;
    for (int i = 0; i < count; i++) {
        cw.sent.emplace_back();
        const auto llr = noisy_codeword(K, base + uint64_t(i), &cw.sent.back());
        std::vector<uint8_t> b(int8 ? llr.size() : llr.size() * 4);
        if (int8) {
            for (size_t j = 0; j < llr.size(); j++)
                b[j] = uint8_t(int8_t(std::max(-127.0f, std::min(127.0f, std::nearbyint(llr[j] / int8_scale)))));
        } else {
            std::memcpy(b.data(), llr.data(), b.size());
        }
        v.push_back(std::move(b));
    }
    return cw;
}

int default_P(int K) { return core::turbo::subblocks_for(0, K); } // automatic: windows of <= 48 steps

core::turbo_config make_cfg(core::turbo::algorithm a, int iters, int P, const std::string& impl = "auto")
{
    core::turbo_config c;
    c.algorithm = a;
    c.iterations = iters;
    c.subblocks = P;
    c.implementation = impl;
    if (impl != "auto")
        c.fixed_point = impl.find("fixed16") != std::string::npos;
    return c;
}

//! The implementation \p cfg runs on \p backend ("" when none).
std::string implementation_run(const core::turbo_config& cfg, core::backend_kind backend)
{
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    return backend == core::backend_kind::cuda ? choice.cuda : choice.cpu;
}

//! True when the named CUDA implementation runs \p cfg as asked (no fallback).
bool runs_as_asked(const core::turbo_config& cfg, std::string* why)
{
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    if (why)
        *why = choice.warning.empty() ? choice.note : choice.warning;
    return choice.warning.empty() && choice.cuda == cfg.implementation;
}

//! A frame that ran all its iterations (no early stop in these benches).
bool all_iterations(const core::completed_frame& f, int iterations)
{
    return !f.rejected && f.result_as<core::turbo::frame_result>()->iterations == iterations;
}

/*!
 * What \p inputs must decode to under \p cfg on \p backend: the outputs of
 * the implementation's registry reference, bit for bit where the registry
 * says so, else with as many bit errors against the transmitted bits within
 * the registry's tolerance (0.2% of the bits: log-MAP rounds differently on
 * the GPU, cpu-window16-simd chooses its own windows, and a codeword near
 * the waterfall may go either way).
 */
bench::expected_outputs turbo_expected(const core::turbo_config& cfg, core::backend_kind backend, int K,
                                       const codewords& cw, bool int8, float int8_scale)
{
    const auto& inputs = cw.in;
    const std::string name = implementation_run(cfg, backend);
    if (name.empty())
        bench::fail("turbo: no implementation runs this configuration on this backend");
    const auto info = bench::registry_info(core::turbo_implementations(int8_scale), name);
    bench::expected_outputs e;
    bench::set_rule(e, info, name);
    e.sent = cw.sent;
    core::turbo_config rc = cfg;
    rc.implementation = e.reference;
    const auto rchoice = core::choose_turbo_implementation(rc);
    if (rchoice.cpu != e.reference)
        bench::fail("turbo: the reference " + e.reference + " cannot run this configuration (" + rchoice.note + ")");
    const auto params = core::turbo::frame_params_for(K, int8 ? core::turbo::INPUT_INT8 : core::turbo::INPUT_FLOAT32);
    e.out = bench::reference_outputs(
        "turbo " + e.reference, core::turbo_kernel_factories(rc, rchoice, int8_scale), core::turbo::frame_types_of(),
        inputs, [&](size_t) { return &params; }, [&](size_t) { return size_t(K); },
        [&](const core::completed_frame& f) { return all_iterations(f, cfg.iterations); });
    return e;
}

//! Instructions per information bit a GPU needs at least; CPU lane bytes.
double turbo_gpu_instr_per_bit(int iterations) { return 16.0 * iterations; }
double turbo_cpu_lane_bytes_per_bit(int iterations) { return 32.0 * iterations; }

// A resident batch of nframes noisy codewords of size K on one GPU (frame f:
// codeword seed 1000 + f mod 64), and the CUDA implementation the
// configuration chooses (the registry's), ready to run again and again.
struct resident_batch {
    int device, K, nframes, iterations;
    std::unique_ptr<core::cuda_kernel> kernel;
    std::vector<core::frame_desc> fd;
    std::vector<core::turbo::frame_params> params;
    void *dfd = nullptr, *dpar = nullptr, *din = nullptr, *dout = nullptr, *dres = nullptr, *dscr = nullptr;
    cudaStream_t st{};
    core::batch_view dev{}, host{};
    size_t out_stride = 0;
    double bytes = 0; // what a launch must read and write

    resident_batch(int device_, int K_, const core::turbo_config& cfg_in, int nframes_)
        : device(device_), K(K_), nframes(nframes_), iterations(cfg_in.iterations)
    {
        ck(cudaSetDevice(device), "set device");
        core::turbo_config cfg = cfg_in;
        const auto choice = core::choose_turbo_implementation(cfg);
        kernel = core::turbo_kernel_factories(cfg, choice).cuda(device);
        const size_t n = 3 * size_t(K) + 12;
        const size_t in_stride = (n * sizeof(float) + 15) & ~size_t(15);
        out_stride = (core::turbo_out_bytes(K, false) + 15) & ~size_t(15);
        fd.resize(nframes);
        params.assign(nframes, core::turbo::frame_params_for(K));
        std::vector<uint8_t> hin(in_stride * nframes);
        const auto cws = codeword_inputs(K, 1000, false, 1.0f).in;
        for (int f = 0; f < nframes; f++) {
            fd[f] = { f * in_stride, f * out_stride, uint32_t(n * 4), uint32_t(K) };
            std::memcpy(&hin[f * in_stride], cws[f % cws.size()].data(), n * 4);
        }
        ck(cudaMalloc(&dfd, fd.size() * sizeof(core::frame_desc)), "malloc");
        ck(cudaMalloc(&dpar, params.size() * sizeof(core::turbo::frame_params)), "malloc");
        ck(cudaMalloc(&din, hin.size()), "malloc");
        ck(cudaMalloc(&dout, out_stride * nframes), "malloc");
        ck(cudaMalloc(&dres, nframes * sizeof(core::turbo::frame_result)), "malloc");
        ck(cudaMalloc(&dscr, std::max<size_t>(1, kernel->scratch_bytes(nframes))), "malloc");
        ck(cudaMemcpy(dfd, fd.data(), fd.size() * sizeof(core::frame_desc), cudaMemcpyHostToDevice), "cpy");
        ck(cudaMemcpy(dpar, params.data(), params.size() * sizeof(core::turbo::frame_params), cudaMemcpyHostToDevice), "cpy");
        ck(cudaMemcpy(din, hin.data(), hin.size(), cudaMemcpyHostToDevice), "cpy");
        dev = { static_cast<core::frame_desc*>(dfd), size_t(nframes), dpar, static_cast<uint8_t*>(din),
                static_cast<uint8_t*>(dout), dres, static_cast<uint8_t*>(dscr) };
        host = { fd.data(), size_t(nframes), params.data(), nullptr, nullptr, nullptr, nullptr };
        bytes = double(hin.size() + fd.size() * sizeof(core::frame_desc) +
                       params.size() * sizeof(core::turbo::frame_params) + out_stride * nframes +
                       nframes * sizeof(core::turbo::frame_result));
        ck(cudaStreamCreate(&st), "stream");
        run(); // warm-up
        ck(cudaStreamSynchronize(st), "sync");
    }
    void run()
    {
        ck(cudaSetDevice(device), "set device");
        kernel->enqueue(dev, host, st);
    }
    //! Clears the results (and the outputs too) on the stream.
    void clear(bool outputs)
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaMemsetAsync(dres, 0, nframes * sizeof(core::turbo::frame_result), st), "memset");
        if (outputs)
            ck(cudaMemsetAsync(dout, 0xff, out_stride * nframes, st), "memset");
    }
    //! Fails unless every codeword has a result with all its iterations.
    void require_results(const std::string& what)
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaStreamSynchronize(st), "sync");
        std::vector<core::turbo::frame_result> res(nframes);
        ck(cudaMemcpy(res.data(), dres, nframes * sizeof(core::turbo::frame_result), cudaMemcpyDeviceToHost), "cpy");
        for (const auto& r : res)
            if (r.iterations != iterations)
                bench::fail(what + ": a codeword has no result with its " + std::to_string(iterations) +
                            " iterations: no figure");
    }
    //! After the timed launches: every codeword of the last one ran all its
    //! iterations and decoded as \p e expects. Fails (no figure) otherwise.
    std::string verify(const std::string& what, const bench::expected_outputs& e)
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaStreamSynchronize(st), "sync");
        std::vector<uint8_t> out(out_stride * nframes);
        std::vector<core::turbo::frame_result> res(nframes);
        ck(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost), "cpy");
        ck(cudaMemcpy(res.data(), dres, nframes * sizeof(core::turbo::frame_result), cudaMemcpyDeviceToHost), "cpy");
        bench::frame_check check(what, &e);
        for (int f = 0; f < nframes; f++)
            check.add(size_t(f) % e.out.size(), &out[size_t(f) * out_stride], size_t(K),
                      res[f].iterations == iterations);
        check.require(uint64_t(nframes));
        return check.summary();
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

using figure = bench::device_figure;

//! How pipeline_gbps hands frames over.
enum class e2e_feed {
    in_place,    //!< begin_frames()/commit_frames() of whole batches into the staging (written once, at warm-up)
    submit_many, //!< submit_many() of whole runs from a pageable buffer: a copy per frame
};

struct e2e_options {
    e2e_feed feed = e2e_feed::in_place;
    size_t device_threads = 0; //!< pipeline_config::device_threads
    bool profile = false;      //!< pipeline_config::profile
};

//! The kernel-only expected outputs of \p cfg (codewords 1000.. in float).
bench::expected_outputs kernel_expected(int K, const core::turbo_config& cfg)
{
    return turbo_expected(cfg, core::backend_kind::cuda, K, codeword_inputs(K, 1000, false, 1.0f), false, 1.0f);
}

// Kernel-only Gbit/s for nframes codewords of size K, checked.
figure kernel_gbps(int K, const core::turbo_config& cfg, int nframes, int reps, const std::string& what)
{
    const auto expected = kernel_expected(K, cfg);
    resident_batch b(0, K, cfg, nframes);
    cudaEvent_t e0, e1;
    ck(cudaEventCreate(&e0), "event");
    ck(cudaEventCreate(&e1), "event");
    std::vector<float> times;
    for (int r = 0; r < reps; r++) {
        // Cleared outside the timed window: the results of every rep, the
        // outputs of the last (verify() checks them).
        b.clear(r == reps - 1);
        ck(cudaEventRecord(e0, b.st), "record");
        for (int k = 0; k < g_burst; k++)
            b.run();
        ck(cudaEventRecord(e1, b.st), "record");
        ck(cudaEventSynchronize(e1), "sync");
        float ms;
        ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
        times.push_back(ms);
        b.require_results(what + ", rep " + std::to_string(r));
    }
    std::sort(times.begin(), times.end());
    const double ms = times[times.size() / 2] / g_burst;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    b.verify(what, expected);
    const auto g = bench::gpu_limits::of(0);
    const double bits = double(K) * nframes, instr = turbo_gpu_instr_per_bit(cfg.iterations);
    figure f;
    f.bound = bench::kernel_bound_gbps(g, bits, instr, b.bytes);
    f.gbps = bench::check_bound(what, bits / (ms * 1e-3) / 1e9, f.bound, "Gbit/s",
                                bench::kernel_why(g, instr, b.bytes / bits));
    f.frames = f.compared = size_t(nframes);
    return f;
}

// Kernel-bound Gbit/s of several GPUs at once: each decodes its own resident
// batch reps times; the wall time covers all of them. Checked as kernel_gbps,
// against the sum of the devices' bounds.
figure multi_kernel_gbps(const std::vector<int>& devices, int K, const core::turbo_config& cfg, int nframes, int reps,
                         const std::string& what)
{
    const auto expected = kernel_expected(K, cfg);
    std::vector<std::unique_ptr<resident_batch>> b;
    for (int d : devices) {
        b.push_back(std::make_unique<resident_batch>(d, K, cfg, nframes));
        b.back()->clear(true);
        ck(cudaStreamSynchronize(b.back()->st), "sync");
    }
    const auto t0 = clk::now();
    for (int r = 0; r < reps; r++)
        for (auto& x : b)
            x->run();
    for (auto& x : b) {
        ck(cudaSetDevice(x->device), "set device");
        ck(cudaStreamSynchronize(x->st), "sync");
    }
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    figure f;
    const double bits = double(K) * nframes, instr = turbo_gpu_instr_per_bit(cfg.iterations);
    std::string why;
    for (auto& x : b) {
        x->verify(what + ", device " + std::to_string(x->device), expected);
        const auto g = bench::gpu_limits::of(x->device);
        f.bound += bench::kernel_bound_gbps(g, bits, instr, x->bytes);
        why = bench::kernel_why(g, instr, x->bytes / bits) + ", summed over " + std::to_string(devices.size()) +
              " device(s)";
    }
    f.gbps = bench::check_bound(what, bits * reps * devices.size() / secs / 1e9, f.bound, "Gbit/s", why);
    f.frames = f.compared = size_t(nframes) * devices.size();
    return f;
}

/*!
 * End-to-end Gbit/s through the pipeline on `where`, checked: an untimed
 * warm-up of one full pipeline that writes every staging position once
 * (every output compared), drained; then total_frames (whole batches, at
 * least twice the warm-up) timed from the first submission until the last
 * codeword is out; on CUDA they reuse what is staged (a producer writing in
 * place), on the CPU each is written. Bound: PCIe at \p links (CUDA), the
 * threads' vector issue (CPU).
 */
figure pipeline_gbps(int K, const core::turbo_config& cfg, const core::backend_choice& where, bool int8,
                     size_t max_batch, size_t total_frames, const std::vector<bench::link_rates>& links,
                     const std::string& what, const e2e_options& opt = {})
{
    const size_t n = 3 * size_t(K) + 12;
    const size_t in_bytes = int8 ? n : n * 4;
    const float int8_scale = 0.25f;
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.slots = 3;
    pc.max_batch = max_batch;
    pc.max_in_bytes = in_bytes;
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(1000000);
    pc.device_threads = opt.device_threads;
    pc.profile = opt.profile;
    const bool cpu = where.kind == core::backend_kind::cpu;
    // 64 distinct codewords, cycled; written into the staging in place.
    const auto cw = codeword_inputs(K, 77, int8, int8_scale);
    const auto& src = cw.in;
    const auto expected = turbo_expected(cfg, where.kind, K, cw, int8, int8_scale);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice, int8_scale), where, pc);
    const auto params = core::turbo::frame_params_for(K, int8 ? core::turbo::INPUT_INT8 : core::turbo::INPUT_FLOAT32);
    const size_t warm = pipe->config().slots * max_batch;
    total_frames = std::max(total_frames, 2 * warm);
    total_frames = (total_frames + max_batch - 1) / max_batch * max_batch;
    bench::frame_check check(what, &expected);
    // submit_many: the frames' source, warm frames at the staging's stride
    // (frame j: codeword j mod 64), as large as the staging so that it is
    // not all in the last-level cache either; copied by the device threads
    // (or the caller) into the staging at every batch.
    const size_t stride = (in_bytes + 15) & ~size_t(15);
    std::vector<uint8_t> many;
    if (opt.feed == e2e_feed::submit_many) {
        many.assign(warm * stride, 0);
        for (size_t j = 0; j < warm; j++)
            std::memcpy(&many[j * stride], src[j % src.size()].data(), in_bytes);
    }
    // Both feeds hand over the rest of the batch at once and take completed
    // frames out a batch at a time: frame by frame (begin_frame, front/pop
    // after each) the one caller thread spent ~300 ns a codeword and capped
    // 2 and 4 GPUs at 20 Gbit/s (bench_caller times that bookkeeping).
    const double secs = bench::timed_pipeline(
        *pipe, warm, total_frames, max_batch,
        [&](core::batch_pipeline& p, size_t in, size_t n) -> size_t {
            if (opt.feed == e2e_feed::submit_many) {
                if (in == warm)
                    p.reset_stats(); // the timed part's stages only
                // Whole batches: runs never cross a multiple of max_batch.
                const size_t pos = in % warm;
                n = std::min(n, max_batch - in % max_batch);
                return p.submit_many(&many[pos * stride], stride, in_bytes, K, &params, n, 0);
            }
            // Staging position j holds codeword j mod 64 (the warm-up wrote
            // it; the CPU engine's staging is written every time); a frame's
            // user tag is its position.
            return bench::submit_in_place(
                p, in, n, warm, max_batch, in_bytes, size_t(K), &params,
                [&](uint8_t* dst, size_t pos) { std::memcpy(dst, src[pos % src.size()].data(), in_bytes); }, cpu);
        },
        [&](const core::completed_frame& f, size_t number, bool timed) {
            const size_t staged =
                (opt.feed == e2e_feed::submit_many ? number % warm : size_t(f.user)) % src.size();
            check.add(staged, f.data, f.out_bytes, all_iterations(f, cfg.iterations),
                      !timed || number % bench::sample_every == 0);
        });
    check.require(warm + total_frames);
    figure r;
    r.frames = total_frames;
    r.compared = check.compared;
    r.secs = secs;
    r.stages = pipe->stats();
    r.device_threads = opt.device_threads;
    const double gbps = double(K) * double(total_frames) / secs / 1e9;
    if (cpu) {
        const auto limits = bench::cpu_limits::of_this_machine();
        const double lane = turbo_cpu_lane_bytes_per_bit(cfg.iterations);
        r.bound = limits.bound_gbps(pc.cpu_threads, lane);
        r.gbps = bench::check_bound(what, gbps, r.bound, "Gbit/s", limits.why(pc.cpu_threads, lane));
    } else {
        const auto b = bench::pipeline_frame_bytes(pc.types, in_bytes, K);
        r.bound = bench::link_bound_gbps(links, K, b);
        r.gbps = bench::check_bound(what, gbps, r.bound, "Gbit/s", bench::link_why(b));
    }
    return r;
}

//! Median latency (us) of 50 single codewords, each checked.
double latency_us(int K, const core::turbo_config& cfg, const core::backend_choice& where, const std::string& what)
{
    const auto cw = codeword_inputs(K, 5, false, 1.0f, 1);
    const auto& input = cw.in;
    const auto expected = turbo_expected(cfg, where.kind, K, cw, false, 1.0f);
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.cpu_threads = 1;
    pc.slots = 1;
    pc.max_batch = 1;
    pc.max_in_bytes = input[0].size();
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(0);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice), where, pc);
    const auto params = core::turbo::frame_params_for(K);
    bench::frame_check check(what, &expected);
    std::vector<double> t;
    for (int r = 0; r < 50; r++) {
        const auto t0 = clk::now();
        pipe->submit(input[0].data(), input[0].size(), K, &params);
        const core::completed_frame* f = pipe->front(true);
        t.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
        if (!f)
            bench::fail(what + ": codeword " + std::to_string(r) + " did not come out");
        check.add(0, f->data, f->out_bytes, all_iterations(*f, cfg.iterations));
        pipe->pop();
    }
    check.require(50);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

std::vector<bench::link_rates> measure_links(const std::vector<int>& devices)
{
    std::vector<bench::link_rates> v;
    for (int d : devices)
        v.push_back(bench::measure_link(d));
    return v;
}

} // namespace

int main(int argc, char** argv)
{
    bool quick = false;
    bench::devices_options devices;
    std::string only_impl;
    int only_guard = 0, only_P = 128, e2e_runs = 0, batch_per_sm = 24;
    bool sweep = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        // --e2e N: the end-to-end measures alone, N times each (spread).
        if (a == "--e2e" && i + 1 < argc)
            e2e_runs = std::atoi(argv[++i]);
        // --batch-sms N: end-to-end batches of N codewords per SM (default 24,
        // 8 waves of cuda-fixed16-dpx: the last wave's tail weighs little).
        else if (a == "--batch-sms" && i + 1 < argc)
            batch_per_sm = std::atoi(argv[++i]);
        // --only NAME GUARD [P]: one timed launch of one implementation at the
        // headline point, for profilers.
        else if (a == "--only" && i + 2 < argc) {
            only_impl = argv[++i];
            only_guard = std::atoi(argv[++i]);
            if (i + 1 < argc && argv[i + 1][0] != '-')
                only_P = std::atoi(argv[++i]);
        } else if (a == "--burst" && i + 1 < argc)
            g_burst = std::max(1, std::atoi(argv[++i]));
        // --devices [--device-threads N]: N, copy threads per GPU for the
        // submit_many runs (default: half the host's threads shared out, 1..8).
        else if (parse_devices(devices, argc, argv, i))
            ;
        // --sweep: kernel only, default implementation, K=6144, over P and guard.
        else if (a == "--sweep")
            sweep = true;
        else if (a == "--quick")
            quick = true;
        else if (a == "--markdown")
            ; // tables are markdown anyway
        else {
            std::fprintf(stderr,
                         "usage: bench_turbo [--quick] [--only NAME GUARD [P]] [--e2e N] [--batch-sms N] [--sweep]\n"
                         "                   [--burst N] [--devices [--device-threads N]]\n"
                         "  NAME: cuda-fixed16-dpx, cuda-float-window, cuda-float-state or cuda-float-block\n"
                         "        (or their old numbers 4, 2, 3, 1)\n");
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    const auto& probe = core::probe_cuda();
    if (probe.devices.empty() || !probe.devices[0].usable) {
        std::printf("bench_turbo: no usable CUDA device; nothing to measure\n");
        return 0;
    }
    const core::backend_choice gpu{ core::backend_kind::cuda, { 0 }, "" };
    const core::backend_choice cpu{ core::backend_kind::cpu, {}, "" };
    const int sms = probe.devices[0].multiprocessors;
    const auto g = bench::gpu_limits::of(0);
    std::printf("device: %s (%s); CPU threads: %u\n", probe.devices[0].name.c_str(), g.describe().c_str(),
                std::thread::hardware_concurrency());
    std::printf("checked: every codeword ran all its iterations; outputs equal the registry reference's on the same "
                "codewords (bit for bit, or where the registry says not bit-exact as many bit errors within its "
                "tolerance); "
                "figures not above their bounds (see the head of bench_turbo.cc)\n");

    using A = core::turbo::algorithm;
    const A S = core::turbo::SCALED_MAX_LOG_MAP;
    if (!only_impl.empty()) {
        auto cfg = make_cfg(S, 6, only_P, only_impl);
        cfg.guard = only_guard;
        std::string why;
        if (!runs_as_asked(cfg, &why))
            bench::fail("--only " + only_impl + ": " + why);
        const auto f = kernel_gbps(6144, cfg, 24 * sms, 1,
                                   only_impl + " guard " + std::to_string(only_guard) + " P " + std::to_string(only_P));
        std::printf("%s guard %d P %d: %.2f Gbit/s (bound %.0f)\n", only_impl.c_str(), only_guard, only_P, f.gbps,
                    f.bound);
        return 0;
    }
    if (devices.on) {
        // 1, 2, 4, 8 and all GPUs (the first ones visible) in one run:
        // kernel-bound, and end to end (int8 in, host to host) through one
        // pipeline over them, fed three ways; with the host's topology, its
        // copy rate and the GPUs' links alone and all at once, and per device
        // where each end-to-end run spent its time.
        const auto host = bench::survey_host(probe);
        const auto cfg = make_cfg(S, 6, default_P(6144));
        const int nf = 24 * sms, reps = quick ? 10 : 40;
        const std::string impl = implementation_run(cfg, core::backend_kind::cuda);
        const size_t batch = 528;
        const size_t K = 6144, in_bytes = 3 * K + 12;
        const auto fb = bench::pipeline_frame_bytes(core::turbo::frame_types_of(), in_bytes, K);
        std::vector<double> kern, caller, threads_launch, many, links_bound, together_bound, copy_bound, nthreads;
        for (size_t ci = 0; ci < host.counts.size(); ci++) {
            const size_t k = host.counts[ci];
            const auto lk = host.links_of(k);
            const core::backend_choice where{ core::backend_kind::cuda, host.first(k), "" };
            // Copy threads per GPU: half the host's threads shared out, 1..8
            // (a core copies about 6-10 GB/s; 8 can feed a PCIe 5 link).
            const size_t threads = devices.device_threads > 0 ? size_t(devices.device_threads)
                                                          : std::max<size_t>(1, std::min<size_t>(8, host.hw / 2 / k));
            // Long enough to time at the GPUs' full rate: 100000 codewords a GPU.
            const size_t frames = (quick ? 20000 : 100000) * k;
            const std::string tag = std::to_string(k) + " GPU" + (k > 1 ? "s" : "");
            kern.push_back(multi_kernel_gbps(host.first(k), int(K), cfg, nf, reps, "kernel-bound, " + tag).gbps);
            const auto place_caller = pipeline_gbps(int(K), cfg, where, true, batch, frames, lk,
                                                    "end to end int8, in place, caller launches, " + tag,
                                                    { e2e_feed::in_place, 0, true });
            bench::print_stages("end to end int8, in place (begin_frames), the caller launches, " + tag,
                                place_caller, double(K));
            const auto place_threads = pipeline_gbps(int(K), cfg, where, true, batch, frames, lk,
                                                     "end to end int8, in place, device threads launch, " + tag,
                                                     { e2e_feed::in_place, 1, true });
            bench::print_stages("end to end int8, in place (begin_frames), a thread per GPU launches, " + tag,
                                place_threads, double(K));
            const auto by_many = pipeline_gbps(int(K), cfg, where, true, batch, frames, lk,
                                               "end to end int8, submit_many, device threads copy, " + tag,
                                               { e2e_feed::submit_many, threads, true });
            bench::print_stages("end to end int8, submit_many (copied into the staging by " + std::to_string(threads) +
                                    " threads per GPU, which launch too), " + tag,
                                by_many, double(K));
            caller.push_back(place_caller.gbps);
            threads_launch.push_back(place_threads.gbps);
            many.push_back(by_many.gbps);
            nthreads.push_back(double(threads));
            links_bound.push_back(bench::link_bound_gbps(lk, double(K), fb));
            together_bound.push_back(bench::link_bound_gbps({ host.together[ci] }, double(K), fb));
            copy_bound.push_back(host.copy_rate_at(threads * k) / double(in_bytes) * double(K));
            std::printf("frames timed (compared), %s: in place caller %zu (%zu), in place threads %zu (%zu), "
                        "submit_many %zu (%zu)\n",
                        tag.c_str(), place_caller.frames, place_caller.compared, place_threads.frames,
                        place_threads.compared, by_many.frames, by_many.compared);
            std::fflush(stdout);
        }
        std::printf("\n%s, K=6144, 6 iterations, int8 LLRs in (%.0f B per codeword over PCIe in, %.0f B out), "
                    "batches of %zu, 3 slots per GPU; (of linear): k times the 1-GPU figure of the column\n\n",
                    impl.c_str(), fb.h2d, fb.d2h, batch);
        std::printf("%s", bench::scaling_table(
                              host.counts,
                              { { "kernel-bound Gbit/s", kern },
                                { "e2e in place, caller launches", caller },
                                { "e2e in place, a thread per GPU launches", threads_launch },
                                { "e2e submit_many, copy threads per GPU", many },
                                { "copy threads per GPU", nthreads, false, 0 },
                                { "bound: links alone, summed", links_bound, false, 1 },
                                { "bound: links all at once", together_bound, false, 1 },
                                { "bound: host copies at that many threads", copy_bound, false, 1 } })
                              .c_str());
        const double many_bytes = 3 * fb.h2d + fb.d2h, place_bytes = fb.h2d + fb.d2h;
        std::printf("\nhost memory: best copy rate %.1f GB/s (%.1f GB/s of memory traffic); a codeword moves about "
                    "%.0f B of host memory through submit_many (copy read and write, DMA in and out), %.0f B in "
                    "place (DMA in and out): at that traffic, about %.1f Gbit/s through submit_many and %.1f in "
                    "place, all GPUs together (an estimate)\n",
                    host.best_copy, 2 * host.best_copy, many_bytes, place_bytes,
                    bench::host_memory_estimate_gbps(host, many_bytes, double(K)),
                    bench::host_memory_estimate_gbps(host, place_bytes, double(K)));
        std::printf("stage times: CUDA events around each batch's copies and kernel, profiling on in every "
                    "end-to-end run above\n");
        return 0;
    }
    if (sweep) {
        const std::string impl = implementation_run(make_cfg(S, 6, 48), core::backend_kind::cuda);
        std::printf("%s, K=6144, 6 iterations, kernel only\n", impl.c_str());
        std::printf("| P | W | guard | kernel Gbit/s | bound |\n|---|---|---|---|---|\n");
        for (int P : { 48, 64, 96, 128, 192, 256 })
            for (int gd : { 0, 8, 16 }) {
                auto cfg = make_cfg(S, 6, P);
                cfg.guard = gd;
                const auto f = kernel_gbps(6144, cfg, 24 * sms, 5,
                                           "sweep, P " + std::to_string(P) + " guard " + std::to_string(gd));
                std::printf("| %d | %d | %d | %.2f | %.0f |\n", P, 6144 / P, gd, f.gbps, f.bound);
                std::fflush(stdout);
            }
        return 0;
    }
    const auto links = measure_links({ 0 });
    std::printf("link: %s\n", links[0].describe().c_str());
    if (e2e_runs > 0) {
        const auto cfg = make_cfg(S, 6, default_P(6144));
        for (int r = 0; r < e2e_runs; r++) {
            const auto f = pipeline_gbps(6144, cfg, gpu, false, batch_per_sm * sms, 200000, links, "end to end, float32");
            const auto i = pipeline_gbps(6144, cfg, gpu, true, batch_per_sm * sms, 200000, links, "end to end, int8");
            std::printf("end to end, %s, K=6144, batches of %d: float32 %.2f Gbit/s (bound %.2f), int8 %.2f Gbit/s "
                        "(bound %.2f)\n",
                        implementation_run(cfg, core::backend_kind::cuda).c_str(), batch_per_sm * sms, f.gbps,
                        f.bound, i.gbps, i.bound);
        }
        return 0;
    }
    // 1. Headline: K=6144, 6 iterations, scaled max-log-MAP.
    {
        const int K = 6144, P = default_P(K);
        const auto cfg = make_cfg(S, 6, P);
        const int nframes = 24 * sms;
        const std::string impl = implementation_run(cfg, core::backend_kind::cuda);
        const auto kern = kernel_gbps(K, cfg, nframes, quick ? 5 : 20, "headline kernel only");
        const auto e2e_f = pipeline_gbps(K, cfg, gpu, false, batch_per_sm * sms, quick ? 40000 : 200000, links,
                                         "headline end to end, float32");
        const auto e2e_i = pipeline_gbps(K, cfg, gpu, true, batch_per_sm * sms, quick ? 40000 : 200000, links,
                                         "headline end to end, int8");
        // CPU: batches of 16 vectors of SIMD_LANES codewords, one per core.
        const auto cpu_rate = pipeline_gbps(K, cfg, cpu, false, 16 * core::turbo_fx::SIMD_LANES,
                                            quick ? 1024 : 4096, links, "CPU backend");
        auto cfg_float = cfg;
        cfg_float.fixed_point = false;
        const auto cpu_float = pipeline_gbps(K, cfg_float, cpu, false, 64, quick ? 200 : 800, links,
                                             "CPU backend, float arithmetic");
        const double lat = latency_us(K, cfg, gpu, "latency, GPU");
        const double lat_cpu = latency_us(K, cfg, cpu, "latency, CPU");
        std::printf("\nK=6144, 6 iterations, scaled max-log-MAP, P=%d (W=%d, automatic), information bits; "
                    "%s on the GPU, %s / %s on the CPU:\n\n",
                    P, core::turbo::window_length(K, P), impl.c_str(),
                    implementation_run(cfg, core::backend_kind::cpu).c_str(),
                    implementation_run(cfg_float, core::backend_kind::cpu).c_str());
        std::printf("| measure | Gbit/s | ratio | bound Gbit/s | frames timed (compared) |\n|---|---|---|---|---|\n");
        std::printf("| kernel only (%d codewords per launch) | %.2f | %.2f of the 20 Gbit/s target | %.0f | %zu (%zu) |\n",
                    nframes, kern.gbps, kern.gbps / 20, kern.bound, kern.frames, kern.compared);
        std::printf("| end to end, float32 LLRs (12 B/bit in) | %.2f | %.2f of the PCIe bound | %.2f | %zu (%zu) |\n",
                    e2e_f.gbps, e2e_f.gbps / e2e_f.bound, e2e_f.bound, e2e_f.frames, e2e_f.compared);
        std::printf("| end to end, int8 LLRs (3 B/bit in) | %.2f | %.2f of the PCIe bound | %.2f | %zu (%zu) |\n",
                    e2e_i.gbps, e2e_i.gbps / e2e_i.bound, e2e_i.bound, e2e_i.frames, e2e_i.compared);
        std::printf("| CPU backend, %u threads | %.3f | GPU e2e float / CPU = %.0fx | %.0f | %zu (%zu) |\n",
                    std::thread::hardware_concurrency(), cpu_rate.gbps, e2e_f.gbps / cpu_rate.gbps, cpu_rate.bound,
                    cpu_rate.frames, cpu_rate.compared);
        std::printf("| CPU backend, float arithmetic (one codeword per thread) | %.3f | fixed-point SIMD / float = "
                    "%.1fx | %.0f | %zu (%zu) |\n",
                    cpu_float.gbps, cpu_rate.gbps / cpu_float.gbps, cpu_float.bound, cpu_float.frames,
                    cpu_float.compared);
        std::printf("| latency of one codeword, GPU | %.0f us | CPU: %.0f us | | 50 + 50 |\n", lat, lat_cpu);
        std::fflush(stdout);
    }
    // 2. Implementations at the headline point (the float ones decode
    //    identically at guard 0; guard 16 is the default).
    {
        const int K = 6144, nframes = 24 * sms;
        struct variant {
            const char* impl;
            int guard, P;
            const char* note;
        };
        const variant vs[] = { { "cuda-fixed16-dpx", 16, 128, " (default)" },
                               { "cuda-fixed16-dpx", 8, 128, "" },
                               { "cuda-fixed16-dpx", 0, 128, "" },
                               { "cuda-fixed16-dpx", 16, 96, "" },
                               { "cuda-float-block", 0, 96, "" },
                               { "cuda-float-window", 0, 96, "" },
                               { "cuda-float-window", 16, 96, "" },
                               { "cuda-float-window", 16, 128, "" },
                               // At most 64 windows per codeword (its registry entry).
                               { "cuda-float-state", 0, 64, "" },
                               { "cuda-float-state", 16, 64, "" } };
        std::printf("\nK=6144, 6 iterations, scaled max-log-MAP, kernel only, %d codewords per launch:\n\n", nframes);
        std::printf("| implementation | P | guard | Gbit/s | bound |\n|---|---|---|---|---|\n");
        for (const auto& v : vs) {
            auto cfg = make_cfg(S, 6, v.P, v.impl);
            cfg.guard = v.guard;
            std::string why;
            if (!runs_as_asked(cfg, &why)) {
                std::printf("| %s | %d | %d | (cannot run this: %s) | |\n", v.impl, v.P, v.guard, why.c_str());
                continue;
            }
            const auto f = kernel_gbps(K, cfg, nframes, quick ? 5 : 20,
                                       std::string(v.impl) + ", P " + std::to_string(v.P) + ", guard " +
                                           std::to_string(v.guard));
            std::printf("| %s%s | %d | %d | %.2f | %.0f |\n", v.impl, v.note, v.P, v.guard, f.gbps, f.bound);
            std::fflush(stdout);
        }
        std::printf("\n");
        for (const auto& e : core::turbo_implementations())
            if (e.info.backend == core::backend_kind::cuda)
                std::printf("- %s: %s\n", e.info.name.c_str(), e.info.description.c_str());
    }
    // 3. Kernel-only table: K x iterations x algorithm.
    const std::vector<A> algs = { core::turbo::LOG_MAP, core::turbo::MAX_LOG_MAP, S };
    for (int K : { 40, 1024, 6144 }) {
        const int P = default_P(K);
        const int nframes = K <= 1024 ? 64 * sms : 24 * sms;
        std::printf("\nkernel only, K=%d, P=%d, %d codewords per launch, Gbit/s:\n\n", K, P, nframes);
        std::printf("| algorithm (implementation) |");
        for (int it = 1; it <= 8; it++)
            std::printf(" %d it |", it);
        std::printf("\n|---|---|---|---|---|---|---|---|---|\n");
        for (A a : algs) {
            std::printf("| %s (%s) |", core::turbo::algorithm_name(a),
                        implementation_run(make_cfg(a, 1, P), core::backend_kind::cuda).c_str());
            for (int it = 1; it <= 8; it++) {
                if (quick && it != 1 && it != 6) {
                    std::printf(" - |");
                    continue;
                }
                const auto f = kernel_gbps(K, make_cfg(a, it, P), nframes, quick ? 3 : 10,
                                           std::string("kernel only, K ") + std::to_string(K) + ", " +
                                               core::turbo::algorithm_name(a) + ", " + std::to_string(it) + " it");
                std::printf(" %.2f |", f.gbps);
                std::fflush(stdout);
            }
            std::printf("\n");
        }
    }
    return 0;
}
