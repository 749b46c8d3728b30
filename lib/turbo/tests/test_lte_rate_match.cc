/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// LTE rate matching, rv 0. E = 3K+12: a permutation of the codeword, and
// for K = 40 the positions worked out by hand from TS 36.212 §5.1.4.1:
// D = 44, R = 2 rows, 20 <NULL>s at the front of each stream, k0 = 2R = 4.
#include "turbo/lte_qpp.h"
#include "turbo/lte_rate_match.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace gr::gpurx;

TEST(LteRateMatch, EveryBlockSizeIsAPermutation)
{
    for (const auto& q : core::lte_qpp_table()) {
        core::lte_rate_match rm(q.K);
        ASSERT_EQ(rm.size(), 3 * q.K + 12);
        std::vector<int> sorted = rm.order();
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < rm.size(); i++)
            ASSERT_EQ(sorted[size_t(i)], i) << "K=" << q.K;
    }
}

TEST(LteRateMatch, K40ByHand)
{
    core::lte_rate_match rm(40);
    const auto& o = rm.order();
    // w_4 = y(0)_8 is <NULL>; w_5 = y(0)_40 = d(0)_20 (c[60]); w_6 = y(0)_24 =
    // d(0)_4 (c[12]); w_7 = y(0)_56 = d(0)_36 (c[108]); w_8 <NULL>; w_9 =
    // y(0)_36 = d(0)_16 (c[48]).
    ASSERT_GE(o.size(), 4u);
    EXPECT_EQ(o[0], 60);
    EXPECT_EQ(o[1], 12);
    EXPECT_EQ(o[2], 108);
    EXPECT_EQ(o[3], 48);
    // The systematic stream ends with w_63 = y(0)_63 = d(0)_43 (c[129]); w_64 =
    // v(1)_0 = y(1)_0 is <NULL>, w_65 = v(2)_0 = y(2)_1 is <NULL>, w_66 =
    // v(1)_1 = y(1)_32 = d(1)_12 (c[37]), w_67 = v(2)_1 = y(2)_33 = d(2)_13 (c[41]).
    const auto at = std::find(o.begin(), o.end(), 129);
    ASSERT_NE(at, o.end());
    ASSERT_LT(at + 2, o.end());
    EXPECT_EQ(at[1], 37);
    EXPECT_EQ(at[2], 41);
    // The read wraps: w_0 <NULL>, w_1 = y(0)_32 = d(0)_12 (c[36]), w_2 <NULL>,
    // w_3 = y(0)_48 = d(0)_28 (c[84]) are the last bits sent.
    EXPECT_EQ(o[o.size() - 2], 36);
    EXPECT_EQ(o.back(), 84);
}

TEST(LteRateMatch, DematchUndoesMatch)
{
    core::lte_rate_match rm(1024);
    std::mt19937 rng(5);
    std::vector<uint8_t> c(size_t(rm.size())), e(c.size());
    for (auto& b : c)
        b = uint8_t(rng() & 1);
    rm.match(c.data(), e.data());
    std::vector<float> llr_sent(e.size()), llr(e.size());
    for (size_t j = 0; j < e.size(); j++)
        llr_sent[j] = e[j] ? 1.0f + float(j) : -1.0f - float(j);
    rm.dematch(llr_sent.data(), llr.data());
    for (size_t i = 0; i < c.size(); i++)
        EXPECT_EQ(llr[i] > 0, c[i] == 1) << i;
    // Consecutive bits sent are far apart in the trellis: the systematic
    // stream steps 32 positions at a time within a column.
    EXPECT_EQ(rm.order()[1] - rm.order()[0], 3 * 32);
}

// Other E (36.212 §5.1.4.1.2's bit selection): the read of the circular
// buffer from k0 stops after E bits that are not <NULL>, wrapping at Ncb. So
// puncturing sends a prefix of the E = 3K+12 order, and repetition repeats
// that order with period 3K+12 (the <NULL>s do not move). For K = 40 the
// first bits are those worked out by hand above.
TEST(LteRateMatch, PuncturingAndRepetitionReadTheSameBuffer)
{
    for (int K : { 40, 1024, 6144 }) {
        const core::lte_rate_match full(K);
        const int n = full.size();
        for (int E : { 1, K, 2 * K, n - 1, n + 1, 2 * n + 7 }) {
            const core::lte_rate_match rm(K, E);
            ASSERT_EQ(rm.size(), E);
            for (int j = 0; j < E; j++)
                ASSERT_EQ(rm.order()[size_t(j)], full.order()[size_t(j % n)]) << "K=" << K << " E=" << E;
        }
    }
    EXPECT_EQ(core::lte_rate_match(40, 2).order()[0], 60);
    EXPECT_EQ(core::lte_rate_match(40, 2).order()[1], 12);
    EXPECT_THROW(core::lte_rate_match(40, -1), std::invalid_argument);
}

// feedback(): a copy's a-priori LLR is the decoder's extrinsic plus the
// other copies' LLRs, never its own. Checked by hand on a bit sent once, one
// sent twice (repetition) and the sums, against a plain count of copies.
TEST(LteRateMatch, FeedbackLeavesOutEachCopysOwnLlr)
{
    const int K = 40, n = 3 * K + 12;
    for (int E : { n, n + 60, K + 20 }) {
        const core::lte_rate_match rm(K, E);
        std::vector<float> ext(static_cast<size_t>(n)), received(static_cast<size_t>(E)),
            apriori(static_cast<size_t>(E), 99.0f), scratch(static_cast<size_t>(n));
        for (int c = 0; c < n; c++)
            ext[size_t(c)] = 0.5f * float(c % 7) - 1.5f;
        for (int j = 0; j < E; j++)
            received[size_t(j)] = float(j % 5) - 2.0f + 0.125f * float(j % 3);
        rm.feedback(ext.data(), received.data(), apriori.data(), scratch.data());
        for (int j = 0; j < E; j++) {
            const int c = rm.order()[size_t(j)];
            float others = 0.0f; // the other copies of bit c
            int copies = 0;
            for (int i = 0; i < E; i++)
                if (rm.order()[size_t(i)] == c) {
                    copies++;
                    if (i != j)
                        others += received[size_t(i)];
                }
            ASSERT_FLOAT_EQ(apriori[size_t(j)], ext[size_t(c)] + others) << "E=" << E << " j=" << j;
            if (copies == 1) { // sent once: exactly the decoder's extrinsic
                ASSERT_EQ(apriori[size_t(j)], ext[size_t(c)]) << "E=" << E << " j=" << j;
            }
        }
    }
}

// dematch() of E bits: a bit never sent gets LLR 0 (no information), a bit
// sent twice the sum of its two LLRs.
TEST(LteRateMatch, DematchZerosUnsentBitsAndSumsRepeatedOnes)
{
    const int K = 512, n = 3 * K + 12;
    for (int E : { K + 100, n + 50 }) {
        const core::lte_rate_match rm(K, E);
        std::vector<float> received(static_cast<size_t>(E)), llr(static_cast<size_t>(n), 99.0f),
            want(static_cast<size_t>(n), 0.0f);
        for (int j = 0; j < E; j++) {
            received[size_t(j)] = 0.25f * float(j % 13) - 1.0f;
            want[size_t(rm.order()[size_t(j)])] += received[size_t(j)];
        }
        rm.dematch(received.data(), llr.data());
        for (int c = 0; c < n; c++)
            ASSERT_EQ(llr[size_t(c)], want[size_t(c)]) << "E=" << E << " c=" << c;
        // Puncturing leaves n - E bits unsent, all at 0.
        if (E < n) {
            EXPECT_GE(std::count(llr.begin(), llr.end(), 0.0f), n - E);
        }
    }
}
