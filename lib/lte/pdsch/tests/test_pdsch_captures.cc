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

void expect_all(const std::string& args, lte_rx_setup setup, const core::lte::pdsch_rx_options& opt = {})
{
    const capture_tally t = receive_capture(args, setup, opt);
    std::printf("[ %s ] %s\n", args.c_str(), t.summary().c_str());
    EXPECT_GT(t.tbs, 0) << args;
    EXPECT_EQ(t.payload_ok, t.tbs) << args << ": " << t.summary();
    EXPECT_EQ(t.nof_re_ok, t.pdschs) << args;
    EXPECT_EQ(t.g_ok, t.pdschs) << args;
}

TEST(PdschCaptures, Tm1)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    expect_all("-p 25 -x 1 -m 9 -n 20 -c 7", lte_rx_setup::port_files);
}

} // namespace

// Exploration: PDSCH_ARGS="..." PDSCH_SETUP=o|S|R runs one capture.
TEST(PdschCaptures, FromEnvironment)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const char* a = std::getenv("PDSCH_ARGS");
    if (!a)
        GTEST_SKIP() << "PDSCH_ARGS not set";
    const char* s = std::getenv("PDSCH_SETUP");
    const lte_rx_setup setup = !s || s[0] == 'o' ? lte_rx_setup::port_files
                               : s[0] == 'S'     ? lte_rx_setup::ports_summed
                                                 : lte_rx_setup::channel_2x2;
    expect_all(a, setup);
}
