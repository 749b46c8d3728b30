/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The PSS and SSS against 36.211 §6.11 (hand-worked values of Table
// 6.11.2.1-1 and the sequences' symmetries), and cell search against
// lte_dl_gen's captures (their truth: cell ID, where subframe 0 starts, the
// CFO given with -F), a synthetic extended-CP signal, and noise alone.
#include "lte/sync/tests/sync_test_signal.h"

#include "lte/sync/cell_search.h"
#include "lte/sync/pss.h"
#include "lte/sync/sss.h"
#include "lte/sync/sync_fft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <string>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

namespace {

cell_search_result search(const lte_capture& c, double fs, const search_options& o = search_options())
{
    std::vector<const cf*> p;
    for (const auto& r : c.rx)
        p.push_back(r.data());
    return search_cell(p.data(), int(p.size()), c.rx[0].size(), fs, o);
}

cell_search_result search(const std::vector<cf>& x, double fs, const search_options& o = search_options())
{
    const cf* p = x.data();
    return search_cell(&p, 1, x.size(), fs, o);
}

double rate_of(int n_prb) { return 15000.0 * standard_fft_size(n_prb); }

} // namespace

TEST(Sss, ShiftsOfTable6_11_2_1_1)
{
    // Rows of 36.211 Table 6.11.2.1-1 worked by hand from its formula.
    const int rows[][3] = { { 0, 0, 1 }, { 1, 1, 2 }, { 29, 29, 30 }, { 30, 0, 2 }, { 57, 27, 29 },
                            { 58, 28, 30 }, { 59, 0, 3 }, { 60, 1, 4 }, { 87, 0, 4 }, { 88, 1, 5 } };
    for (const auto& r : rows) {
        const sss_shifts s = sss_shifts_of(r[0]);
        EXPECT_EQ(s.m0, r[1]) << "N_ID1=" << r[0];
        EXPECT_EQ(s.m1, r[2]) << "N_ID1=" << r[0];
    }
    std::set<std::pair<int, int>> pairs;
    for (int n1 = 0; n1 < 168; n1++)
        pairs.insert({ sss_shifts_of(n1).m0, sss_shifts_of(n1).m1 });
    EXPECT_EQ(pairs.size(), 168u);
    EXPECT_THROW(sss_shifts_of(168), std::invalid_argument);
    EXPECT_THROW(sss_sequence(0, 3, false), std::invalid_argument);
}

TEST(Sss, SequencesAreDistinctAndBalanced)
{
    // Every (N_ID1, N_ID2, half) gives a different +-1 sequence; the m-sequence
    // s~ (taps x(i+2) + x(i), x(0..4) = 00001) starts 1 1 1 1 -1 1 1 -1.
    const auto d = sss_sequence(0, 0, false);
    for (float v : d)
        EXPECT_EQ(std::fabs(v), 1.0f);
    std::set<std::vector<float>> all;
    for (int n2 = 0; n2 < 3; n2++)
        for (int n1 = 0; n1 < 168; n1++)
            for (int h = 0; h < 2; h++) {
                const auto s = sss_sequence(n1, n2, h == 1);
                all.insert(std::vector<float>(s.begin(), s.end()));
            }
    EXPECT_EQ(all.size(), size_t(3 * 168 * 2));
    // N_ID1 = 0 (m0 = 0), N_ID2 = 0: d(2n) = s~(n) c~(n); c~ (taps x(i+3) + x(i))
    // starts 1 1 1 1 -1 1 -1 1: products 1 1 1 1 1 1 -1 -1.
    const float expect_even[] = { 1, 1, 1, 1, 1, 1, -1, -1 };
    for (int n = 0; n < 8; n++)
        EXPECT_EQ(d[size_t(2 * n)], expect_even[n]) << n;
}

TEST(Pss, SymmetriesAndTimeSymbol)
{
    for (int r = 0; r < 3; r++) {
        const auto d = pss_sequence(r);
        EXPECT_NEAR(std::abs(d[0] - cf(1.0f, 0.0f)), 0.0f, 1e-6f);
        for (int n = 0; n < 62; n++) {
            EXPECT_NEAR(std::abs(d[size_t(n)]), 1.0f, 1e-6f);
            EXPECT_NEAR(std::abs(d[size_t(n)] - d[size_t(61 - n)]), 0.0f, 1e-5f) << "central symmetry " << n;
        }
        // A forward FFT of the time symbol gives the sequence on the 62 bins
        // and nothing elsewhere.
        for (int fft_size : { 128, 1536 }) {
            const auto t = pss_time_symbol(r, fft_size);
            sync_fft f(fft_size, true);
            std::copy(t.begin(), t.end(), f.in());
            f.execute();
            double other = 0.0;
            std::vector<bool> used(size_t(fft_size), false);
            for (int n = 0; n < 62; n++) {
                used[size_t(sync_fft_bin(n, fft_size))] = true;
                EXPECT_NEAR(std::abs(f.out()[sync_fft_bin(n, fft_size)] - d[size_t(n)]), 0.0f, 1e-4f);
            }
            for (int b = 0; b < fft_size; b++)
                if (!used[size_t(b)])
                    other += std::abs(f.out()[b]);
            EXPECT_LT(other, 1e-2);
        }
    }
    // Roots 29 and 34 add to 63: conjugate sequences.
    const auto d1 = pss_sequence(1), d2 = pss_sequence(2);
    for (int n = 0; n < 62; n++)
        EXPECT_NEAR(std::abs(d1[size_t(n)] - std::conj(d2[size_t(n)])), 0.0f, 1e-5f);
    EXPECT_THROW(pss_sequence(3), std::invalid_argument);
}

TEST(CellSearch, CellIds)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    for (int id : { 0, 1, 2, 167, 301, 503 }) {
        const auto c = generate_lte_capture("-p 25 -x 1 -m 9 -n 12 -c " + std::to_string(id));
        const auto r = search(c, rate_of(25));
        ASSERT_TRUE(r.found) << id << ": " << r.reason;
        EXPECT_EQ(r.cell_id, c.truth[0]["cell_id"].get<int>());
        EXPECT_EQ(r.n_id1, id / 3);
        EXPECT_EQ(r.n_id2, id % 3);
        EXPECT_EQ(r.cp, cyclic_prefix::normal);
        EXPECT_EQ(r.frame_start, truth_frame_start(c)) << id;
        EXPECT_NEAR(r.cfo_hz, 0.0, 20.0) << id;
    }
}

TEST(CellSearch, EveryBandwidthAtItsRate)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    int id = 11;
    for (int n_prb : standard_n_prb) {
        // Starting with subframe 3 of SFN 0 (-O shifts it; -b is the SFN):
        // the frame start is then the next subframe 0 or one earlier.
        const auto c = generate_lte_capture("-p " + std::to_string(n_prb) + " -x 1 -m 9 -n 12 -O 777 -F 1000 -c " +
                                            std::to_string(id));
        const auto r = search(c, rate_of(n_prb));
        ASSERT_TRUE(r.found) << n_prb << ": " << r.reason;
        EXPECT_EQ(r.cell_id, id) << n_prb;
        EXPECT_EQ(r.frame_start, truth_frame_start(c)) << n_prb;
        EXPECT_NEAR(r.cfo_hz, 1000.0, 20.0) << n_prb;
        id += 83;
    }
}

TEST(CellSearch, FrequencyOffsets)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    for (double cfo : { -45000.0, -30000.0, -22400.0, -7600.0, 3100.0, 14990.0, 21000.0, 30000.0, 45000.0 }) {
        const auto c = generate_lte_capture("-p 15 -x 1 -m 9 -n 12 -c 302 -F " + std::to_string(cfo));
        const auto r = search(c, rate_of(15));
        ASSERT_TRUE(r.found) << cfo << ": " << r.reason;
        EXPECT_EQ(r.cell_id, 302) << cfo;
        EXPECT_EQ(r.frame_start, truth_frame_start(c)) << cfo;
        EXPECT_NEAR(r.cfo_hz, cfo, 20.0);
    }
}

TEST(CellSearch, DelayAndNoise)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    {
        const auto c = generate_lte_capture("-p 50 -x 1 -m 9 -n 16 -c 200 -O 1234");
        const auto r = search(c, rate_of(50));
        ASSERT_TRUE(r.found) << r.reason;
        EXPECT_EQ(r.cell_id, 200);
        EXPECT_EQ(r.frame_start, 1234);
    }
    // 0 dB per-RE SNR, with a CFO: the cell and subframe 0 found; timing
    // within a few samples (the PSS and SSS span 0.93 MHz, so at the full
    // rate a noisy peak is not sample exact).
    int found = 0, seeds = 0;
    for (int n_prb : { 6, 25, 50 }) {
        for (int seed = 1; seed <= 3; seed++, seeds++) {
            const auto c = generate_lte_capture("-p " + std::to_string(n_prb) + " -x 1 -m 9 -n 21 -c 433 -N 0 -F -12000 -s " +
                                                std::to_string(seed));
            const auto r = search(c, rate_of(n_prb));
            if (!r.found) {
                ADD_FAILURE() << n_prb << " seed " << seed << ": " << r.reason;
                continue;
            }
            found++;
            const int tol = standard_fft_size(n_prb) / 128 + 1;
            EXPECT_EQ(r.cell_id, 433);
            // Compared modulo a frame: a start one sample early is the next frame's.
            const long long frame = 150LL * standard_fft_size(n_prb);
            long long err = (r.frame_start - truth_frame_start(c)) % frame;
            err = err > frame / 2 ? err - frame : err < -frame / 2 ? err + frame : err;
            EXPECT_LE(std::llabs(err), tol) << n_prb << " " << seed;
            EXPECT_NEAR(r.cfo_hz, -12000.0, 300.0) << n_prb << " " << seed;
        }
    }
    EXPECT_EQ(found, seeds);
}

TEST(CellSearch, ExtendedCyclicPrefixSynthetic)
{
    // The generator makes normal CP only: a synthetic signal built in the
    // test from 36.211 (sync_test_signal.h), both CPs, starting mid-frame.
    for (cyclic_prefix cp : { cyclic_prefix::extended, cyclic_prefix::normal }) {
        for (int id : { 5, 290 }) {
            const size_t lead = 321;
            const auto x = synthetic_downlink(id, cp, 6, 128, 14, 3, lead, 8000.0, uint32_t(id));
            const auto r = search(x, 1.92e6);
            ASSERT_TRUE(r.found) << r.reason;
            EXPECT_EQ(r.cell_id, id);
            EXPECT_EQ(r.cp, cp);
            // The signal starts with subframe 3: subframe 0 starts 7 subframes on.
            EXPECT_EQ(r.frame_start, (long long)(lead + 7 * 1920));
            EXPECT_NEAR(r.cfo_hz, 8000.0, 20.0);
        }
    }
}

TEST(CellSearch, NoiseAloneIsNotACell)
{
    // Complex white noise, many seeds, at 1.92 and 30.72 MS/s: never a
    // cell. The largest PSS metric seen is printed against the threshold.
    double worst = 0.0;
    int false_alarms = 0, trials = 0;
    for (uint32_t seed = 1; seed <= 40; seed++, trials++) {
        const auto x = white_noise(size_t(4 * 9600 + 400), 1.0f, seed);
        const auto r = search(x, 1.92e6);
        worst = std::max(worst, r.pss_metric);
        false_alarms += r.found;
        EXPECT_FALSE(r.found) << seed;
        EXPECT_FALSE(r.reason.empty());
    }
    for (uint32_t seed = 100; seed < 102; seed++, trials++) {
        const auto x = white_noise(size_t(20 * 30720), 1.0f, seed);
        const auto r = search(x, 30.72e6);
        worst = std::max(worst, r.pss_metric);
        false_alarms += r.found;
        EXPECT_FALSE(r.found) << seed;
    }
    std::printf("noise alone: %d false detections in %d buffers; largest PSS metric %.4f (threshold %.2f)\n",
                false_alarms, trials, worst, search_options().pss_threshold);
    EXPECT_LT(worst, search_options().pss_threshold);
}

TEST(CellSearch, BadParametersAndShortBuffers)
{
    std::vector<cf> x(100);
    const cf* p = x.data();
    EXPECT_THROW(search_cell(&p, 1, x.size(), 1e6, search_options()), std::invalid_argument);
    EXPECT_THROW(search_cell(&p, 0, x.size(), 1.92e6, search_options()), std::invalid_argument);
    const auto r = search_cell(&p, 1, x.size(), 1.92e6, search_options());
    EXPECT_FALSE(r.found);
    EXPECT_NE(r.reason.find("shorter"), std::string::npos);
    std::vector<cf> zeros(20000);
    const cf* z = zeros.data();
    EXPECT_FALSE(search_cell(&z, 1, zeros.size(), 1.92e6, search_options()).found);
}
