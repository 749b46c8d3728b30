/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PDCCH against the generator: every DCI of the truth found at its CCEs
// with its format, aggregation, payload bits and fields, nothing else, and
// the CFI from PCFICH; over bandwidths, ports, CFIs, aggregations, formats
// 1, 1A, 2, 2A, several UEs and SI.
#include "lte/common/tests/lte_capture.h"
#include "lte/control/control_layout.h"
#include "lte/control/control_region.h"
#include "lte/control/dci.h"
#include "lte/control/pcfich.h"
#include "lte/control/pdcch.h"
#include "lte/control/pdcch_blind.h"
#include "lte/control/tests/test_ofdm.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

namespace {

//! Modulation order of a PDSCH MCS (36.213 Table 7.1.7.1-1).
int qm_of_mcs(int mcs) { return mcs <= 9 ? 2 : mcs <= 16 ? 4 : 6; }

struct capture_case {
    std::string args; //!< lte_dl_gen options (cell, traffic)
    int n_ues;        //!< C-RNTIs 0x1234 ..
    int tm;           //!< 1..4: which format the UE space holds
};

struct tally {
    int dcis = 0, matched = 0, tbs = 0, subframes = 0, common = 0;
};

//! Compares one found DCI with the truth's PDSCH entry.
void expect_fields(const dci_message& m, const nlohmann::json& p, const std::string& where)
{
    EXPECT_TRUE(m.valid) << where << ": " << m.error;
    const int alloc = p["alloc_type"];
    EXPECT_EQ(m.ra_type, alloc) << where;
    std::vector<int> prbs = p["prbs"].get<std::vector<int>>();
    if (alloc == 0) {
        EXPECT_EQ(m.rbg_bitmap, uint32_t(p["rbg_bitmask"])) << where;
        EXPECT_EQ(m.rbs, prbs) << where;
    } else if (alloc == 2) {
        EXPECT_EQ(m.rb_start, int(p["rb_start"])) << where;
        EXPECT_EQ(m.rb_len, int(p["rb_len"])) << where;
        if (!m.distributed) {
            EXPECT_EQ(m.rbs, prbs) << where;
        }
    }
    if (int(p["rnti"]) == 0xFFFF) {
        EXPECT_EQ(m.tbs_index, int(p["mcs"])) << where;
        EXPECT_EQ(m.n_prb_1a, int(p["n_prb1a"])) << where;
        return;
    }
    const std::string fmt = p["dci_format"];
    if (fmt == "2" || fmt == "2A") {
        EXPECT_EQ(m.layers, int(p["nof_layers"])) << where;
        EXPECT_EQ(m.tx_diversity, p["tx_scheme"] == "div") << where;
        if (fmt == "2" && !m.tx_diversity) {
            EXPECT_EQ(m.tpmi, int(p["pmi"])) << where;
        }
    }
    // The enabled TBs in codeword order (the swap flag exchanges them).
    std::vector<int> tb_of_cw;
    for (int t = 0; t < m.n_tb; t++)
        if (m.tb[t].enabled)
            tb_of_cw.push_back(t);
    if (tb_of_cw.size() == 2 && m.swap)
        std::swap(tb_of_cw[0], tb_of_cw[1]);
    ASSERT_EQ(int(tb_of_cw.size()), int(p["nof_tb"])) << where;
    for (const auto& t : p["tb"]) {
        const dci_tb& d = m.tb[tb_of_cw[size_t(int(t["cw"]))]];
        EXPECT_EQ(d.mcs, int(t["mcs"])) << where;
        EXPECT_EQ(d.rv, int(t["rv"])) << where;
        EXPECT_EQ(d.ndi, int(t["ndi"])) << where;
        EXPECT_EQ(m.harq_pid, int(t["pid"])) << where;
        EXPECT_EQ(qm_of_mcs(d.mcs), int(t["qm"])) << where;
    }
}


tally run_case(const capture_case& cc, lte_rx_setup setup)
{
    tally t;
    const auto cap = generate_lte_capture(cc.args, setup);
    const auto& t0 = cap.truth.at(0);
    cell c;
    c.n_prb = t0["nof_prb"];
    c.cell_id = t0["cell_id"];
    c.ports = t0["ports"];
    blind_config cfg;
    for (int u = 0; u < cc.n_ues; u++)
        cfg.c_rntis.push_back(uint16_t(0x1234 + u));
    cfg.ue_formats = ue_formats_of_tm(cc.tm);
    pdcch_blind_decoder dec;
    const auto h = ideal_channel(1, c.ports, c.n_sc());
    for (size_t sf = 0; sf < cap.truth.size(); sf++) {
        const auto& truth = cap.truth[sf];
        const std::string where = cc.args + " sf " + std::to_string(sf);
        const auto g = demodulate_subframe(cap.rx, c.n_prb, int(sf));
        const control_region_result region = decode_control_region(c, g, h, dec, cfg);
        EXPECT_EQ(region.pcfich.cfi, int(truth["cfi"])) << where;
        EXPECT_TRUE(region.ok) << where << ": " << region.reason;
        if (!region.ok)
            continue;
        const auto& found = region.dcis;
        t.subframes++;
        const auto& list = truth["pdsch_list"];
        EXPECT_EQ(found.size(), list.size()) << where;
        for (const auto& p : list) {
            t.dcis++;
            t.common += p["search_space"] == "common";
            const dci_message* m = nullptr;
            for (const auto& f : found)
                if (f.rnti == int(p["rnti"]) && f.ncce == int(p["ncce"]))
                    m = &f;
            if (!m) {
                ADD_FAILURE() << where << ": DCI of rnti " << int(p["rnti"]) << " at CCE " << int(p["ncce"])
                              << " not found";
                continue;
            }
            EXPECT_EQ(std::string(dci_format_name(m->format)), p["dci_format"].get<std::string>()) << where;
            EXPECT_EQ(m->agg, int(p["agg"])) << where;
            EXPECT_EQ(m->common_space, p["search_space"] == "common") << where;
            const int nb = p["dci_bits"];
            EXPECT_EQ(m->bits, hex_bits(p["dci_hex"], nb)) << where;
            expect_fields(*m, p, where);
            if (!::testing::Test::HasFailure()) {
                t.matched++;
                t.tbs += int(p["nof_tb"]);
            }
        }
    }
    std::printf("[ capture  ] %s: %d subframes, %d of %d DCIs matched (%d in the common space, %d TBs)\n",
                cc.args.c_str(), t.subframes, t.matched, t.dcis, t.common, t.tbs);
    return t;
}

void run_cases(const std::vector<capture_case>& cases, lte_rx_setup setup)
{
    for (const auto& cc : cases) {
        const tally t = run_case(cc, setup);
        EXPECT_GT(t.dcis, 0) << cc.args;
        EXPECT_EQ(t.matched, t.dcis) << cc.args;
    }
}

} // namespace

TEST(Pdcch, OnePortFormats1And1A)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    run_cases({ { "-p 6 -x 1 -f 1 -c 3 -m 5 -n 10", 1, 1 },
                { "-p 25 -x 1 -f 2 -c 7 -U 4 -P 1 -m r -B -L 1 -n 20", 4, 1 },
                { "-p 25 -x 1 -f 3 -c 11 -U 3 -P 2 -L 2 -n 10", 3, 1 },
                { "-p 100 -x 1 -f 3 -c 301 -U 4 -P 3 -m r -B -L 8 -n 16", 4, 1 },
                { "-p 15 -x 1 -f 3 -c 40 -U 2 -P 0 -L 4 -B -n 14", 2, 1 } },
              lte_rx_setup::port_files);
}

TEST(Pdcch, TwoPortsFormats1_2A_2)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    run_cases({ { "-p 6 -a 2 -x 2 -f 3 -c 4 -L 2 -n 10", 1, 2 },
                { "-p 25 -a 2 -x 3 -f 3 -c 1 -U 2 -L 4 -m r -n 10", 2, 3 },
                { "-p 50 -a 2 -x 4 -f 2 -c 17 -U 3 -m r -L 2 -B -n 14", 3, 4 },
                { "-p 100 -a 2 -x 3 -f 1 -c 222 -U 4 -P 1 -m r -B -L 1 -n 14", 4, 3 },
                { "-p 50 -a 2 -x 2 -f 2 -c 5 -U 2 -P 2 -B -L 1 -n 14", 2, 2 } },
              lte_rx_setup::ports_summed);
}

TEST(Pdcch, OneCodewordPrecodingHarqAndNoise)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    // TM4 with one layer (TPMI 2) and with two (pinfo 1), TM3 with one TB
    // (transmit diversity), HARQ retransmissions (rv 0, 2, 3, 1), and a
    // noisy capture (15 dB per RE, aggregation 2).
    run_cases({ { "-p 25 -a 2 -x 4 -w 1 -I 2 -c 8 -U 2 -n 8", 2, 4 },
                { "-p 25 -a 2 -x 4 -I 1 -c 9 -n 6", 1, 4 },
                { "-p 15 -a 2 -x 3 -w 1 -c 10 -n 6", 1, 3 },
                { "-p 50 -a 2 -x 2 -k -U 2 -m r -c 12 -n 12", 2, 2 },
                { "-p 25 -a 2 -x 3 -k -U 2 -m r -c 13 -n 12", 2, 3 } },
              lte_rx_setup::ports_summed);
    run_cases({ { "-p 50 -x 1 -U 3 -P 1 -m r -L 2 -N 15 -c 14 -n 12", 3, 1 } }, lte_rx_setup::port_files);
}
