/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// DCI formats 2 and 2A as PDSCH grants: the transport block to codeword
// mapping of 36.212 §5.3.3.1.5 (Tables 5.3.3.1.5-1 and -2). Payloads are
// built bit by bit from the format's field list; the expected codeword of
// each TB, its MCS, modulation and TBS come from the 3GPP tables. Then
// whole PDSCHs of lte_dl_gen captures, their DCIs rewritten to say "swap":
// the same transmission described with the TBs exchanged must decode to
// the same payloads, each under its own TB index.
#include "lte/control/dci.h"
#include "lte/pdsch/tests/pdsch_test_truth.h"
#include "lte/receiver/grant_of_dci.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace gr::gpurx;
using namespace gr::gpurx::core::lte;

namespace {

cell cell25x2()
{
    cell c;
    c.n_prb = 25;
    c.cell_id = 7;
    c.ports = 2;
    return c;
}

void put(std::vector<uint8_t>& b, uint32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--)
        b.push_back(uint8_t((v >> i) & 1));
}

struct tb_fields {
    int mcs, ndi, rv;
};

/*
 * Format 2A, 25 PRBs, 2 ports, FDD (36.212 §5.3.3.1.5A): resource
 * allocation header 1 (N_RB > 10), RBG bitmap ceil(25 / P=2) = 13, TPC 2,
 * HARQ process 3, swap flag 1, TB 1 (MCS 5, NDI 1, RV 2), TB 2 (the same),
 * precoding information 0 (2 ports): 36 bits, not an ambiguous size.
 * RBGs 0..3 (PRBs 0..7, 8 PRBs), HARQ process 3.
 */
std::vector<uint8_t> format2a(bool swap, tb_fields t1, tb_fields t2)
{
    std::vector<uint8_t> b;
    put(b, 0, 1);                 // type 0
    put(b, 0x1E00, 13);           // 1111000000000: RBGs 0..3
    put(b, 0, 2);                 // TPC
    put(b, 3, 3);                 // HARQ process 3
    put(b, swap ? 1 : 0, 1);
    for (const auto& t : { t1, t2 }) {
        put(b, uint32_t(t.mcs), 5);
        put(b, uint32_t(t.ndi), 1);
        put(b, uint32_t(t.rv), 2);
    }
    return b;
}

pdsch_grant grant_of(const std::vector<uint8_t>& bits, std::string* why = nullptr)
{
    const cell c = cell25x2();
    EXPECT_EQ(dci_payload_sizes(c).of(dci_format::f2a), 36);
    const dci_message m = parse_dci(c, dci_format::f2a, bits.data(), int(bits.size()), 0x1234);
    pdsch_grant g;
    const std::string w = grant_of_dci(c, m, g);
    if (why)
        *why = w;
    else
        EXPECT_EQ(w, "");
    return g;
}

// TB 1: MCS 16 (Table 7.1.7.1-1: 16QAM, I_TBS 15), NDI 1, RV 0; TB 2: MCS 9
// (QPSK, I_TBS 9), NDI 0, RV 2. Two codewords of one layer each, 8 PRBs:
// Table 7.1.7.2.1-1 gives 2472 (I_TBS 15) and 1256 (I_TBS 9).
const tb_fields tb1{ 16, 1, 0 }, tb2{ 9, 0, 2 };

void expect_tb(const pdsch_tb& t, int tb_index, const tb_fields& f, int qm, int tbs, const std::string& what)
{
    EXPECT_TRUE(t.enabled) << what;
    EXPECT_EQ(t.tb_index, tb_index) << what;
    EXPECT_EQ(t.mcs, f.mcs) << what;
    EXPECT_EQ(t.ndi, f.ndi) << what;
    EXPECT_EQ(t.rv, f.rv) << what;
    EXPECT_EQ(t.qm, qm) << what;
    EXPECT_EQ(t.tbs, tbs) << what;
    EXPECT_EQ(t.harq_process, 3) << what;
}

} // namespace

// Table 5.3.3.1.5-1, both TBs enabled: swap 0 puts TB 1 on codeword 0 and
// TB 2 on codeword 1; swap 1 the other way round.
TEST(GrantOfDci, SwapFlagWithBothTbsEnabled)
{
    const pdsch_grant g0 = grant_of(format2a(false, tb1, tb2));
    EXPECT_EQ(g0.scheme, pdsch_scheme::large_delay_cdd);
    EXPECT_EQ(g0.n_layers, 2);
    expect_tb(g0.tb[0], 0, tb1, 4, 2472, "swap 0, codeword 0");
    expect_tb(g0.tb[1], 1, tb2, 2, 1256, "swap 0, codeword 1");

    const pdsch_grant g1 = grant_of(format2a(true, tb1, tb2));
    EXPECT_EQ(g1.scheme, pdsch_scheme::large_delay_cdd);
    EXPECT_EQ(g1.n_layers, 2);
    expect_tb(g1.tb[0], 1, tb2, 2, 1256, "swap 1, codeword 0");
    expect_tb(g1.tb[1], 0, tb1, 4, 2472, "swap 1, codeword 1");
}

// Table 5.3.3.1.5-2: a TB is disabled by MCS 0 with RV 1 (36.213
// §7.1.7.2); the other is on codeword 0 whatever the (reserved) swap flag
// says. One codeword in 2A is transmit diversity (36.213 §7.1.3), so the
// TBS is read for one layer: 8 PRBs give 2472 and 1256 again.
TEST(GrantOfDci, OneTbDisabledGoesOnCodewordZero)
{
    const tb_fields off{ 0, 0, 1 };
    for (bool swap : { false, true }) {
        const std::string s = swap ? "swap 1" : "swap 0";
        const pdsch_grant a = grant_of(format2a(swap, off, tb2));
        EXPECT_EQ(a.scheme, pdsch_scheme::transmit_diversity) << s;
        EXPECT_EQ(a.n_codewords(), 1) << s;
        expect_tb(a.tb[0], 1, tb2, 2, 1256, s + ", TB 1 disabled");
        EXPECT_FALSE(a.tb[1].enabled) << s;

        const pdsch_grant b = grant_of(format2a(swap, tb1, off));
        EXPECT_EQ(b.n_codewords(), 1) << s;
        expect_tb(b.tb[0], 0, tb1, 4, 2472, s + ", TB 2 disabled");
        EXPECT_FALSE(b.tb[1].enabled) << s;
    }
    std::string why;
    grant_of(format2a(true, off, off), &why);
    EXPECT_NE(why, "");
}

namespace {

/*
 * Whole captures: each PDSCH's DCI (the truth's payload, sent with swap 0)
 * rewritten as the same transmission with swap 1: the TB fields exchanged
 * (what was TB 1 on codeword 0 is now TB 2, still on codeword 0). Field
 * positions at 25 PRBs (formats 2 and 2A alike): swap flag at bit 19
 * (1 + 13 + 2 + 3), TB 1 at 20..27, TB 2 at 28..35. Every payload must
 * still decode: each codeword's TB with the codeword's scrambling (q) and
 * its own MCS, the TB index the exchanged one.
 */
void expect_swapped_capture(const std::string& args, int* checked)
{
    using namespace gr::gpurx::test;
    auto grant_fn = [checked](const nlohmann::json& p, const cell& c) {
        const std::string fmt = p.at("dci_format").get<std::string>();
        EXPECT_TRUE(fmt == "2" || fmt == "2A") << fmt;
        const int n = p.at("dci_bits").get<int>();
        std::vector<uint8_t> b = hex_bits(p.at("dci_hex").get<std::string>(), n);
        EXPECT_EQ(b[19], 0) << "the generator sent swap 1";
        b[19] = 1;
        for (int i = 0; i < 8; i++)
            std::swap(b[size_t(20 + i)], b[size_t(28 + i)]);
        const dci_message m =
            parse_dci(c, fmt == "2" ? dci_format::f2 : dci_format::f2a, b.data(), n, uint16_t(p.at("rnti").get<int>()));
        EXPECT_TRUE(m.swap);
        pdsch_grant g;
        EXPECT_EQ(grant_of_dci(c, m, g), "");
        if (g.n_codewords() == 2) {
            // Codeword 0 carries TB 2, codeword 1 TB 1.
            EXPECT_EQ(g.tb[0].tb_index, 1);
            EXPECT_EQ(g.tb[1].tb_index, 0);
            EXPECT_EQ(g.tb[0].mcs, p.at("tb").at(0).at("mcs").get<int>());
            EXPECT_EQ(g.tb[1].mcs, p.at("tb").at(1).at("mcs").get<int>());
            (*checked)++;
        }
        return g;
    };
    const capture_tally t = receive_capture(args, lte_rx_setup::channel_2x2, {}, grant_fn);
    std::printf("[ %s, swapped ] %s\n", args.c_str(), t.summary().c_str());
    EXPECT_GT(t.tbs, 0) << args;
    EXPECT_EQ(t.payload_ok, t.tbs) << args << ": " << t.summary();
}

} // namespace

TEST(GrantOfDci, SwappedDciDecodesCapturesTm3AndTm4)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    int checked = 0;
    // Different MCS per TB (16QAM and QPSK; 64QAM and 16QAM), so a TB read
    // from the other codeword would not even have its G.
    expect_swapped_capture("-p 25 -x 3 -m 16 -M 9 -n 6 -c 21 -s 3", &checked);
    expect_swapped_capture("-p 25 -x 4 -w 2 -I 1 -m 22 -M 12 -n 6 -c 31 -s 4", &checked);
    EXPECT_GT(checked, 6);
}

namespace {

//! 36.213 §7.1.6.3: the RIV of \p len contiguous VRBs from \p start over n.
int riv_of(int start, int len, int n) { return len - 1 <= n / 2 ? n * (len - 1) + start : n * (n - len + 1) + (n - 1 - start); }

/*
 * Formats 1B and 1D at 25 PRBs, 2 ports (36.212 §5.3.3.1.3A, §5.3.3.1.4A):
 * localized/distributed 1, RIV 9 (ceil(log2(25 x 26 / 2))), MCS 5, HARQ 3,
 * NDI 1, RV 2, TPC 2, TPMI 2, then PMI confirmation (1B) or downlink power
 * offset (1D) 1: 26 bits, an ambiguous size, so 27.
 */
std::vector<uint8_t> format1b1d(int start, int len, int mcs, int pid, int ndi, int rv, int tpmi, int last)
{
    std::vector<uint8_t> b;
    put(b, 0, 1); // localized
    put(b, uint32_t(riv_of(start, len, 25)), 9);
    put(b, uint32_t(mcs), 5);
    put(b, uint32_t(pid), 3);
    put(b, uint32_t(ndi), 1);
    put(b, uint32_t(rv), 2);
    put(b, 0, 2);
    put(b, uint32_t(tpmi), 2);
    put(b, uint32_t(last), 1);
    b.push_back(0);
    return b;
}

} // namespace

// 36.213 §7.1.4/§7.1.5: one layer precoded with codebook index = TPMI; 1B
// with PMI confirmation 1 (the UE's report) and 1D at -3 dB are refused.
TEST(GrantOfDci, Formats1B1DOneLayerWithTheTpmi)
{
    const cell c = cell25x2();
    ASSERT_EQ(dci_payload_sizes(c).of(dci_format::f1b), 27);
    ASSERT_EQ(dci_payload_sizes(c).of(dci_format::f1d), 27);
    for (dci_format f : { dci_format::f1b, dci_format::f1d })
        for (int tpmi = 0; tpmi < 4; tpmi++) {
            // VRBs 3..12 (10 PRBs), MCS 9 (QPSK, I_TBS 9): Table 7.1.7.2.1-1 gives 1544.
            const int ok_last = f == dci_format::f1b ? 0 : 1;
            const auto b = format1b1d(3, 10, 9, 5, 1, 2, tpmi, ok_last);
            const dci_message m = parse_dci(c, f, b.data(), int(b.size()), 0x2222);
            ASSERT_TRUE(m.valid) << m.error;
            pdsch_grant g;
            ASSERT_EQ(grant_of_dci(c, m, g), "");
            EXPECT_EQ(g.scheme, pdsch_scheme::spatial_multiplexing);
            EXPECT_EQ(g.n_layers, 1);
            EXPECT_EQ(g.codebook_index, tpmi);
            EXPECT_EQ(g.alloc, resource_allocation::type2);
            EXPECT_EQ(g.rb_start, 3);
            EXPECT_EQ(g.rb_len, 10);
            EXPECT_EQ(g.n_codewords(), 1);
            EXPECT_EQ(g.tb[0].tb_index, 0);
            EXPECT_EQ(g.tb[0].qm, 2);
            EXPECT_EQ(g.tb[0].tbs, 1544);
            EXPECT_EQ(g.tb[0].harq_process, 5);
            EXPECT_EQ(g.tb[0].rv, 2);

            const auto bad = format1b1d(3, 10, 9, 5, 1, 2, tpmi, 1 - ok_last);
            const dci_message mb = parse_dci(c, f, bad.data(), int(bad.size()), 0x2222);
            EXPECT_NE(grant_of_dci(c, mb, g), "");
        }
    // One port: no precoding to receive.
    cell one = c;
    one.ports = 1;
    dci_message m;
    m.format = dci_format::f1b;
    pdsch_grant g;
    EXPECT_NE(grant_of_dci(one, m, g), "");
}

// A one-UE TM4 rank-1 capture (DCI 2, one codeword, TPMI i, all RBGs: PRBs
// 0..24) described instead as format 1B (PMI confirmation 0) and 1D (power
// offset 0 dB, as the generator sends P_A = 0 dB): the same precoded PDSCH,
// every payload decoded.
TEST(GrantOfDci, Formats1B1DDecodeTm4RankOneCaptures)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    using namespace gr::gpurx::test;
    for (dci_format f : { dci_format::f1b, dci_format::f1d })
        for (int tpmi = 0; tpmi < 4; tpmi++) {
            int built = 0;
            auto grant_fn = [&](const nlohmann::json& p, const cell& c) {
                EXPECT_EQ(p.at("rbg_bitmask").get<uint32_t>(), 0x1FFFu);
                const auto& t = p.at("tb").at(0);
                const auto b = format1b1d(0, 25, t.at("mcs").get<int>(), t.at("pid").get<int>(), t.at("ndi").get<int>(),
                                          t.at("rv").get<int>(), tpmi, f == dci_format::f1b ? 0 : 1);
                const dci_message m = parse_dci(c, f, b.data(), int(b.size()), uint16_t(p.at("rnti").get<int>()));
                pdsch_grant g;
                EXPECT_EQ(grant_of_dci(c, m, g), "");
                EXPECT_EQ(g.tb[0].tbs, t.at("tbs").get<int>());
                built++;
                return g;
            };
            const std::string args = "-p 25 -x 4 -w 1 -I " + std::to_string(tpmi) + " -m 16 -n 5 -c 33 -s " +
                                     std::to_string(tpmi + 1);
            const capture_tally t = receive_capture(args, lte_rx_setup::channel_2x2, {}, grant_fn);
            std::printf("[ %s as %s ] %s\n", args.c_str(), dci_format_name(f), t.summary().c_str());
            EXPECT_GT(t.tbs, 0) << args;
            EXPECT_EQ(t.payload_ok, t.tbs) << args << ": " << t.summary();
            EXPECT_EQ(built, t.pdschs);
        }
}
