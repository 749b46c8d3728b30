/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Noisy Viterbi frames and a pipeline throughput run, shared by the Viterbi
// benchmarks (bench_viterbi, bench_viterbi_gpu).
#ifndef INCLUDED_GPURX_BENCH_VITERBI_BENCH_FRAMES_H
#define INCLUDED_GPURX_BENCH_VITERBI_BENCH_FRAMES_H

#include "bench_checks.h"
#include "bench_devices.h"
#include "pipeline/batch_pipeline.h"
#include "viterbi/viterbi_encoder.h"
#include "viterbi/viterbi_frame.h"
#include "viterbi/viterbi_implementations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace bench {

//! Frames as the decoder's input area holds them: float32 LLRs, int8 LLRs
//! or hard bits, as bytes.
struct staged_frames {
    core::viterbi::input_kind input;
    std::vector<std::vector<uint8_t>> bytes;
    std::vector<std::vector<uint8_t>> bits; //!< the information bits each frame carries
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
    staged_frames out{ input, {}, {} };
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
        out.bits.push_back(std::move(bits));
    }
    return out;
}

/*!
 * What the frames of \p cfg's implementation on \p backend must decode to:
 * the outputs of its registry reference (cpu-reference for every Viterbi
 * implementation but the reference itself) on the same staged frames, bit
 * for bit where the registry marks it bit-exact, else as many bit errors as
 * the reference's within the registry's tolerance (cpu-simd's float lanes
 * may pick the other of two paths of nearly equal metric: 1% of the bits).
 */
inline expected_outputs
viterbi_expected(const core::viterbi_config& cfg, const staged_frames& frames, int frame_bits, core::backend_kind backend)
{
    const auto choice = core::choose_viterbi_implementation(cfg);
    const std::string name = backend == core::backend_kind::cuda ? choice.cuda : choice.cpu;
    if (name.empty())
        fail("viterbi: no " + std::string(backend == core::backend_kind::cuda ? "CUDA" : "CPU") +
             " implementation for \"" + cfg.implementation + "\" (" + choice.note + ")");
    const auto info = registry_info(core::viterbi_implementations(), name);
    expected_outputs e;
    set_rule(e, info, name);
    e.sent = frames.bits;
    auto rc = cfg;
    rc.implementation = e.reference;
    const core::viterbi::frame_params params{ frame_bits, frames.input };
    e.out = reference_outputs(
        "viterbi " + e.reference, core::viterbi_kernel_factories(rc, core::choose_viterbi_implementation(rc)),
        core::viterbi::frame_types_of(), frames.bytes, [&](size_t) { return &params; },
        [&](size_t) { return size_t(frame_bits); },
        [](const core::completed_frame& f) {
            return f.result_as<core::viterbi::frame_result>()->status == core::viterbi::FRAME_DECODED;
        });
    return e;
}

//! A throughput figure through the pipeline and what stands behind it.
struct pipeline_figure {
    double gbps = 0;     //!< information bits
    frame_bytes bus;     //!< bytes per frame over PCIe on the CUDA backend
    size_t frames = 0;   //!< frames timed
    size_t compared = 0; //!< frames whose output was compared (warm-up and timed)
    std::string checked; //!< frame_check::summary() of the run
    double secs = 0;     //!< the timed part's wall time
    //! Per device, the timed part's stage times (pipeline_device_stats;
    //! the device's own with pipeline_config::profile).
    std::vector<core::pipeline_device_stats> stages;
};

//! The pipeline configuration of the throughput runs below: \p frames'
//! size in, \p frame_bits bits out, batches of \p max_batch on \p slots
//! slots, a 1 ms flush timeout (never reached: batches launch when full).
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
 * The harness of the throughput runs (bench_checks.h timed_pipeline): a
 * pipeline of \p cfg's implementation on \p where configured by \p pc; an
 * untimed warm-up of one full pipeline (pc.slots * pc.max_batch frames,
 * every output compared with \p expected), drained, then \p total frames
 * (rounded up to whole batches, at least twice the warm-up) timed from the
 * first one's submission until the last is out, every one's status checked
 * and one in sample_every compared. submit(pipe, params, first, n, warm)
 * hands over frames from number \p first, at most \p n, and returns how
 * many (\p warm: the warm-up's frames, the pipeline's slots times
 * max_batch);
 * staged(frame, number) names the staged frame a frame out carries. Fails
 * (no figure) when a check does.
 */
template <class Submit, class Staged>
pipeline_figure timed_pipeline_run(const core::viterbi_config& cfg,
                                   const core::backend_choice& where,
                                   const core::pipeline_config& pc,
                                   const staged_frames& frames,
                                   int frame_bits,
                                   size_t total,
                                   const expected_outputs& expected,
                                   const std::string& what,
                                   size_t collect_every,
                                   Submit submit,
                                   Staged staged)
{
    const auto choice = core::choose_viterbi_implementation(cfg);
    auto pipe = core::make_pipeline(core::viterbi_kernel_factories(cfg, choice), where, pc);
    const core::viterbi::frame_params params{ frame_bits, frames.input };
    const size_t warm = pipe->config().slots * pc.max_batch; // slots of every device
    total = std::max(total, 2 * warm);
    total = (total + pc.max_batch - 1) / pc.max_batch * pc.max_batch;
    frame_check check(what, &expected);
    const double secs = timed_pipeline(
        *pipe, warm, total, collect_every,
        [&](core::batch_pipeline& p, size_t first, size_t n) { return submit(p, params, first, n, warm); },
        [&](const core::completed_frame& f, size_t number, bool timed) {
            if (f.seq != number)
                fail(what + ": frame " + std::to_string(f.seq) + " came out as number " + std::to_string(number));
            const bool ok = !f.rejected &&
                            f.result_as<core::viterbi::frame_result>()->status == core::viterbi::FRAME_DECODED;
            check.add(staged(f, number), f.data, f.out_bytes, ok, !timed || number % sample_every == 0);
        });
    check.require(warm + total);
    pipeline_figure r;
    r.gbps = double(frame_bits) * double(total) / secs / 1e9;
    r.bus = pipeline_frame_bytes(pc.types, pc.max_in_bytes, pc.max_out_bytes);
    r.frames = total;
    r.compared = check.compared;
    r.checked = check.summary();
    r.secs = secs;
    r.stages = pipe->stats();
    return r;
}

/*!
 * The producer writing in place (begin_frame()): the warm-up writes real
 * data into every staging position (frame n into position n mod warm-up
 * size: whole batches, slots in turn); the timed frames reuse what is
 * staged there, so the figure is the pipeline's, PCIe's and the kernel's,
 * not the host's memcpy (bench_turbo measures its end to end the same way).
 * Each frame carries, as its user tag, the staged frame its position holds.
 */
inline pipeline_figure pipeline_gbps_in_place(const core::viterbi_config& cfg,
                                              const core::backend_choice& where,
                                              const staged_frames& frames,
                                              int frame_bits,
                                              size_t max_batch,
                                              size_t total,
                                              size_t slots,
                                              const expected_outputs& expected,
                                              const std::string& what)
{
    const auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    const size_t in_bytes = pc.max_in_bytes;
    const size_t nstaged = frames.bytes.size();
    // Completed frames are collected every 256 submissions, not after each:
    // a look at an in-flight batch queries its CUDA event, which costs more
    // than staging a frame.
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total, expected, what, 256,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, size_t,
            size_t warm) -> size_t {
            const size_t pos = in % warm, s = pos % nstaged;
            uint8_t* p = pipe.begin_frame(in_bytes, size_t(frame_bits), &params, s);
            if (in < warm)
                std::copy(frames.bytes[s].begin(), frames.bytes[s].end(), p);
            pipe.commit_frame();
            return 1;
        },
        [](const core::completed_frame& f, size_t) { return size_t(f.user); });
}

/*!
 * The producer writing in place a batch at a time (begin_frames(), the
 * shared bench::submit_in_place): as pipeline_gbps_in_place(), with whole
 * batches booked and taken out at once, so that one caller thread can feed
 * several GPUs (\p where may list several); \p device_threads and the
 * device's stage times (profile) as pipeline_config says. Each frame's user
 * tag is its staging position, which holds staged frame position mod the
 * staged count.
 */
inline pipeline_figure pipeline_gbps_in_place_batched(const core::viterbi_config& cfg,
                                                      const core::backend_choice& where,
                                                      const staged_frames& frames,
                                                      int frame_bits,
                                                      size_t max_batch,
                                                      size_t total,
                                                      size_t slots,
                                                      size_t device_threads,
                                                      const expected_outputs& expected,
                                                      const std::string& what)
{
    auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    pc.device_threads = device_threads;
    pc.profile = true;
    const size_t in_bytes = pc.max_in_bytes;
    const size_t nstaged = frames.bytes.size();
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total, expected, what, max_batch,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, size_t n,
            size_t warm) -> size_t {
            return submit_in_place(pipe, in, n, warm, max_batch, in_bytes, size_t(frame_bits), &params,
                                   [&](uint8_t* dst, size_t pos) {
                                       const auto& x = frames.bytes[pos % nstaged];
                                       std::copy(x.begin(), x.end(), dst);
                                   });
        },
        [&](const core::completed_frame& f, size_t) { return size_t(f.user) % nstaged; });
}

/*!
 * The same through submit_many(): frames handed over in runs from one
 * contiguous host buffer (as a stream block holds them), copied into the
 * staging by \p staging_threads threads.
 */
inline pipeline_figure pipeline_gbps_many(const core::viterbi_config& cfg,
                                          const core::backend_choice& where,
                                          const staged_frames& frames,
                                          int frame_bits,
                                          size_t max_batch,
                                          size_t total,
                                          size_t slots,
                                          size_t staging_threads,
                                          const expected_outputs& expected,
                                          const std::string& what)
{
    auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    pc.staging_threads = staging_threads;
    const size_t in_bytes = pc.max_in_bytes;
    const size_t nstaged = frames.bytes.size();
    // A pool of 4096 frames (the staged ones repeated), contiguous.
    const size_t pool = 4096;
    std::vector<uint8_t> src(pool * in_bytes);
    for (size_t i = 0; i < pool; i++)
        std::copy(frames.bytes[i % nstaged].begin(), frames.bytes[i % nstaged].end(), src.begin() + i * in_bytes);
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total, expected, what, 1,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, size_t left, size_t) {
            const size_t at = in % pool;
            const size_t n = std::min(pool - at, left);
            return pipe.submit_many(&src[at * in_bytes], in_bytes, in_bytes, size_t(frame_bits), &params, n);
        },
        [&](const core::completed_frame&, size_t number) { return (number % pool) % nstaged; });
}

/*!
 * Gbit/s of information bits through a pipeline on \p where (the harness
 * above): submit() one frame at a time, completed frames collected after
 * each. With \p staging_threads: pipeline_gbps_many().
 */
inline pipeline_figure pipeline_gbps(const core::viterbi_config& cfg,
                                     const core::backend_choice& where,
                                     const staged_frames& frames,
                                     int frame_bits,
                                     size_t max_batch,
                                     size_t total,
                                     size_t cpu_threads,
                                     const expected_outputs& expected,
                                     const std::string& what,
                                     size_t slots = 3,
                                     size_t staging_threads = 0)
{
    if (staging_threads)
        return pipeline_gbps_many(cfg, where, frames, frame_bits, max_batch, total, slots, staging_threads, expected,
                                  what);
    auto pc = bench_pipeline_config(frames, frame_bits, max_batch, slots);
    pc.cpu_threads = cpu_threads;
    const size_t nstaged = frames.bytes.size();
    return timed_pipeline_run(
        cfg, where, pc, frames, frame_bits, total, expected, what, 1,
        [&](core::batch_pipeline& pipe, const core::viterbi::frame_params& params, size_t in, size_t,
            size_t) -> size_t {
            const auto& x = frames.bytes[in % nstaged];
            pipe.submit(x.data(), x.size(), size_t(frame_bits), &params, in % nstaged);
            return 1;
        },
        [](const core::completed_frame& f, size_t) { return size_t(f.user); });
}

//! Instructions a GPU needs at least per information bit of a code with
//! \p states states: one trellis step per bit, and per step one
//! add-compare-select for every two states (a 16x2 DPX add-max), whatever
//! the layout.
inline double viterbi_gpu_instr_per_bit(int states) { return states / 2.0; }
//! Vector-lane bytes a CPU needs at least per information bit: an 8-bit
//! lane per state and step.
inline double viterbi_cpu_lane_bytes_per_bit(int states) { return double(states); }

} // namespace bench
} // namespace gpurx
} // namespace gr

#endif
