/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The receiver's transport-block layer on both backends: TBs encoded by the
// project's DL-SCH encoder (36.212, tested against its own vectors), sent
// through noise, decoded with the HARQ real traffic needs: the buffer of
// (cell, rnti, process, TB index), duplicates, MCS 29-31, UE categories.
#include "lte/dlsch/dlsch_decoder.h"
#include "sch/sch_encoder.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <random>

using namespace gr::gpurx::core;
using namespace gr::gpurx::core::lte;

namespace {

struct sender {
    std::mt19937 rng{ 7 };
    sch::sch_encoder enc;

    std::vector<uint8_t> bits(int n)
    {
        std::vector<uint8_t> b(static_cast<size_t>(n));
        for (auto& x : b)
            x = uint8_t(rng() & 1u);
        return b;
    }
    // The codeword of \p payload for \p tb (its rv, tbs...), as LLRs through
    // BPSK-per-bit AWGN of Es/N0 \p esn0_db, a fraction \p erased of the
    // bits erased (punctured below what one transmission can decode).
    std::vector<float> send(const std::vector<uint8_t>& payload, const dlsch_tb& tb, int g, int ue_category,
                            int tm, double esn0_db, double erased = 0.0)
    {
        sch::tb_request r;
        r.channel = sch::DLSCH;
        r.tbs = int(payload.size());
        r.rv = tb.rv;
        r.qm = tb.qm;
        r.g = g;
        r.rnti = tb.rnti;
        r.cell_id = tb.cell_id;
        r.subframe = tb.subframe;
        r.codeword = tb.codeword;
        r.nl = tb.nl;
        if (ue_category > 0) {
            const auto sb = soft_buffer_of(ue_category, tm);
            r.n_soft = sb.n_soft;
            r.kc = sb.kc;
            r.k_mimo = sb.k_mimo;
        }
        const auto coded = enc.encode(payload.data(), payload.size(), r);
        const double sigma = std::sqrt(0.5 / std::pow(10.0, esn0_db / 10.0));
        std::normal_distribution<double> n(0.0, sigma);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        std::vector<float> llr(coded.size());
        for (size_t i = 0; i < coded.size(); i++) {
            const double y = (coded[i] ? 1.0 : -1.0) + n(rng);
            llr[i] = u(rng) < erased ? 0.0f : float(2.0 * y / (sigma * sigma));
        }
        return llr;
    }
};

dlsch_tb make_tb(int tbs, int rv, int ndi, int tb_index = 0, int codeword = 0)
{
    dlsch_tb t;
    t.cell_id = 5;
    t.subframe = 3;
    t.rnti = 0x4601;
    t.harq_process = 2;
    t.tb_index = tb_index;
    t.codeword = codeword;
    t.ndi = ndi;
    t.rv = rv;
    t.mcs = 9;
    t.tbs = tbs;
    t.qm = 2;
    return t;
}

dlsch_decoder_options options(const char* backend, int category = 4)
{
    dlsch_decoder_options o;
    o.backend = backend;
    o.harq_buffers = 8;
    o.max_tbs = 20000;
    o.max_g = 40000;
    o.ue_category = category;
    o.cpu_threads = 2;
    return o;
}

void clean_tbs_decode_and_duplicates_are_reported(const char* backend)
{
    dlsch_decoder dec(options(backend));
    sender s;
    const auto payload = s.bits(2984);
    auto tb = make_tb(2984, 0, 1);
    tb.llr = s.send(payload, tb, 6000, 4, 1, 6.0);
    dec.submit(tb);
    auto again = make_tb(2984, 2, 1); // same ndi: its ACK was lost, resent
    again.llr = s.send(payload, again, 6000, 4, 1, 6.0);
    dec.submit(again);
    auto next = make_tb(2984, 0, 0); // toggled ndi: a new TB
    const auto payload2 = s.bits(2984);
    next.llr = s.send(payload2, next, 6000, 4, 1, 6.0);
    dec.submit(next);
    const auto r = dec.take();
    ASSERT_EQ(r.size(), 3u);
    EXPECT_TRUE(r[0].crc_ok);
    EXPECT_EQ(r[0].bits, payload);
    EXPECT_TRUE(r[1].duplicate);
    EXPECT_FALSE(r[1].decoded);
    EXPECT_TRUE(r[1].bits.empty());
    EXPECT_NE(r[1].error.find("duplicate"), std::string::npos);
    EXPECT_TRUE(r[2].crc_ok);
    EXPECT_FALSE(r[2].duplicate);
    EXPECT_EQ(r[2].bits, payload2);
}

// TB 1 and TB 2 of one DCI; TB 1 passes, TB 2 fails (half its bits
// erased). TB 2's retransmission comes alone, on codeword 0, with MCS 29
// (no TBS): it must combine with TB 2's buffer and take TB 2's size.
void lone_retransmission_of_tb2_finds_its_buffer(const char* backend)
{
    dlsch_decoder dec(options(backend));
    sender s;
    const auto p1 = s.bits(1544), p2 = s.bits(2088);
    auto tb1 = make_tb(1544, 0, 1, 0, 0);
    auto tb2 = make_tb(2088, 0, 1, 1, 1);
    tb1.nl = tb2.nl = 1;
    tb1.llr = s.send(p1, tb1, 4800, 4, 3, 5.0);
    tb2.llr = s.send(p2, tb2, 4800, 4, 3, 1.0, 0.6);
    dec.submit(tb1);
    dec.submit(tb2);
    auto first = dec.take();
    ASSERT_EQ(first.size(), 2u);
    EXPECT_TRUE(first[0].crc_ok);
    EXPECT_FALSE(first[1].crc_ok) << "TB 2 decoded alone: the case does not test combining";
    auto retx = make_tb(0, 2, 1, 1, 0); // TB 2, codeword 0, MCS 29
    retx.mcs = 29;
    auto sent = make_tb(2088, 2, 1, 1, 0);
    retx.llr = s.send(p2, sent, 4800, 4, 3, 1.0, 0.6);
    dec.submit(retx);
    const auto r = dec.take();
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].tb.tbs, 2088);
    EXPECT_EQ(r[0].transmissions, 2);
    EXPECT_TRUE(r[0].crc_ok);
    EXPECT_EQ(r[0].bits, p2);
    // A retransmission-only MCS with no first transmission: reported.
    auto orphan = make_tb(0, 1, 0, 0, 0);
    orphan.harq_process = 7;
    orphan.mcs = 30;
    orphan.llr.assign(4800, 0.0f);
    dec.submit(orphan);
    const auto o = dec.take();
    EXPECT_FALSE(o[0].decoded);
    EXPECT_NE(o[0].error.find("mcs=30"), std::string::npos) << o[0].error;
}

// A TB large enough that category 4's soft buffer limits N_cb: it decodes
// only when the receiver applies the same limit as the sender.
void soft_buffer_follows_the_ue_category(const char* backend)
{
    sender s;
    const auto payload = s.bits(18336); // 3 code blocks
    auto tb = make_tb(18336, 2, 1); // rv 2: its start k0 depends on N_cb too
    tb.qm = 6;
    tb.mcs = 22;
    // Category 1: N_IR = 250368 / 8 = 31296, N_cb = 10432 per code block,
    // below K_w = 18480: limited. E = 12000 per code block wraps around
    // the circular buffer, at N_cb with the limit, at K_w without.
    tb.llr = s.send(payload, tb, 36000, 1, 1, 8.0);
    {
        dlsch_decoder right(options(backend, 1));
        right.submit(tb);
        const auto r = right.take();
        EXPECT_TRUE(r[0].crc_ok);
        EXPECT_EQ(r[0].bits, payload);
    }
    {
        dlsch_decoder wrong(options(backend, 0)); // no limit: another rate matching
        wrong.submit(tb);
        EXPECT_FALSE(wrong.take()[0].crc_ok);
    }
}

} // namespace

TEST(DlschDecoder, CleanTbsDecodeAndDuplicatesAreReported) { clean_tbs_decode_and_duplicates_are_reported("cpu"); }
TEST(DlschDecoder, CudaCleanTbsDecodeAndDuplicatesAreReported) { clean_tbs_decode_and_duplicates_are_reported("cuda"); }
TEST(DlschDecoder, LoneRetransmissionOfTb2FindsItsBuffer) { lone_retransmission_of_tb2_finds_its_buffer("cpu"); }
TEST(DlschDecoder, CudaLoneRetransmissionOfTb2FindsItsBuffer) { lone_retransmission_of_tb2_finds_its_buffer("cuda"); }
TEST(DlschDecoder, SoftBufferFollowsTheUeCategory) { soft_buffer_follows_the_ue_category("cpu"); }
TEST(DlschDecoder, CudaSoftBufferFollowsTheUeCategory) { soft_buffer_follows_the_ue_category("cuda"); }

TEST(DlschDecoder, BadOptionsAreNamed)
{
    auto o = options("cpu");
    o.ue_category = 13;
    EXPECT_THROW(dlsch_decoder{ o }, std::invalid_argument);
    o = options("cpu");
    o.tm = 11;
    EXPECT_THROW(dlsch_decoder{ o }, std::invalid_argument);
}
