/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// MIMO channel estimation against the truth: training symbols made here
// from the definition (Y_t = H X_t + W), exact recovery without noise, the
// mean squared error against the least-squares bound N0 / T, and the noise
// estimate, by statistics. Then the family on the batching pipeline: cpu-ls
// bit for bit estimate_mimo_channel, cuda-ls within float rounding of it,
// the y vectors in the detector's order, frames the kernel cannot run.
#include "ofdm/mimo_chanest.h"
#include "chanest_test_util.h"

#include <gtest/gtest.h>
#include <cmath>
#include <random>

using namespace gr::gpurx::core::ofdm;

using namespace gr::gpurx::test::chanest;
namespace test = gr::gpurx::test;
namespace core = gr::gpurx::core;

TEST(MimoTraining, CoverIsHadamardAndSequenceHasUnitModulus)
{
    for (int nt : { 1, 2, 4, 8 }) {
        const mimo_training tr(nt, 600, 2);
        for (int j = 0; j < nt; j++)
            for (int c = 0; c < nt; c++)
                EXPECT_EQ(tr.cover(j, c), hadamard(nt, j, c));
        for (int a = 0; a < nt; a++)
            for (int b = 0; b < nt; b++) {
                float dot = 0.0f;
                for (int c = 0; c < nt; c++)
                    dot += tr.cover(a, c) * tr.cover(b, c);
                EXPECT_EQ(dot, a == b ? float(nt) : 0.0f);
            }
        for (auto v : tr.sequence())
            EXPECT_NEAR(std::abs(v), 1.0, 1e-6);
    }
}

TEST(MimoChanest, NoiselessRecoveryIsExact)
{
    std::mt19937_64 rng(1);
    for (int nt : { 1, 2, 4 })
        for (int nr : { nt, 4 }) {
            const mimo_training tr(nt, 300, 2);
            const trial x = make_trial(tr, nr, 0.0, rng);
            const chanest_result e = estimate_mimo_channel(tr, nr, x.y.data());
            ASSERT_EQ(e.h.size(), x.h.size());
            for (size_t i = 0; i < x.h.size(); i++)
                ASSERT_NEAR(std::abs(e.h[i] - x.h[i]), 0.0, 1e-5) << nt << "x" << nr << " entry " << i;
            EXPECT_LT(e.n0, 1e-10);
        }
}

TEST(MimoChanest, ErrorMeetsTheLeastSquaresBoundAndN0IsUnbiased)
{
    std::mt19937_64 rng(2);
    for (int nt : { 2, 4 })
        for (double n0 : { 1.0, 0.1, 0.01 }) {
            const int nr = nt, K = 1200, repeats = 2;
            const mimo_training tr(nt, K, repeats);
            const trial x = make_trial(tr, nr, n0, rng);
            const chanest_result e = estimate_mimo_channel(tr, nr, x.y.data());
            double mse = 0.0;
            for (size_t i = 0; i < x.h.size(); i++)
                mse += std::norm(e.h[i] - x.h[i]);
            mse /= double(x.h.size());
            const double bound = n0 / tr.symbols();
            // Relative standard error of the mean over K nr nt entries: < 1 %.
            EXPECT_NEAR(mse / bound, 1.0, 0.05) << nt << "x" << nr << " N0 " << n0;
            EXPECT_NEAR(e.n0 / n0, 1.0, 0.05) << nt << "x" << nr << " N0 " << n0;
            std::printf("%dx%d N0 %.3g: MSE %.4g, LS bound N0/T %.4g (ratio %.3f); N0 estimate %.4g\n", nt, nr, n0,
                        mse, bound, mse / bound, e.n0);
        }
}

TEST(MimoChanest, GroupsAverageAFlatChannel)
{
    std::mt19937_64 rng(3);
    const mimo_training tr(2, 1200, 2);
    const trial x = make_trial(tr, 2, 0.1, rng, true);
    const chanest_result e = estimate_mimo_channel(tr, 2, x.y.data(), 12);
    ASSERT_EQ(e.h.size(), size_t(100) * 4);
    double mse = 0.0;
    for (size_t g = 0; g < 100; g++)
        for (int i = 0; i < 4; i++)
            mse += std::norm(e.h[g * 4 + i] - x.h[i]);
    mse /= 400.0;
    EXPECT_NEAR(mse / (0.1 / 4 / 12), 1.0, 0.2); // the bound divided by the group
}

TEST(MimoChanest, BadParametersAreNamed)
{
    EXPECT_THROW(mimo_training(3, 100, 2), std::invalid_argument);
    EXPECT_THROW(mimo_training(2, 0, 2), std::invalid_argument);
    EXPECT_THROW(mimo_training(2, 100, 0), std::invalid_argument);
    const mimo_training tr(2, 100, 2);
    std::vector<cfloat> y(size_t(4) * 2 * 100);
    try {
        estimate_mimo_channel(tr, 2, y.data(), 7);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("group"), std::string::npos);
    }
}

namespace {

//! Frames of \p cfg's shape (and, with \p smaller, every other one of half
//! the used subcarriers) through the pipeline on \p where, against
//! estimate_mimo_channel per frame: H within \p h_tol (0: bit for bit), N0
//! within the relative \p n0_tol, the y vectors exact.
void check_pipeline(const core::backend_choice& where, const core::ofdm::chanest_config& cfg, double h_tol,
                    double n0_tol, bool smaller, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<core::ofdm::chanest_frame_params> params;
    std::vector<std::vector<cfloat>> frames;
    std::vector<chanest_result> want;
    for (int f = 0; f < 7; f++) {
        auto p = cfg.frame_params();
        if (smaller && f % 2 == 1)
            p.used = cfg.used / 2;
        const mimo_training tr(p.nt, p.used, p.repeats);
        const trial x = make_trial(tr, p.nr, 0.05, rng);
        params.push_back(p);
        frames.push_back(frame_input(p, x, rng));
        want.push_back(estimate_mimo_channel(tr, p.nr, x.y.data(), p.group));
    }
    const auto got = test::chanest::run_pipeline(where, cfg, params, frames);
    ASSERT_EQ(got.size(), frames.size());
    for (size_t f = 0; f < frames.size(); f++) {
        SCOPED_TRACE("frame " + std::to_string(f) + ", used " + std::to_string(params[f].used));
        EXPECT_EQ(got[f].status, core::ofdm::CHANEST_OK);
        EXPECT_EQ(got[f].y, expected_y(params[f], frames[f]));
        ASSERT_EQ(got[f].h.size(), want[f].h.size());
        if (h_tol == 0.0) {
            EXPECT_EQ(got[f].h, want[f].h);
            EXPECT_EQ(got[f].n0, want[f].n0);
        } else {
            double worst = 0.0;
            for (size_t i = 0; i < want[f].h.size(); i++)
                worst = std::max(worst, double(std::abs(got[f].h[i] - want[f].h[i])));
            // Float against double over T terms of magnitude ~1.
            EXPECT_LT(worst, h_tol);
            EXPECT_NEAR(got[f].n0 / want[f].n0, 1.0, n0_tol);
        }
    }
}

//! Frames the kernel cannot run: a record that is not a frame, one larger
//! than the configuration, byte counts that disagree with the record.
void check_bad_frames(const core::backend_choice& where)
{
    core::ofdm::chanest_config cfg;
    cfg.nt = 2, cfg.nr = 2, cfg.used = 48, cfg.repeats = 2, cfg.data_symbols = 3, cfg.group = 1;
    std::mt19937_64 rng(9);
    const auto good = cfg.frame_params();
    auto bad_group = good, too_big = good, short_in = good;
    bad_group.group = 5;
    too_big.used = 96;
    const mimo_training tr(2, 48, 2);
    const auto in = frame_input(good, make_trial(tr, 2, 0.05, rng), rng);
    std::vector<cfloat> in_big(core::ofdm::chanest_in_values(too_big), cfloat(1, 1));
    std::vector<cfloat> in_short(in.begin(), in.end() - 1);
    const auto got = test::chanest::run_pipeline(where, cfg, { good, bad_group, too_big, short_in, good },
                                                 { in, in, in_big, in_short, in });
    ASSERT_EQ(got.size(), 5u);
    for (size_t f : { 0, 4 })
        EXPECT_EQ(got[f].status, core::ofdm::CHANEST_OK) << f;
    for (size_t f : { 1, 2, 3 }) {
        EXPECT_EQ(got[f].status, core::ofdm::CHANEST_BAD_FRAME) << f;
        EXPECT_EQ(got[f].n0, 0.0) << f;
        for (auto v : got[f].y)
            ASSERT_EQ(v, cfloat(0, 0)) << f;
        for (auto v : got[f].h)
            ASSERT_EQ(v, cfloat(0, 0)) << f;
    }
    EXPECT_EQ(got[0].h, got[4].h);
    EXPECT_NE(core::ofdm::chanest_frame_problem(too_big, cfg).find("estimates"), std::string::npos);
    EXPECT_NE(core::ofdm::chanest_frame_problem(bad_group, cfg).find("group"), std::string::npos);
}

core::ofdm::chanest_config config_of(int nt, int nr, int used, int group, const char* impl)
{
    core::ofdm::chanest_config c;
    c.nt = nt, c.nr = nr, c.used = used, c.repeats = 2, c.data_symbols = 3, c.group = group;
    c.implementation = impl;
    return c;
}

} // namespace

TEST(MimoChanestPipeline, CpuIsTheFunctionBitForBit)
{
    for (int nt : { 1, 2, 4, 8 })
        for (int group : { 1, 4 }) {
            SCOPED_TRACE(std::to_string(nt) + "x" + std::to_string(nt) + " group " + std::to_string(group));
            check_pipeline(test::cpu_backend(), config_of(nt, nt, 120, group, "auto"), 0.0, 0.0, nt == 2, 10 + nt);
        }
    // Fewer transmit than receive antennas, the entry named.
    check_pipeline(test::cpu_backend(), config_of(2, 4, 48, 1, "cpu-ls"), 0.0, 0.0, false, 20);
}

TEST(MimoChanestPipeline, CpuFramesItCannotRunAreZerosAndSaySo) { check_bad_frames(test::cpu_backend()); }

TEST(MimoChanestPipeline, RegistryNamesAndChoices)
{
    auto c = config_of(2, 2, 48, 1, "auto");
    const auto choice = core::choose_chanest_implementation(c);
    EXPECT_EQ(choice.cpu, "cpu-ls");
#ifdef GPURX_HAVE_CUDA
    EXPECT_EQ(choice.cuda, "cuda-ls");
#else
    EXPECT_EQ(choice.cuda, "");
#endif
    c.implementation = "gpu";
    try {
        core::choose_chanest_implementation(c);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("implementation"), std::string::npos);
    }
    auto bad = config_of(3, 2, 48, 1, "auto");
    EXPECT_THROW(bad.validate(), std::invalid_argument);
}

TEST(MimoChanestCuda, AgreesWithTheCpuThroughThePipeline)
{
    // cuda-ls against estimate_mimo_channel, frame by frame, batches of 3
    // (the scratch reused from batch to batch), frames of two shapes mixed.
    for (int nt : { 1, 2, 4, 8 })
        for (int group : { 1, 4 }) {
            SCOPED_TRACE(std::to_string(nt) + "x" + std::to_string(nt) + " group " + std::to_string(group));
            check_pipeline(test::cuda_backend(), config_of(nt, nt, 600, group, "cuda-ls"), 1e-5, 1e-4, nt == 2,
                           30 + nt);
        }
    check_pipeline(test::cuda_backend(), config_of(2, 4, 48, 1, "auto"), 1e-5, 1e-4, false, 40);
}

TEST(MimoChanestCuda, FramesItCannotRunAreZerosAndSaySo) { check_bad_frames(test::cuda_backend()); }

TEST(MimoChanest, LmmseSmoothingOfAChannelWithinTheWindow)
{
    // Taps at delays 0..5 within a window of 16 on a 256-point FFT, 200
    // used subcarriers: smoothing leaves a noiseless estimate exact and
    // divides the noise by about used / window.
    std::mt19937_64 rng(5);
    std::normal_distribution<double> g(0.0, std::sqrt(0.5));
    const int nt = 2, nr = 2, K = 200, N = 256, L = 16;
    std::vector<int> bins;
    for (int i = 0; i < K / 2; i++)
        bins.push_back(N - K / 2 + i);
    for (int i = 1; i <= K / 2; i++)
        bins.push_back(i);
    const double pi = std::acos(-1.0);
    for (double n0 : { 0.0, 0.05 }) {
        const mimo_training tr(nt, K, 2);
        trial x;
        x.h.assign(size_t(K) * nr * nt, cfloat(0, 0));
        for (int e = 0; e < nr * nt; e++)
            for (int d = 0; d < 6; d++) {
                const std::complex<double> tap(g(rng) / std::sqrt(6.0), g(rng) / std::sqrt(6.0));
                for (int k = 0; k < K; k++)
                    x.h[size_t(k) * nr * nt + e] += cfloat(tap * std::polar(1.0, -2.0 * pi * bins[k] * d / N));
            }
        receive_training(tr, nr, n0, rng, x);
        const int T = tr.symbols();
        chanest_result e = estimate_mimo_channel(tr, nr, x.y.data());
        lmmse_smoother(bins, N, L).apply(e, nr, nt, T);
        double mse = 0.0;
        for (size_t i = 0; i < x.h.size(); i++)
            mse += std::norm(e.h[i] - x.h[i]);
        mse /= double(x.h.size());
        if (n0 == 0.0) {
            EXPECT_LT(mse, 1e-9);
        } else {
            const double bound = n0 / T;
            std::printf("LMMSE over %d of %d subcarriers: MSE %.4g, LS bound %.4g (ratio %.3f, window/used %.3f)\n",
                        L, K, mse, bound, mse / bound, double(L) / K);
            EXPECT_LT(mse / bound, 2.0 * L / K);
            EXPECT_GT(mse / bound, 0.5 * L / K);
        }
    }
    EXPECT_THROW(lmmse_smoother(bins, N, 0), std::invalid_argument);
}

TEST(MimoChanest, LmmseSmoothingMatchesTheDenseFormulaAt20MHz)
{
    // The smoother's route (Levinson on the Toeplitz F^H F, FFTs for F^H h
    // and F x) against the formula written out: F as a K x L matrix,
    // (F^H F + L sigma2 I) x = F^H h by Gaussian elimination, F x. 2048
    // points, 1200 used, a window of 144 (the cyclic prefix).
    using cd = std::complex<double>;
    const int nt = 2, nr = 1, K = 1200, N = 2048, L = 144, T = 2;
    std::vector<int> bins;
    for (int i = 0; i < K / 2; i++)
        bins.push_back(N - K / 2 + i);
    for (int i = 1; i <= K / 2; i++)
        bins.push_back(i);
    std::mt19937_64 rng(8);
    std::normal_distribution<double> g(0.0, std::sqrt(0.5));
    chanest_result est;
    est.n0 = 0.03;
    est.h.resize(size_t(K) * nr * nt);
    for (auto& v : est.h)
        v = cfloat(float(g(rng)), float(g(rng)));
    const chanest_result in = est;
    lmmse_smoother(bins, N, L).apply(est, nr, nt, T);

    const double pi = std::acos(-1.0);
    std::vector<cd> F(size_t(K) * L);
    for (int k = 0; k < K; k++)
        for (int l = 0; l < L; l++)
            F[size_t(k) * L + l] = std::polar(1.0, -2.0 * pi * bins[k] * l / N);
    double worst = 0.0;
    for (int e = 0; e < nr * nt; e++) {
        // [A | c], A = F^H F + L sigma2 I, c = F^H h.
        std::vector<cd> M(size_t(L) * (L + 1), 0.0);
        for (int a = 0; a < L; a++) {
            for (int b = 0; b < L; b++) {
                cd s = 0.0;
                for (int k = 0; k < K; k++)
                    s += std::conj(F[size_t(k) * L + a]) * F[size_t(k) * L + b];
                M[size_t(a) * (L + 1) + b] = s + (a == b ? double(L) * est.n0 / T : 0.0);
            }
            cd s = 0.0;
            for (int k = 0; k < K; k++)
                s += std::conj(F[size_t(k) * L + a]) * cd(in.h[size_t(k) * nr * nt + e]);
            M[size_t(a) * (L + 1) + L] = s;
        }
        for (int p = 0; p < L; p++)
            for (int r = p + 1; r < L; r++) {
                const cd f = M[size_t(r) * (L + 1) + p] / M[size_t(p) * (L + 1) + p];
                for (int c = p; c <= L; c++)
                    M[size_t(r) * (L + 1) + c] -= f * M[size_t(p) * (L + 1) + c];
            }
        std::vector<cd> x(static_cast<size_t>(L));
        for (int p = L - 1; p >= 0; p--) {
            cd s = M[size_t(p) * (L + 1) + L];
            for (int c = p + 1; c < L; c++)
                s -= M[size_t(p) * (L + 1) + c] * x[size_t(c)];
            x[size_t(p)] = s / M[size_t(p) * (L + 1) + p];
        }
        for (int k = 0; k < K; k++) {
            cd s = 0.0;
            for (int l = 0; l < L; l++)
                s += F[size_t(k) * L + l] * x[size_t(l)];
            worst = std::max(worst, std::abs(s - cd(est.h[size_t(k) * nr * nt + e])));
        }
    }
    EXPECT_LT(worst, 1e-4);
}
