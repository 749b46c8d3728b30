/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Resource allocation against 36.213 §7.1.6 and 36.211 §6.2.3.2 worked by
// hand, the RE count of every PDSCH of many captures against the
// generator's truth, the precoders against 36.211's tables, and malformed
// grants and inputs reported, never a crash or a NaN.
#include "lte/common/tests/lte_capture.h"
#include "lte/pdsch/pdsch_grant.h"
#include "lte/pdsch/pdsch_precoding.h"
#include "lte/pdsch/pdsch_re_map.h"
#include "lte/pdsch/pdsch_receiver.h"
#include "modulation/qam.h"
#include "pdsch_test_truth.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace gr::gpurx;
using namespace gr::gpurx::core::lte;
using gr::gpurx::test::grant_of_truth;

namespace {

cell make_cell(int n_prb, int ports = 1, int id = 0)
{
    cell c;
    c.n_prb = n_prb;
    c.ports = ports;
    c.cell_id = id;
    return c;
}

pdsch_grant one_tb_grant()
{
    pdsch_grant g;
    g.tb[0].enabled = true;
    g.tb[0].tbs = 1000;
    g.tb[0].qm = 2;
    return g;
}

// Table 7.1.6.1-1 and the bit counts of §7.1.6.1-2.
TEST(ResourceAllocation, RbgSizes)
{
    EXPECT_EQ(rbg_size(6), 1);
    EXPECT_EQ(rbg_size(10), 1);
    EXPECT_EQ(rbg_size(11), 2);
    EXPECT_EQ(rbg_size(26), 2);
    EXPECT_EQ(rbg_size(27), 3);
    EXPECT_EQ(rbg_size(63), 3);
    EXPECT_EQ(rbg_size(64), 4);
    EXPECT_EQ(rbg_size(110), 4);
    EXPECT_EQ(rbg_count(25), 13);
    EXPECT_EQ(rbg_count(50), 17);
    EXPECT_EQ(rbg_count(100), 25);
    // N_RB^TYPE1 = N_RBG - ceil(log2 P) - 1: 25 PRB 13 - 1 - 1, 100 PRB 25 - 2 - 1.
    EXPECT_EQ(type1_bitmap_bits(25), 11);
    EXPECT_EQ(type1_bitmap_bits(100), 22);
    EXPECT_THROW(rbg_size(5), std::invalid_argument);
}

TEST(ResourceAllocation, Type0)
{
    // 25 PRB, P = 2, 13 RBGs, RBG 0 the MSB: RBGs 0, 1 and 12 (the last one
    // PRB 24 alone).
    pdsch_grant g = one_tb_grant();
    g.rbg_bitmask = (1u << 12) | (1u << 11) | 1u;
    const auto a = prbs_of(g, make_cell(25));
    EXPECT_EQ(a.slot[0], (std::vector<int>{ 0, 1, 2, 3, 24 }));
    EXPECT_EQ(a.slot[1], a.slot[0]);
    g.rbg_bitmask = 1u << 13; // a 14th RBG
    EXPECT_THROW(prbs_of(g, make_cell(25)), std::invalid_argument);
    EXPECT_NE(grant_problem(g, make_cell(25)).find("rbg_bitmask"), std::string::npos);
}

TEST(ResourceAllocation, Type1)
{
    // 25 PRB: P = 2, subsets of 13 (p = 0: RBGs 0, 2, .., 12) and 12 PRBs
    // (p = 1), bitmaps of 11 bits. Subset 1 unshifted: bits 0, 1, 2 are
    // PRBs 2, 3, 6. Shifted by 12 - 11 = 1: bit 0 is PRB 3, bit 10 PRB 23.
    pdsch_grant g = one_tb_grant();
    g.alloc = resource_allocation::type1;
    g.type1_subset = 1;
    g.type1_bitmap = 0x7u << 8;
    EXPECT_EQ(prbs_of(g, make_cell(25)).slot[0], (std::vector<int>{ 2, 3, 6 }));
    g.type1_shift = true;
    g.type1_bitmap = (1u << 10) | 1u;
    EXPECT_EQ(prbs_of(g, make_cell(25)).slot[0], (std::vector<int>{ 3, 23 }));
    // Subset 0 shifted by 13 - 11 = 2: bit 0 is PRB 4, bit 10 PRB 24.
    g.type1_subset = 0;
    EXPECT_EQ(prbs_of(g, make_cell(25)).slot[0], (std::vector<int>{ 4, 24 }));
    g.type1_subset = 2;
    EXPECT_NE(grant_problem(g, make_cell(25)).find("type1_subset=2"), std::string::npos);
}

TEST(ResourceAllocation, Type2Localized)
{
    pdsch_grant g = one_tb_grant();
    g.alloc = resource_allocation::type2;
    g.rb_start = 20;
    g.rb_len = 5;
    EXPECT_EQ(prbs_of(g, make_cell(25)).slot[1],
              (std::vector<int>{ 20, 21, 22, 23, 24 }));
    g.rb_len = 6;
    EXPECT_NE(grant_problem(g, make_cell(25)).find("rb_len=6"), std::string::npos);
}

// Table 6.2.3.2-1 and N_VRB^DL.
TEST(DistributedVrbs, GapsAndCounts)
{
    EXPECT_EQ(vrb_gap(6, 1), 3);
    EXPECT_EQ(vrb_gap(15, 1), 8);
    EXPECT_EQ(vrb_gap(25, 1), 12);
    EXPECT_EQ(vrb_gap(50, 1), 27);
    EXPECT_EQ(vrb_gap(75, 1), 32);
    EXPECT_EQ(vrb_gap(100, 1), 48);
    EXPECT_EQ(vrb_gap(25, 2), 0);
    EXPECT_EQ(vrb_gap(50, 2), 9);
    EXPECT_EQ(vrb_gap(100, 2), 16);
    EXPECT_EQ(distributed_vrb_count(25, 1), 24); // 2 min(12, 13)
    EXPECT_EQ(distributed_vrb_count(50, 1), 46); // 2 min(27, 23)
    EXPECT_EQ(distributed_vrb_count(6, 1), 6);
    EXPECT_EQ(distributed_vrb_count(50, 2), 36); // floor(50 / 18) 18
    EXPECT_EQ(distributed_vrb_count(100, 2), 96);
}

/*
 * 25 PRB, gap 1: N~_VRB = 24, P = 2, N_row = ceil(24 / 8) 2 = 6, no nulls.
 * Written row by row into 4 columns (row r: 4r .. 4r+3) and read column by
 * column, VRB v lands at (v mod 4) 6 + floor(v / 4): VRBs 0, 1, 2, 3, 4 at
 * 0, 6, 12, 18, 1. Even slot: those below 12 stay, the rest move up by
 * N_gap - 12 = 0. Odd slot: shifted by 12 mod 24.
 */
TEST(DistributedVrbs, TwentyFivePrbWorkedByHand)
{
    const int even[5] = { 0, 6, 12, 18, 1 }, odd[5] = { 12, 18, 0, 6, 13 };
    for (int v = 0; v < 5; v++) {
        EXPECT_EQ(distributed_vrb_to_prb(v, 0, 25, 1), even[v]) << v;
        EXPECT_EQ(distributed_vrb_to_prb(v, 1, 25, 1), odd[v]) << v;
    }
    EXPECT_EQ(distributed_vrb_to_prb(23, 0, 25, 1), 23); // column 3, row 5: 18 + 5
    EXPECT_THROW(distributed_vrb_to_prb(24, 0, 25, 1), std::invalid_argument);
    // A grant of VRBs 0..3: PRBs {0, 6, 12, 18} in both slots, in another order.
    pdsch_grant g = one_tb_grant();
    g.alloc = resource_allocation::type2;
    g.distributed = true;
    g.rb_start = 0;
    g.rb_len = 4;
    const auto a = prbs_of(g, make_cell(25));
    EXPECT_EQ(a.slot[0], (std::vector<int>{ 0, 6, 12, 18 }));
    EXPECT_EQ(a.slot[1], (std::vector<int>{ 0, 6, 12, 18 }));
}

/*
 * 50 PRB, gap 1: N_gap = 27, N~_VRB = 46, P = 3, N_row = ceil(46 / 12) 3 =
 * 12, N_null = 2: the last row holds VRB 44 (column 0) and 45 (column 2),
 * columns 1 and 3 are 11 long. Read out: column 0 at 0..11 (VRB 44 at 11),
 * column 1 at 12..22, column 2 at 23..34 (VRB 45 at 34), column 3 at 35..45.
 * Positions from 23 up move by N_gap - 23 = 4; the odd slot adds 23 mod 46.
 *   VRB 1: 12 -> PRB 12; odd (12 + 23) = 35 -> 39.
 *   VRB 3: 35 -> 39;     odd 58 mod 46 = 12 -> 12.
 *   VRB 44: 11 -> 11;    odd 34 -> 38.
 *   VRB 45: 34 -> 38;    odd 57 mod 46 = 11 -> 11.
 */
TEST(DistributedVrbs, FiftyPrbWithNullsWorkedByHand)
{
    const int v[4] = { 1, 3, 44, 45 }, even[4] = { 12, 39, 11, 38 },
              odd[4] = { 39, 12, 38, 11 };
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(distributed_vrb_to_prb(v[i], 0, 50, 1), even[i]) << v[i];
        EXPECT_EQ(distributed_vrb_to_prb(v[i], 1, 50, 1), odd[i]) << v[i];
    }
}

/*
 * 50 PRB, gap 2: N_gap = 9, blocks of N~_VRB = 18, N_row = ceil(18 / 12) 3
 * = 6, N_null = 6: rows 3..5 hold VRBs 12/13, 14/15, 16/17 in columns 0 and
 * 2. Column 0 reads 0 4 8 12 14 16, column 1: 1 5 9, column 2: 2 6 10 13 15
 * 17, column 3: 3 7 11. VRB 13 at 12: even PRB 12 (12 + 9 - 9), odd (12 + 9)
 * mod 18 = 3. VRB 18 is block 1's VRB 0: even 18, odd 9 + 18 = 27.
 */
TEST(DistributedVrbs, FiftyPrbGapTwoWorkedByHand)
{
    EXPECT_EQ(distributed_vrb_to_prb(13, 0, 50, 2), 12);
    EXPECT_EQ(distributed_vrb_to_prb(13, 1, 50, 2), 3);
    EXPECT_EQ(distributed_vrb_to_prb(5, 0, 50, 2), 7);
    EXPECT_EQ(distributed_vrb_to_prb(18, 0, 50, 2), 18);
    EXPECT_EQ(distributed_vrb_to_prb(18, 1, 50, 2), 27);
}

// Every VRB of every bandwidth and gap lands on its own PRB in each slot.
TEST(DistributedVrbs, OneToOneInEachSlot)
{
    for (int n : standard_n_prb)
        for (int gap = 1; gap <= 2; gap++) {
            const int nv = distributed_vrb_count(n, gap);
            for (int s = 0; s < 2; s++) {
                std::vector<int> seen(size_t(n), 0);
                for (int v = 0; v < nv; v++) {
                    const int p = distributed_vrb_to_prb(v, s, n, gap);
                    ASSERT_GE(p, 0);
                    ASSERT_LT(p, n);
                    EXPECT_EQ(seen[size_t(p)]++, 0)
                        << n << " gap " << gap << " slot " << s << " vrb " << v;
                }
            }
        }
}

// Hand counts: 6 PRB, 1 port, CFI 1 (2 control symbols), subframe 1: 12
// symbols, 3 of them (4, 7, 11) with port 0's CRS (2 per PRB): 6 (12 x 12 -
// 3 x 2) = 828. Subframe 0 loses all 72 subcarriers of symbols 5, 6 and
// 7..10, symbol 7's CRS already out: 828 - 6 (12 + 12 + 10 + 12 + 12 + 12) =
// 408.
TEST(PdschRes, CountsByHand)
{
    prb_allocation all;
    for (int n = 0; n < 6; n++)
        all.slot[0].push_back(n), all.slot[1].push_back(n);
    const cell c = make_cell(6, 1, 0);
    EXPECT_EQ(pdsch_re_count(c, 1, 1, all), 828);
    EXPECT_EQ(pdsch_re_count(c, 0, 1, all), 408);
    // 25 PRB: PRB 9 (k 108..119) has k 114..119 inside the central 72
    // (114..185): in subframe 5 its symbols 5 and 6 keep 6 REs each.
    prb_allocation p9;
    p9.slot[0] = p9.slot[1] = { 9 };
    const cell c25 = make_cell(25, 2, 0);
    EXPECT_EQ(pdsch_re_count(c25, 1, 2, p9) - pdsch_re_count(c25, 5, 2, p9), 12);
    // Mapping order: k first, then l, from the first symbol after the
    // control region.
    const auto re = pdsch_re_indices(c25, 1, 2, p9);
    EXPECT_EQ(re[0], 2 * 300 + 108);
    EXPECT_EQ(re[1], 2 * 300 + 109);
    EXPECT_THROW(pdsch_re_count(c25, 1, 4, p9), std::invalid_argument);
}

// nof_re of every PDSCH the generator sent, over bandwidths, CFIs, ports,
// cell IDs (CRS shifts), allocation modes and SI, against the truth.
TEST(PdschRes, CountsEqualTheTruth)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    int n = 0, ok = 0;
    for (int prb : standard_n_prb)
        for (int cfi = 1; cfi <= 3; cfi++) {
            const int tm = 1 + (prb + cfi) % 2;
            const std::string args = "-p " + std::to_string(prb) + " -f " +
                                     std::to_string(cfi) + " -x " + std::to_string(tm) +
                                     " -U 3 -B -n 6 -P " +
                                     std::to_string((prb + cfi) % 4) + " -c " +
                                     std::to_string((prb * 7 + cfi * 5) % 504);
            const auto cap =
                test::generate_lte_capture(args, test::lte_rx_setup::ports_summed);
            for (const auto& t : cap.truth) {
                const cell c =
                    make_cell(prb, t.at("ports").get<int>(), t.at("cell_id").get<int>());
                for (const auto& p : t.at("pdsch_list")) {
                    const pdsch_grant g = grant_of_truth(p, c.ports);
                    const auto a = prbs_of(g, c);
                    EXPECT_EQ(a.slot[0], p.at("prbs").get<std::vector<int>>()) << args;
                    const int got = pdsch_re_count(
                        c, t.at("sf_idx").get<int>(), t.at("cfi").get<int>(), a);
                    n++;
                    ok += got == p.at("nof_re").get<int>();
                    EXPECT_EQ(got, p.at("nof_re").get<int>())
                        << args << " sf " << t.at("sf").get<int>();
                }
            }
        }
    std::printf("nof_re equal to the truth for %d of %d PDSCHs\n", ok, n);
    EXPECT_GT(n, 200);
}

// Table 6.3.4.2.3-1 and the CDD precoders: unit power per layer, the
// entries as the table writes them.
TEST(Precoding, CodebookAndCdd)
{
    cf p[4];
    ASSERT_TRUE(codebook_2port(1, 2, p));
    EXPECT_NEAR(std::abs(p[1] - cf(0, inv_sqrt2)), 0.0f, 1e-6f);
    ASSERT_TRUE(codebook_2port(2, 2, p)); // 1/2 [1 1; j -j]
    EXPECT_NEAR(std::abs(p[2] - cf(0, 0.5f)), 0.0f, 1e-6f);
    EXPECT_NEAR(std::abs(p[3] - cf(0, -0.5f)), 0.0f, 1e-6f);
    EXPECT_FALSE(codebook_2port(2, 3, p));
    EXPECT_FALSE(codebook_2port(1, 4, p));
    // W D(1) U = 1/sqrt2 I diag(1, -1) 1/sqrt2 [1 1; 1 -1] = 1/2 [1 1; -1 1].
    large_delay_cdd_2port(1, p);
    EXPECT_FLOAT_EQ(p[2].real(), -0.5f);
    EXPECT_FLOAT_EQ(p[3].real(), 0.5f);
    large_delay_cdd_2port(2, p);
    EXPECT_FLOAT_EQ(p[2].real(), 0.5f);
}

// SFBC of §6.3.4.3 written out for one pair and a random 2x2 channel:
// the combiner gives back both symbols.
TEST(Precoding, SfbcPairRoundTrip)
{
    std::mt19937 rng(5);
    std::normal_distribution<float> n01(0.0f, 1.0f);
    cf h[4], y[2][2];
    for (auto& v : h)
        v = cf(n01(rng), n01(rng));
    const cf x0(0.7f, -0.7f), x1(-0.7f, -0.7f);
    const float g = 1.0f; // each port's symbol at unit amplitude (P_A = 0 dB)
    for (int r = 0; r < 2; r++) {
        // RE a: ports (x0, -x1*); RE b: (x1, x0*).
        y[0][r] = h[r * 2] * x0 * g - h[r * 2 + 1] * std::conj(x1) * g;
        y[1][r] = h[r * 2] * x1 * g + h[r * 2 + 1] * std::conj(x0) * g;
    }
    cf z0, z1;
    float n0[2];
    sfbc_2port_combine(y[0], y[1], h, h, 2, 2, 0, 1, g, 0.01f, &z0, &z1, n0);
    EXPECT_NEAR(std::abs(z0 - x0), 0.0f, 1e-5f);
    EXPECT_NEAR(std::abs(z1 - x1), 0.0f, 1e-5f);
    EXPECT_GT(n0[0], 0.0f);
}

/*
 * 4-port transmit diversity (no generator sends it): a subframe built by
 * hand from 36.211 §6.3.3.3 and §6.3.4.3's matrix: d(4i+k) on layer k; RE
 * 4i: port 0 x0, port 2 -x1*; 4i+1: port 0 x1, port 2 x0*; 4i+2: port 1
 * x2, port 3 -x3*; 4i+3: port 1 x3, port 3 x2*; each active port at
 * amplitude sqrt(2) (rho_A = P_A + 3 dB, P_A = 0 dB). One antenna, a
 * different channel per port and RE pair: the LLRs' signs give back the bits.
 */
TEST(PdschReceiver, FourPortTransmitDiversityByHand)
{
    const cell c = make_cell(6, 4, 5);
    pdsch_grant g = one_tb_grant();
    g.rbg_bitmask = 0x3f;
    g.scheme = pdsch_scheme::transmit_diversity;
    g.n_layers = 4;
    subframe_grid grid;
    grid.resize(1, 14, 72);
    grid.time.subframe = 3;
    channel_estimate ch;
    ch.resize(1, 4, 14, 72);
    ch.noise_var = 0.01f;
    std::mt19937 rng(9);
    std::normal_distribution<float> n01(0.0f, 0.7f);
    for (auto& v : ch.h)
        v = cf(n01(rng), n01(rng));
    const auto re = pdsch_re_indices(c, 3, 1, prbs_of(g, c));
    ASSERT_EQ(re.size() % 4, 0u);
    std::vector<uint8_t> bits(re.size() * 2);
    for (auto& b : bits)
        b = uint8_t(rng() & 1u);
    const size_t plane = 14 * 72;
    auto h = [&](int p, size_t e) -> cf& {
        return ch.h[size_t(p) * plane + size_t(re[e])];
    };
    // The channel differs from RE to RE but not within a pair (where
    // Alamouti combining is exact).
    for (size_t i = 0; i < re.size(); i += 2)
        for (int p = 0; p < 4; p++)
            h(p, i + 1) = h(p, i);
    auto d = [&](size_t m) {
        return cf(core::qam::map_bits(core::qam::modulation::qpsk, &bits[2 * m]));
    };
    const float a = std::sqrt(2.0f);
    for (size_t i = 0; i < re.size(); i += 4) {
        const cf x0 = d(i), x1 = d(i + 1), x2 = d(i + 2), x3 = d(i + 3);
        grid.re[size_t(re[i])] = a * (h(0, i) * x0 - h(2, i) * std::conj(x1));
        grid.re[size_t(re[i + 1])] = a * (h(0, i + 1) * x1 + h(2, i + 1) * std::conj(x0));
        grid.re[size_t(re[i + 2])] = a * (h(1, i + 2) * x2 - h(3, i + 2) * std::conj(x3));
        grid.re[size_t(re[i + 3])] = a * (h(1, i + 3) * x3 + h(3, i + 3) * std::conj(x2));
    }
    pdsch_receiver rx;
    pdsch_llrs out;
    ASSERT_EQ(rx.receive(c, 1, g, grid, ch, out), "");
    ASSERT_EQ(out.g[0], int(bits.size()));
    EXPECT_EQ(out.nl[0], 2);
    int wrong = 0;
    for (size_t k = 0; k < bits.size(); k++)
        wrong += (out.llr[0][k] > 0.0f) != (bits[k] == 1);
    EXPECT_EQ(wrong, 0);
}

// Grants and inputs that cannot be received are reported; LLRs stay
// finite whatever the grid holds.
TEST(PdschReceiver, ReportsMalformedInput)
{
    const cell c = make_cell(6, 2, 3);
    subframe_grid grid;
    grid.resize(1, 14, 72);
    grid.time.subframe = 1;
    channel_estimate ch;
    ch.resize(1, 2, 14, 72);
    pdsch_receiver rx;
    pdsch_llrs out;
    pdsch_grant g = one_tb_grant();
    g.rbg_bitmask = 0x3f;
    g.scheme = pdsch_scheme::transmit_diversity;
    g.n_layers = 2;
    EXPECT_EQ(rx.receive(c, 2, g, grid, ch, out), ""); // zero channel: LLRs 0
    for (float v : out.llr[0])
        ASSERT_EQ(v, 0.0f);
    grid.re[100] = cf(NAN, 0.0f);
    for (auto& v : ch.h)
        v = 1.0f;
    EXPECT_EQ(rx.receive(c, 2, g, grid, ch, out), "");
    for (float v : out.llr[0])
        ASSERT_TRUE(std::isfinite(v));
    EXPECT_NE(rx.receive(c, 4, g, grid, ch, out).find("cfi=4"), std::string::npos);
    EXPECT_TRUE(out.llr[0].empty());
    g.scheme = pdsch_scheme::large_delay_cdd;
    g.tb[1] = g.tb[0];
    EXPECT_NE(rx.receive(c, 2, g, grid, ch, out).find("receive antennas"),
              std::string::npos);
    g.rbg_bitmask = 0x40;
    EXPECT_NE(rx.receive(c, 2, g, grid, ch, out).find("rbg_bitmask"), std::string::npos);
    ch.noise_var = NAN;
    g.rbg_bitmask = 1;
    EXPECT_NE(rx.receive(c, 2, g, grid, ch, out).find("noise_var"), std::string::npos);
    grid.resize(1, 14, 60);
    EXPECT_NE(rx.receive(c, 2, g, grid, ch, out).find("grid"), std::string::npos);
    pdsch_rx_options o;
    o.min_noise_var = 0.0f;
    EXPECT_THROW(pdsch_receiver{ o }, std::invalid_argument);
}

// DCI format 2's precoding information (36.212 Table 5.3.3.1.5-4).
TEST(PdschGrant, Dci2Precoding)
{
    pdsch_grant g;
    ASSERT_TRUE(dci2_precoding(1, 0, g));
    EXPECT_EQ(g.scheme, pdsch_scheme::transmit_diversity);
    ASSERT_TRUE(dci2_precoding(1, 3, g));
    EXPECT_EQ(g.n_layers, 1);
    EXPECT_EQ(g.codebook_index, 2);
    ASSERT_TRUE(dci2_precoding(2, 1, g));
    EXPECT_EQ(g.n_layers, 2);
    EXPECT_EQ(g.codebook_index, 2);
    EXPECT_FALSE(dci2_precoding(2, 2, g));
    EXPECT_FALSE(dci2_precoding(1, 5, g));
}

} // namespace
