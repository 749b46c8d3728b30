/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The encoder of 36.212 §5.1.3.1 against the code as a circular convolution,
// and rate matching (§5.1.4.2) against the spec's steps written out
// literally (matrix with <NULL>s, column permutation, bit collection,
// selection loop) plus a hand-worked start of the K=40 interleaver.
#include "lte/coding/lte_cc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpurx::core::lte;

namespace {

std::vector<uint8_t> random_bits(int n, std::mt19937& rng)
{
    std::vector<uint8_t> b(n);
    for (auto& x : b)
        x = uint8_t(rng() & 1);
    return b;
}

// d_k^(i) = sum_j g_i,j c_((k - j) mod K): tap j of generator i is its bit
// 6 - j (the MSB multiplies the current bit c_k). Tail-biting makes the
// convolution circular, which is what s_i = c_(K-1-i) means.
std::vector<std::vector<uint8_t>> circular_convolution(const std::vector<uint8_t>& c)
{
    const unsigned g[3] = { 0133, 0171, 0165 };
    const int K = int(c.size());
    std::vector<std::vector<uint8_t>> d(3, std::vector<uint8_t>(K));
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < K; k++) {
            int sum = 0;
            for (int j = 0; j < 7; j++)
                if ((g[i] >> (6 - j)) & 1u)
                    sum += c[((k - j) % K + K) % K];
            d[i][k] = uint8_t(sum & 1);
        }
    return d;
}

constexpr int NUL = -1;

// 36.212 §5.1.4.2 step by step, for three streams of D bits each; returns
// e_0..e_(E-1) as indices "3 * k + i" of d_k^(i).
std::vector<int> literal_rate_matching(int D, int E)
{
    const int P[32] = { 1, 17, 9, 25, 5, 21, 13, 29, 3, 19, 11, 27, 7, 23, 15, 31,
                        0, 16, 8, 24, 4, 20, 12, 28, 2, 18, 10, 26, 6, 22, 14, 30 };
    const int C = 32;
    int R = 0;
    while (D > R * C) // the smallest R with D <= R * C
        R++;
    const int ND = R * C - D;
    std::vector<int> w;
    for (int i = 0; i < 3; i++) {
        // y_k: ND <NULL>s, then d_k^(i); written into the R x C matrix row by row.
        std::vector<std::vector<int>> m(R, std::vector<int>(C));
        for (int r = 0; r < R; r++)
            for (int col = 0; col < C; col++) {
                const int k = r * C + col;
                m[r][col] = k < ND ? NUL : 3 * (k - ND) + i;
            }
        // Permute the columns, then read column by column: v^(i).
        for (int j = 0; j < C; j++)
            for (int r = 0; r < R; r++)
                w.push_back(m[r][P[j]]);
    }
    const int Kw = int(w.size());
    EXPECT_EQ(Kw, 3 * R * C);
    std::vector<int> e;
    int k = 0, j = 0;
    while (k < E) {
        if (w[j % Kw] != NUL) {
            e.push_back(w[j % Kw]);
            k++;
        }
        j++;
    }
    return e;
}

} // namespace

TEST(CcEncode, CircularConvolution)
{
    std::mt19937 rng(1);
    for (int K : { 6, 7, 13, 36, 40, 57, 86, 200 }) {
        const auto c = random_bits(K, rng);
        const auto d = cc_encode(c);
        const auto ref = circular_convolution(c);
        ASSERT_EQ(d.size(), size_t(3 * K));
        for (int k = 0; k < K; k++)
            for (int i = 0; i < 3; i++)
                ASSERT_EQ(d[3 * k + i], ref[i][k]) << "K=" << K << " k=" << k << " i=" << i;
    }
}

TEST(CcEncode, SingleOneByHand)
{
    // c = 1 at k = 0 in K = 10: the impulse response of each generator,
    // taps 133 = 1011011, 171 = 1111001, 165 = 1110101 over k = 0..6.
    std::vector<uint8_t> c(10, 0);
    c[0] = 1;
    const auto d = cc_encode(c);
    const char* expect[3] = { "1011011000", "1111001000", "1110101000" };
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 10; k++)
            EXPECT_EQ(d[3 * k + i], expect[i][k] - '0') << i << " " << k;
    // Tail-biting: a 1 at the end wraps to the start (c_9 is s_0).
    std::vector<uint8_t> c2(10, 0);
    c2[9] = 1;
    const auto d2 = cc_encode(c2);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 10; k++)
            EXPECT_EQ(d2[3 * k + i], expect[i][(k + 1) % 10] - '0') << i << " " << k;
}

TEST(CcEncode, RejectsShortFrames)
{
    EXPECT_THROW(cc_encode(std::vector<uint8_t>(5, 0)), std::invalid_argument);
}

TEST(CcRateMatch, InterleaverStartForFortyBitsByHand)
{
    // K = 40: R = 2 rows, N_D = 24 <NULL>s. Row 0 is y_0..31 (NULL up to
    // y_23, then d_0..d_7), row 1 is y_32..63 = d_8..d_39. Permuted column
    // 0 is column 1: y_1 = NULL, y_33 = d_9; column 17: NULL, y_49 = d_25;
    // column 9: NULL, y_41 = d_17; column 25: y_25 = d_1, y_57 = d_33.
    std::vector<int> pattern;
    cc_rate_match_pattern(40, pattern);
    ASSERT_EQ(pattern.size(), 120u);
    const int first[5] = { 9, 25, 17, 1, 33 };
    for (int k = 0; k < 5; k++)
        EXPECT_EQ(pattern[k], 3 * first[k]) << k;
    // Stream 1 begins after stream 0's 40 bits, in the same order.
    for (int k = 0; k < 5; k++)
        EXPECT_EQ(pattern[40 + k], 3 * first[k] + 1) << k;
}

TEST(CcRateMatch, MatchesTheSpecStepByStep)
{
    std::mt19937 rng(2);
    for (int K : { 6, 31, 32, 33, 36, 40, 44, 57, 64, 70, 86, 100 })
        for (int E : { 1, 50, 72, 144, 288, 576, 1920 }) {
            const auto c = random_bits(K, rng);
            const auto d = cc_encode(c);
            const auto e = cc_rate_match(d, E);
            const auto idx = literal_rate_matching(K, E);
            ASSERT_EQ(e.size(), size_t(E));
            for (int k = 0; k < E; k++)
                ASSERT_EQ(e[k], d[idx[k]]) << "K=" << K << " E=" << E << " k=" << k;
            std::vector<int> pattern;
            cc_rate_match_pattern(K, pattern);
            for (int k = 0; k < E; k++)
                ASSERT_EQ(pattern[k % (3 * K)], idx[k]) << "K=" << K << " E=" << E << " k=" << k;
        }
}

TEST(CcRateDematch, AddsRepetitionsAndZerosTheUnsent)
{
    for (int K : { 40, 57, 86 })
        for (int E : { 72, 144, 288, 576, 1920 }) {
            const auto idx = literal_rate_matching(K, E);
            std::vector<float> e(E);
            for (int k = 0; k < E; k++)
                e[k] = float(k % 7) - 3.0f + 0.25f * float(k % 3);
            std::vector<float> expect(3 * K, 0.0f), got(3 * K, -99.0f);
            for (int k = 0; k < E; k++)
                expect[idx[k]] += e[k];
            cc_rate_dematch(e.data(), E, K, got.data());
            for (int i = 0; i < 3 * K; i++)
                ASSERT_FLOAT_EQ(got[i], expect[i]) << "K=" << K << " E=" << E << " i=" << i;
        }
}

TEST(CcRateDematch, NonFiniteInputStaysFinite)
{
    const int K = 40, E = 1920;
    std::vector<float> e(E, 1.0f);
    e[3] = std::numeric_limits<float>::quiet_NaN();
    e[5] = std::numeric_limits<float>::infinity();
    e[7] = -std::numeric_limits<float>::infinity();
    std::vector<float> d(3 * K);
    cc_rate_dematch(e.data(), E, K, d.data());
    for (float v : d)
        EXPECT_TRUE(std::isfinite(v));
}

TEST(CcRateMatch, BadParametersThrow)
{
    std::vector<uint8_t> d(120), e(10);
    std::vector<float> l(10), dl(120);
    EXPECT_THROW(cc_rate_match(d.data(), 0, 10, e.data()), std::invalid_argument);
    EXPECT_THROW(cc_rate_match(d.data(), 40, 0, e.data()), std::invalid_argument);
    EXPECT_THROW(cc_rate_dematch(l.data(), 0, 40, dl.data()), std::invalid_argument);
    EXPECT_THROW(cc_rate_dematch(l.data(), 10, -1, dl.data()), std::invalid_argument);
    try {
        cc_rate_dematch(l.data(), -4, 40, dl.data());
        FAIL() << "no throw";
    } catch (const std::invalid_argument& ex) {
        EXPECT_NE(std::string(ex.what()).find("E=-4"), std::string::npos) << ex.what();
    }
}
