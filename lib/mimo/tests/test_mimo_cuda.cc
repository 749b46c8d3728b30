/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Every CUDA MIMO implementation against its CPU twin (double precision)
// through the pipeline, on noisy random channels: Rayleigh, ill-conditioned
// (two columns within 1e-3) and singular (a zero column); with and without
// a-priori LLRs, both outputs, sorted and unsorted QR, every modulation,
// 1x1 to 4x4 (8x8 for mtt, kbest, lmmse, one-pass). Batches mix shapes,
// modulations and noise.
//
// Stated tolerance (fp32 against double): |L_gpu - L_cpu| <= 0.02 + 0.01 |L_cpu|.
// ml, lmmse and mtt for nt <= 2 have no discrete decision that rounding can
// flip: every LLR within it. mtt beyond 2 streams, kbest and one-pass prune on
// metric comparisons; a near-tie may go the other way in float and change a
// list (and a clipped LLR): at most 1% of their LLRs may be outside it.
// Without a CUDA device every case here reports skipped (test_main.cc).
#include "mimo/mimo_implementations.h"
#include "mimo_test_util.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

using namespace gr::gpurx;
using core::mimo::algorithm;
using core::mimo::llr_output;

namespace {

bool gpu_close(double got, double want) { return std::fabs(got - want) <= 0.02 + 0.01 * std::fabs(want); }

struct shape {
    int nt, nr, bits;
};

// Frames of every listed shape on each channel kind, half with priors.
std::vector<test::mimo_frame> frames_of(const std::vector<shape>& shapes, bool priors, std::mt19937& rng)
{
    std::vector<test::mimo_frame> frames;
    int i = 0;
    for (const auto& s : shapes)
        for (auto kind : { test::channel_kind::rayleigh, test::channel_kind::ill,
                           test::channel_kind::zero_column }) {
            auto f = test::make_frame(s.nt, s.nr, s.bits, 2 + i % 4, 0.05 + 0.1 * (i % 3), kind, rng);
            if (priors)
                test::add_priors(f, 2.0, rng);
            frames.push_back(std::move(f));
            i++;
        }
    return frames;
}

// Runs `impl` on CUDA and its CPU twin on the frames; every LLR must be within
// the tolerance, or all but `allowed_fraction` of them.
void expect_matches_cpu(core::mimo_config cfg, const std::string& impl,
                        const std::vector<test::mimo_frame>& frames, double allowed_fraction,
                        const std::string& what)
{
    SCOPED_TRACE(impl + " " + what);
    cfg.implementation = impl;
    auto chosen = cfg;
    const auto choice = core::choose_mimo_implementation(chosen);
    ASSERT_EQ(choice.cuda, impl) << choice.note;
    const auto gpu = test::detect_all(frames, cfg, test::cuda_backend(), 5);
    cfg.implementation = choice.cpu;
    const auto cpu = test::detect_all(frames, cfg, test::cpu_backend(), 5);
    size_t total = 0, off = 0;
    for (size_t f = 0; f < frames.size(); f++) {
        ASSERT_EQ(gpu[f].result.status, cpu[f].result.status) << "frame " << f;
        ASSERT_EQ(gpu[f].llr.size(), cpu[f].llr.size());
        for (size_t k = 0; k < cpu[f].llr.size(); k++) {
            ASSERT_TRUE(std::isfinite(gpu[f].llr[k])) << "frame " << f << " LLR " << k;
            total++;
            if (!gpu_close(gpu[f].llr[k], cpu[f].llr[k])) {
                off++;
                if (allowed_fraction == 0.0)
                    ADD_FAILURE() << "frame " << f << " (" << frames[f].params.nt << "x"
                                  << frames[f].params.nr << ", " << frames[f].params.bits_per_symbol
                                  << " bits) LLR " << k << ": gpu " << gpu[f].llr[k] << ", cpu "
                                  << cpu[f].llr[k];
            }
        }
    }
    std::printf("%s %s: %zu of %zu LLRs outside the tolerance\n", impl.c_str(), what.c_str(), off, total);
    EXPECT_LE(double(off), allowed_fraction * double(total));
}

// One implementation over both outputs, priors or not, sorted or not.
void sweep(core::mimo_config cfg, const std::string& impl, const std::vector<shape>& shapes,
           double allowed_fraction, bool sorted_matters = true)
{
    std::mt19937 rng(std::hash<std::string>()(impl) & 0xffff);
    for (bool priors : { false, true })
        for (bool sorted : { false, true }) {
            if (sorted && !sorted_matters)
                continue;
            cfg.sorted_qr = sorted;
            cfg.output = priors ? llr_output::extrinsic : llr_output::aposteriori;
            const auto frames = frames_of(shapes, priors, rng);
            expect_matches_cpu(cfg, impl, frames, allowed_fraction,
                               std::string(priors ? "priors, extrinsic" : "no priors, a posteriori") +
                                   (sorted ? ", sorted QR" : ""));
        }
}

core::mimo_config base()
{
    core::mimo_config c;
    c.clip = 12.0f;
    return c;
}

const std::vector<shape> small_all_modulations = { { 1, 1, 2 }, { 1, 2, 4 }, { 1, 1, 6 }, { 1, 3, 8 },
                                                   { 2, 2, 2 }, { 2, 2, 4 }, { 2, 3, 6 }, { 2, 2, 8 } };

} // namespace

TEST(MimoCuda, MlMatchesCpu)
{
    auto shapes = small_all_modulations;
    shapes.insert(shapes.end(), { { 3, 3, 2 }, { 3, 4, 4 }, { 4, 4, 2 }, { 4, 4, 4 } });
    sweep(base(), "cuda-ml", shapes, 0.0, false);
}

TEST(MimoCuda, MttLiteralAndFastMatchCpu)
{
    // Two streams: exact (MTT is ML there).
    for (const char* impl : { "cuda-mtt", "cuda-mtt-fast" })
        sweep(base(), impl, small_all_modulations, 0.0);
    const std::vector<shape> more = { { 3, 3, 4 }, { 4, 4, 2 }, { 4, 4, 4 }, { 4, 4, 6 },
                                      { 3, 5, 8 }, { 8, 8, 2 }, { 8, 8, 4 } };
    for (const char* impl : { "cuda-mtt", "cuda-mtt-fast" })
        sweep(base(), impl, more, 0.01);
}

TEST(MimoCuda, MttFastMatchesLiteral)
{
    std::mt19937 rng(71);
    const auto frames = frames_of({ { 4, 4, 4 }, { 4, 4, 6 }, { 3, 4, 2 }, { 8, 8, 4 } }, true, rng);
    auto cfg = base();
    cfg.implementation = "cuda-mtt";
    const auto literal = test::detect_all(frames, cfg, test::cuda_backend(), 5);
    cfg.implementation = "cuda-mtt-fast";
    const auto fast = test::detect_all(frames, cfg, test::cuda_backend(), 5);
    size_t total = 0, off = 0;
    for (size_t f = 0; f < frames.size(); f++)
        for (size_t k = 0; k < fast[f].llr.size(); k++) {
            total++;
            off += !gpu_close(fast[f].llr[k], literal[f].llr[k]);
        }
    std::printf("cuda-mtt-fast against cuda-mtt: %zu of %zu LLRs outside the tolerance\n", off, total);
    EXPECT_LE(double(off), 0.01 * double(total));
}

TEST(MimoCuda, KbestMatchesCpu)
{
    auto cfg = base();
    cfg.k = 16;
    sweep(cfg, "cuda-kbest",
          { { 1, 1, 8 }, { 2, 2, 4 }, { 2, 2, 6 }, { 3, 3, 4 }, { 4, 4, 4 }, { 4, 4, 2 }, { 8, 8, 2 },
            { 8, 8, 4 } },
          0.01);
    cfg.k = 256; // K = Q^nt: nothing pruned, exact
    sweep(cfg, "cuda-kbest", { { 2, 2, 4 }, { 4, 4, 2 }, { 2, 3, 2 } }, 0.0);
}

TEST(MimoCuda, LmmseMatchesCpu)
{
    auto shapes = small_all_modulations;
    shapes.insert(shapes.end(), { { 4, 4, 4 }, { 4, 6, 6 }, { 8, 8, 4 }, { 8, 8, 8 } });
    sweep(base(), "cuda-lmmse", shapes, 0.0, false);
}

TEST(MimoCuda, OnePassMatchesCpu)
{
    sweep(base(), "cuda-one-pass",
          { { 1, 1, 8 }, { 2, 2, 4 }, { 2, 2, 6 }, { 3, 3, 4 }, { 4, 4, 4 }, { 4, 4, 6 }, { 8, 8, 4 } },
          0.01);
}

// NaN in a vector or a prior: that frame zeros with STATUS_NOT_FINITE, its
// neighbours detected; a frame whose bytes disagree: STATUS_BAD_FRAME.
TEST(MimoCuda, NotFiniteAndBadFramesAsOnTheCpu)
{
    std::mt19937 rng(81);
    for (const char* impl : { "cuda-ml", "cuda-mtt", "cuda-mtt-fast", "cuda-kbest", "cuda-lmmse",
                              "cuda-one-pass" }) {
        SCOPED_TRACE(impl);
        auto frames = frames_of({ { 2, 2, 4 } }, true, rng);
        frames[1].data[frames[1].params.nr * frames[1].params.nt + 1] =
            test::cf(std::nanf(""), 0.0f); // a vector
        frames[2].data.back() = test::cf(0.0f, std::numeric_limits<float>::infinity()); // a prior
        auto cfg = base();
        cfg.implementation = impl;
        const auto gpu = test::detect_all(frames, cfg, test::cuda_backend(), 5);
        EXPECT_EQ(gpu[0].result.status, core::mimo::STATUS_OK);
        for (int f : { 1, 2 }) {
            EXPECT_EQ(gpu[f].result.status, core::mimo::STATUS_NOT_FINITE) << "frame " << f;
            for (float l : gpu[f].llr)
                ASSERT_EQ(l, 0.0f) << "frame " << f;
        }
    }
}

TEST(MimoCuda, AutomaticChoiceIsTheFastestOfTheAlgorithm)
{
    core::mimo_config c;
    c.algorithm = algorithm::mtt;
    EXPECT_EQ(core::choose_mimo_implementation(c).cuda, "cuda-mtt-fast");
    c.algorithm = algorithm::one_pass;
    EXPECT_EQ(core::choose_mimo_implementation(c).cuda, "cuda-one-pass");
    c.algorithm = algorithm::kbest;
    c.k = 1024;
    c.modulation = core::mimo::modulation::qam64; // 65536 children: over the bound
    const auto k = core::choose_mimo_implementation(c);
    EXPECT_TRUE(k.cuda.empty());
    EXPECT_NE(k.note.find("cuda-kbest"), std::string::npos) << k.note;
    c = core::mimo_config();
    c.implementation = "cuda-mtt";
    const auto lit = core::choose_mimo_implementation(c);
    EXPECT_EQ(lit.cuda, "cuda-mtt");
    EXPECT_EQ(lit.cpu, "cpu-mtt");
}
