/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A-priori LLRs and extrinsic output on every CPU detector, and the one-pass
// trellis traversal. The reference is mimo_test_util.h's exhaustive max-log
// with priors (metric ||y - Hs||^2/N0 - sum x_k La_k / 2), which shares no code
// with the detectors. "Equal" is the stated tolerance 1e-4 + 1e-3 |L|.
#include "mimo/mimo_cpu_kernel.h"
#include "mimo/mimo_detector.h"
#include "mimo_test_util.h"
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

using namespace gr::gpurx;
using core::mimo::algorithm;
using core::mimo::llr_output;

namespace {

core::mimo_config config(algorithm a, int nt, int nr, int bits, bool sorted = false)
{
    core::mimo_config c;
    c.algorithm = a;
    c.nt = nt;
    c.nr = nr;
    c.modulation = core::mimo::modulation_of_bits(bits);
    c.sorted_qr = sorted;
    c.clip = 1e6f;
    return c;
}

// Every LLR of `channels` frames with priors against the exhaustive search
// with the same priors, for both outputs.
void expect_priors_equal_reference(core::mimo_config cfg,
                                   int channels,
                                   int vectors,
                                   test::channel_kind kind,
                                   double n0 = 0.2)
{
    const int bits = cfg.bits_per_symbol();
    std::mt19937 rng(3000 + 31 * cfg.nt + 7 * cfg.nr + bits + int(cfg.algorithm));
    for (auto out : { llr_output::aposteriori, llr_output::extrinsic }) {
        cfg.output = out;
        auto det = core::mimo::make_detector(cfg);
        SCOPED_TRACE(std::string(core::mimo::algorithm_name(cfg.algorithm)) + " " +
                     std::to_string(cfg.nt) + "x" + std::to_string(cfg.nr) + " " +
                     std::to_string(1 << bits) + "-point " +
                     core::mimo::llr_output_name(out) + (cfg.sorted_qr ? " sorted" : ""));
        for (int c = 0; c < channels; c++) {
            auto f = test::make_frame(cfg.nt, cfg.nr, bits, vectors, n0, kind, rng);
            test::add_priors(f, 1.5, rng);
            det->set_channel(f.h(), cfg.nr, cfg.nt, cfg.modulation, n0);
            std::vector<float> llr(size_t(cfg.nt) * bits);
            for (int v = 0; v < vectors; v++) {
                det->detect(f.y(v), f.la(v), llr.data());
                const auto ref = test::exhaustive_llrs_with_priors(
                    f.h(), cfg.nr, cfg.nt, bits, f.y(v), n0, f.la(v),
                    out == llr_output::extrinsic);
                for (size_t k = 0; k < ref.size(); k++)
                    ASSERT_TRUE(test::llr_close(llr[k], ref[k]))
                        << "channel " << c << " vector " << v << " LLR " << k << ": "
                        << llr[k] << ", reference " << ref[k] << " (prior "
                        << f.la(v)[k] << ")";
            }
        }
    }
}

const auto rayleigh = test::channel_kind::rayleigh;

} // namespace

TEST(MimoPriors, ReferenceWithoutPriorsIsThePlainOne)
{
    std::mt19937 rng(1);
    const auto f = test::make_frame(2, 2, 4, 1, 0.3, rayleigh, rng);
    const std::vector<float> zero(8, 0.0f);
    const auto a = test::exhaustive_llrs(f.h(), 2, 2, 4, f.y(0), 0.3);
    const auto b =
        test::exhaustive_llrs_with_priors(f.h(), 2, 2, 4, f.y(0), 0.3, zero.data(), false);
    for (size_t k = 0; k < a.size(); k++)
        EXPECT_NEAR(a[k], b[k], 1e-9 * (1 + std::fabs(a[k])));
}

TEST(MimoPriors, MlEqualsExhaustiveWithPriors)
{
    for (int bits : { 2, 4, 6, 8 })
        for (auto s : { std::pair<int, int>{ 1, 1 }, { 1, 3 }, { 2, 2 }, { 2, 3 } })
            expect_priors_equal_reference(
                config(algorithm::ml, s.first, s.second, bits), 2, 2, rayleigh);
    expect_priors_equal_reference(config(algorithm::ml, 3, 3, 2), 2, 2, rayleigh);
    expect_priors_equal_reference(config(algorithm::ml, 4, 4, 2), 1, 2, rayleigh);
    expect_priors_equal_reference(
        config(algorithm::ml, 2, 2, 4), 2, 2, test::channel_kind::ill);
}

TEST(MimoPriors, MttTwoStreamsEqualExhaustiveWithPriors)
{
    for (int bits : { 2, 4, 6, 8 })
        for (bool sorted : { false, true }) {
            expect_priors_equal_reference(
                config(algorithm::mtt, 2, 2, bits, sorted), 2, 2, rayleigh);
            expect_priors_equal_reference(
                config(algorithm::mtt, 2, 3, bits, sorted), 1, 2, test::channel_kind::ill);
        }
    expect_priors_equal_reference(config(algorithm::mtt, 1, 2, 6), 2, 2, rayleigh);
}

TEST(MimoPriors, KbestAllCandidatesEqualExhaustiveWithPriors)
{
    for (auto k : { std::pair<int, int>{ 1, 8 }, { 2, 4 }, { 2, 6 }, { 3, 2 }, { 4, 2 } })
        for (bool sorted : { false, true }) {
            auto cfg = config(algorithm::kbest, k.first, k.first, k.second, sorted);
            cfg.k = 1 << (k.first * k.second);
            expect_priors_equal_reference(cfg, 1, 2, rayleigh);
        }
}

TEST(MimoPriors, LmmseOrthogonalColumnsEqualExhaustiveWithPriors)
{
    for (int bits : { 2, 4, 6, 8 })
        for (auto s : { std::pair<int, int>{ 1, 1 }, { 2, 2 }, { 2, 4 }, { 3, 3 } }) {
            if (s.first * bits > 12) // the exhaustive reference: at most 2^12 candidates
                continue;
            expect_priors_equal_reference(config(algorithm::lmmse, s.first, s.second, bits),
                                          2,
                                          2,
                                          test::channel_kind::orthogonal);
        }
}

TEST(MimoPriors, OnePassOneStreamEqualsExhaustiveWithPriors)
{
    for (int bits : { 2, 4, 6, 8 })
        expect_priors_equal_reference(config(algorithm::one_pass, 1, 2, bits), 2, 3, rayleigh);
}

// Without a channel, the bits are what the priors say: a posteriori = La,
// extrinsic 0, for every detector. (One-pass: for the last stage's stream,
// antenna 0; every path of its list carries the first stream's favourite
// symbol, so that stream's bits are clipped with the priors' signs.)
TEST(MimoPriors, ZeroChannelGivesThePriorsBack)
{
    std::mt19937 rng(12);
    for (auto a : { algorithm::ml, algorithm::mtt, algorithm::kbest, algorithm::lmmse,
                    algorithm::one_pass })
        for (auto out : { llr_output::aposteriori, llr_output::extrinsic }) {
            auto cfg = config(a, 2, 2, 4);
            cfg.k = 256;
            cfg.output = out;
            auto det = core::mimo::make_detector(cfg);
            const std::vector<test::cf> h(4, 0.0f), y = { { 0.3f, -0.1f }, { 1.0f, 0.5f } };
            det->set_channel(h.data(), 2, 2, cfg.modulation, 0.1);
            const auto la = test::random_priors(8, 2.0, rng);
            std::vector<float> llr(8, 7.0f);
            det->detect(y.data(), la.data(), llr.data());
            for (int k = 0; k < 8; k++)
                if (a == algorithm::one_pass && k >= 4)
                    EXPECT_EQ(llr[k], la[k] > 0 ? cfg.clip : -cfg.clip) << "LLR " << k;
                else
                    EXPECT_NEAR(llr[k], out == llr_output::extrinsic ? 0.0f : la[k], 1e-5)
                    << core::mimo::algorithm_name(a) << " " << core::mimo::llr_output_name(out)
                    << " LLR " << k;
        }
}

// Frames with priors through the CPU kernel: the priors follow the vectors;
// a NaN among them makes the frame NOT_FINITE.
TEST(MimoPriors, KernelReadsThePriorsAfterTheVectors)
{
    std::mt19937 rng(13);
    auto cfg = config(algorithm::ml, 2, 2, 4);
    cfg.output = llr_output::extrinsic;
    auto det = core::mimo::make_detector(cfg);
    auto f = test::make_frame(2, 2, 4, 3, 0.2, rayleigh, rng);
    test::add_priors(f, 1.0, rng);
    ASSERT_EQ(core::mimo::frame_in_bytes(f.params), f.data.size() * sizeof(test::cf));
    std::vector<float> out(3 * 8);
    auto run = [&] {
        return core::mimo_cpu_kernel::detect_frame(
            *det, cfg, f.params, reinterpret_cast<const uint8_t*>(f.data.data()),
            f.data.size() * sizeof(test::cf), reinterpret_cast<uint8_t*>(out.data()),
            out.size() * sizeof(float));
    };
    EXPECT_EQ(run().status, core::mimo::STATUS_OK);
    for (int v = 0; v < 3; v++) {
        const auto ref = test::exhaustive_llrs_with_priors(f.h(), 2, 2, 4, f.y(v), 0.2,
                                                           f.la(v), true);
        for (int k = 0; k < 8; k++)
            EXPECT_TRUE(test::llr_close(out[v * 8 + k], ref[k])) << "vector " << v;
    }
    f.data.back() = test::cf(0.0f, std::nanf(""));
    EXPECT_EQ(run().status, core::mimo::STATUS_NOT_FINITE);
    for (float l : out)
        EXPECT_EQ(l, 0.0f);
}

// ---- one-pass

TEST(MimoOnePass, OneStreamEqualsExhaustive)
{
    std::mt19937 rng(40);
    for (int bits : { 2, 4, 6, 8 }) {
        auto cfg = config(algorithm::one_pass, 1, 3, bits);
        auto det = core::mimo::make_detector(cfg);
        for (int c = 0; c < 3; c++) {
            const auto f = test::make_frame(1, 3, bits, 3, 0.2, rayleigh, rng);
            det->set_channel(f.h(), 3, 1, cfg.modulation, 0.2);
            std::vector<float> llr(bits);
            for (int v = 0; v < 3; v++) {
                det->detect(f.y(v), llr.data());
                const auto ref = test::exhaustive_llrs(f.h(), 3, 1, bits, f.y(v), 0.2);
                for (int k = 0; k < bits; k++)
                    ASSERT_TRUE(test::llr_close(llr[k], ref[k])) << bits << " bits";
            }
        }
    }
}

// One pass builds MTT's last candidate list (reductions at every stage): the
// stream of the last stage gets MTT's LLRs exactly, for any shape, sorted or not.
TEST(MimoOnePass, LastStageStreamEqualsMtt)
{
    std::mt19937 rng(41);
    for (int bits : { 2, 4, 6 })
        for (auto s : { std::pair<int, int>{ 2, 2 }, { 3, 3 }, { 4, 4 }, { 3, 5 } })
            for (bool sorted : { false, true }) {
                auto cfg = config(algorithm::one_pass, s.first, s.second, bits, sorted);
                auto one = core::mimo::make_detector(cfg);
                cfg.algorithm = algorithm::mtt;
                auto mtt = core::mimo::make_detector(cfg);
                core::mimo::channel_qr qr;
                for (int c = 0; c < 3; c++) {
                    const auto f = test::make_frame(s.first, s.second, bits, 3, 0.15, rayleigh, rng);
                    one->set_channel(f.h(), s.second, s.first, cfg.modulation, 0.15);
                    mtt->set_channel(f.h(), s.second, s.first, cfg.modulation, 0.15);
                    // The last stage is layer 0: antenna order[0].
                    std::vector<std::complex<double>> hd(f.h(), f.h() + s.first * s.second);
                    core::mimo::qr_decompose(hd.data(), s.second, s.first, sorted, qr);
                    const int a = qr.order[0];
                    std::vector<float> lo(s.first * bits), lm(s.first * bits);
                    for (int v = 0; v < 3; v++) {
                        one->detect(f.y(v), lo.data());
                        mtt->detect(f.y(v), lm.data());
                        for (int i = 0; i < bits; i++)
                            ASSERT_TRUE(test::llr_close(lo[a * bits + i], lm[a * bits + i]))
                                << s.first << "x" << s.second << " " << bits << " bits"
                                << (sorted ? " sorted" : "") << " LLR " << i << ": "
                                << lo[a * bits + i] << ", mtt " << lm[a * bits + i];
                    }
                }
            }
}

// Two streams: the list holds the ML path, so every LLR has ML's sign and at
// least its magnitude (a counter-hypothesis is the best through its vertex or
// missing, then clipped), the last stage's stream exactly ML's.
TEST(MimoOnePass, TwoStreamsKeepMlDecisionsAndClip)
{
    std::mt19937 rng(42);
    size_t clipped = 0;
    for (int bits : { 4, 6 }) {
        auto cfg = config(algorithm::one_pass, 2, 2, bits);
        cfg.clip = 30.0f;
        auto det = core::mimo::make_detector(cfg);
        for (int c = 0; c < 20; c++) {
            const auto f = test::make_frame(2, 2, bits, 3, 0.05, rayleigh, rng);
            det->set_channel(f.h(), 2, 2, cfg.modulation, 0.05);
            std::vector<float> llr(2 * bits);
            for (int v = 0; v < 3; v++) {
                det->detect(f.y(v), llr.data());
                const auto ref = test::exhaustive_llrs(f.h(), 2, 2, bits, f.y(v), 0.05);
                for (int k = 0; k < 2 * bits; k++) {
                    ASSERT_TRUE(std::isfinite(llr[k]));
                    ASSERT_LE(std::fabs(llr[k]), 30.0f);
                    clipped += std::fabs(llr[k]) == 30.0f;
                    const double want = std::max(-30.0, std::min(30.0, ref[k]));
                    if (k < bits) // antenna 0: the last stage (unsorted)
                        ASSERT_TRUE(test::llr_close(llr[k], want)) << "LLR " << k;
                    else {
                        ASSERT_EQ(llr[k] > 0, want > 0) << "LLR " << k << ": " << llr[k]
                                                        << ", ml " << ref[k];
                        ASSERT_GE(std::fabs(llr[k]), std::fabs(want) * (1 - 1e-3) - 1e-4)
                            << "LLR " << k;
                    }
                }
            }
        }
    }
    EXPECT_GT(clipped, 0u) << "some counter-hypothesis should be missing from Q paths";
}
