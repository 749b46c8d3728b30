/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Noisy Viterbi frames and a pipeline throughput run, shared by the Viterbi
// benchmarks (bench_viterbi, bench_viterbi_gpu).
#ifndef INCLUDED_GPURX_BENCH_VITERBI_BENCH_FRAMES_H
#define INCLUDED_GPURX_BENCH_VITERBI_BENCH_FRAMES_H

#include "pipeline/batch_pipeline.h"
#include "viterbi/viterbi_encoder.h"
#include "viterbi/viterbi_frame.h"
#include "viterbi/viterbi_implementations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace gr {
namespace gpurx {
namespace bench {

//! Frames as the decoder's input area holds them: float32 LLRs, int8 LLRs
//! or hard bits, as bytes.
struct staged_frames {
    core::viterbi::input_kind input;
    std::vector<std::vector<uint8_t>> bytes;
};

inline const char* input_name(core::viterbi::input_kind k)
{
    return k == core::viterbi::INPUT_SOFT ? "float32" : k == core::viterbi::INPUT_INT8 ? "int8" : "hard";
}

/*!
 * \p count random frames of \p frame_bits bits, encoded (punctured as the
 * code says), BPSK over AWGN at Eb/N0 = 4 dB: float LLRs 2y/sigma^2, int8
 * LLRs 4x those rounded and saturated, hard bits their signs.
 */
inline staged_frames
noisy_frames(const core::viterbi_config& cfg, int frame_bits, core::viterbi::input_kind input, int count)
{
    const auto code = cfg.code();
    const double rate = double(frame_bits) / double(code.coded_bits(frame_bits));
    std::mt19937 rng(7);
    const double sigma2 = 1.0 / (2.0 * rate * std::pow(10.0, 0.4));
    std::normal_distribution<double> noise(0.0, std::sqrt(sigma2));
    staged_frames out{ input, {} };
    for (int f = 0; f < count; f++) {
        std::vector<uint8_t> bits(frame_bits);
        for (auto& b : bits)
            b = uint8_t(rng() & 1);
        const auto coded = core::viterbi_encode(code, bits.data(), frame_bits);
        std::vector<uint8_t> bytes;
        for (size_t i = 0; i < coded.size(); i++) {
            const float l = float(2.0 * ((coded[i] ? 1.0 : -1.0) + noise(rng)) / sigma2);
            if (input == core::viterbi::INPUT_SOFT) {
                const auto* p = reinterpret_cast<const uint8_t*>(&l);
                bytes.insert(bytes.end(), p, p + sizeof(float));
            } else if (input == core::viterbi::INPUT_INT8) {
                bytes.push_back(uint8_t(int8_t(std::max(-127.0f, std::min(127.0f, std::round(4.0f * l))))));
            } else {
                bytes.push_back(l > 0);
            }
        }
        out.bytes.push_back(std::move(bytes));
    }
    return out;
}

//! The pipeline configuration of the throughput runs below: \p frames'
//! size in, \p frame_bits bits out, batches of \p max_batch on \p slots
//! slots, a 1 ms flush timeout.
inline core::pipeline_config
bench_pipeline_config(const staged_frames& frames, int frame_bits, size_t max_batch, size_t slots)
{
    core::pipeline_config pc;
    pc.types = core::viterbi::frame_types_of();
    pc.slots = slots;
    pc.max_batch = max_batch;
    pc.max_in_bytes = frames.bytes[0].size();
    pc.max_out_bytes = size_t(frame_bits);
    pc.flush_timeout = std::chrono::microseconds(1000);
    return pc;
}

/*!
 * The harness of the throughput runs: a pipeline of \p cfg's implementation
 * on \p where configured by \p pc, fed \p total frames after a warm-up of
 * one full pipeline (pc.slots * pc.max_batch frames), timed from the last
 * warm-up frame out. While the pipeline accepts, \p submit(pipe, params,
 * in, take) hands over frames from number \p in on and returns how many;
 * it calls take(false) to collect completed frames when it wants to. When
 * the pipeline is full, completed frames are waited for. Returns Gbit/s of
 * information bits.
 */
template <class Submit>
double timed_pipeline_run(const core::viterbi_config& cfg,
                          const core::backend_choice& where,
                          const core::pipeline_config& pc,
                          const staged_frames& frames,
                          int frame_bits,
                          size_t total,
                          Submit submit)
{
    using clk = std::chrono::steady_clock;
    const auto choice = core::choose_viterbi_implementation(cfg);
    auto pipe = core::make_pipeline(core::viterbi_kernel_factories(cfg, choice), where, pc);
    const core::viterbi::frame_params params{ frame_bits, frames.input };
    size_t in = 0, out = 0;
    const size_t warm = pc.slots * pc.max_batch;
    clk::time_point t0 = clk::now();
    auto take = [&](bool block) {
        while (pipe->front(block)) {
            pipe->pop();
            if (++out == warm)
                t0 = clk::now();
            block = false;
        }
    };
    while (in < total + warm) {
        if (!pipe->can_accept()) {
            take(true);
            continue;
        }
        in += submit(*pipe, params, in, take);
    }
    pipe->drain();
    take(false);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    return double(frame_bits) * double(out - warm) / secs / 1e9;
}

/*!
 * The same as pipeline_gbps() with the producer writing in place
 * (begin_frame()): each staging position gets real data on the first pass
 * over the slots and is reused after, so the figure is the pipeline's,
 * PCIe's and the kernel's, not the host's memcpy (bench_turbo measures its
 * end to end the same way).
 */
inline double pipeline_gbps_in_place(const core::viterbi_config& cfg,
                                     const core::backend_choice& where,
                                     const staged_frames& frames,
                                     int frame_bits,
                                     size_t max_batch,
                                     size_t total,
                                     size_t slots)
{
    const auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    const size_t in_bytes = pc.max_in_bytes;
    const size_t warm = pc.slots * max_batch;
    std::vector<bool> staged(warm, false);
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, auto& take) -> size_t {
            uint8_t* p = pipe.begin_frame(in_bytes, size_t(frame_bits), &params);
            if (!staged[in % warm]) {
                const auto& x = frames.bytes[in % frames.bytes.size()];
                std::copy(x.begin(), x.end(), p);
                staged[in % warm] = true;
            }
            pipe.commit_frame();
            // Completed frames are collected every 256 submissions, not
            // after each: a look at an in-flight batch queries its CUDA
            // event, which costs more than staging a frame.
            if ((in + 1) % 256 == 0)
                take(false);
            return 1;
        });
}

/*!
 * The same through submit_many(): frames handed over in runs from one
 * contiguous host buffer (as a stream block holds them), copied into the
 * staging by \p staging_threads threads.
 */
inline double pipeline_gbps_many(const core::viterbi_config& cfg,
                                 const core::backend_choice& where,
                                 const staged_frames& frames,
                                 int frame_bits,
                                 size_t max_batch,
                                 size_t total,
                                 size_t slots,
                                 size_t staging_threads)
{
    auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    pc.staging_threads = staging_threads;
    const size_t in_bytes = pc.max_in_bytes;
    const size_t warm = pc.slots * max_batch;
    // A pool of 4096 frames (the staged ones repeated), contiguous.
    const size_t pool = 4096;
    std::vector<uint8_t> src(pool * in_bytes);
    for (size_t i = 0; i < pool; i++)
        std::copy(frames.bytes[i % frames.bytes.size()].begin(), frames.bytes[i % frames.bytes.size()].end(),
                  src.begin() + i * in_bytes);
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, auto& take) -> size_t {
            const size_t at = in % pool;
            const size_t n = std::min(pool - at, total + warm - in);
            const size_t done = pipe.submit_many(&src[at * in_bytes], in_bytes, in_bytes, size_t(frame_bits),
                                                 &params, n);
            take(false);
            return done;
        });
}

/*!
 * Gbit/s of information bits for \p total frames through a pipeline on
 * \p where, timed once every slot has run once (the pipeline is full):
 * submit() one frame at a time, completed frames collected after each.
 * With \p staging_threads: pipeline_gbps_many().
 */
inline double pipeline_gbps(const core::viterbi_config& cfg,
                            const core::backend_choice& where,
                            const staged_frames& frames,
                            int frame_bits,
                            size_t max_batch,
                            size_t total,
                            size_t cpu_threads,
                            size_t slots = 3,
                            size_t staging_threads = 0)
{
    if (staging_threads)
        return pipeline_gbps_many(cfg, where, frames, frame_bits, max_batch, total, slots, staging_threads);
    auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    pc.cpu_threads = cpu_threads;
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, auto& take) -> size_t {
            const auto& x = frames.bytes[in % frames.bytes.size()];
            pipe.submit(x.data(), x.size(), size_t(frame_bits), &params);
            take(false);
            return 1;
        });
}

} // namespace bench
} // namespace gpurx
} // namespace gr

#endif
