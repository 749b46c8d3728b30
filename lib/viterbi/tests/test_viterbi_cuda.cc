/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CUDA tiled decoder (cuda-tiled) against the CPU: bit for bit equal to
// the CPU tiled decoder, which runs the same algorithm with the same tie
// rules, for every code, termination, soft and hard input, punctured and
// not, and several tile lengths; its metric equals the full-frame
// reference's. Soft LLRs are drawn on a grid of 1/8 so that float (GPU) and
// double (CPU) sums are exact and equal.
#include "test_util.h"
#include "viterbi/tests/viterbi_test_util.h"
#include <gtest/gtest.h>
#include <cstdlib>

#include <algorithm>
#include <cmath>

using namespace gr::gpurx;

namespace {

std::vector<test::viterbi_frame_in> noisy_frames(const core::viterbi_config& cfg, bool hard, std::mt19937& rng)
{
    const auto code = cfg.code();
    const double rate = 1e6 / double(code.coded_bits(1000000));
    std::vector<test::viterbi_frame_in> frames;
    for (int L : { 17, 64, 101, 300, 1000, 64 }) {
        if (L < code.min_frame_bits())
            continue;
        const auto bits = test::random_bits(L, rng);
        const auto coded = test::independent_encode(cfg.K, cfg.polynomials, cfg.termination, cfg.puncture, bits);
        auto llr = test::bpsk_awgn_llrs(coded, rate, 2.0, rng);
        for (auto& x : llr)
            x = std::round(x * 8.0f) / 8.0f;
        if (hard)
            frames.push_back({ L, core::viterbi::INPUT_HARD, {}, test::hard_bits(llr) });
        else
            frames.push_back({ L, core::viterbi::INPUT_SOFT, llr, {} });
    }
    return frames;
}

// The frames' LLRs x 4, rounded and saturated to int8: the float frames are
// set to those values too, and the int8 copies carry them as bytes.
std::vector<test::viterbi_frame_in> to_int8(std::vector<test::viterbi_frame_in>& frames)
{
    std::vector<test::viterbi_frame_in> as_int8;
    for (auto& f : frames) {
        test::viterbi_frame_in q{ f.frame_bits, core::viterbi::INPUT_INT8, {}, {} };
        for (auto& x : f.llr) {
            x = std::max(-127.0f, std::min(127.0f, std::round(x * 4.0f)));
            q.hard.push_back(uint8_t(int8_t(x))); // int8 bytes travel in the byte field
        }
        as_int8.push_back(q);
    }
    return as_int8;
}

} // namespace

TEST(ViterbiCuda, TiledEqualsCpuTiledBitForBit)
{
    std::mt19937 rng(404);
    size_t configs = 0;
    for (const auto& code : test::viterbi_codes())
        for (auto term : { core::viterbi::termination::terminated, core::viterbi::termination::truncated,
                           core::viterbi::termination::tail_biting })
            for (bool hard : { false, true })
                for (int chunk : { 7, 64, 2000 }) {
                    core::viterbi_config cfg;
                    cfg.K = code.K;
                    cfg.polynomials = code.polys;
                    cfg.termination = term;
                    cfg.chunk = chunk;
                    cfg.max_frame_bits = 1000;
                    if (code.name == "K7-133-171" && chunk == 64)
                        cfg.puncture = test::puncture_3_4();
                    cfg.implementation = "cuda-tiled";
                    const auto choice = core::choose_viterbi_implementation(cfg);
                    if (choice.cuda != "cuda-tiled") { // stated limits, e.g. tail-biting K=9
                        std::printf("%s %s chunk %d: %s\n", code.name.c_str(),
                                    core::viterbi::termination_name(term), chunk, choice.note.c_str());
                        EXPECT_FALSE(choice.note.empty());
                        continue;
                    }
                    SCOPED_TRACE(code.name + " " + core::viterbi::termination_name(term) +
                                 (hard ? " hard" : " soft") + " chunk " + std::to_string(chunk));
                    const auto frames = noisy_frames(cfg, hard, rng);
                    const auto gpu = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 3);
                    cfg.implementation = "cpu-tiled";
                    const auto tiled = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 3);
                    cfg.implementation = "cpu-reference";
                    const auto ref = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 3);
                    for (size_t f = 0; f < frames.size(); f++) {
                        ASSERT_EQ(gpu[f].result.status, core::viterbi::FRAME_DECODED) << "frame " << f;
                        EXPECT_EQ(gpu[f].bits, tiled[f].bits) << "frame " << f;
                        EXPECT_EQ(gpu[f].result.metric, ref[f].result.metric) << "frame " << f;
                        EXPECT_EQ(gpu[f].result.end_state, tiled[f].result.end_state) << "frame " << f;
                    }
                    configs++;
                }
    EXPECT_GT(configs, 90u);
}

// A frame whose sizes disagree with its parameters is rejected (zeros out),
// its neighbours decoded.
TEST(ViterbiCuda, MalformedFrameRejectedNeighboursIntact)
{
    core::viterbi_config cfg;
    cfg.max_frame_bits = 512;
    cfg.implementation = "cuda-tiled";
    std::mt19937 rng(5);
    auto frames = noisy_frames(cfg, false, rng);
    frames.resize(3);
    frames[1].llr.resize(frames[1].llr.size() - 2); // wrong length for its frame_bits
    const auto gpu = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 3);
    cfg.implementation = "cpu-tiled";
    const auto cpu = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 3);
    EXPECT_EQ(gpu[1].result.status, core::viterbi::FRAME_REJECTED);
    EXPECT_EQ(gpu[1].bits, std::vector<uint8_t>(gpu[1].bits.size(), 0));
    EXPECT_EQ(gpu[0].bits, cpu[0].bits);
    EXPECT_EQ(gpu[2].bits, cpu[2].bits);
}

// cuda-warp (one warp per frame, full frame) equals the full-frame CPU
// reference bit for bit: the same algorithm, sums exact on the 1/8 grid.
TEST(ViterbiCuda, WarpEqualsReferenceBitForBit)
{
    std::mt19937 rng(505);
    size_t configs = 0;
    for (const auto& code : test::viterbi_codes())
        for (auto term : { core::viterbi::termination::terminated, core::viterbi::termination::truncated })
            for (bool hard : { false, true })
                for (bool punctured : { false, true }) {
                    if (punctured && code.name != "K7-133-171")
                        continue;
                    core::viterbi_config cfg;
                    cfg.K = code.K;
                    cfg.polynomials = code.polys;
                    cfg.termination = term;
                    cfg.max_frame_bits = 1000;
                    if (punctured)
                        cfg.puncture = test::puncture_2_3();
                    cfg.implementation = "cuda-warp";
                    ASSERT_EQ(core::choose_viterbi_implementation(cfg).cuda, "cuda-warp");
                    SCOPED_TRACE(code.name + " " + core::viterbi::termination_name(term) +
                                 (hard ? " hard" : " soft") + (punctured ? " punctured" : ""));
                    const auto frames = noisy_frames(cfg, hard, rng);
                    const auto gpu = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 4);
                    cfg.implementation = "cpu-reference";
                    const auto ref = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 4);
                    for (size_t f = 0; f < frames.size(); f++) {
                        ASSERT_EQ(gpu[f].result.status, core::viterbi::FRAME_DECODED) << "frame " << f;
                        EXPECT_EQ(gpu[f].bits, ref[f].bits) << "frame " << f;
                        EXPECT_EQ(gpu[f].result.metric, ref[f].result.metric) << "frame " << f;
                        EXPECT_EQ(gpu[f].result.end_state, ref[f].result.end_state) << "frame " << f;
                    }
                    configs++;
                }
    EXPECT_EQ(configs, 28u);
}

// cuda-thread (one thread per frame, the code compiled in, packed 16-bit
// integer metrics for int8 and hard input) equals the full-frame CPU
// reference bit for bit, on every compiled code and termination (exact
// tail-biting: the same start state, the lowest on ties),
// float, int8 and hard input in one batch, punctured and not.
static void thread_equals_reference()
{
    std::mt19937 rng(515);
    size_t configs = 0;
    for (const auto& code : test::viterbi_codes())
        for (auto term : { core::viterbi::termination::terminated, core::viterbi::termination::truncated,
                           core::viterbi::termination::tail_biting })
            for (bool punctured : { false, true }) {
                if (punctured && code.name != "K7-133-171")
                    continue;
                core::viterbi_config cfg;
                cfg.K = code.K;
                cfg.polynomials = code.polys;
                cfg.termination = term;
                cfg.max_frame_bits = 1000;
                if (punctured)
                    cfg.puncture = test::puncture_3_4();
                cfg.implementation = "cuda-thread";
                const auto choice = core::choose_viterbi_implementation(cfg);
                if (choice.cuda != "cuda-thread") { // not a compiled code: says so
                    EXPECT_NE(choice.note.find("standard codes"), std::string::npos) << choice.note;
                    continue;
                }
                SCOPED_TRACE(code.name + " " + core::viterbi::termination_name(term) +
                             (punctured ? " punctured" : ""));
                // One batch: soft frames, their int8 twins, hard frames.
                auto frames = noisy_frames(cfg, false, rng);
                const auto as_int8 = to_int8(frames);
                const auto hard = noisy_frames(cfg, true, rng);
                frames.insert(frames.end(), as_int8.begin(), as_int8.end());
                frames.insert(frames.end(), hard.begin(), hard.end());
                const auto gpu = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 64);
                cfg.implementation = "cpu-reference";
                const auto ref = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 64);
                for (size_t f = 0; f < frames.size(); f++) {
                    ASSERT_EQ(gpu[f].result.status, core::viterbi::FRAME_DECODED) << "frame " << f;
                    EXPECT_EQ(gpu[f].bits, ref[f].bits) << "frame " << f;
                    EXPECT_EQ(gpu[f].result.metric, ref[f].result.metric) << "frame " << f;
                    EXPECT_EQ(gpu[f].result.end_state, ref[f].result.end_state) << "frame " << f;
                }
                configs++;
            }
    EXPECT_EQ(configs, 12u); // 3 compiled codes x 3 terminations, + K=7 punctured x 3
}

TEST(ViterbiCuda, ThreadEqualsReferenceBitForBit) { thread_equals_reference(); }

// The same with the portable packed max forced (GPURX_CUDA_PORTABLE=1, the
// policy of cuda/cuda_dpx.h): on Hopper the integer kernels then run
// viterbi_packed::max_u16x2_from_diff instead of max.u16x2, and still equal
// the reference (and so the DPX path) bit for bit; elsewhere they run it
// anyway.
TEST(ViterbiCuda, ThreadPortablePathEqualsReferenceBitForBit)
{
    struct portable_forced {
        portable_forced() { ::setenv("GPURX_CUDA_PORTABLE", "1", 1); }
        ~portable_forced() { ::unsetenv("GPURX_CUDA_PORTABLE"); }
    } forced;
    thread_equals_reference();
}

// cuda-thread rejects a malformed frame and one longer than max_frame_bits
// (its decisions would not fit), and decodes the neighbours.
TEST(ViterbiCuda, ThreadRejectsMalformedFramesNeighboursIntact)
{
    core::viterbi_config cfg;
    cfg.max_frame_bits = 300;
    cfg.implementation = "cuda-thread";
    std::mt19937 rng(6);
    core::viterbi_config longer = cfg;
    longer.max_frame_bits = 1000;
    auto frames = noisy_frames(longer, false, rng); // 17, 64, 101, 300, 1000, 64 bits
    frames[1].llr.resize(frames[1].llr.size() - 2);  // wrong length for its frame_bits
    const auto gpu = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 8);
    longer.implementation = "cpu-reference";
    const auto cpu = test::viterbi_decode_all(frames, longer, test::cpu_backend(), 8);
    for (size_t f : { size_t(1), size_t(4) }) {
        EXPECT_EQ(gpu[f].result.status, core::viterbi::FRAME_REJECTED) << "frame " << f;
        EXPECT_EQ(gpu[f].bits, std::vector<uint8_t>(gpu[f].bits.size(), 0)) << "frame " << f;
    }
    for (size_t f : { size_t(0), size_t(2), size_t(3), size_t(5) })
        EXPECT_EQ(gpu[f].bits, cpu[f].bits) << "frame " << f;
}

// The automatic choice on CUDA: cuda-thread for the compiled codes, every
// termination; cuda-warp for other codes, terminated or truncated. Their
// tail-biting frames run on the CPU, with a note: cuda-tiled, the paper's
// layout, is slower than the CPU and runs only when named.
TEST(ViterbiCuda, AutomaticChoice)
{
    core::viterbi_config cfg;
    cfg.max_frame_bits = 2048;
    EXPECT_EQ(core::choose_viterbi_implementation(cfg).cuda, "cuda-thread");
    core::viterbi_config other = cfg;
    other.K = 3;
    other.polynomials = { 07, 05 };
    EXPECT_EQ(core::choose_viterbi_implementation(other).cuda, "cuda-warp");
    cfg.termination = core::viterbi::termination::tail_biting;
    EXPECT_EQ(core::choose_viterbi_implementation(cfg).cuda, "cuda-thread");
    other.termination = core::viterbi::termination::tail_biting;
    const auto cpu = core::choose_viterbi_implementation(other);
    EXPECT_TRUE(cpu.cuda.empty());
    EXPECT_EQ(cpu.cpu, "cpu-simd");
    EXPECT_NE(cpu.cuda_note.find("terminated and truncated"), std::string::npos) << cpu.cuda_note;
    other.implementation = "cuda-tiled";
    EXPECT_EQ(core::choose_viterbi_implementation(other).cuda, "cuda-tiled");
    cfg.K = 9;
    cfg.polynomials = { 0753, 0561 };
    const auto c = core::choose_viterbi_implementation(cfg);
    EXPECT_TRUE(c.cuda.empty());
    EXPECT_NE(c.note.find("it runs on the CPU"), std::string::npos) << c.note;
}

// int8 input: the same path and metric as float LLRs of the same values, on
// both GPU implementations.
TEST(ViterbiCuda, Int8InputEqualsFloatOfTheSameValues)
{
    std::mt19937 rng(606);
    for (auto term : { core::viterbi::termination::terminated, core::viterbi::termination::tail_biting }) {
        core::viterbi_config cfg;
        cfg.termination = term;
        cfg.max_frame_bits = 1000;
        auto frames = noisy_frames(cfg, false, rng);
        const auto as_int8 = to_int8(frames);
        const auto f32 = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 4);
        const auto i8 = test::viterbi_decode_all(as_int8, cfg, test::cuda_backend(), 4);
        cfg.implementation = "cpu-reference";
        const auto cpu = test::viterbi_decode_all(as_int8, cfg, test::cpu_backend(), 4);
        for (size_t f = 0; f < frames.size(); f++) {
            ASSERT_EQ(i8[f].result.status, core::viterbi::FRAME_DECODED) << "frame " << f;
            EXPECT_EQ(i8[f].bits, f32[f].bits) << "frame " << f;
            EXPECT_EQ(i8[f].result.metric, f32[f].result.metric) << "frame " << f;
            EXPECT_EQ(cpu[f].result.metric, f32[f].result.metric) << "frame " << f;
        }
    }
}

// The same on the CPU: int8 LLRs decode as float LLRs of the same values.
TEST(ViterbiInt8, CpuInt8EqualsFloat)
{
    std::mt19937 rng(607);
    core::viterbi_config cfg;
    cfg.implementation = "cpu-reference";
    auto frames = noisy_frames(cfg, false, rng);
    const auto as_int8 = to_int8(frames);
    const auto f32 = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 4);
    const auto i8 = test::viterbi_decode_all(as_int8, cfg, test::cpu_backend(), 4);
    for (size_t f = 0; f < frames.size(); f++) {
        ASSERT_EQ(i8[f].result.status, core::viterbi::FRAME_DECODED);
        EXPECT_EQ(i8[f].bits, f32[f].bits) << "frame " << f;
        EXPECT_EQ(i8[f].result.metric, f32[f].result.metric) << "frame " << f;
    }
}

// Packed 16-bit metrics at their bound: long frames of int8 LLRs at full
// scale (-128 and 127 at random), the largest branch metrics the rate 1/3
// code can have, through hundreds of renormalisations; equal to the
// reference (double) bit for bit.
TEST(ViterbiCuda, ThreadInt8FullScaleEqualsReference)
{
    std::mt19937 rng(77);
    for (auto term : { core::viterbi::termination::terminated, core::viterbi::termination::truncated }) {
        core::viterbi_config cfg;
        cfg.polynomials = { 0133, 0171, 0165 };
        cfg.termination = term;
        cfg.max_frame_bits = 16384;
        const auto code = cfg.code();
        std::vector<test::viterbi_frame_in> frames;
        for (int L : { 16384, 5000, 1 }) {
            test::viterbi_frame_in f{ L, core::viterbi::INPUT_INT8, {}, {} };
            for (size_t i = 0; i < code.coded_bits(L); i++)
                f.hard.push_back(uint8_t(int8_t(rng() & 1 ? 127 : -128)));
            frames.push_back(f);
        }
        cfg.implementation = "cuda-thread";
        const auto gpu = test::viterbi_decode_all(frames, cfg, test::cuda_backend(), 4);
        cfg.implementation = "cpu-reference";
        const auto ref = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 4);
        for (size_t f = 0; f < frames.size(); f++) {
            ASSERT_EQ(gpu[f].result.status, core::viterbi::FRAME_DECODED) << "frame " << f;
            EXPECT_EQ(gpu[f].bits, ref[f].bits) << "frame " << f;
            EXPECT_EQ(gpu[f].result.metric, ref[f].result.metric) << "frame " << f;
        }
    }
}
