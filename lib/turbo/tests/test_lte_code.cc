/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo code itself: QPP table, CRC24 and the encoder, each against
// an implementation written here independently from TS 36.212.
#include "turbo/lte_crc.h"
#include "turbo/lte_qpp.h"
#include "turbo/lte_turbo_encoder.h"
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

using namespace gr::gpurx;

TEST(LteQpp, TableHasTheSpecBlockSizes)
{
    // 36.212 5.1.3.2.3: K = 40..512 step 8, ..1024 step 16, ..2048 step 32, ..6144 step 64.
    std::vector<int> expect;
    for (int k = 40; k <= 512; k += 8)
        expect.push_back(k);
    for (int k = 528; k <= 1024; k += 16)
        expect.push_back(k);
    for (int k = 1056; k <= 2048; k += 32)
        expect.push_back(k);
    for (int k = 2112; k <= 6144; k += 64)
        expect.push_back(k);
    ASSERT_EQ(expect.size(), 188u);
    const auto& t = core::lte_qpp_table();
    ASSERT_EQ(t.size(), 188u);
    for (size_t i = 0; i < t.size(); i++)
        EXPECT_EQ(t[i].K, expect[i]);
}

TEST(LteQpp, EveryInterleaverIsAPermutation)
{
    for (const auto& q : core::lte_qpp_table()) {
        std::vector<char> seen(q.K, 0);
        for (int i = 0; i < q.K; i++) {
            // Direct evaluation in 64 bits, independent of qpp_index's factoring.
            const long long pi = (1LL * q.f1 * i + 1LL * q.f2 * i * i) % q.K;
            ASSERT_EQ(core::qpp_index(q, i), pi) << "K=" << q.K;
            ASSERT_FALSE(seen[pi]) << "K=" << q.K << " maps two indices to " << pi;
            seen[pi] = 1;
        }
    }
}

TEST(LteQpp, RejectsOtherBlockSizesNamingK)
{
    for (int K : { 0, 39, 41, 513, 6145, 6200 }) {
        try {
            core::lte_qpp(K);
            FAIL() << "K=" << K << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("K=" + std::to_string(K)), std::string::npos);
        }
    }
    EXPECT_EQ(core::lte_K_from_codeword_length(3 * 6144 + 12), 6144);
    EXPECT_EQ(core::lte_K_from_codeword_length(3 * 6145 + 12), 0);
    EXPECT_EQ(core::lte_K_from_codeword_length(100), 0);
}

namespace {
// Long division of (bits * D^24) by g, written as the spec states it: the
// parity polynomial is the remainder. Coefficients held in a plain array.
std::vector<int> spec_crc(const std::vector<uint8_t>& a, const std::vector<int>& g_powers)
{
    std::vector<int> g(25, 0);
    for (int p : g_powers)
        g[24 - p] = 1; // g[0] = coefficient of D^24
    std::vector<int> r(a.begin(), a.end());
    r.resize(a.size() + 24, 0);
    for (size_t i = 0; i < a.size(); i++)
        if (r[i])
            for (int j = 0; j <= 24; j++)
                r[i + j] ^= g[j];
    return std::vector<int>(r.end() - 24, r.end());
}
} // namespace

TEST(LteCrc, MatchesLongDivisionAndChecks)
{
    std::mt19937 rng(5);
    const std::vector<int> ga = { 24, 23, 18, 17, 14, 11, 10, 7, 6, 5, 4, 3, 1, 0 };
    const std::vector<int> gb = { 24, 23, 6, 5, 1, 0 };
    for (int n : { 1, 16, 40 - 24, 1000, 6120 }) {
        std::vector<uint8_t> bits(n + 24);
        for (int i = 0; i < n; i++)
            bits[i] = rng() & 1;
        for (auto t : { core::crc24_type::a, core::crc24_type::b }) {
            const auto ref = spec_crc({ bits.begin(), bits.begin() + n }, t == core::crc24_type::a ? ga : gb);
            core::crc24_attach(bits.data(), n, t);
            for (int i = 0; i < 24; i++)
                ASSERT_EQ(bits[n + i], ref[i]) << "n=" << n;
            EXPECT_TRUE(core::crc24_check(bits.data(), n + 24, t));
            EXPECT_EQ(core::crc24(bits.data(), n + 24, t), 0u);
            bits[rng() % (n + 24)] ^= 1;
            EXPECT_FALSE(core::crc24_check(bits.data(), n + 24, t));
        }
    }
    EXPECT_THROW(core::parse_crc24("crc16", "crc"), std::invalid_argument);
}

namespace {
// An encoder written directly from 36.212 5.1.3.2.1-5.1.3.2.2 with an explicit
// shift register (D, D^2, D^3), producing d(0), d(1), d(2) separately.
struct spec_rsc {
    int r[3] = { 0, 0, 0 }; // r[0] = D, r[1] = D^2, r[2] = D^3
    // Returns the parity z_k for input c_k (g0 = 1+D^2+D^3, g1 = 1+D+D^3).
    int step(int c)
    {
        const int w = c ^ r[1] ^ r[2];
        const int z = w ^ r[0] ^ r[2];
        r[2] = r[1];
        r[1] = r[0];
        r[0] = w;
        return z;
    }
    // Termination: the switch takes the feedback, so x = r[1]^r[2] and the
    // register input becomes zero.
    void tail(int& x, int& z)
    {
        x = r[1] ^ r[2];
        z = step(x);
    }
};

std::vector<uint8_t> spec_encode(const std::vector<uint8_t>& c, int K, int f1, int f2)
{
    std::vector<std::vector<int>> d(3, std::vector<int>(K + 4));
    spec_rsc e1, e2;
    for (int k = 0; k < K; k++) {
        const long long pi = (1LL * f1 * k + 1LL * f2 * k * k) % K;
        d[0][k] = c[k];
        d[1][k] = e1.step(c[k]);
        d[2][k] = e2.step(c[pi]);
    }
    int x[3], z[3], xp[3], zp[3];
    for (int t = 0; t < 3; t++)
        e1.tail(x[t], z[t]);
    for (int t = 0; t < 3; t++)
        e2.tail(xp[t], zp[t]);
    d[0][K] = x[0], d[0][K + 1] = z[1], d[0][K + 2] = xp[0], d[0][K + 3] = zp[1];
    d[1][K] = z[0], d[1][K + 1] = x[2], d[1][K + 2] = zp[0], d[1][K + 3] = zp[2];
    d[2][K] = x[1], d[2][K + 1] = z[2], d[2][K + 2] = xp[1], d[2][K + 3] = xp[2];
    std::vector<uint8_t> out(3 * K + 12);
    for (int k = 0; k < K + 4; k++)
        for (int i = 0; i < 3; i++)
            out[3 * k + i] = uint8_t(d[i][k]);
    return out;
}
} // namespace

TEST(LteTurboEncoder, BitExactWithSpecEncoderForAll188Sizes)
{
    std::mt19937 rng(11);
    for (const auto& q : core::lte_qpp_table()) {
        core::lte_turbo_encoder enc(q.K);
        for (int rep = 0; rep < 3; rep++) {
            std::vector<uint8_t> bits(q.K);
            for (auto& b : bits)
                b = rng() & 1;
            std::vector<uint8_t> out(3 * q.K + 12);
            enc.encode(bits.data(), out.data());
            ASSERT_EQ(out, spec_encode(bits, q.K, q.f1, q.f2)) << "K=" << q.K;
        }
    }
}

TEST(LteTurboEncoder, AllZeroInputGivesAllZeroCodeword)
{
    core::lte_turbo_encoder enc(40);
    std::vector<uint8_t> bits(40, 0), out(132, 1);
    enc.encode(bits.data(), out.data());
    for (auto v : out)
        EXPECT_EQ(v, 0);
}
