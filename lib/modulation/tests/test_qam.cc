/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The constellations against 3GPP TS 36.211 section 7.1, and the SISO
// max-log demapper against a brute-force one.
#include "modulation/qam.h"
#include "modulation/qam_demap.h"
#include "qam_test_util.h"
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace gr::gpurx;
using core::qam::modulation;

namespace {

const modulation all_modulations[] = {
    modulation::qpsk, modulation::qam16, modulation::qam64, modulation::qam256
};

void expect_point(modulation m, unsigned idx, double re, double im, double norm)
{
    const auto p = core::qam::constellation_of(m).points.at(idx);
    EXPECT_NEAR(p.real(), re / std::sqrt(norm), 1e-12)
        << core::qam::modulation_name(m) << " index " << idx;
    EXPECT_NEAR(p.imag(), im / std::sqrt(norm), 1e-12)
        << core::qam::modulation_name(m) << " index " << idx;
}

} // namespace

TEST(Qam, QpskIsTable7_1_2_1)
{
    // 36.211 Table 7.1.2-1: b(0)b(1) -> I, Q (times 1/sqrt(2)).
    expect_point(modulation::qpsk, 0b00, 1, 1, 2);
    expect_point(modulation::qpsk, 0b01, 1, -1, 2);
    expect_point(modulation::qpsk, 0b10, -1, 1, 2);
    expect_point(modulation::qpsk, 0b11, -1, -1, 2);
}

TEST(Qam, Qam16IsTable7_1_3_1)
{
    // 36.211 Table 7.1.3-1: b(0)b(1)b(2)b(3) -> I, Q (times 1/sqrt(10)).
    const int table[16][2] = { { 1, 1 },   { 1, 3 },   { 3, 1 },   { 3, 3 },
                               { 1, -1 },  { 1, -3 },  { 3, -1 },  { 3, -3 },
                               { -1, 1 },  { -1, 3 },  { -3, 1 },  { -3, 3 },
                               { -1, -1 }, { -1, -3 }, { -3, -1 }, { -3, -3 } };
    for (unsigned idx = 0; idx < 16; idx++)
        expect_point(modulation::qam16, idx, table[idx][0], table[idx][1], 10);
}

TEST(Qam, Qam64And256FirstRowsOfTheirTables)
{
    // 36.211 Table 7.1.4-1 (64-QAM, 1/sqrt(42)) and 7.1.5-1 (256-QAM, 1/sqrt(170)).
    expect_point(modulation::qam64, 0b000000, 3, 3, 42);
    expect_point(modulation::qam64, 0b000001, 3, 1, 42);
    expect_point(modulation::qam64, 0b000010, 1, 3, 42);
    expect_point(modulation::qam64, 0b000011, 1, 1, 42);
    expect_point(modulation::qam64, 0b000100, 3, 5, 42);
    expect_point(modulation::qam256, 0b00000000, 5, 5, 170);
    expect_point(modulation::qam256, 0b00000001, 5, 7, 170);
    expect_point(modulation::qam256, 0b00000010, 7, 5, 170);
}

TEST(Qam, EveryPointFollowsTheStandardsFormula)
{
    for (auto m : all_modulations) {
        const auto& c = core::qam::constellation_of(m);
        ASSERT_EQ(c.points.size(), size_t(1) << c.bits);
        for (unsigned idx = 0; idx < c.points.size(); idx++) {
            const auto want = test::standard_point(c.bits, idx);
            EXPECT_NEAR(std::abs(c.points[idx] - want), 0.0, 1e-12)
                << core::qam::modulation_name(m) << " index " << idx;
            uint8_t b[8];
            for (int i = 0; i < c.bits; i++)
                b[i] = uint8_t((idx >> (c.bits - 1 - i)) & 1);
            EXPECT_EQ(core::qam::map_bits(m, b), c.points[idx]);
        }
    }
}

TEST(Qam, UnitEnergyDistinctPointsAndGrayNeighbours)
{
    for (auto m : all_modulations) {
        const auto& c = core::qam::constellation_of(m);
        SCOPED_TRACE(core::qam::modulation_name(m));
        double energy = 0.0, dmin = 1e9;
        for (const auto& p : c.points)
            energy += std::norm(p);
        EXPECT_NEAR(energy / c.points.size(), 1.0, 1e-12);
        for (size_t a = 0; a < c.points.size(); a++)
            for (size_t b = a + 1; b < c.points.size(); b++)
                dmin = std::min(dmin, std::abs(c.points[a] - c.points[b]));
        ASSERT_GT(dmin, 0.1);
        // Gray: points at the least distance (horizontal and vertical
        // neighbours) differ in exactly one bit.
        size_t neighbours = 0;
        for (size_t a = 0; a < c.points.size(); a++)
            for (size_t b = a + 1; b < c.points.size(); b++)
                if (std::abs(c.points[a] - c.points[b]) < dmin * 1.0001) {
                    EXPECT_EQ(__builtin_popcount(unsigned(a ^ b)), 1)
                        << a << " and " << b;
                    neighbours++;
                }
        const size_t side = size_t(1) << (c.bits / 2);
        EXPECT_EQ(neighbours, 2 * side * (side - 1)); // a full square grid's
    }
}

TEST(Qam, DemapperEqualsBruteForceMaxLog)
{
    std::mt19937 rng(11);
    std::normal_distribution<double> g;
    for (auto m : all_modulations) {
        const auto& c = core::qam::constellation_of(m);
        for (int trial = 0; trial < 50; trial++) {
            const std::complex<double> y(g(rng), g(rng));
            const double n0 = 0.05 + 0.1 * trial;
            float llr[8];
            core::qam::demap_max_log(c, y, n0, llr);
            for (int i = 0; i < c.bits; i++) {
                double min0 = 1e300, min1 = 1e300;
                for (unsigned idx = 0; idx < (1u << c.bits); idx++) {
                    const double d = std::norm(y - test::standard_point(c.bits, idx));
                    double& m = (idx >> (c.bits - 1 - i)) & 1 ? min1 : min0;
                    m = std::min(m, d);
                }
                EXPECT_TRUE(test::llr_close(llr[i], (min0 - min1) / n0))
                    << core::qam::modulation_name(m) << " bit " << i << ": " << llr[i]
                    << " vs " << (min0 - min1) / n0;
            }
        }
    }
}

TEST(Qam, LlrIsPositiveForBitOne)
{
    // A noiseless symbol: every LLR has the sign of its bit (L = ln P(1)/P(0)).
    for (auto m : all_modulations) {
        const auto& c = core::qam::constellation_of(m);
        for (unsigned idx = 0; idx < c.points.size(); idx++) {
            float llr[8];
            core::qam::demap_max_log(c, c.points[idx], 0.1, llr);
            for (int i = 0; i < c.bits; i++) {
                if ((idx >> (c.bits - 1 - i)) & 1)
                    EXPECT_GT(llr[i], 0.0f) << idx << " bit " << i;
                else
                    EXPECT_LT(llr[i], 0.0f) << idx << " bit " << i;
            }
        }
    }
}

// The axis demapper gives the full max-log demapper's LLRs.
TEST(QamDemap, AxisDemapperMatchesTheFullMaxLog)
{
    std::mt19937 rng(3);
    std::normal_distribution<double> nd(0.0, 0.8);
    std::uniform_real_distribution<double> n0s(0.01, 3.0);
    for (auto m : { core::qam::modulation::qpsk, core::qam::modulation::qam16, core::qam::modulation::qam64,
                    core::qam::modulation::qam256 }) {
        const core::qam::axis_demapper fast(m);
        const auto& c = core::qam::constellation_of(m);
        const int bits = core::qam::bits_per_symbol(m);
        for (int t = 0; t < 2000; t++) {
            const std::complex<double> y(nd(rng), nd(rng));
            const double n0 = n0s(rng);
            float ref[8], got[8];
            core::qam::demap_max_log(c, y, n0, ref);
            fast.demap(std::complex<float>(float(y.real()), float(y.imag())), float(n0), got);
            for (int b = 0; b < bits; b++)
                ASSERT_NEAR(got[b], ref[b], 1e-4 * (1.0 + std::fabs(ref[b])))
                    << core::qam::modulation_name(m) << " bit " << b << " y " << y << " n0 " << n0;
        }
    }
}

// demap_many (several symbols at a time, each with its noise) gives demap's
// LLRs bit for bit, max-log and exact, at lengths that are and are not a
// multiple of its eight lanes; a noise power that is not positive or not a
// number gives LLRs 0.
TEST(QamDemap, ManyEqualsOneAtATime)
{
    std::mt19937 rng(8);
    std::normal_distribution<float> nd(0.0f, 0.9f);
    std::uniform_real_distribution<float> n0s(0.005f, 4.0f);
    for (bool exact : { false, true })
        for (auto m : { core::qam::modulation::qpsk, core::qam::modulation::qam16, core::qam::modulation::qam64,
                        core::qam::modulation::qam256 }) {
            const core::qam::axis_demapper d(m, exact);
            const int bits = d.bits();
            for (size_t n : { size_t(0), size_t(1), size_t(7), size_t(8), size_t(9), size_t(64), size_t(333) }) {
                std::vector<std::complex<float>> y(n);
                std::vector<float> n0(n), got(n * bits, -1.0f);
                for (size_t i = 0; i < n; i++) {
                    y[i] = { nd(rng), nd(rng) };
                    n0[i] = i % 11 == 3 ? 0.0f : i % 13 == 5 ? -1.0f : i % 17 == 6 ? std::nanf("") : n0s(rng);
                }
                d.demap_many(y.data(), n0.data(), n, got.data());
                for (size_t i = 0; i < n; i++) {
                    float want[8] = {};
                    if (n0[i] > 0.0f)
                        d.demap(y[i], n0[i], want);
                    for (int b = 0; b < bits; b++)
                        ASSERT_EQ(got[i * bits + size_t(b)], want[b])
                            << core::qam::modulation_name(m) << (exact ? " exact" : " max-log") << " n " << n
                            << " symbol " << i << " bit " << b << " n0 " << n0[i];
                }
            }
        }
}

// The exact demapper against ln sum exp over the whole constellation.
TEST(QamDemap, ExactDemapperMatchesTheDefinition)
{
    std::mt19937 rng(4);
    std::normal_distribution<double> nd(0.0, 0.8);
    std::uniform_real_distribution<double> n0s(0.02, 3.0);
    for (auto m : { core::qam::modulation::qpsk, core::qam::modulation::qam16, core::qam::modulation::qam64,
                    core::qam::modulation::qam256 }) {
        const core::qam::axis_demapper exact(m, true);
        const auto& c = core::qam::constellation_of(m);
        const int bits = core::qam::bits_per_symbol(m);
        for (int t = 0; t < 1000; t++) {
            const std::complex<double> y(nd(rng), nd(rng));
            const double n0 = n0s(rng);
            float got[8];
            exact.demap(std::complex<float>(float(y.real()), float(y.imag())), float(n0), got);
            for (int b = 0; b < bits; b++) {
                double s0 = 0, s1 = 0;
                for (size_t idx = 0; idx < c.points.size(); idx++) {
                    const double w = std::exp(-std::norm(y - c.points[idx]) / n0);
                    ((idx >> (bits - 1 - b)) & 1 ? s1 : s0) += w;
                }
                const double want = std::log(s1) - std::log(s0);
                ASSERT_NEAR(got[b], want, 1e-3 * (1.0 + std::fabs(want)))
                    << core::qam::modulation_name(m) << " bit " << b << " y " << y << " n0 " << n0;
            }
        }
    }
}
