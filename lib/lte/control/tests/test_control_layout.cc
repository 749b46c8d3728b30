/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The control region's REGs, PHICH and CCE counts against 36.211 worked by
// hand, and PCFICH against the generator's CFI.
#include "lte/common/crs_positions.h"
#include "lte/common/tests/lte_capture.h"
#include "lte/control/control_demap.h"
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

TEST(ControlLayout, ExtendedPhichDurationSpansThreeSymbols)
{
    // §6.9.3: with the extended duration mapping unit m's REG i is in symbol i.
    cell c = make_cell(50, 10, 2);
    c.phich_extended = true;
    const auto lay = make_control_layout(c, 3);
    ASSERT_EQ(int(lay.phich_reg.size()), 3 * phich_groups(c));
    for (size_t i = 0; i < lay.phich_reg.size(); i++)
        EXPECT_EQ(lay.reg_l[size_t(lay.phich_reg[i])], int(i % 3));
    EXPECT_THROW(make_control_layout(c, 2), std::invalid_argument);
}

TEST(ControlDemap, FourPortTransmitDiversity)
{
    // 36.211 §6.3.4.3 with 4 ports, written out: a quadruplet's symbols
    // x0..x3 go out as port 0: x0, x1, 0, 0; port 2: -x1*, x0*, 0, 0;
    // port 1: 0, 0, x2, x3; port 3: 0, 0, -x3*, x2* (all / sqrt 2). Two
    // antennas, a random flat channel per port: the LLRs' signs are the bits.
    const int n_sc = 72;
    subframe_grid g;
    g.resize(2, 14, n_sc);
    channel_estimate h;
    h.resize(2, 4, 14, n_sc);
    h.noise_var = 0.01f;
    uint32_t state = 12345;
    auto rnd = [&]() {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24) - 0.5f;
    };
    cf hc[2][4];
    for (auto& a : hc)
        for (auto& p : a)
            p = cf(rnd(), rnd()) * 2.0f;
    const int n_quads = 6;
    std::vector<int32_t> re;
    std::vector<uint8_t> bits;
    const float r2 = 1.0f / std::sqrt(2.0f);
    for (int q = 0; q < n_quads; q++) {
        cf x[4];
        for (int i = 0; i < 4; i++) {
            const uint8_t b0 = rnd() > 0, b1 = rnd() > 0;
            bits.push_back(b0);
            bits.push_back(b1);
            x[i] = cf(b0 ? -r2 : r2, b1 ? -r2 : r2);
        }
        const cf y[4][4] = { { x[0], x[1], 0.0f, 0.0f },
                             { 0.0f, 0.0f, x[2], x[3] },
                             { -std::conj(x[1]), std::conj(x[0]), 0.0f, 0.0f },
                             { 0.0f, 0.0f, -std::conj(x[3]), std::conj(x[2]) } };
        for (int i = 0; i < 4; i++) {
            const int k = 4 * q + i, l = 1;
            re.push_back(l * n_sc + k);
            for (int a = 0; a < 2; a++) {
                cf s(0.0f, 0.0f);
                for (int p = 0; p < 4; p++) {
                    s += hc[a][p] * y[p][i] * r2;
                    h.at(a, p, l, k) = hc[a][p];
                }
                g.at(a, l, k) = s;
            }
        }
    }
    std::vector<float> llr(size_t(8 * n_quads));
    demap_control_quadruplets(g, h, 4, re.data(), n_quads, llr.data());
    for (size_t i = 0; i < llr.size(); i++)
        EXPECT_EQ(llr[i] > 0, bits[i] == 1) << i;
    re[0] = 14 * n_sc;
    EXPECT_THROW(demap_control_quadruplets(g, h, 4, re.data(), n_quads, llr.data()), std::invalid_argument);
}
