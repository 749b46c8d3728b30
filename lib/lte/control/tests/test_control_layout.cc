/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The control region's REGs, PHICH and CCE counts against 36.211 worked by
// hand, and PCFICH against the generator's CFI.
#include "lte/common/crs_positions.h"
#include "lte/common/tests/lte_capture.h"
#include "lte/control/control_layout.h"
#include "lte/control/pcfich.h"
#include "lte/control/tests/test_ofdm.h"

#include <gtest/gtest.h>

#include <set>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

namespace {
cell make_cell(int n_prb, int cell_id, int ports)
{
    cell c;
    c.n_prb = n_prb;
    c.cell_id = cell_id;
    c.ports = ports;
    return c;
}
} // namespace

TEST(ControlLayout, PhichGroupsFromNg)
{
    // 36.211 §6.9: ceil(Ng N_RB / 8).
    cell c = make_cell(25, 0, 1);
    c.ng = phich_ng::one;
    EXPECT_EQ(phich_groups(c), 4);
    c.ng = phich_ng::one_sixth;
    EXPECT_EQ(phich_groups(c), 1);
    c.ng = phich_ng::half;
    EXPECT_EQ(phich_groups(c), 2);
    c.ng = phich_ng::two;
    EXPECT_EQ(phich_groups(c), 7);
    c.n_prb = 100;
    EXPECT_EQ(phich_groups(c), 25);
    c.n_prb = 6;
    c.ng = phich_ng::one;
    EXPECT_EQ(phich_groups(c), 1);
    c.cp = cyclic_prefix::extended;
    EXPECT_EQ(phich_groups(c), 2);
    EXPECT_EQ(phich_mapping_units(c), 1);
}

TEST(ControlLayout, RegAndCceCountsByHand)
{
    // 25 PRB, 1 port, Ng = 1, CFI 2: symbol 0 has 2 REGs per PRB (50),
    // symbol 1 three (75); minus PCFICH's 4 and 4 PHICH groups' 12: 109
    // REGs, 12 CCEs.
    const auto a = make_control_layout(make_cell(25, 0, 1), 2);
    EXPECT_EQ(a.n_reg(), 125);
    EXPECT_EQ(a.n_pdcch_reg(), 109);
    EXPECT_EQ(a.n_cce, 12);
    // 6 PRB, CFI 1 -> 2 symbols: 12 + 18 - 4 - 3 = 23 REGs, 2 CCEs.
    const auto b = make_control_layout(make_cell(6, 1, 2), 1);
    EXPECT_EQ(b.n_symbols, 2);
    EXPECT_EQ(b.n_pdcch_reg(), 23);
    EXPECT_EQ(b.n_cce, 2);
    // 100 PRB, 4 ports, CFI 3: 200 + 200 + 300 - 4 - 3*13 = 657 REGs, 73 CCEs.
    const auto d = make_control_layout(make_cell(100, 7, 4), 3);
    EXPECT_EQ(d.n_pdcch_reg(), 657);
    EXPECT_EQ(d.n_cce, 73);
}

TEST(ControlLayout, RegsSkipReferenceSignalsAndCoverTheRegion)
{
    for (int ports : { 1, 2, 4 })
        for (int id : { 0, 1, 2, 5 }) {
            cell c = make_cell(15, id, ports);
            const auto lay = make_control_layout(c, 3);
            std::set<std::pair<int, int>> seen;
            for (int r = 0; r < lay.n_reg(); r++)
                for (int i = 0; i < 4; i++) {
                    const int l = lay.reg_l[size_t(r)], k = lay.reg_k[size_t(4 * r + i)];
                    EXPECT_TRUE(seen.insert({ l, k }).second);
                    // With one port the REs of port 1 are skipped too (§6.2.4).
                    cell c2 = c;
                    c2.ports = std::max(2, ports);
                    EXPECT_FALSE(is_crs_re(c2, l, k)) << l << " " << k;
                }
            // Every RE of the region that is not a reference signal is in a REG.
            cell c2 = c;
            c2.ports = std::max(2, ports);
            int free = 0;
            for (int l = 0; l < 3; l++)
                for (int k = 0; k < c.n_sc(); k++)
                    free += !is_crs_re(c2, l, k);
            EXPECT_EQ(int(seen.size()), free);
            // The permutation is one-to-one onto the PDCCH REGs.
            std::set<int> regs(lay.reg_of_quad.begin(), lay.reg_of_quad.end());
            EXPECT_EQ(regs, std::set<int>(lay.pdcch_reg.begin(), lay.pdcch_reg.end()));
        }
}

TEST(ControlLayout, PcfichRegsByHand)
{
    // §6.7.4 with N_RB = 25, N_ID = 7: k_bar = 6 (7 mod 50) = 42, then
    // + floor(i 25 / 2) 6 = 0, 72, 150, 222 -> subcarriers 42, 114, 192, 264.
    const auto re = pcfich_res(make_cell(25, 7, 1));
    const int k0[4] = { 42, 114, 192, 264 };
    for (int i = 0; i < 4; i++) {
        // 4 data REs of the 6 (k = 1 mod 3 is v_shift for N_ID = 7).
        EXPECT_EQ(re[size_t(4 * i)], k0[i] + (k0[i] % 3 == 1 ? 1 : 0)) << i;
        EXPECT_LT(re[size_t(4 * i + 3)], k0[i] + 6);
    }
}

TEST(ControlLayout, CfiCodewordsAndCorrelation)
{
    for (int cfi = 1; cfi <= 3; cfi++) {
        const auto w = cfi_codeword(cfi);
        float llr[32];
        for (int i = 0; i < 32; i++)
            llr[i] = w[size_t(i)] ? 3.0f : -3.0f;
        llr[5] = -llr[5]; // one wrong bit
        const auto r = cfi_from_llrs(llr);
        EXPECT_EQ(r.cfi, cfi);
        EXPECT_NEAR(r.correlation, 30.0f / 32.0f, 1e-6);
        EXPECT_GT(r.margin, 0.5f);
    }
    float zero[32] = {};
    EXPECT_EQ(cfi_from_llrs(zero).cfi, 0);
    EXPECT_THROW(cfi_codeword(4), std::invalid_argument);
    EXPECT_THROW(make_control_layout(make_cell(25, 0, 1), 0), std::invalid_argument);
}

TEST(Pcfich, CfiOfGeneratorCaptures)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    struct cfg {
        int n_prb, ports, cfi, cell_id;
    };
    for (const cfg& k : { cfg{ 6, 1, 1, 3 }, cfg{ 6, 2, 3, 4 }, cfg{ 25, 1, 1, 7 }, cfg{ 25, 2, 2, 1 },
                          cfg{ 100, 1, 3, 301 }, cfg{ 50, 2, 3, 17 } }) {
        const std::string args = "-p " + std::to_string(k.n_prb) + " -a " + std::to_string(k.ports) + " -x " +
                                 (k.ports == 1 ? "1" : "2") + " -f " + std::to_string(k.cfi) + " -c " +
                                 std::to_string(k.cell_id) + " -n 10 -m 5";
        const auto cap = generate_lte_capture(args, k.ports == 1 ? lte_rx_setup::port_files : lte_rx_setup::ports_summed);
        const cell c = make_cell(k.n_prb, k.cell_id, k.ports);
        for (int sf = 0; sf < 10; sf++) {
            ASSERT_EQ(int(cap.truth[size_t(sf)]["cfi"]), k.cfi);
            const auto g = demodulate_subframe(cap.rx, k.n_prb, sf);
            const auto h = ideal_channel(1, k.ports, c.n_sc());
            const auto r = decode_pcfich(c, g, h);
            EXPECT_EQ(r.cfi, k.cfi) << args << " sf " << sf;
            EXPECT_GT(r.correlation, 0.99f) << args << " sf " << sf;
        }
    }
}
