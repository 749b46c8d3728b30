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
//   bench_viterbi_stream [--chunk L] [--traceback D] [--K 5|7|9] [--bits N]
//                        [--cpu-bits N] [--frame-windows W] [--max-batch B]
//                        [--impl cuda-stream-regs|cuda-stream-warp] [--quick]
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

// Kernel only: every frame of the stream resident on the GPU, decoded reps times.
double kernel_gbps(const core::viterbi_stream_config& cfg, const stream_data& s, int reps, std::vector<uint8_t>* out)
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
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaStreamDestroy(st);
    for (void* p : { dfd, dpar, din, dout, dres, dscr })
        cudaFree(p);
    return double(c.payload) / (times[times.size() / 2] * 1e-3) / 1e9;
}

// End to end: framer + pipeline, host to host, the stream appended in pieces
// of 1 Mi items (as a flowgraph would hand it over, in larger pieces).
double end_to_end_gbps(const core::viterbi_stream_config& cfg,
                       const core::backend_choice& where,
                       const stream_data& s,
                       size_t max_batch,
                       std::vector<uint8_t>* out)
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
    auto take = [&](bool block) {
        while (const auto* r = pipe->front(block)) {
            out->insert(out->end(), r->data, r->data + r->out_bytes);
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
    return double(out->size()) / secs / 1e9;
}

double ber(const std::vector<uint8_t>& got, const std::vector<uint8_t>& bits)
{
    size_t e = 0;
    for (size_t i = 0; i < bits.size(); i++)
        e += i >= got.size() || got[i] != bits[i];
    return double(e) / double(bits.size());
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
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            return 2;
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
    std::printf("| mode | implementation | input | stream bits | Gbit/s | BER |\n|---|---|---|---|---|---|\n");
    const auto& probe = core::probe_cuda();
    const bool gpu = !probe.devices.empty() && probe.devices[0].usable;
    std::vector<uint8_t> out;
    if (gpu) {
        auto streams = make_streams(cfg, bits, 7);
        auto c = cfg;
        c.implementation = impl;
        const std::string name = core::choose_viterbi_stream_implementation(c).cuda;
        for (const auto& s : streams) {
            const char* in = s.input == core::viterbi::INPUT_SOFT ? "float32" : "int8";
            const double k = kernel_gbps(c, s, 5, &out);
            std::printf("| kernel only (%s) | %s | %s | %zu | %.2f | %.2e |\n", probe.devices[0].name.c_str(),
                        name.c_str(), in, bits, k, ber(out, s.bits));
            const double e = end_to_end_gbps(c, { core::backend_kind::cuda, { 0 }, "" }, s, max_batch, &out);
            std::printf("| end to end, max_batch %zu | %s | %s | %zu | %.2f | %.2e |\n", max_batch, name.c_str(),
                        in, bits, e, ber(out, s.bits));
            std::fflush(stdout);
        }
    } else {
        std::printf("| (no usable CUDA device: CPU only) | | | | | |\n");
    }
    auto cpu_streams = make_streams(cfg, cpu_bits, 8);
    auto c = cfg;
    c.implementation = "cpu-stream";
    for (const auto& s : cpu_streams) {
        const char* in = s.input == core::viterbi::INPUT_SOFT ? "float32" : "int8";
        const double e =
            end_to_end_gbps(c, { core::backend_kind::cpu, {}, "" }, s, std::max<size_t>(cores, 4), &out);
        std::printf("| end to end, %u cores | cpu-stream | %s | %zu | %.4f | %.2e |\n", cores, in, cpu_bits, e,
                    ber(out, s.bits));
    }
    return 0;
}
