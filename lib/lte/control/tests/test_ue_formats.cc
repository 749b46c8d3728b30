/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The DCI formats searched per transmission mode (36.213 Table 7.1-5, the
// C-RNTI rows: each mode's UE-specific space carries 1A and the mode's own
// format), and a format 1B PDCCH that only the mode tells apart from
// format 1: at 25 PRB with 2 ports both have 27 bits, so the blind decoder
// reads it as 1B with TM6 and as 1 when the mode is unknown.
#include "lte/coding/lte_cc.h"
#include "lte/coding/lte_crc16.h"
#include "lte/control/control_layout.h"
#include "lte/control/dci_sizes.h"
#include "lte/control/pdcch_blind.h"
#include "lte/control/search_space.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

using namespace gr::gpurx::core::lte;

TEST(UeFormats, Table7_1_5ByHand)
{
    using f = dci_format;
    const std::vector<f> expect[8] = {
        { f::f1a, f::f1, f::f2a, f::f2 }, // 0: unknown, the common modes' formats
        { f::f1a, f::f1 },                // TM1: single-antenna port
        { f::f1a, f::f1 },                // TM2: transmit diversity
        { f::f1a, f::f2a },               // TM3: large-delay CDD
        { f::f1a, f::f2 },                // TM4: closed-loop spatial multiplexing
        { f::f1a, f::f1d },               // TM5: multi-user MIMO
        { f::f1a, f::f1b },               // TM6: closed-loop rank 1
        { f::f1a, f::f1 },                // TM7: port 5
    };
    for (int tm = 0; tm <= 7; tm++)
        EXPECT_EQ(ue_formats_of_tm(tm), expect[tm]) << "tm " << tm;
    for (int tm : { -1, 8, 9 }) {
        try {
            ue_formats_of_tm(tm);
            FAIL() << "no throw for tm " << tm;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("tm=" + std::to_string(tm)), std::string::npos) << e.what();
        }
    }
}

TEST(UeFormats, Format1bIsReceivedWhenTheModeSaysSo)
{
    cell c;
    c.n_prb = 25;
    c.cell_id = 12;
    c.ports = 2;
    const dci_sizes sizes = dci_payload_sizes(c);
    ASSERT_EQ(sizes.of(dci_format::f1b), sizes.of(dci_format::f1)) << "the case this test is about";
    const int size = sizes.of(dci_format::f1b);
    const control_layout lay = make_control_layout(c, 2);
    const uint16_t rnti = 0x3a7f;
    const int subframe = 4;
    const auto space = ue_search_space(lay.n_cce, rnti, subframe);
    pdcch_candidate cand{};
    bool have = false;
    for (const auto& k : space)
        if (k.agg == 2 && !have) {
            cand = k;
            have = true;
        }
    ASSERT_TRUE(have);
    // Payload: type-2 localized RIV of 3 PRBs at 5 (36.213 §7.1.6.3), MCS
    // 10, HARQ 3, NDI 1, rv 0, TPC 1, TPMI 2, PMI confirmation 0; the
    // remaining bits 0.
    std::vector<uint8_t> bits;
    auto put = [&](int v, int n) {
        for (int i = n - 1; i >= 0; i--)
            bits.push_back(uint8_t((v >> i) & 1));
    };
    put(0, 1);                          // localized
    put(25 * (3 - 1) + 5, riv_bits(25)); // RIV: L_CRBs 3, RB_start 5
    put(10, 5);
    put(3, 3);
    put(1, 1);
    put(0, 2);
    put(1, 2);
    put(2, 2);
    put(0, 1);
    while (int(bits.size()) < size)
        bits.push_back(0);
    ASSERT_EQ(int(bits.size()), size);
    bits.resize(size_t(size + 16));
    attach_crc16(bits.data(), size, pdcch_crc_mask(rnti));
    const std::vector<uint8_t> e = cc_rate_match(cc_encode(bits), 72 * cand.agg);
    std::vector<float> llr(size_t(72 * lay.n_cce), 0.0f);
    std::mt19937 rng(4);
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (auto& v : llr)
        v = 0.5f * n(rng); // the other CCEs: noise
    for (size_t i = 0; i < e.size(); i++)
        llr[size_t(72 * cand.ncce) + i] = e[i] ? 6.0f : -6.0f;

    for (int tm : { 6, 0 }) {
        blind_config cfg;
        cfg.c_rntis = { rnti };
        cfg.common_space = false;
        cfg.ue_formats = ue_formats_of_tm(tm);
        pdcch_blind_decoder dec;
        const auto found = dec.decode(lay, llr.data(), subframe, cfg);
        ASSERT_EQ(found.size(), 1u) << "tm " << tm;
        EXPECT_EQ(found[0].rnti, rnti);
        EXPECT_EQ(found[0].ncce, cand.ncce);
        EXPECT_EQ(found[0].agg, 2);
        EXPECT_EQ(found[0].format, tm == 6 ? dci_format::f1b : dci_format::f1) << "tm " << tm;
        if (tm == 6) {
            EXPECT_EQ(found[0].tb[0].mcs, 10);
            EXPECT_EQ(found[0].harq_pid, 3);
            EXPECT_EQ(found[0].precoding, 2);
            EXPECT_EQ(found[0].pmi_confirmation, 0);
            EXPECT_EQ(found[0].rb_start, 5);
            EXPECT_EQ(found[0].rb_len, 3);
        }
    }
}
