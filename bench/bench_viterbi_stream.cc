/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Stream Viterbi decoder throughput (viterbi_stream.h): one long noisy
// stream (BPSK / AWGN, Eb/N0 4 dB), decoded bits per second.
//   kernel only (CUDA): a resident batch holding the whole stream's frames,
//     decoded again and again (the window map and the decoder, cudaEvents);
//   end to end: the stream cut by the framer and pushed through the batch
//     pipeline host to host (pinned staging, slots in flight), on CUDA and
//     on the CPU (cpu-stream, all cores; a shorter stream).
// Each with float32 and int8 LLRs; BER printed as a sanity check.
//
// Every figure is checked first (bench_checks.h): every frame decoded, the
// whole stream came out, and the GPU's output equals cpu-stream's (the
// registry reference, bit for bit) on the same stream; cpu-stream's own rows
// decode the stream to a BER below 1e-3 (about 2e-5 at 4 dB for K=7; an
// undecoded stream has about 5e-2). Bounds: kernel only, the GPU's
// instruction issue for one 16x2 add-compare-select per two states and
// trellis step (at least one step per decoded bit) and its memory for the
// frames' bytes; end to end on CUDA, the bytes the frames move over PCIe at
// the pinned rates measured at the start; on the CPU, the threads' vector
// issue (an 8-bit lane per state and step). A failed check prints an error
// and exits with status 1.
//
//   bench_viterbi_stream [--chunk L] [--traceback D] [--K 5|7|9] [--bits N]
//                        [--cpu-bits N] [--frame-windows W] [--max-batch B]
//                        [--impl cuda-stream-regs|cuda-stream-warp] [--quick]
#include "bench_checks.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"
#include "viterbi/viterbi_stream.h"
#include "viterbi/viterbi_stream_framer.h"
#include "viterbi/viterbi_stream_implementations.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
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

struct stream_data {
    std::vector<uint8_t> bits;
    core::viterbi::input_kind input;
    std::vector<uint8_t> items; // float32 LLRs or int8 ones, as bytes
};

// The stream's frames, cut by the framer from the whole stream at once.
struct cut_stream {
    std::vector<core::viterbi::stream_frame_params> params;
    std::vector<core::frame_desc> fd;
    std::vector<uint8_t> in; // the frames' inputs back to back
    size_t payload = 0;
};

cut_stream cut(const core::viterbi_stream_config& cfg, const stream_data& s, size_t max_frames)
{
    core::viterbi_stream_framer fr(cfg, s.input);
    fr.append(s.items.data(), s.items.size() / fr.item_bytes());
    cut_stream c;
    core::viterbi_stream_framer::frame f;
    while (c.params.size() < max_frames && fr.next(true, f)) {
        c.fd.push_back({ c.in.size(), c.payload, uint32_t(f.bytes), uint32_t(f.params.payload) });
        c.params.push_back(f.params);
        c.in.insert(c.in.end(), f.data, f.data + f.bytes);
        while (c.in.size() % 16)
            c.in.push_back(0);
        c.payload += size_t(f.params.payload);
        fr.advance();
    }
    return c;
}

struct figure {
    double gbps = 0, bound = 0;
};

// Kernel only: every frame of the stream resident on the GPU, decoded reps
// times; the last launch's frames checked (statuses; *out: the stream decoded)
// and the figure against the kernel bound.
figure kernel_gbps(const core::viterbi_stream_config& cfg, const stream_data& s, int reps, std::vector<uint8_t>* out,
                   const std::string& what)
{
    const auto choice = core::choose_viterbi_stream_implementation(cfg);
    if (choice.cuda.empty())
        throw std::runtime_error("no CUDA implementation: " + choice.note);
    ck(cudaSetDevice(0), "set device");
    auto kernel = core::viterbi_stream_kernel_factories(cfg, choice).cuda(0);
    const cut_stream c = cut(cfg, s, size_t(-1));
    const size_t nf = c.params.size();
    void *dfd, *dpar, *din, *dout, *dres, *dscr;
    ck(cudaMalloc(&dfd, nf * sizeof(core::frame_desc)), "malloc");
    ck(cudaMalloc(&dpar, nf * sizeof(core::viterbi::stream_frame_params)), "malloc");
    ck(cudaMalloc(&din, c.in.size()), "malloc");
    ck(cudaMalloc(&dout, c.payload), "malloc");
    ck(cudaMalloc(&dres, nf * sizeof(core::viterbi::stream_frame_result)), "malloc");
    ck(cudaMalloc(&dscr, kernel->scratch_bytes(nf)), "malloc");
    ck(cudaMemcpy(dfd, c.fd.data(), nf * sizeof(core::frame_desc), cudaMemcpyHostToDevice), "copy");
    ck(cudaMemcpy(dpar, c.params.data(), nf * sizeof(core::viterbi::stream_frame_params), cudaMemcpyHostToDevice),
       "copy");
    ck(cudaMemcpy(din, c.in.data(), c.in.size(), cudaMemcpyHostToDevice), "copy");
    const core::batch_view dev{ static_cast<core::frame_desc*>(dfd), nf, dpar, static_cast<uint8_t*>(din),
                                static_cast<uint8_t*>(dout), dres, static_cast<uint8_t*>(dscr) };
    const core::batch_view host{ c.fd.data(), nf, c.params.data(), nullptr, nullptr, nullptr, nullptr };
    cudaStream_t st;
    ck(cudaStreamCreate(&st), "stream");
    kernel->enqueue(dev, host, st); // warm-up
    ck(cudaStreamSynchronize(st), "sync");
    cudaEvent_t e0, e1;
    ck(cudaEventCreate(&e0), "event");
    ck(cudaEventCreate(&e1), "event");
    std::vector<float> times;
    for (int r = 0; r < reps; r++) {
        // Cleared outside the timed window: what the checks find, the launches wrote.
        ck(cudaMemsetAsync(dres, 0xff, nf * sizeof(core::viterbi::stream_frame_result), st), "memset");
        ck(cudaMemsetAsync(dout, 0xff, c.payload, st), "memset");
        ck(cudaEventRecord(e0, st), "record");
        kernel->enqueue(dev, host, st);
        ck(cudaEventRecord(e1, st), "record");
        ck(cudaEventSynchronize(e1), "sync");
        float ms;
        ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    out->resize(c.payload);
    ck(cudaMemcpy(out->data(), dout, c.payload, cudaMemcpyDeviceToHost), "copy");
    std::vector<core::viterbi::stream_frame_result> res(nf);
    ck(cudaMemcpy(res.data(), dres, nf * sizeof(res[0]), cudaMemcpyDeviceToHost), "copy");
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaStreamDestroy(st);
    for (void* p : { dfd, dpar, din, dout, dres, dscr })
        cudaFree(p);
    size_t failed = 0;
    for (const auto& r : res)
        failed += r.status != core::viterbi::FRAME_DECODED;
    if (failed)
        bench::fail(what + ": " + std::to_string(failed) + " of " + std::to_string(nf) + " frames not decoded: no figure");
    const auto g = bench::gpu_limits::of(0);
    const double bits = double(c.payload), instr = cfg.code().states() / 2.0;
    const double bytes = double(c.in.size() + c.payload +
                                nf * (sizeof(core::frame_desc) + sizeof(core::viterbi::stream_frame_params) +
                                      sizeof(core::viterbi::stream_frame_result)));
    figure f;
    f.bound = bench::kernel_bound_gbps(g, bits, instr, bytes);
    f.gbps = bench::check_bound(what, bits / (times[times.size() / 2] * 1e-3) / 1e9, f.bound, "Gbit/s",
                                bench::kernel_why(g, instr, bytes / bits));
    return f;
}

// End to end: framer + pipeline, host to host, the stream appended in pieces
// of 1 Mi items (as a flowgraph would hand it over, in larger pieces), timed
// from the first piece until the last frame is out. Every frame's status is
// checked and the whole stream must come out (*out); the figure is checked
// against its bound: PCIe at \p links on CUDA (the bytes the frames moved),
// the threads' vector issue on the CPU.
figure end_to_end_gbps(const core::viterbi_stream_config& cfg,
                       const core::backend_choice& where,
                       const stream_data& s,
                       size_t max_batch,
                       std::vector<uint8_t>* out,
                       const std::vector<bench::link_rates>& links,
                       const std::string& what)
{
    const auto code = cfg.code();
    const auto choice = core::choose_viterbi_stream_implementation(cfg);
    core::pipeline_config pc;
    pc.types = core::viterbi::stream_frame_types_of();
    pc.slots = 3;
    pc.max_batch = max_batch;
    pc.max_in_bytes = size_t(code.n()) * size_t(cfg.max_frame_steps()) * core::stream_item_bytes(s.input);
    pc.max_out_bytes = size_t(cfg.frame_windows) * size_t(cfg.chunk);
    pc.flush_timeout = std::chrono::microseconds(1000);
    auto pipe = core::make_pipeline(core::viterbi_stream_kernel_factories(cfg, choice), where, pc);
    core::viterbi_stream_framer fr(cfg, s.input);
    out->clear();
    out->reserve(s.bits.size());
    size_t frames_in = 0, frames_out = 0, failed = 0;
    bench::frame_bytes bus; // over PCIe, all frames together
    auto take = [&](bool block) {
        while (const auto* r = pipe->front(block)) {
            out->insert(out->end(), r->data, r->data + r->out_bytes);
            failed += r->rejected ||
                      r->result_as<core::viterbi::stream_frame_result>()->status != core::viterbi::FRAME_DECODED;
            frames_out++;
            pipe->pop();
            block = false;
        }
    };
    auto submit = [&](bool at_end) {
        core::viterbi_stream_framer::frame f;
        while (fr.next(at_end, f)) {
            while (!pipe->can_accept())
                take(true);
            pipe->submit(f.data, f.bytes, size_t(f.params.payload), &f.params);
            const auto b = bench::pipeline_frame_bytes(pc.types, f.bytes, size_t(f.params.payload));
            bus.h2d += b.h2d;
            bus.d2h += b.d2h;
            frames_in++;
            fr.advance();
            take(false);
        }
    };
    const size_t ib = fr.item_bytes(), items = s.items.size() / ib, piece = size_t(1) << 20;
    const auto t0 = clk::now();
    for (size_t done = 0; done < items; done += piece) {
        fr.append(s.items.data() + done * ib, std::min(piece, items - done));
        submit(false);
    }
    submit(true);
    pipe->drain();
    take(false);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (frames_out != frames_in || failed)
        bench::fail(what + ": " + std::to_string(frames_in) + " frames in, " + std::to_string(frames_out) + " out, " +
                    std::to_string(failed) + " not decoded: no figure");
    if (out->size() != s.bits.size())
        bench::fail(what + ": " + std::to_string(out->size()) + " bits out of a " + std::to_string(s.bits.size()) +
                    "-bit stream: no figure");
    const double bits = double(out->size());
    figure r;
    if (where.kind == core::backend_kind::cuda) {
        r.bound = bench::link_bound_gbps(links, bits, bus);
        r.gbps = bench::check_bound(what, bits / secs / 1e9, r.bound, "Gbit/s",
                                    "PCIe: " + bench::num(bus.h2d / bits) + " B in and " + bench::num(bus.d2h / bits) +
                                        " B out per decoded bit at the pinned rates measured in this run");
    } else {
        const auto limits = bench::cpu_limits::of_this_machine();
        const double lane = cfg.code().states();
        r.bound = limits.bound_gbps(0, lane);
        r.gbps = bench::check_bound(what, bits / secs / 1e9, r.bound, "Gbit/s", limits.why(0, lane));
    }
    return r;
}

//! Fails unless \p got equals \p ref (the reference's decoding of the same
//! stream) bit for bit.
void require_equal(const std::string& what, const std::vector<uint8_t>& got, const std::vector<uint8_t>& ref,
                   const std::string& reference)
{
    size_t d = got.size() == ref.size() ? 0 : std::max(got.size(), ref.size());
    for (size_t i = 0; i < got.size() && i < ref.size(); i++)
        d += got[i] != ref[i];
    if (d)
        bench::fail(what + ": " + std::to_string(d) + " of " + std::to_string(ref.size()) + " bits differ from " +
                    reference + "'s decoding of the same stream: no figure");
}

double ber(const std::vector<uint8_t>& got, const std::vector<uint8_t>& bits)
{
    size_t e = 0;
    for (size_t i = 0; i < bits.size(); i++)
        e += i >= got.size() || got[i] != bits[i];
    return double(e) / double(bits.size());
}

//! cpu-stream's own rows: the stream decodes (BER below 1e-3).
void require_decoded(const std::string& what, double b)
{
    if (!(b < 1e-3))
        bench::fail(what + ": BER " + bench::num(b) + " against the transmitted bits, not below 1e-3: no figure");
}

std::vector<stream_data> make_streams(const core::viterbi_stream_config& cfg, size_t nbits, unsigned seed)
{
    const auto code = cfg.code();
    std::mt19937 rng(seed);
    std::vector<uint8_t> bits(nbits);
    for (auto& b : bits)
        b = uint8_t(rng() & 1);
    // The stream's encoder: from state 0, never terminated (no puncturing here).
    std::vector<uint8_t> coded;
    coded.reserve(nbits * size_t(code.n()));
    for (int st = 0, i = 0; size_t(i) < nbits; i++) {
        const unsigned o = code.outputs(st, bits[size_t(i)]);
        for (int j = 0; j < code.n(); j++)
            coded.push_back(uint8_t((o >> j) & 1u));
        st = code.next_state(st, bits[size_t(i)]);
    }
    const double rate = double(nbits) / double(coded.size());
    const double sigma2 = 1.0 / (2.0 * rate * std::pow(10.0, 0.4));
    std::normal_distribution<float> noise(0.0f, float(std::sqrt(sigma2)));
    stream_data f{ bits, core::viterbi::INPUT_SOFT, std::vector<uint8_t>(coded.size() * sizeof(float)) };
    stream_data q{ bits, core::viterbi::INPUT_INT8, std::vector<uint8_t>(coded.size()) };
    auto* lf = reinterpret_cast<float*>(f.items.data());
    for (size_t i = 0; i < coded.size(); i++) {
        lf[i] = float(2.0 * ((coded[i] ? 1.0 : -1.0) + noise(rng)) / sigma2);
        q.items[i] = uint8_t(int8_t(std::max(-127.0f, std::min(127.0f, std::round(4.0f * lf[i])))));
    }
    return { std::move(f), std::move(q) };
}

} // namespace

int main(int argc, char** argv)
{
    core::viterbi_stream_config cfg;
    cfg.chunk = 512;
    cfg.traceback = 96;
    size_t bits = size_t(1) << 26, cpu_bits = size_t(1) << 22, max_batch = 128;
    int fw = 0;
    std::string impl = "auto";
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--quick") {
            bits = size_t(1) << 24;
            cpu_bits = size_t(1) << 20;
        } else if (a == "--chunk" && more)
            cfg.chunk = std::atoi(argv[++i]);
        else if (a == "--traceback" && more)
            cfg.traceback = std::atoi(argv[++i]);
        else if (a == "--K" && more)
            cfg.K = std::atoi(argv[++i]);
        else if (a == "--bits" && more)
            bits = size_t(std::atoll(argv[++i]));
        else if (a == "--cpu-bits" && more)
            cpu_bits = size_t(std::atoll(argv[++i]));
        else if (a == "--frame-windows" && more)
            fw = std::atoi(argv[++i]);
        else if (a == "--max-batch" && more)
            max_batch = size_t(std::atoll(argv[++i]));
        else if (a == "--impl" && more)
            impl = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: bench_viterbi_stream [--chunk L] [--traceback D] [--K 5|7|9] [--bits N] [--cpu-bits N]\n"
                         "                            [--frame-windows W] [--max-batch B]\n"
                         "                            [--impl cuda-stream-regs|cuda-stream-warp] [--quick]\n");
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    cfg.polynomials = cfg.K == 5 ? std::vector<unsigned>{ 023, 033 }
                      : cfg.K == 9 ? std::vector<unsigned>{ 0753, 0561 } : std::vector<unsigned>{ 0133, 0171 };
    cfg.frame_windows = fw > 0 ? fw : std::max(1, 65536 / cfg.chunk);
    cfg.validate();
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("K=%d rate 1/2, one stream, chunk L=%d, traceback D=%d, %d windows per frame, "
                "Eb/N0 4 dB; %u CPU threads\n\n",
                cfg.K, cfg.chunk, cfg.traceback, cfg.frame_windows, cores);
    std::printf("| mode | implementation | input | stream bits | Gbit/s | BER | bound Gbit/s |\n"
                "|---|---|---|---|---|---|---|\n");
    const auto& probe = core::probe_cuda();
    const bool gpu = !probe.devices.empty() && probe.devices[0].usable;
    std::vector<uint8_t> out, ref_out;
    const core::backend_choice cpu_backend{ core::backend_kind::cpu, {}, "" };
    const size_t cpu_batch = std::max<size_t>(cores, 4);
    if (gpu) {
        const std::vector<bench::link_rates> links{ bench::measure_link(0) };
        auto streams = make_streams(cfg, bits, 7);
        auto c = cfg;
        c.implementation = impl;
        const std::string name = core::choose_viterbi_stream_implementation(c).cuda;
        const auto info = bench::registry_info(core::viterbi_stream_implementations(), name);
        if (info.reference != "cpu-stream" || !info.tolerance.bit_exact)
            bench::fail(name + ": expected to be cpu-stream's bit-exact twin (its registry entry says otherwise)");
        auto rc = cfg;
        rc.implementation = "cpu-stream";
        for (const auto& s : streams) {
            const char* in = s.input == core::viterbi::INPUT_SOFT ? "float32" : "int8";
            // The reference's decoding of this very stream (untimed, checked).
            end_to_end_gbps(rc, cpu_backend, s, cpu_batch, &ref_out, links, std::string("reference cpu-stream, ") + in);
            require_decoded(std::string("reference cpu-stream, ") + in, ber(ref_out, s.bits));
            const std::string kw = "kernel only, " + name + ", " + in;
            const auto k = kernel_gbps(c, s, 5, &out, kw);
            require_equal(kw, out, ref_out, "cpu-stream");
            std::printf("| kernel only (%s) | %s | %s | %zu | %.2f | %.2e | %.0f |\n", probe.devices[0].name.c_str(),
                        name.c_str(), in, bits, k.gbps, ber(out, s.bits), k.bound);
            const std::string ew = "end to end, " + name + ", " + in;
            const auto e = end_to_end_gbps(c, { core::backend_kind::cuda, { 0 }, "" }, s, max_batch, &out, links, ew);
            require_equal(ew, out, ref_out, "cpu-stream");
            std::printf("| end to end, max_batch %zu | %s | %s | %zu | %.2f | %.2e | %.1f |\n", max_batch, name.c_str(),
                        in, bits, e.gbps, ber(out, s.bits), e.bound);
            std::fflush(stdout);
        }
        std::printf("(GPU rows: whole stream out, every frame decoded, bit for bit cpu-stream's decoding of the same "
                    "stream; link: %s)\n",
                    links[0].describe().c_str());
    } else {
        std::printf("| (no usable CUDA device: CPU only) | | | | | | |\n");
    }
    auto cpu_streams = make_streams(cfg, cpu_bits, 8);
    auto c = cfg;
    c.implementation = "cpu-stream";
    for (const auto& s : cpu_streams) {
        const char* in = s.input == core::viterbi::INPUT_SOFT ? "float32" : "int8";
        const std::string what = std::string("end to end, cpu-stream, ") + in;
        const auto e = end_to_end_gbps(c, cpu_backend, s, cpu_batch, &out, {}, what);
        const double b = ber(out, s.bits);
        require_decoded(what, b);
        std::printf("| end to end, %u cores | cpu-stream | %s | %zu | %.4f | %.2e | %.0f |\n", cores, in, cpu_bits,
                    e.gbps, b, e.bound);
    }
    std::printf("(cpu-stream rows: whole stream out, every frame decoded, BER below 1e-3)\n");
    return 0;
}
