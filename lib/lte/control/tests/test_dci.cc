/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// DCI sizes, fields and search spaces against 36.212 / 36.213 worked by
// hand: payloads built field by field, the RIV formula run forwards.
#include "lte/control/dci.h"
#include "lte/control/dci_sizes.h"
#include "lte/control/search_space.h"

#include <gtest/gtest.h>

#include <set>

using namespace gr::gpurx::core::lte;

namespace {

cell make_cell(int n_prb, int ports)
{
    cell c;
    c.n_prb = n_prb;
    c.ports = ports;
    return c;
}

//! Builds a payload field by field, MSB first.
struct payload {
    std::vector<uint8_t> bits;
    payload& put(uint32_t v, int n)
    {
        for (int i = n - 1; i >= 0; i--)
            bits.push_back(uint8_t((v >> i) & 1u));
        return *this;
    }
    payload& pad_to(int n)
    {
        bits.resize(size_t(n), 0);
        return *this;
    }
};

} // namespace

TEST(DciSizes, ByHandForTheBandwidths)
{
    // 36.212 §5.3.3.1, FDD. 6 PRB: 1A = 2 + 5 (RIV) + 13 = 20, ambiguous -> 21;
    // 1 = 6 (RBGs of 1) + 13 = 19; 1C = 3 (RIV over 6/2 VRBs) + 5.
    auto s = dci_payload_sizes(make_cell(6, 1));
    EXPECT_EQ(s.of(dci_format::f0), 21);
    EXPECT_EQ(s.of(dci_format::f1a), 21);
    EXPECT_EQ(s.of(dci_format::f1), 19);
    EXPECT_EQ(s.of(dci_format::f1c), 8);
    EXPECT_EQ(s.of(dci_format::f1b), 0);
    // 25 PRB: 1A 2 + 9 + 13 = 24 -> 25; 1 = 1 + 13 + 13 = 27; 1C 7 + 5;
    // 2 ports: 2A = 1 + 13 + 22 = 36, 2 = 39.
    s = dci_payload_sizes(make_cell(25, 2));
    EXPECT_EQ(s.of(dci_format::f1a), 25);
    EXPECT_EQ(s.of(dci_format::f1), 27);
    EXPECT_EQ(s.of(dci_format::f1c), 12);
    EXPECT_EQ(s.of(dci_format::f2a), 36);
    EXPECT_EQ(s.of(dci_format::f2), 39);
    // 1B: 1 + 9 + 5 + 3 + 1 + 2 + 2 + 2 (TPMI) + 1 = 26, ambiguous -> 27.
    EXPECT_EQ(s.of(dci_format::f1b), 27);
    // 50 PRB: 1A 26 -> 27; 1 = 1 + 17 + 13 = 31; 2A 1 + 17 + 22 = 40 -> 41;
    // 2 = 43; 1C: gap + 7 (RIV over 46/4 = 11) + 5 = 13.
    s = dci_payload_sizes(make_cell(50, 2));
    EXPECT_EQ(s.of(dci_format::f1a), 27);
    EXPECT_EQ(s.of(dci_format::f1), 31);
    EXPECT_EQ(s.of(dci_format::f2a), 41);
    EXPECT_EQ(s.of(dci_format::f2), 43);
    EXPECT_EQ(s.of(dci_format::f1c), 13);
    // 100 PRB: 1A 28, 1 39, 2A 48, 2 51, 1C 1 + 9 + 5 = 15; 4 ports: 2A 50, 2 54.
    s = dci_payload_sizes(make_cell(100, 2));
    EXPECT_EQ(s.of(dci_format::f1a), 28);
    EXPECT_EQ(s.of(dci_format::f1), 39);
    EXPECT_EQ(s.of(dci_format::f2a), 48);
    EXPECT_EQ(s.of(dci_format::f2), 51);
    EXPECT_EQ(s.of(dci_format::f1c), 15);
    s = dci_payload_sizes(make_cell(100, 4));
    EXPECT_EQ(s.of(dci_format::f2a), 50);
    EXPECT_EQ(s.of(dci_format::f2), 54);
    // Format 1 pushed off 0/1A's size: 15 PRB: 1 = 1 + 8 + 13 = 22, 1A = 2 + 7 + 13 = 22 -> 23.
    s = dci_payload_sizes(make_cell(15, 1));
    EXPECT_EQ(s.of(dci_format::f1a), 22);
    EXPECT_EQ(s.of(dci_format::f1), 23);
}

TEST(DciFields, RivRoundTripsEveryAllocation)
{
    // 36.213 §7.1.6.3 forwards, then riv_decode back, for every start and length.
    for (int n : { 6, 15, 25, 50, 100 }) {
        std::set<int> seen;
        for (int l = 1; l <= n; l++)
            for (int s = 0; s + l <= n; s++) {
                const int riv = (l - 1) <= n / 2 ? n * (l - 1) + s : n * (n - l + 1) + (n - 1 - s);
                EXPECT_TRUE(seen.insert(riv).second);
                int s2 = -1, l2 = -1;
                ASSERT_TRUE(riv_decode(riv, n, s2, l2)) << n << " " << riv;
                EXPECT_EQ(s2, s);
                EXPECT_EQ(l2, l);
            }
        EXPECT_EQ(int(seen.size()), n * (n + 1) / 2);
        int s = 0, l = 0;
        EXPECT_FALSE(riv_decode(n * (n + 1) / 2, n, s, l));
    }
}

TEST(DciFields, Format1Type1Subsets)
{
    // 25 PRB, P = 2: 11-bit bitmap. Subset 0 holds PRBs 0 1 4 5 ... 24 (13);
    // with the shift the bitmap starts 2 PRBs of the subset later.
    const cell c = make_cell(25, 1);
    payload p;
    p.put(1, 1).put(0, 1).put(1, 1).put(0x401, 11).put(7, 5).put(5, 3).put(1, 1).put(2, 2).put(1, 2);
    auto m = parse_dci(c, dci_format::f1, p.bits.data(), int(p.bits.size()), 0x1234);
    EXPECT_TRUE(m.valid) << m.error;
    EXPECT_EQ(m.ra_type, 1);
    EXPECT_EQ(m.rbs, (std::vector<int>{ 4, 24 }));
    EXPECT_EQ(m.tb[0].mcs, 7);
    EXPECT_EQ(m.harq_pid, 5);
    EXPECT_EQ(m.tb[0].ndi, 1);
    EXPECT_EQ(m.tb[0].rv, 2);
    EXPECT_EQ(m.tpc, 1);
    // Subset 1 (12 PRBs: 2 3 6 7 ... 22 23), no shift: bits 0 and 10 -> PRBs 2 and 22.
    payload q;
    q.put(1, 1).put(1, 1).put(0, 1).put(0x401, 11).put(0, 13);
    m = parse_dci(c, dci_format::f1, q.bits.data(), int(q.bits.size()), 0x1234);
    EXPECT_EQ(m.rbs, (std::vector<int>{ 2, 22 }));
    // 50 PRB, P = 3: subset field 2 bits, subset 3 does not exist.
    const cell c50 = make_cell(50, 1);
    payload r;
    r.put(1, 1).put(3, 2).put(0, 1).put(0xFFFF, 14).pad_to(31);
    m = parse_dci(c50, dci_format::f1, r.bits.data(), 31, 0x1234);
    EXPECT_FALSE(m.valid);
}

TEST(DciFields, Format1aAnd1cAndImpossibleGrants)
{
    const cell c = make_cell(25, 1);
    // 1A, localized RIV 171 = start 3, 20 PRBs; MCS 9, HARQ 6, NDI 0, RV 3, TPC 2.
    payload p;
    p.put(1, 1).put(0, 1).put(171, 9).put(9, 5).put(6, 3).put(0, 1).put(3, 2).put(2, 2).pad_to(25);
    auto m = parse_dci(c, dci_format::f1a, p.bits.data(), 25, 0x1234);
    EXPECT_TRUE(m.valid) << m.error;
    EXPECT_EQ(m.format, dci_format::f1a);
    EXPECT_EQ(m.rb_start, 3);
    EXPECT_EQ(m.rb_len, 20);
    EXPECT_EQ(m.harq_pid, 6);
    EXPECT_EQ(m.tb[0].rv, 3);
    // The same bits for SI-RNTI: TPC LSB 0 -> N_PRB^1A = 2, I_TBS = 9.
    m = parse_dci(c, dci_format::f1a, p.bits.data(), 25, si_rnti);
    EXPECT_EQ(m.n_prb_1a, 2);
    EXPECT_EQ(m.tbs_index, 9);
    // RIV 400 is beyond 25 * 26 / 2.
    payload bad;
    bad.put(1, 1).put(0, 1).put(400, 9).pad_to(25);
    m = parse_dci(c, dci_format::f1a, bad.bits.data(), 25, 0x1234);
    EXPECT_FALSE(m.valid);
    EXPECT_NE(m.error.find("RIV"), std::string::npos);
    // All-ones RB field, localized, C-RNTI: a PDCCH order with preamble 5, mask 2.
    payload order;
    order.put(1, 1).put(0, 1).put(511, 9).put(5, 6).put(2, 4).pad_to(25);
    m = parse_dci(c, dci_format::f1a, order.bits.data(), 25, 0x1234);
    EXPECT_TRUE(m.pdcch_order);
    EXPECT_EQ(m.preamble_index, 5);
    EXPECT_EQ(m.prach_mask, 2);
    // Flag 0: format 0.
    payload f0;
    f0.put(0, 1).put(0, 1).put(171, 9).put(12, 5).put(1, 1).put(1, 2).put(3, 3).put(1, 1).pad_to(25);
    m = parse_dci(c, dci_format::f1a, f0.bits.data(), 25, 0x1234);
    EXPECT_EQ(m.format, dci_format::f0);
    EXPECT_EQ(m.ul_mcs_rv, 12);
    EXPECT_EQ(m.cyclic_shift, 3);
    EXPECT_EQ(m.cqi_request, 1);
    // 1C: N'_VRB = 24 / 2 = 12; RIV 13 = start' 1, length' 2 -> VRBs 2..5.
    payload c1;
    c1.put(13, 7).put(4, 5);
    m = parse_dci(c, dci_format::f1c, c1.bits.data(), 12, si_rnti);
    EXPECT_TRUE(m.valid) << m.error;
    EXPECT_EQ(m.rb_start, 2);
    EXPECT_EQ(m.rb_len, 4);
    EXPECT_EQ(m.tbs_index, 4);
    // Type 0 with no RBG.
    payload empty;
    empty.put(0, 1).put(0, 13).pad_to(27);
    m = parse_dci(c, dci_format::f1, empty.bits.data(), 27, 0x1234);
    EXPECT_FALSE(m.valid);
    // 2A: both TBs MCS 0 with RV 1 are disabled: nothing to send.
    const cell c2 = make_cell(25, 2);
    payload none;
    none.put(0, 1).put(0x1FFF, 13).put(0, 2).put(0, 3).put(0, 1).put(0, 5).put(0, 1).put(1, 2).put(0, 5).put(0, 1).put(1, 2);
    m = parse_dci(c2, dci_format::f2a, none.bits.data(), 36, 0x1234);
    EXPECT_FALSE(m.valid);
    // One disabled: one layer, the other TB's fields.
    payload one;
    one.put(0, 1).put(0x1FFF, 13).put(0, 2).put(4, 3).put(0, 1).put(17, 5).put(1, 1).put(0, 2).put(0, 5).put(0, 1).put(1, 2);
    m = parse_dci(c2, dci_format::f2a, one.bits.data(), 36, 0x1234);
    EXPECT_TRUE(m.valid) << m.error;
    EXPECT_TRUE(m.tb[0].enabled);
    EXPECT_FALSE(m.tb[1].enabled);
    EXPECT_TRUE(m.tx_diversity); // 2A with one TB: transmit diversity over both ports
    EXPECT_EQ(m.layers, 2);
    EXPECT_EQ(m.harq_pid, 4);
    EXPECT_EQ(m.rbs.size(), 25u);
    EXPECT_THROW(parse_dci(c2, dci_format::f2a, one.bits.data(), 35, 0x1234), std::invalid_argument);
}

TEST(SearchSpace, ByHand)
{
    // RNTI 1, subframe 0: Y_0 = 39827 (mod 65537); with 20 CCEs
    // aggregation 1 starts at 39827 mod 20 = 7, aggregation 2 at
    // 2 ((39827 + m) mod 10) = 14, 16, 18, 0, 2, 4.
    EXPECT_EQ(search_space_y(1, 0), 39827u);
    EXPECT_EQ(search_space_y(1, 1), (39827ull * 39827ull) % 65537ull);
    const auto s = ue_search_space(20, 1, 0);
    std::vector<int> agg1, agg2;
    for (const auto& c : s) {
        if (c.agg == 1)
            agg1.push_back(c.ncce);
        if (c.agg == 2)
            agg2.push_back(c.ncce);
        EXPECT_EQ(c.ncce % c.agg, 0);
        EXPECT_LE(c.ncce + c.agg, 20);
    }
    EXPECT_EQ(agg1, (std::vector<int>{ 7, 8, 9, 10, 11, 12 }));
    EXPECT_EQ(agg2, (std::vector<int>{ 14, 16, 18, 0, 2, 4 }));
    // Common: 4 of aggregation 4 and 2 of 8 in CCEs 0..15; fewer CCEs fewer.
    const auto cs = common_search_space(40);
    ASSERT_EQ(cs.size(), 6u);
    EXPECT_EQ(cs[3].ncce, 12);
    EXPECT_EQ(cs[5].ncce, 8);
    EXPECT_EQ(common_search_space(6).size(), 1u);
    EXPECT_EQ(all_pdcch_positions(20).size(), size_t(20 + 10 + 5 + 2));
    EXPECT_THROW(search_space_y(1, 10), std::invalid_argument);
}
