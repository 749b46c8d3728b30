/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The numerology against 36.211 Table 6.12-1 and the CRS positions against
// §6.10.1.2, written out by hand.
#include "lte/common/crs_positions.h"
#include "lte/common/lte_cell.h"

#include <gtest/gtest.h>

using namespace gr::gpurx::core::lte;

TEST(Numerology, NormalPrefixSumsToASubframe)
{
    for (int n_prb : standard_n_prb) {
        numerology nu{ standard_fft_size(n_prb), cyclic_prefix::normal };
        EXPECT_EQ(nu.symbol_start(14 - 1) + nu.cp_length(6) + nu.fft_size, nu.subframe_samples()) << n_prb;
    }
    numerology n20{ 2048, cyclic_prefix::normal };
    EXPECT_EQ(n20.cp_length(0), 160);
    EXPECT_EQ(n20.cp_length(1), 144);
    EXPECT_EQ(n20.symbol_start(7), 15360);
    EXPECT_EQ(n20.useful_start(1), 160 + 2048 + 144);
    EXPECT_DOUBLE_EQ(n20.sample_rate(), 30.72e6);
}

TEST(Numerology, ExtendedPrefixSumsToASubframe)
{
    numerology nu{ 128, cyclic_prefix::extended };
    EXPECT_EQ(nu.cp_length(3), 32);
    EXPECT_EQ(nu.symbol_start(11) + 32 + 128, nu.subframe_samples());
}

TEST(Numerology, RatesAndSizes)
{
    EXPECT_EQ(fft_size_of_rate(1.92e6), 128);
    EXPECT_EQ(fft_size_of_rate(23.04e6), 1536);
    EXPECT_EQ(fft_size_of_rate(5.76e6), 384);
    EXPECT_EQ(fft_size_of_rate(1e6), 0);
    EXPECT_EQ(fft_size_of_rate(2e6), 0);
    EXPECT_THROW(standard_fft_size(7), std::invalid_argument);
    cell c;
    c.n_prb = 7;
    EXPECT_NE(c.check().find("n_prb=7"), std::string::npos);
}

TEST(Numerology, FftBins)
{
    // 6 PRB in 128 bins: k = 0..35 below DC at bins 92..127, 36..71 at 1..36.
    EXPECT_EQ(fft_bin_of(0, 72, 128), 92);
    EXPECT_EQ(fft_bin_of(35, 72, 128), 127);
    EXPECT_EQ(fft_bin_of(36, 72, 128), 1);
    EXPECT_EQ(fft_bin_of(71, 72, 128), 36);
}

TEST(CrsPositions, TwoPortsCellOne)
{
    cell c;
    c.cell_id = 1; // v_shift 1
    c.ports = 2;
    // Symbol 0: port 0 at k = 1, 7, ...; port 1 at 4, 10, ...
    EXPECT_TRUE(is_crs_re(c, 0, 1));
    EXPECT_TRUE(is_crs_re(c, 0, 4));
    EXPECT_FALSE(is_crs_re(c, 0, 0));
    EXPECT_FALSE(is_crs_re(c, 1, 1)); // ports 2, 3 only
    EXPECT_TRUE(is_crs_re(c, 4, 4));  // port 0, v = 3
    EXPECT_TRUE(is_crs_re(c, 11, 1)); // slot 1, symbol 4, port 1, v = 0
    c.ports = 1;
    EXPECT_FALSE(is_crs_re(c, 0, 4));
    c.ports = 4;
    EXPECT_TRUE(is_crs_re(c, 1, 1));  // port 2, slot 0: v = 0
    EXPECT_TRUE(is_crs_re(c, 8, 4));  // port 2, slot 1: v = 3
}
