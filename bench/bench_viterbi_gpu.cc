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
// Every figure is checked first (bench_checks.h): every frame decoded, the
// outputs equal to cpu-reference's on the same frames (kernel only: every
// frame of the last launch; end to end: the warm-up's and one timed frame in
// 61; latency: every frame), and the figure not above its bound: kernel
// only, the GPU's instruction issue for one 16x2 add-compare-select per two
// states and trellis step and its memory for the batch's bytes; end to end,
// the bytes each frame moves over PCIe at the pinned rates measured at the
// start of the run (--pcie-gbs G: G GB/s each way and 2G both at once
// instead). A failed check prints an error and exits with status 1.
//
// --devices: 1, 2, 4, 8 and all GPUs in one run (bench_devices.h), K=7 r1/2,
// 2048-bit terminated frames, int8 LLRs, cuda-thread: kernel-bound (each GPU
// decodes its own resident batch of 131072 frames, the launches of all GPUs
// timed together over about half a second; every frame of each GPU's last
// launch checked) and end to end through one pipeline over the GPUs (the
// producer writing in place, a batch of 8192 frames at a time, 8 slots per
// GPU, 192 batches per GPU timed; the caller launching, then a thread per GPU
// launching), with the host's topology, links and copy rate
// (bench_host_survey.h), per device where each end-to-end run spent its
// time, and each figure's ratio to linear. --quick: a quarter of the frames.
//
//   bench_viterbi_gpu [--quick] [--pcie-gbs G] [--devices [--device-threads N]]
#include "bench/bench_checks.h"
#include "bench/bench_devices.h"
#include "bench/bench_host_survey.h"
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

// A resident batch of nframes frames (cycling through the staged ones) on
// one GPU and the named CUDA implementation, ready to run again and again.
struct resident_batch {
    int device = 0;
    std::unique_ptr<core::cuda_kernel> kernel;
    std::vector<core::frame_desc> fd;
    std::vector<core::viterbi::frame_params> params;
    void *dfd = nullptr, *dpar = nullptr, *din = nullptr, *dout = nullptr, *dres = nullptr, *dscr = nullptr;
    cudaStream_t st{};
    core::batch_view dev{}, host{};
    std::vector<core::viterbi::frame_result> results;

    resident_batch(const core::viterbi_config& cfg, const bench::staged_frames& frames, int frame_bits, int nframes,
                   int device_ = 0)
        : device(device_)
    {
        const auto choice = core::choose_viterbi_implementation(cfg);
        if (choice.cuda != cfg.implementation)
            throw std::runtime_error(cfg.implementation + " cannot run this: " + choice.note);
        ck(cudaSetDevice(device), "set device");
        kernel = core::viterbi_kernel_factories(cfg, choice).cuda(device);
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
        results.resize(nframes);
        in_bytes_total = hin.size() + fd.size() * sizeof(core::frame_desc) +
                         params.size() * sizeof(core::viterbi::frame_params);
        out_bytes_total = out_stride * nframes + nframes * sizeof(core::viterbi::frame_result);
        out_stride_ = out_stride;
    }
    size_t in_bytes_total = 0, out_bytes_total = 0, out_stride_ = 0;

    /*!
     * After the timed launches: every frame of the last one decoded, with
     * the expected output of the staged frame it holds (frame f holds staged
     * frame f mod the staged count). Fails (no figure) otherwise.
     */
    std::string verify(const std::string& what, const bench::expected_outputs& e, int frame_bits)
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaStreamSynchronize(st), "sync");
        const size_t nframes = fd.size();
        std::vector<uint8_t> out(out_stride_ * nframes);
        ck(cudaMemcpy(out.data(), dout, out.size(), cudaMemcpyDeviceToHost), "cpy");
        ck(cudaMemcpy(results.data(), dres, nframes * sizeof(core::viterbi::frame_result), cudaMemcpyDeviceToHost),
           "cpy");
        bench::frame_check check(what, &e);
        for (size_t f = 0; f < nframes; f++)
            check.add(f % e.out.size(), &out[f * out_stride_], size_t(frame_bits),
                      results[f].status == core::viterbi::FRAME_DECODED);
        check.require(nframes);
        return check.summary();
    }
    ~resident_batch()
    {
        cudaSetDevice(device);
        cudaStreamDestroy(st);
        for (void* p : { dfd, dpar, din, dout, dres, dscr })
            cudaFree(p);
    }
    //! Median kernel time over reps launches, in ms. Before each launch
    //! (outside the timed window) the results are cleared, and after it every
    //! frame must have one: each timed launch decoded every frame. The
    //! outputs are cleared before the last launch, for verify().
    double median_ms(int reps)
    {
        ck(cudaSetDevice(device), "set device");
        cudaEvent_t e0, e1;
        ck(cudaEventCreate(&e0), "event");
        ck(cudaEventCreate(&e1), "event");
        std::vector<float> times;
        for (int r = 0; r < reps; r++) {
            ck(cudaMemsetAsync(dres, 0xff, results.size() * sizeof(core::viterbi::frame_result), st), "memset");
            if (r == reps - 1)
                ck(cudaMemsetAsync(dout, 0xff, out_stride_ * fd.size(), st), "memset");
            ck(cudaEventRecord(e0, st), "record");
            kernel->enqueue(dev, host, st);
            ck(cudaEventRecord(e1, st), "record");
            ck(cudaEventSynchronize(e1), "sync");
            float ms;
            ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
            times.push_back(ms);
            ck(cudaMemcpy(results.data(), dres, results.size() * sizeof(core::viterbi::frame_result),
                          cudaMemcpyDeviceToHost),
               "cpy");
            for (const auto& x : results)
                if (x.status != core::viterbi::FRAME_DECODED)
                    bench::fail("kernel only, " + std::string(kernel->name()) + ": launch " + std::to_string(r) +
                                " left a frame undecoded: no figure");
        }
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    }
    //! Clears the outputs and results on the stream (verify() then finds
    //! what the launches after it wrote).
    void clear()
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaMemsetAsync(dres, 0xff, results.size() * sizeof(core::viterbi::frame_result), st), "memset");
        ck(cudaMemsetAsync(dout, 0xff, out_stride_ * fd.size(), st), "memset");
    }
    //! Enqueues one launch, without waiting.
    void launch()
    {
        ck(cudaSetDevice(device), "set device");
        kernel->enqueue(dev, host, st);
    }
    //! Waits for the launches enqueued.
    void finish()
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaStreamSynchronize(st), "sync");
    }
};

struct kernel_figure {
    double gbps = 0, bound = 0; //!< the figure and its bound, Gbit/s
    std::string checked;        //!< the frames behind it
};

/*!
 * Kernel-only Gbit/s of \p nframes frames (the median launch of \p reps),
 * checked: every frame of the last launch as \p e expects, and the figure
 * not above the kernel bound on \p g (fails, no figure, otherwise).
 */
kernel_figure kernel_gbps(const core::viterbi_config& cfg, const bench::staged_frames& frames, int frame_bits,
                          int nframes, int reps, const bench::expected_outputs& e, const bench::gpu_limits& g,
                          const std::string& what)
{
    resident_batch b(cfg, frames, frame_bits, nframes);
    const double ms = b.median_ms(reps);
    kernel_figure k;
    k.checked = b.verify(what, e, frame_bits);
    const double bits = double(frame_bits) * nframes;
    const double instr = bench::viterbi_gpu_instr_per_bit(cfg.code().states());
    const double bytes = double(b.in_bytes_total + b.out_bytes_total);
    k.bound = bench::kernel_bound_gbps(g, bits, instr, bytes);
    k.gbps = bench::check_bound(what, bits / (ms * 1e-3) / 1e9, k.bound, "Gbit/s", bench::kernel_why(g, instr, bytes / bits));
    return k;
}

// Mean and worst latency (us) of single frames, each submitted to an idle
// pipeline and taken out as soon as it completes.
void single_frame_latency(const core::viterbi_config& cfg, const bench::staged_frames& frames, int frame_bits,
                          int count, const bench::expected_outputs& e, const std::string& what, double& mean_us,
                          double& max_us)
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
    bench::frame_check check(what, &e);
    for (int i = 0; i < count + 5; i++) {
        const size_t s = size_t(i) % frames.bytes.size();
        const auto& x = frames.bytes[s];
        const auto t0 = clk::now();
        pipe->submit(x.data(), x.size(), size_t(frame_bits), &params);
        pipe->flush();
        const core::completed_frame* f = pipe->front(true);
        const auto t1 = clk::now();
        if (!f)
            bench::fail(what + ": frame " + std::to_string(i) + " did not come out");
        check.add(s, f->data, f->out_bytes,
                  !f->rejected && f->result_as<core::viterbi::frame_result>()->status == core::viterbi::FRAME_DECODED);
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
    check.require(uint64_t(count) + 5);
}

// ------------------------------------------------ several GPUs (--devices)

/*!
 * Kernel-bound Gbit/s of several GPUs at once: each decodes its own resident
 * batch of \p nframes frames; the launches of all of them are timed
 * together (wall time, about half a second: bench::reps_for the first GPU's
 * median launch). Checked: every frame of each GPU's last launch as \p e
 * expects, and the figure not above the sum of the GPUs' kernel bounds.
 */
bench::device_figure multi_kernel_gbps(const std::vector<int>& devices, const core::viterbi_config& cfg,
                                       const bench::staged_frames& frames, int frame_bits, int nframes,
                                       const bench::expected_outputs& e, const std::string& what)
{
    std::vector<std::unique_ptr<resident_batch>> b;
    for (int d : devices)
        b.push_back(std::make_unique<resident_batch>(cfg, frames, frame_bits, nframes, d));
    const int reps = bench::reps_for(b[0]->median_ms(3) * 1e-3);
    for (auto& x : b) {
        x->clear();
        x->finish();
    }
    const double secs = bench::timed_launches(
        b.size(), reps, [&](size_t i) { b[i]->launch(); }, [&](size_t i) { b[i]->finish(); });
    bench::device_figure f;
    const double bits = double(frame_bits) * nframes;
    const double instr = bench::viterbi_gpu_instr_per_bit(cfg.code().states());
    std::string why;
    for (auto& x : b) {
        x->verify(what + ", device " + std::to_string(x->device), e, frame_bits);
        const auto g = bench::gpu_limits::of(x->device);
        const double bytes = double(x->in_bytes_total + x->out_bytes_total);
        f.bound += bench::kernel_bound_gbps(g, bits, instr, bytes);
        why = bench::kernel_why(g, instr, bytes / bits) + ", summed over " + std::to_string(devices.size()) +
              " device(s)";
    }
    f.gbps = bench::check_bound(what, bits * reps * double(devices.size()) / secs / 1e9, f.bound, "Gbit/s", why);
    f.frames = f.compared = size_t(nframes) * devices.size();
    f.secs = secs;
    return f;
}

/*!
 * End to end through one pipeline over \p where's GPUs, the producer writing
 * in place a batch at a time (pipeline_gbps_in_place_batched), checked as
 * the single-GPU runs and against the GPUs' links alone, summed.
 */
bench::device_figure multi_e2e_gbps(const core::viterbi_config& cfg, const core::backend_choice& where,
                                    const bench::staged_frames& frames, int frame_bits, size_t batch, size_t slots,
                                    size_t total, size_t device_threads,
                                    const std::vector<bench::link_rates>& links,
                                    const bench::expected_outputs& e, const std::string& what)
{
    const auto p = bench::pipeline_gbps_in_place_batched(cfg, where, frames, frame_bits, batch, total, slots,
                                                         device_threads, e, what);
    bench::device_figure f;
    f.bound = bench::link_bound_gbps(links, frame_bits, p.bus);
    f.gbps = bench::check_bound(what, p.gbps, f.bound, "Gbit/s", bench::link_why(p.bus));
    f.frames = p.frames;
    f.compared = p.compared;
    f.secs = p.secs;
    f.stages = p.stages;
    f.device_threads = device_threads;
    return f;
}

/*!
 * --devices: 1, 2, 4, 8 and all GPUs in one run (see the head of this file).
 * Returns the exit status.
 */
int run_devices(const core::cuda_probe_result& probe, const bench::devices_options& opt, bool quick)
{
    const auto host = bench::survey_host(probe);
    const int frame_bits = 2048;
    core::viterbi_config cfg; // K=7 (133, 171) rate 1/2, terminated
    cfg.max_frame_bits = frame_bits;
    cfg.implementation = "cuda-thread";
    const auto frames = bench::noisy_frames(cfg, frame_bits, core::viterbi::INPUT_INT8, 64);
    const auto expected = bench::viterbi_expected(cfg, frames, frame_bits, core::backend_kind::cuda);
    const int kernel_frames = quick ? 32768 : 131072;
    const size_t batch = 8192, slots = 8, batches_per_gpu = quick ? 48 : 192;
    const size_t threads = opt.device_threads > 0 ? size_t(opt.device_threads) : 1;
    const auto fb = bench::pipeline_frame_bytes(core::viterbi::frame_types_of(), frames.bytes[0].size(),
                                                size_t(frame_bits));
    bench::devices_figures fig;
    for (size_t ci = 0; ci < host.counts.size(); ci++) {
        const size_t k = host.counts[ci];
        const std::string tag = std::to_string(k) + " GPU" + (k > 1 ? "s" : "");
        const core::backend_choice where{ core::backend_kind::cuda, host.first(k), "" };
        const auto lk = host.links_of(k);
        fig.kern.push_back(multi_kernel_gbps(host.first(k), cfg, frames, frame_bits, kernel_frames, expected,
                                         "kernel-bound, " + tag)
                           .gbps);
        const size_t total = batches_per_gpu * batch * k;
        const auto c = multi_e2e_gbps(cfg, where, frames, frame_bits, batch, slots, total, 0, lk, expected,
                                      "end to end int8, in place, caller launches, " + tag);
        bench::print_stages("end to end int8, in place (begin_frames), the caller launches, " + tag, c, frame_bits);
        const auto t = multi_e2e_gbps(cfg, where, frames, frame_bits, batch, slots, total, threads, lk, expected,
                                      "end to end int8, in place, device threads launch, " + tag);
        bench::print_stages("end to end int8, in place (begin_frames), " + std::to_string(threads) +
                                " thread(s) per GPU launch, " + tag,
                            t, frame_bits);
        std::printf("frames timed (compared), %s: caller launches %zu (%zu), threads launch %zu (%zu)\n", tag.c_str(),
                    c.frames, c.compared, t.frames, t.compared);
        std::fflush(stdout);
        fig.caller.push_back(c.gbps);
        fig.by_threads.push_back(t.gbps);
        fig.add_bounds(host, ci, lk, frame_bits, fb);
    }
    std::printf("\ncuda-thread, K=7 (133,171) r1/2 terminated, %d-bit frames, int8 LLRs in (%.0f B per frame over "
                "PCIe in, %.0f B out); kernel-bound: %d frames per GPU per launch; end to end: batches of %zu, %zu "
                "slots per GPU; (of linear): k times the 1-GPU figure of the column\n\n",
                frame_bits, fb.h2d, fb.d2h, kernel_frames, batch, slots);
    std::printf("%s", fig.report(host.counts).c_str());
    std::printf("host memory estimate: twice the best copy rate (%.1f GB/s) over the %.0f B a frame moves through "
                "host memory (DMA in and out)\nstage times: CUDA events around each batch's copies and kernel, "
                "profiling on in every end-to-end run above\n",
                host.best_copy, fb.h2d + fb.d2h);
    return 0;
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
    double pcie_gbs = 0; // 0: measure the link in this run
    bench::devices_options devices;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (bench::parse_devices(devices, argc, argv, i))
            ;
        else if (!std::strcmp(argv[i], "--pcie-gbs") && i + 1 < argc)
            pcie_gbs = std::atof(argv[++i]);
        else {
            std::fprintf(stderr, "usage: bench_viterbi_gpu [--quick] [--pcie-gbs GB/s] [--devices [--device-threads N]]\n"
                                 "  --quick        fewer frames and repetitions\n"
                                 "  --devices      1, 2, 4, 8 and all GPUs in one run: kernel-bound and end to end\n"
                                 "  --device-threads N  with --devices: threads per GPU launching (default 1)\n"
                                 "  --pcie-gbs G   the PCIe bound from G GB/s each way (2G both at once) instead of\n"
                                 "                 the pinned copy rates measured at the start of the run\n");
            return std::strcmp(argv[i], "--help") && std::strcmp(argv[i], "-h") ? 2 : 0;
        }
    }
    const auto& probe = core::probe_cuda();
    if (devices.on) {
        const std::string why = bench::no_devices_reason(probe);
        if (!why.empty()) {
            std::printf("bench_viterbi_gpu --devices: %s: nothing to measure\n", why.c_str());
            return 0;
        }
        return run_devices(probe, devices, quick);
    }
    if (probe.devices.empty() || !probe.devices[0].usable) {
        std::printf("no usable CUDA device: nothing to measure\n");
        return 0;
    }
    const auto g = bench::gpu_limits::of(0);
    const bench::link_rates link =
        pcie_gbs > 0 ? bench::link_rates{ pcie_gbs, pcie_gbs, 2 * pcie_gbs } : bench::measure_link(0);
    const int reps = quick ? 3 : 7;
    std::printf("device: %s (%s); information bits per second\n", probe.devices[0].name.c_str(),
                g.describe().c_str());
    std::printf("link: %s\n\n",
                pcie_gbs > 0 ? ("given: " + bench::num(pcie_gbs) + " GB/s each way, " + bench::num(2 * pcie_gbs) +
                                " GB/s both at once")
                                   .c_str()
                             : link.describe().c_str());

    using T = core::viterbi::termination;
    const code_case k7{ "K=7 (133,171) r1/2", 7, { 0133, 0171 }, T::terminated };
    const code_case gsm{ "GSM K=5 (23,33) r1/2", 5, { 023, 033 }, T::terminated };
    const code_case k9{ "K=9 (753,561) r1/2", 9, { 0753, 0561 }, T::terminated };
    const code_case lte{ "LTE K=7 (133,171,165) r1/3 tail-biting", 7, { 0133, 0171, 0165 }, T::tail_biting };
    const code_case lte_t{ "K=7 (133,171,165) r1/3", 7, { 0133, 0171, 0165 }, T::terminated };

    std::printf("## Kernel only (resident batch, no transfers)\n\n");
    std::printf("Checked: every frame of the last launch decoded, equal to cpu-reference's output bit for bit. "
                "Bound: the GPU's instruction issue for one 16x2 add-compare-select per two states and trellis "
                "step, and its memory for the batch's bytes.\n\n");
    std::printf("| implementation | code | termination | input | frame bits | frames | Gbit/s | bound Gbit/s |\n"
                "|---|---|---|---|---|---|---|---|\n");
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
    int errors = 0; // rows that ended in an error instead of a figure
    for (const auto& r : rows) {
        core::viterbi_config cfg;
        cfg.K = r.code->K;
        cfg.polynomials = r.code->polys;
        cfg.termination = r.code->term;
        cfg.max_frame_bits = r.frame_bits;
        cfg.implementation = r.impl;
        std::printf("| %s | %s | %s | %s | %d | %d |", r.impl, r.code->name,
                    core::viterbi::termination_name(r.code->term), bench::input_name(r.input), r.frame_bits,
                    r.nframes);
        const auto choice = core::choose_viterbi_implementation(cfg);
        if (choice.cuda != cfg.implementation) {
            std::printf(" (%s cannot run this: %s) | |\n", r.impl, choice.note.c_str());
            continue;
        }
        const std::string what = std::string("kernel only, ") + r.impl + ", " + r.code->name + ", " +
                                 bench::input_name(r.input) + ", " + std::to_string(r.frame_bits) + "-bit frames";
        const auto frames = bench::noisy_frames(cfg, r.frame_bits, r.input, 64);
        const auto expected = bench::viterbi_expected(cfg, frames, r.frame_bits, core::backend_kind::cuda);
        try {
            const auto k = kernel_gbps(cfg, frames, r.frame_bits, r.nframes, reps, expected, g, what);
            std::printf(" %.2f | %.0f |\n", k.gbps, k.bound);
        } catch (const std::exception& e) { // a CUDA error (the batch does not fit, ...): no figure
            std::printf(" (error: %s) | |\n", e.what());
            errors++;
        }
        std::fflush(stdout);
    }

    std::printf("\n## End to end (host to host through the pipeline), K=7 r1/2, 2048-bit terminated frames\n\n");
    std::printf("Checked: every frame decoded; the warm-up's outputs (one full pipeline) and one timed frame in %d "
                "equal to cpu-reference's bit for bit. Timed: from the first timed frame's submission, after the "
                "warm-up has drained, until the last is out. Bound: the bytes each frame moves over PCIe "
                "(descriptor, parameters, aligned input in; result, output out) at the link rates above.\n\n",
                int(bench::sample_every));
    std::printf("| implementation | input | bytes in per bit | PCIe bound Gbit/s | Gbit/s | ratio to bound | "
                "frames timed (compared) |\n"
                "|---|---|---|---|---|---|---|\n");
    const core::backend_choice gpu0{ core::backend_kind::cuda, { 0 }, "" };
    for (I input : { I::INPUT_INT8, I::INPUT_SOFT }) {
        core::viterbi_config cfg;
        cfg.max_frame_bits = 2048;
        cfg.implementation = "cuda-thread";
        const auto frames = bench::noisy_frames(cfg, 2048, input, 64);
        const auto expected = bench::viterbi_expected(cfg, frames, 2048, core::backend_kind::cuda);
        const size_t batch = input == I::INPUT_INT8 ? 16384 : 8192;
        const std::string in_name = bench::input_name(input);
        // A figure: checked against its PCIe bound, then printed.
        auto print = [&](const std::string& path, const bench::pipeline_figure& f) {
            const double bound = bench::link_bound_gbps({ link }, 2048, f.bus);
            const std::string what = "end to end, cuda-thread, " + path + ", " + in_name;
            bench::check_bound(what, f.gbps, bound, "Gbit/s", bench::link_why(f.bus));
            std::printf("| cuda-thread, %s | %s | %.2f | %.1f | %.2f | %.2f | %zu (%zu) |\n", path.c_str(),
                        in_name.c_str(), f.bus.h2d / 2048, bound, f.gbps, f.gbps / bound, f.frames, f.compared);
            std::fflush(stdout);
        };
        for (size_t staging : { size_t(1), size_t(8), size_t(12), size_t(16) }) {
            const std::string path = "submit_many, " + std::to_string(staging) + " staging threads";
            print(path, bench::pipeline_gbps(cfg, gpu0, frames, 2048, batch, (quick ? 4 : 24) * batch, 0, expected,
                                             "end to end, " + path + ", " + in_name, 4, staging));
        }
        // The kernel alone on a batch of this size (the end-to-end batches'
        // own ceiling: a batch smaller than the GPU's thread capacity leaves
        // it partly idle unless batches overlap).
        const auto k = kernel_gbps(cfg, frames, 2048, int(batch), reps, expected, g,
                                   "kernel only, cuda-thread, batch of " + std::to_string(batch) + ", " + in_name);
        std::printf("| cuda-thread kernel only, batch of %zu | %s | | (kernel bound %.0f) | %.2f | | %zu (%zu) |\n",
                    batch, in_name.c_str(), k.bound, k.gbps, batch, batch);
        for (size_t b : { batch / 2, batch, 2 * batch })
            for (size_t slots : { size_t(4), size_t(8) }) {
                const std::string path =
                    "written in place, batch " + std::to_string(b) + ", " + std::to_string(slots) + " slots";
                print(path, bench::pipeline_gbps_in_place(cfg, gpu0, frames, 2048, b, (quick ? 8 : 32) * batch,
                                                          slots, expected, "end to end, " + path + ", " + in_name));
            }
        print("submit per frame",
              bench::pipeline_gbps(cfg, gpu0, frames, 2048, batch, (quick ? 4 : 24) * batch, 0, expected,
                                   "end to end, submit per frame, " + in_name, 4));
    }

    std::printf("\n## Latency of a single frame (idle pipeline, batch of one), K=7 r1/2 terminated\n\n");
    std::printf("Checked: every frame decoded, equal to cpu-reference's output bit for bit.\n\n");
    std::printf("| implementation | input | frame bits | mean us | worst us | frames |\n|---|---|---|---|---|---|\n");
    for (int bits : { 256, 2048 }) {
        core::viterbi_config cfg;
        cfg.max_frame_bits = bits;
        cfg.implementation = "cuda-thread";
        const auto frames = bench::noisy_frames(cfg, bits, I::INPUT_INT8, 16);
        const auto expected = bench::viterbi_expected(cfg, frames, bits, core::backend_kind::cuda);
        double mean_us = 0, max_us = 0;
        const int count = quick ? 50 : 300;
        single_frame_latency(cfg, frames, bits, count, expected,
                             "latency, cuda-thread, " + std::to_string(bits) + "-bit frames", mean_us, max_us);
        std::printf("| cuda-thread | int8 | %d | %.0f | %.0f | %d |\n", bits, mean_us, max_us, count + 5);
    }
    if (errors) {
        std::fprintf(stderr, "error: %d kernel-only row(s) ended in an error instead of a figure\n", errors);
        return 1;
    }
    return 0;
}
