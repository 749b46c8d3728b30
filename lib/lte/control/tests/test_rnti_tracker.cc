/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Finding every UE without knowing the RNTIs: against the generator's
// truth (every DCI found, no other RNTI believed), and on noise alone (how
// many RNTIs a receiver would wrongly believe).
#include "lte/common/tests/lte_capture.h"
#include "lte/control/pcfich.h"
#include "lte/control/pdcch.h"
#include "lte/control/rnti_tracker.h"
#include "lte/control/tests/test_ofdm.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

namespace {

struct tracker_tally {
    int truth = 0, found = 0, extra = 0;
};

tracker_tally track_capture(const std::string& args, lte_rx_setup setup, rnti_tracker& tracker,
                            std::set<uint16_t>& truth_rntis)
{
    tracker_tally t;
    const auto cap = generate_lte_capture(args, setup);
    cell c;
    c.n_prb = cap.truth[0]["nof_prb"];
    c.cell_id = cap.truth[0]["cell_id"];
    c.ports = cap.truth[0]["ports"];
    const auto h = ideal_channel(1, c.ports, c.n_sc(), 0.1f);
    for (size_t sf = 0; sf < cap.truth.size(); sf++) {
        const auto g = demodulate_subframe(cap.rx, c.n_prb, int(sf));
        const auto cfi = decode_pcfich(c, g, h);
        EXPECT_GT(cfi.cfi, 0) << args << " sf " << sf;
        if (cfi.cfi == 0)
            continue;
        const auto lay = make_control_layout(c, cfi.cfi);
        const auto llr = pdcch_cce_llrs(lay, g, h);
        const auto found = tracker.process(lay, llr.data(), g.time.subframe);
        const auto& list = cap.truth[sf]["pdsch_list"];
        std::vector<bool> used(found.size(), false);
        for (const auto& p : list) {
            t.truth++;
            truth_rntis.insert(uint16_t(int(p["rnti"])));
            for (size_t i = 0; i < found.size(); i++) {
                const auto& m = found[i].msg;
                if (m.rnti == int(p["rnti"]) && m.ncce == int(p["ncce"]) && m.agg == int(p["agg"]) &&
                    m.bits == hex_bits(p["dci_hex"], p["dci_bits"]) &&
                    std::string(dci_format_name(m.format)) == p["dci_format"].get<std::string>()) {
                    t.found++;
                    used[i] = true;
                }
            }
        }
        for (size_t i = 0; i < found.size(); i++)
            if (!used[i]) {
                t.extra++;
                ADD_FAILURE() << args << " sf " << sf << ": DCI not in the truth, rnti " << found[i].msg.rnti
                              << " CCE " << found[i].msg.ncce << " agg " << found[i].msg.agg << " correlation "
                              << found[i].correlation;
            }
    }
    std::printf("[ tracker  ] %s: %d of %d DCIs found without their RNTIs, %d not in the truth\n", args.c_str(),
                t.found, t.truth, t.extra);
    return t;
}

} // namespace

TEST(RntiTracker, FindsEveryUeOfNoiselessCaptures)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    struct cfg {
        std::string args;
        lte_rx_setup setup;
    };
    for (const cfg& k : { cfg{ "-p 25 -x 1 -f 2 -c 7 -U 4 -P 1 -m r -B -L 1 -n 20", lte_rx_setup::port_files },
                          cfg{ "-p 50 -a 2 -x 3 -f 3 -c 9 -r 3a7f,4601,1234 -m r -L 2 -n 12", lte_rx_setup::ports_summed },
                          cfg{ "-p 6 -x 1 -f 3 -c 2 -r 0bad -L 4 -n 8", lte_rx_setup::port_files } }) {
        rnti_tracker tracker;
        std::set<uint16_t> truth_rntis;
        const auto t = track_capture(k.args, k.setup, tracker, truth_rntis);
        EXPECT_GT(t.truth, 0) << k.args;
        EXPECT_EQ(t.found, t.truth) << k.args;
        EXPECT_EQ(t.extra, 0) << k.args;
        // Every UE's RNTI active, and no other C-RNTI ever seen.
        truth_rntis.erase(si_rnti);
        const auto active = tracker.active_rntis();
        EXPECT_EQ(std::set<uint16_t>(active.begin(), active.end()), truth_rntis) << k.args;
        const auto seen = tracker.seen_rntis();
        EXPECT_EQ(std::set<uint16_t>(seen.begin(), seen.end()), truth_rntis) << k.args;
    }
}

TEST(RntiTracker, NoisyCaptureFindsNothingFalse)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    // 12 dB per-RE SNR: the noise variance the estimator would report.
    rnti_tracker tracker;
    std::set<uint16_t> truth_rntis;
    const std::string args = "-p 25 -x 1 -f 3 -c 3 -U 4 -P 1 -m r -L 2 -N 12 -n 10";
    const auto cap_t = track_capture(args, lte_rx_setup::port_files, tracker, truth_rntis);
    EXPECT_EQ(cap_t.extra, 0);
    EXPECT_GE(cap_t.found, cap_t.truth * 9 / 10);
}

TEST(RntiTracker, FalseRntisOnNoiseAlone)
{
    // Gaussian soft bits (what the demapper gives on noise) for every CCE
    // of a 25-PRB, CFI-3 region, through the whole blind search: count the
    // DCIs that pass every check and the RNTIs that become active.
    cell c;
    c.n_prb = 25;
    c.cell_id = 1;
    const auto lay = make_control_layout(c, 3);
    rnti_tracker tracker;
    std::mt19937 rng(7);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> llr(size_t(72 * lay.n_cce));
    const int subframes = 300;
    int believed = 0;
    for (int sf = 0; sf < subframes; sf++) {
        for (auto& v : llr)
            v = 3.0f * noise(rng);
        for (const auto& d : tracker.process(lay, llr.data(), sf % 10))
            believed += !is_broadcast_rnti(d.msg.rnti);
    }
    const auto seen = tracker.seen_rntis();
    std::printf("[ noise    ] %d subframes of %d CCEs (%zu positions, 4 sizes each): %d DCIs passed the checks, "
                "%zu RNTIs seen, %zu active\n",
                subframes, lay.n_cce, all_pdcch_positions(lay.n_cce).size(), believed, seen.size(),
                tracker.active_rntis().size());
    EXPECT_LE(believed, 3);
    EXPECT_TRUE(tracker.active_rntis().empty());
}
