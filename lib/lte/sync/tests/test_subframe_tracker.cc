/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The subframe tracker against lte_dl_gen's captures: every subframe where
// the truth says it starts (its sample_offset, its sf_idx) and equal to the
// capture's samples there; a 20 ppm sampling-rate offset made here by
// band-limited resampling over 210 subframes, checked by the PSS of every
// subframe 0 and 5 after the tracker (normalised correlation > 0.9); a gap
// reported as lost subframes with the count the truth's timing gives; the
// PSS gone (noise only): track lost.
#include "lte/sync/tests/sync_test_signal.h"

#include "lte/sync/cell_search.h"
#include "lte/sync/pss.h"
#include "lte/sync/subframe_tracker.h"
#include "lte/sync/sync_fft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

namespace {

double rate_of(int n_prb) { return 15000.0 * standard_fft_size(n_prb); }

cell_search_result search_start(const std::vector<cf>& x, double fs)
{
    const cf* p = x.data();
    return search_cell(&p, 1, x.size(), fs, search_options());
}

//! Feeds x[from..to) in chunks of random length (1 .. 7000).
void feed_chunks(subframe_tracker& t, const std::vector<cf>& x, size_t from, size_t to, std::mt19937& g,
                 std::vector<tracked_subframe>& out)
{
    std::uniform_int_distribution<size_t> len(1, 7000);
    for (size_t i = from; i < to;) {
        const size_t n = std::min(to - i, len(g));
        const cf* p = x.data() + i;
        for (auto& s : t.feed(&p, n))
            out.push_back(std::move(s));
        i += n;
    }
}

//! |<a, b>| / (|a| |b|) over n samples.
double similarity(const cf* a, const cf* b, size_t n)
{
    std::complex<double> c(0.0, 0.0);
    double ea = 0.0, eb = 0.0;
    for (size_t i = 0; i < n; i++) {
        c += std::complex<double>(a[i]) * std::conj(std::complex<double>(b[i]));
        ea += std::norm(a[i]);
        eb += std::norm(b[i]);
    }
    return ea > 0 && eb > 0 ? std::abs(c) / std::sqrt(ea * eb) : 0.0;
}

//! x[start .. start + n) times exp(-j 2 pi cfo i / fs), i its index in x.
std::vector<cf> derotated(const std::vector<cf>& x, long long start, int n, double cfo, double fs)
{
    std::vector<cf> r(x.begin() + start, x.begin() + start + n);
    for (int i = 0; i < n; i++) {
        const double ph = -2.0 * M_PI * cfo * double(start + i) / fs;
        r[size_t(i)] *= cf(float(std::cos(ph)), float(std::sin(ph)));
    }
    return r;
}

//! The PSS symbol of a tracked subframe 0/5 against the known PSS: the
//! normalised correlation of its 62 subcarriers.
double pss_quality(const std::vector<cf>& sf, int fft_size, int n_id2)
{
    const numerology nu{ fft_size, cyclic_prefix::normal };
    sync_fft f(fft_size, true);
    std::copy(sf.begin() + pss_useful_start(nu), sf.begin() + pss_useful_start(nu) + fft_size, f.in());
    f.execute();
    const auto d = pss_sequence(n_id2);
    std::complex<double> c(0.0, 0.0);
    double e = 0.0;
    for (int n = 0; n < 62; n++) {
        const cf y = f.out()[sync_fft_bin(n, fft_size)];
        c += std::complex<double>(y * std::conj(d[size_t(n)]));
        e += std::norm(y);
    }
    return std::abs(c) / std::sqrt(62.0 * e);
}

//! y[n] = x(n (1 + ppm 1e-6)): a clock that runs slow by ppm, by Lanczos
//! (a = 16) band-limited interpolation.
std::vector<cf> resample(const std::vector<cf>& x, double ppm)
{
    const double r = 1.0 + ppm * 1e-6;
    const int a = 16;
    const size_t n_out = size_t(double(x.size() - a - 1) / r);
    std::vector<cf> y(n_out);
    for (size_t n = 0; n < n_out; n++) {
        const double t = double(n) * r;
        const long k0 = long(std::floor(t));
        std::complex<double> acc(0.0, 0.0);
        for (long k = k0 - a + 1; k <= k0 + a; k++) {
            if (k < 0 || k >= long(x.size()))
                continue;
            const double u = t - double(k);
            const double w = std::fabs(u) < 1e-12 ? 1.0
                                                  : a * std::sin(M_PI * u) * std::sin(M_PI * u / a) / (M_PI * M_PI * u * u);
            acc += std::complex<double>(x[size_t(k)]) * w;
        }
        y[n] = cf(acc);
    }
    return y;
}

} // namespace

TEST(SubframeTracker, AlignedWithTheTruthInChunks)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const double cfo = 2500.0;
    const auto c = generate_lte_capture("-p 25 -x 1 -m 9 -n 40 -c 123 -O 1234 -F 2500");
    const double fs = rate_of(25);
    const auto& x = c.rx[0];
    const auto found = search_start(x, fs);
    ASSERT_TRUE(found.found) << found.reason;
    subframe_tracker tr(found, 1, fs);
    std::mt19937 g(5);
    std::vector<tracked_subframe> out;
    feed_chunks(tr, x, 0, x.size(), g, out);
    ASSERT_EQ(out.size(), c.truth.size()) << "every whole subframe of the capture";
    const int S = 15 * standard_fft_size(25);
    for (size_t i = 0; i < out.size(); i++) {
        const auto& t = out[i];
        ASSERT_EQ(t.status, subframe_status::ok);
        EXPECT_EQ(t.counter, (long long)i);
        EXPECT_EQ(t.start_sample, c.truth[i]["sample_offset"].get<long long>()) << i;
        EXPECT_EQ(t.subframe, c.truth[i]["sf_idx"].get<int>()) << i;
        // The capture's own samples, the CFO removed (a common phase aside).
        const auto ref = derotated(x, t.start_sample, S, cfo, fs);
        EXPECT_GT(similarity(t.rx[0].data(), ref.data(), size_t(S)), 0.999) << i;
        EXPECT_NEAR(t.cfo_hz, cfo, 30.0) << i;
        if (t.subframe == 0 || t.subframe == 5) {
            EXPECT_GT(t.pss_metric, 0.9) << i;
            EXPECT_LT(std::fabs(t.timing_error), 0.5) << i;
        }
    }
}

TEST(SubframeTracker, SamplingRateOffset20ppm)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    // 30.72 MS/s, 210 subframes: 20 ppm drifts 129 samples, nearly the
    // normal CP (144); without tracking the last symbols would fall out.
    const int n_prb = 100, n_sf = 210;
    const auto c = generate_lte_capture("-p 100 -x 1 -m 9 -n 210 -c 77 -O 500 -F -3000");
    const double fs = rate_of(n_prb), ppm = 20.0;
    const auto y = resample(c.rx[0], ppm);
    const auto found = search_start(y, fs);
    ASSERT_TRUE(found.found) << found.reason;
    subframe_tracker tr(found, 1, fs);
    std::mt19937 g(9);
    std::vector<tracked_subframe> out;
    feed_chunks(tr, y, 0, y.size(), g, out);
    ASSERT_GE(out.size(), size_t(n_sf - 1));
    const double r = 1.0 + ppm * 1e-6;
    int checked = 0;
    std::vector<double> worst(size_t(n_sf / 30 + 1), 0.0);
    for (const auto& t : out) {
        ASSERT_EQ(t.status, subframe_status::ok);
        const auto& truth = c.truth[size_t(t.counter)];
        EXPECT_EQ(t.subframe, truth["sf_idx"].get<int>());
        // Where the truth's subframe start lies on the resampled clock.
        const double expect = double(truth["sample_offset"].get<long long>()) / r;
        // The search averages four PSS 5 ms apart as if there were no drift
        // (about 5 samples early here); the loop then takes the drift out.
        EXPECT_NEAR(double(t.start_sample), expect, t.counter < 60 ? 8.0 : 1.5) << t.counter;
        worst[size_t(t.counter / 30)] = std::max(worst[size_t(t.counter / 30)], std::fabs(double(t.start_sample) - expect));
        if (t.subframe == 0 || t.subframe == 5) {
            EXPECT_GT(pss_quality(t.rx[0], standard_fft_size(n_prb), 77 % 3), 0.9) << t.counter;
            checked++;
        }
    }
    EXPECT_GE(checked, 2 * n_sf / 10 - 1);
    const double S = 15.0 * standard_fft_size(n_prb);
    EXPECT_NEAR(tr.samples_per_subframe(), S / r, 0.1);
    EXPECT_NEAR(tr.cfo_hz(), -3000.0 / r, 30.0);
    std::printf("20 ppm: largest timing error per 30 subframes:");
    for (double w : worst)
        std::printf(" %.1f", w);
    std::printf("\n");
    std::printf("20 ppm: %zu subframes, %d PSS checked, samples per subframe %.4f (true %.4f), cfo %.1f Hz\n",
                out.size(), checked, tr.samples_per_subframe(), S / r, tr.cfo_hz());
}

TEST(SubframeTracker, GapReportsLostSubframes)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const auto c = generate_lte_capture("-p 6 -x 1 -m 9 -n 40 -c 301 -O 100 -F 700");
    const double fs = rate_of(6);
    const auto& x = c.rx[0];
    const int S = 1920;
    // Known gaps: exactly 3000 samples, and a jump that was 3 samples longer
    // than reported (the re-search near the expected PSS absorbs it).
    for (int extra : { 0, 3 }) {
        const auto found = search_start(x, fs);
        ASSERT_TRUE(found.found) << found.reason;
        subframe_tracker tr(found, 1, fs);
        std::mt19937 g(1);
        std::vector<tracked_subframe> out;
        const size_t gap_at = 100 + 12 * S + 777, gap = 3000;
        feed_chunks(tr, x, 0, gap_at, g, out);
        for (auto& s : tr.feed_gap(gap))
            out.push_back(std::move(s));
        feed_chunks(tr, x, gap_at + gap + size_t(extra), x.size(), g, out);
        // The truth: subframes whose samples meet [gap_at, gap_at + gap).
        int expect_lost = 0;
        for (const auto& t : c.truth) {
            const long long s = t["sample_offset"].get<long long>();
            expect_lost += s < (long long)(gap_at + gap) && s + S > (long long)gap_at;
        }
        int lost = 0, ok_after = 0;
        for (const auto& t : out) {
            ASSERT_NE(t.status, subframe_status::track_lost);
            const auto& truth = c.truth[size_t(t.counter)];
            EXPECT_EQ(t.subframe, truth["sf_idx"].get<int>());
            const long long s_truth = truth["sample_offset"].get<long long>();
            if (t.status == subframe_status::lost) {
                lost++;
                EXPECT_FALSE(t.reason.empty());
                EXPECT_TRUE(t.rx.empty());
                continue;
            }
            const bool after = s_truth >= (long long)(gap_at + gap);
            // Stream indices count the reported gap: after an unreported
            // extra jump the capture's sample t sits at t - extra.
            const long long expect_start = after ? s_truth - extra : s_truth;
            EXPECT_EQ(t.start_sample, expect_start) << t.counter << " extra " << extra;
            if (after) {
                ok_after++;
                const auto ref = derotated(x, s_truth, S, 700.0, fs);
                EXPECT_GT(similarity(t.rx[0].data(), ref.data(), size_t(S)), 0.999) << t.counter;
            }
        }
        EXPECT_EQ(lost, expect_lost) << "extra " << extra;
        EXPECT_EQ(tr.lost_subframes(), expect_lost);
        EXPECT_GE(expect_lost, 2);
        EXPECT_GT(ok_after, 20);
    }
}

TEST(SubframeTracker, NoiseOnlyLosesTheTrack)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const auto c = generate_lte_capture("-p 6 -x 1 -m 9 -n 20 -c 50");
    const double fs = rate_of(6);
    auto x = c.rx[0];
    const auto noise = white_noise(size_t(40 * 1920), 1.0f, 3);
    x.insert(x.end(), noise.begin(), noise.end());
    const auto found = search_start(c.rx[0], fs);
    ASSERT_TRUE(found.found);
    subframe_tracker tr(found, 1, fs);
    std::mt19937 g(2);
    std::vector<tracked_subframe> out;
    feed_chunks(tr, x, 0, x.size(), g, out);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().status, subframe_status::track_lost);
    EXPECT_FALSE(tr.tracking());
    int lost_marks = 0;
    for (const auto& t : out)
        lost_marks += t.status == subframe_status::track_lost;
    EXPECT_EQ(lost_marks, 1);
    // Four missed half-frames after the signal ends at subframe 20: the
    // loss comes with subframe 35 (0 of the 4th frame), not before 30.
    EXPECT_GE(out.back().counter, 30);
    EXPECT_LE(out.back().counter, 36);
    const cf* p = x.data();
    EXPECT_TRUE(tr.feed(&p, 1000).empty());
}

TEST(SubframeTracker, NoisyTwoAntennas)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    // Two receive antennas through the generator's 2x2 channel, 3 dB per-RE
    // SNR: every subframe out, within a sample of the truth.
    const auto c = generate_lte_capture("-p 15 -x 2 -a 2 -m 9 -n 60 -c 404 -N 3 -F 9000 -O 2000",
                                        lte_rx_setup::channel_2x2);
    ASSERT_EQ(c.rx.size(), 2u);
    const double fs = rate_of(15);
    const cf* p[2] = { c.rx[0].data(), c.rx[1].data() };
    const auto found = search_cell(p, 2, c.rx[0].size(), fs, search_options());
    ASSERT_TRUE(found.found) << found.reason;
    EXPECT_EQ(found.cell_id, 404);
    subframe_tracker tr(found, 2, fs);
    std::vector<tracked_subframe> out;
    for (size_t i = 0; i < c.rx[0].size(); i += 1000) {
        const size_t n = std::min<size_t>(1000, c.rx[0].size() - i);
        const cf* q[2] = { c.rx[0].data() + i, c.rx[1].data() + i };
        for (auto& s : tr.feed(q, n))
            out.push_back(std::move(s));
    }
    ASSERT_EQ(out.size(), c.truth.size());
    for (const auto& t : out) {
        ASSERT_EQ(t.status, subframe_status::ok);
        EXPECT_NEAR(double(t.start_sample), double(c.truth[size_t(t.counter)]["sample_offset"].get<long long>()), 1.0);
        EXPECT_EQ(t.subframe, c.truth[size_t(t.counter)]["sf_idx"].get<int>());
        ASSERT_EQ(t.rx.size(), 2u);
    }
    EXPECT_NEAR(tr.cfo_hz(), 9000.0, 100.0);
}

TEST(SubframeTracker, BadParameters)
{
    cell_search_result r;
    EXPECT_THROW(subframe_tracker(r, 1, 1.92e6), std::invalid_argument);
    r.found = true;
    r.cell_id = 3;
    r.frame_start = 0;
    EXPECT_THROW(subframe_tracker(r, 0, 1.92e6), std::invalid_argument);
    EXPECT_THROW(subframe_tracker(r, 1, 1e6), std::invalid_argument);
    subframe_tracker t(r, 1, 1.92e6);
    EXPECT_TRUE(t.tracking());
    EXPECT_TRUE(t.feed_gap(0).empty());
}
