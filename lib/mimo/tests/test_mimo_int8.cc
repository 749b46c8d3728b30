/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// int8 LLR output (mimo_config::llr_type): every implementation's int8
// output must be exactly the quantisation of its own float output of the
// same frames, v = rint(clamp(8 L, -127, 127)), computed here in double
// precision without the module's helper; and CUDA's int8 output must agree
// with the CPU twin's to what the float tolerance of test_mimo_cuda.cc
// implies: |L_gpu - L_cpu| <= t means |v_gpu - v_cpu| <= 8 t + 1 (each side
// rounds by at most half a step; saturation only narrows the gap).
// Frames cover a-priori input (extrinsic output), sorted QR, every
// modulation, 1x1 to 8x8, rank-deficient channels, frames whose int8 output
// is not a multiple of 4 bytes, and frames refused for a NaN (zeros).
// Without a CUDA device the *Cuda* cases report skipped (test_main.cc).
#include "common/llr_int8.h"
#include "mimo/mimo_implementations.h"
#include "mimo_test_util.h"
#include "test_util.h"
#include "turbo/turbo_fixed.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

using namespace gr::gpurx;
using core::mimo::llr_format;
using core::mimo::llr_output;

namespace {

// The format, written again from its definition (lte_turbo_decoder's
// input="int8": v = round(8 L) saturated to +-127, half to even).
int expected_int8(float l)
{
    const double v = std::min(127.0, std::max(-127.0, 8.0 * double(l)));
    return int(std::nearbyint(v)); // the default rounding mode: half to even
}

struct shape {
    int nt, nr, bits;
};

// Frames of every shape on three channel kinds; with priors when asked.
// Vector counts 1..4 (odd ones with 2-LLR vectors give int8 frames of
// 2 (mod 4) bytes); small N0 gives LLRs beyond the int8 range, large N0
// small ones, so both saturated and in-range values are compared.
std::vector<test::mimo_frame> frames_of(const std::vector<shape>& shapes, bool priors, std::mt19937& rng)
{
    std::vector<test::mimo_frame> frames;
    int i = 0;
    for (const auto& s : shapes)
        for (auto kind : { test::channel_kind::rayleigh, test::channel_kind::ill,
                           test::channel_kind::zero_column }) {
            const double n0 = i % 3 == 0 ? 0.01 : 0.1 + 0.3 * (i % 2);
            auto f = test::make_frame(s.nt, s.nr, s.bits, 1 + i % 4, n0, kind, rng);
            if (priors)
                test::add_priors(f, 2.0, rng);
            frames.push_back(std::move(f));
            i++;
        }
    return frames;
}

// Frame 1 of \p frames gets a NaN in its first received vector: refused.
void poison_second(std::vector<test::mimo_frame>& frames)
{
    auto& f = frames.at(1);
    f.data[size_t(f.params.nr) * f.params.nt] = test::cf(std::nanf(""), 0.0f);
}

struct counts {
    size_t total = 0, saturated = 0;
};

// \p impl's int8 output against its float output of the same frames; adds
// the LLRs compared to \p c (void: gtest's ASSERTs return).
void expect_int8_is_quantised_float(core::mimo_config cfg, const std::string& impl,
                                    const core::backend_choice& where,
                                    const std::vector<test::mimo_frame>& frames, counts& c)
{
    SCOPED_TRACE(impl);
    cfg.implementation = impl;
    cfg.llr_type = llr_format::float32;
    const auto f32 = test::detect_all(frames, cfg, where, 5);
    cfg.llr_type = llr_format::int8;
    const auto s8 = test::detect_all(frames, cfg, where, 5);
    for (size_t f = 0; f < frames.size(); f++) {
        const auto& p = frames[f].params;
        ASSERT_EQ(s8[f].result.status, f32[f].result.status) << "frame " << f;
        ASSERT_EQ(s8[f].result.rank, f32[f].result.rank) << "frame " << f;
        ASSERT_EQ(f32[f].llr.size(), size_t(p.vectors) * p.nt * p.bits_per_symbol);
        ASSERT_EQ(s8[f].llr8.size(), f32[f].llr.size()) << "frame " << f;
        for (size_t k = 0; k < f32[f].llr.size(); k++) {
            const float l = f32[f].llr[k];
            ASSERT_EQ(int(s8[f].llr8[k]), expected_int8(l))
                << "frame " << f << " (" << p.nt << "x" << p.nr << ", " << p.bits_per_symbol
                << " bits) LLR " << k << ": float " << l;
            c.total++;
            c.saturated += std::abs(expected_int8(l)) == 127;
        }
    }
}

// Every implementation of \p backend: without priors (a posteriori), with
// priors (extrinsic) and sorted QR; plus a frame refused for a NaN.
void sweep_backend(core::backend_kind backend)
{
    const auto where = backend == core::backend_kind::cuda ? test::cuda_backend() : test::cpu_backend();
    std::mt19937 rng(8);
    size_t checked = 0;
    counts all;
    for (const auto& e : core::mimo_implementations()) {
        if (e.info.backend != backend)
            continue;
        const std::string& impl = e.info.name;
        const bool ml = impl.find("-ml") != std::string::npos;
        // Lanes and thread-per-vector paths of the trellis kernels; 8x8 where
        // the algorithm takes it; cuda-kbest's K x Q bound holds for k = 16.
        std::vector<shape> shapes = { { 1, 1, 2 }, { 2, 2, 4 }, { 2, 3, 6 }, { 3, 3, 2 }, { 4, 4, 4 } };
        shapes.push_back(ml ? shape{ 1, 2, 8 } : shape{ 8, 8, 2 });
        if (!ml)
            shapes.push_back({ 2, 2, 8 });
        for (bool priors : { false, true }) {
            core::mimo_config cfg;
            cfg.k = 16;
            cfg.clip = 12.0f;
            cfg.sorted_qr = priors;
            cfg.output = priors ? llr_output::extrinsic : llr_output::aposteriori;
            auto frames = frames_of(shapes, priors, rng);
            poison_second(frames);
            expect_int8_is_quantised_float(cfg, impl, where, frames, all);
            if (::testing::Test::HasFatalFailure())
                return;
        }
        checked++;
    }
    std::printf("%zu implementations, %zu LLRs, %zu of them saturated\n", checked, all.total,
                all.saturated);
    EXPECT_GE(checked, 5u);
    // Both regions of the quantiser were exercised.
    EXPECT_GT(all.saturated, 0u);
    EXPECT_GT(all.total - all.saturated, all.total / 4);
}

} // namespace

TEST(MimoInt8, QuantisationIsRoundOf8LSaturated)
{
    // Half steps round to even; beyond +-127/8 saturate; infinities too.
    const std::pair<float, int> cases[] = {
        { 0.0f, 0 },     { 0.0625f, 0 },   { 0.1875f, 2 },    { -0.0625f, 0 },  { -0.1875f, -2 },
        { 0.3f, 2 },     { -0.3f, -2 },    { 1.0f, 8 },       { -2.5f, -20 },   { 15.875f, 127 },
        { 15.9375f, 127 }, { 16.0f, 127 }, { -16.0f, -127 },  { 1e9f, 127 },    { -1e9f, -127 },
        { std::numeric_limits<float>::infinity(), 127 },
        { -std::numeric_limits<float>::infinity(), -127 },
    };
    for (const auto& c : cases) {
        EXPECT_EQ(int(core::llr_to_int8(c.first)), c.second) << c.first;
        EXPECT_EQ(expected_int8(c.first), c.second) << c.first;
    }
    // The turbo decoders' own quantisation of a float LLR at their 1/8 unit:
    // an int8 LLR decodes exactly as the float it came from.
    std::mt19937 rng(3);
    std::normal_distribution<float> g(0.0f, 10.0f);
    for (int i = 0; i < 100000; i++) {
        const float l = i < 4096 ? float(i - 2048) / 16.0f : g(rng); // every half step, then random
        ASSERT_EQ(int(core::llr_to_int8(l)), core::turbo_fx::quantize(l, 8.0f)) << l;
        ASSERT_EQ(int(core::llr_to_int8(l)), expected_int8(l)) << l;
    }
}

TEST(MimoInt8, OutputBytesAreOnePerLlr)
{
    const core::mimo::frame_params p{ 3, 4, 6, 5, 0.1f, 0, 1 };
    EXPECT_EQ(core::mimo::frame_out_bytes(p, llr_format::float32), size_t(5 * 3 * 6 * 4));
    EXPECT_EQ(core::mimo::frame_out_bytes(p, llr_format::int8), size_t(5 * 3 * 6));
}

TEST(MimoInt8, EveryCpuImplementationQuantisesItsFloatOutput) { sweep_backend(core::backend_kind::cpu); }

TEST(MimoInt8Cuda, EveryCudaImplementationQuantisesItsFloatOutput) { sweep_backend(core::backend_kind::cuda); }

// CUDA int8 against the CPU twin's int8 on the same frames, to the bound the
// float tolerance of test_mimo_cuda.cc implies (see the top), with the same
// allowed fractions: none where no discrete decision can flip, 1% where a
// near-tie in fp32 may change a list.
TEST(MimoInt8Cuda, CudaInt8AgreesWithTheCpuTwin)
{
    struct run {
        const char* impl;
        std::vector<shape> shapes;
        double allowed_fraction;
        int k;
    };
    const std::vector<run> runs = {
        { "cuda-ml", { { 1, 1, 2 }, { 2, 2, 4 }, { 2, 3, 6 }, { 3, 3, 2 }, { 4, 4, 4 } }, 0.0, 16 },
        { "cuda-lmmse", { { 1, 1, 8 }, { 2, 2, 4 }, { 4, 6, 6 }, { 8, 8, 4 } }, 0.0, 16 },
        { "cuda-mtt", { { 1, 2, 4 }, { 2, 2, 6 }, { 2, 2, 8 } }, 0.0, 16 },
        { "cuda-mtt-fast", { { 1, 2, 4 }, { 2, 2, 6 }, { 2, 2, 2 } }, 0.0, 16 },
        { "cuda-kbest", { { 2, 2, 4 }, { 4, 4, 2 } }, 0.0, 256 }, // K = Q^nt: nothing pruned
        { "cuda-mtt-fast", { { 4, 4, 4 }, { 4, 4, 6 }, { 8, 8, 2 } }, 0.01, 16 },
        { "cuda-mtt", { { 3, 3, 4 }, { 4, 4, 2 }, { 8, 8, 4 } }, 0.01, 16 },
        { "cuda-kbest", { { 4, 4, 4 }, { 8, 8, 2 } }, 0.01, 16 },
        { "cuda-one-pass", { { 2, 2, 4 }, { 4, 4, 4 }, { 4, 4, 6 }, { 8, 8, 4 } }, 0.01, 16 },
    };
    std::mt19937 rng(12);
    for (const auto& r : runs)
        for (bool priors : { false, true }) {
            SCOPED_TRACE(std::string(r.impl) + (priors ? " priors, extrinsic, sorted" : " a posteriori"));
            core::mimo_config cfg;
            cfg.k = r.k;
            cfg.clip = 12.0f;
            cfg.sorted_qr = priors;
            cfg.output = priors ? llr_output::extrinsic : llr_output::aposteriori;
            cfg.implementation = r.impl;
            auto chosen = cfg;
            const auto choice = core::choose_mimo_implementation(chosen);
            ASSERT_EQ(choice.cuda, r.impl) << choice.note;
            const auto frames = frames_of(r.shapes, priors, rng);
            cfg.llr_type = llr_format::int8;
            const auto gpu8 = test::detect_all(frames, cfg, test::cuda_backend(), 5);
            cfg.implementation = choice.cpu;
            const auto cpu8 = test::detect_all(frames, cfg, test::cpu_backend(), 5);
            cfg.llr_type = llr_format::float32;
            const auto cpu = test::detect_all(frames, cfg, test::cpu_backend(), 5);
            size_t total = 0, off = 0;
            for (size_t f = 0; f < frames.size(); f++) {
                ASSERT_EQ(gpu8[f].result.status, cpu8[f].result.status) << "frame " << f;
                ASSERT_EQ(gpu8[f].llr8.size(), cpu8[f].llr8.size()) << "frame " << f;
                ASSERT_EQ(cpu[f].llr.size(), cpu8[f].llr8.size()) << "frame " << f;
                for (size_t k = 0; k < cpu8[f].llr8.size(); k++) {
                    const double t = 0.02 + 0.01 * std::fabs(cpu[f].llr[k]);
                    total++;
                    if (std::abs(int(gpu8[f].llr8[k]) - int(cpu8[f].llr8[k])) > 8.0 * t + 1.0) {
                        off++;
                        if (r.allowed_fraction == 0.0)
                            ADD_FAILURE() << "frame " << f << " LLR " << k << ": gpu "
                                          << int(gpu8[f].llr8[k]) << ", cpu " << int(cpu8[f].llr8[k])
                                          << " (cpu float " << cpu[f].llr[k] << ")";
                    }
                }
            }
            std::printf("%s%s: %zu of %zu int8 LLRs outside the bound\n", r.impl,
                        priors ? " (priors)" : "", off, total);
            EXPECT_LE(double(off), r.allowed_fraction * double(total));
        }
}
