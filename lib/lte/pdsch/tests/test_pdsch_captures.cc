/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Whole PDSCHs of lte_dl_gen captures: every TB decoded from the LLRs must
// equal the truth's payload, and every RE count and G the truth's.
#include "pdsch_test_truth.h"

#include <gtest/gtest.h>

using namespace gr::gpurx;
using namespace gr::gpurx::test;

namespace {

capture_tally expect_all(const std::string& args,
                         lte_rx_setup setup,
                         const core::lte::pdsch_rx_options& opt = {})
{
    const capture_tally t = receive_capture(args, setup, opt);
    std::printf("[ %s ] %s\n", args.c_str(), t.summary().c_str());
    EXPECT_GT(t.tbs, 0) << args;
    EXPECT_EQ(t.payload_ok, t.tbs) << args << ": " << t.summary();
    EXPECT_EQ(t.nof_re_ok, t.pdschs) << args;
    EXPECT_EQ(t.g_ok, t.pdschs) << args;
    return t;
}

// TM1 over every bandwidth, CFI 1..3 (a 6-PRB cell's control region is
// one symbol longer), subframes 0 and 5 with PBCH and PSS/SSS.
TEST(PdschCaptures, SinglePortEveryBandwidth)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 6 -x 1 -m 9 -f 1 -n 10 -c 1", lte_rx_setup::port_files);
    expect_all("-p 15 -x 1 -m 16 -f 3 -n 10 -c 2", lte_rx_setup::port_files);
    expect_all("-p 25 -x 1 -m 9 -f 2 -n 20 -c 7", lte_rx_setup::port_files);
    expect_all("-p 50 -x 1 -m 16 -f 1 -n 6 -c 301", lte_rx_setup::port_files);
    expect_all("-p 75 -x 1 -m 9 -f 2 -n 6 -c 44", lte_rx_setup::port_files);
    expect_all("-p 100 -x 1 -m 16 -f 3 -n 6 -c 503", lte_rx_setup::port_files);
}

// The MCS table's ends: QPSK at the lowest rate, 64-QAM at the highest.
TEST(PdschCaptures, SinglePortMcs0And28)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 25 -x 1 -m 0 -n 10 -c 3", lte_rx_setup::port_files);
    expect_all("-p 15 -x 1 -m 28 -f 1 -n 10 -c 5", lte_rx_setup::port_files);
}

// SFBC: one antenna seeing both ports (h = [1 1]), and each port on its own
// antenna.
TEST(PdschCaptures, TransmitDiversity)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 15 -x 2 -m 16 -f 3 -n 10 -c 11", lte_rx_setup::ports_summed);
    expect_all("-p 75 -x 2 -m 28 -f 1 -n 6 -c 12", lte_rx_setup::port_files);
    expect_all("-p 6 -x 2 -m 0 -f 2 -n 10 -c 13", lte_rx_setup::channel_2x2);
}

// Large-delay CDD, two codewords, through the 2x2 channel; one codeword
// falls back to transmit diversity.
TEST(PdschCaptures, LargeDelayCdd)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 50 -x 3 -m 16 -f 2 -n 6 -c 21", lte_rx_setup::channel_2x2);
    expect_all("-p 25 -x 3 -m 28 -M 9 -f 1 -n 10 -c 22 -s 3", lte_rx_setup::channel_2x2);
    expect_all("-p 15 -x 3 -w 1 -m 16 -n 10 -c 23", lte_rx_setup::channel_2x2);
}

// Closed-loop spatial multiplexing: both two-layer precoders, and every
// one-layer precoder.
TEST(PdschCaptures, SpatialMultiplexing)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 25 -x 4 -w 2 -I 0 -m 16 -n 10 -c 31", lte_rx_setup::channel_2x2);
    expect_all("-p 100 -x 4 -w 2 -I 1 -m 27 -f 1 -n 4 -c 32 -s 5",
               lte_rx_setup::channel_2x2);
    for (int i = 0; i < 4; i++)
        expect_all("-p 15 -x 4 -w 1 -I " + std::to_string(i) + " -m 16 -n 5 -c 33 -s " +
                       std::to_string(7 + i),
                   lte_rx_setup::channel_2x2);
}

// Several UEs with type-0 (equal and random RBG parts) and type-2 (DCI 1A)
// allocations, SI traffic (DCI 1A, SI-RNTI) in the common search space.
TEST(PdschCaptures, SeveralUesAndSystemInformation)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    EXPECT_GE(
        expect_all("-p 25 -x 1 -U 3 -P 0 -B -m 16 -n 20 -c 41", lte_rx_setup::port_files)
            .si_ok,
        2);
    EXPECT_GE(
        expect_all("-p 50 -x 2 -U 3 -P 1 -B -m r -n 12 -c 42", lte_rx_setup::ports_summed)
            .si_ok,
        1);
    expect_all("-p 15 -x 4 -w 2 -U 3 -P 2 -B -m 16 -n 12 -c 43",
               lte_rx_setup::channel_2x2);
    expect_all("-p 75 -x 3 -U 3 -P 3 -B -m r -n 8 -c 44", lte_rx_setup::channel_2x2);
    expect_all("-p 6 -x 1 -U 2 -P 3 -B -m 9 -n 20 -c 45", lte_rx_setup::port_files);
}

// 20 dB per-RE SNR, the noise variance known to the receiver.
TEST(PdschCaptures, WithNoise)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 25 -x 1 -m 16 -N 20 -n 10 -c 51", lte_rx_setup::port_files);
    expect_all("-p 25 -x 2 -m 16 -N 20 -n 10 -c 52", lte_rx_setup::ports_summed);
    expect_all("-p 25 -x 3 -m 16 -N 20 -n 10 -c 53", lte_rx_setup::channel_2x2);
    expect_all("-p 25 -x 4 -w 1 -I 1 -m 16 -N 20 -n 10 -c 54", lte_rx_setup::channel_2x2);
}

// The other detectors of lib/mimo on the two-layer schemes.
TEST(PdschCaptures, EveryMimoDetector)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    core::lte::pdsch_rx_options o;
    o.algorithm = core::mimo::algorithm::ml;
    expect_all("-p 15 -x 3 -m 16 -N 20 -n 4 -c 61", lte_rx_setup::channel_2x2, o);
    o.algorithm = core::mimo::algorithm::kbest;
    expect_all("-p 15 -x 4 -w 2 -I 1 -m 22 -n 4 -c 62", lte_rx_setup::channel_2x2, o);
    o.algorithm = core::mimo::algorithm::mtt;
    expect_all("-p 15 -x 3 -m 9 -N 20 -n 4 -c 63", lte_rx_setup::channel_2x2, o);
    o.algorithm = core::mimo::algorithm::one_pass;
    expect_all("-p 15 -x 4 -w 2 -I 0 -m 16 -n 4 -c 64", lte_rx_setup::channel_2x2, o);
}

} // namespace
