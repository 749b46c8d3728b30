/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Every-UE mode learning C-RNTIs from random access responses: a RAR PDU
// (36.321 §6.1.5, §6.2.3) in a TB of an RA-RNTI that passed its CRC gives
// its Temporary C-RNTIs; such an RNTI is then searched, so that Msg4, a
// DCI 1A on the TC-RNTI in the common search space (36.213 §9.1.1), is
// found in its very first subframe. The PDCCH is built from 36.212: payload,
// CRC masked with the RNTI (§5.3.3.2), tail-biting code and rate matching
// (§5.1.3.1, §5.1.4.2) onto the CCEs of a common-space candidate.
#include "lte/coding/lte_cc.h"
#include "lte/coding/lte_crc16.h"
#include "lte/control/control_layout.h"
#include "lte/control/dci_sizes.h"
#include "lte/control/rnti_tracker.h"
#include "lte/control/search_space.h"
#include "lte/receiver/downlink_receiver.h"

#include <gtest/gtest.h>

#include <vector>

using namespace gr::gpurx::core::lte;

namespace {

void put(std::vector<uint8_t>& b, uint32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--)
        b.push_back(uint8_t((v >> i) & 1));
}

std::vector<uint8_t> bits_of(const std::vector<uint8_t>& bytes)
{
    std::vector<uint8_t> b;
    for (uint8_t v : bytes)
        put(b, v, 8);
    return b;
}

/*
 * A RAR PDU with two RARs (36.321 §6.1.5, §6.2.3):
 *   0xDB = 1 1 011011: E=1, T=1, RAPID 27     0x44 = 0 1 000100: E=0, T=1, RAPID 4
 *   RAR 1: R 0, TA 12 = 0b000'0000'1100, grant 0x5A5A5, TC-RNTI 0x4601:
 *          0x00 (R, TA's 7 MSBs), 0xC5 (TA's 4 LSBs 1100, grant 0101), 0xA5 0xA5, 0x46 0x01
 *   RAR 2: TA 0, grant 0, TC-RNTI 0x0005 (valid in 36.321 Table 7.1-1 but an
 *          FDD RA-RNTI value, which the receiver never takes for a C-RNTI)
 *   padding 0x00 x 3
 */
const std::vector<uint8_t> rar_bytes = { 0xDB, 0x44, 0x00, 0xC5, 0xA5, 0xA5, 0x46, 0x01, 0x00,
                                         0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00 };

dlsch_result rar_tb(int rnti, bool crc_ok, const std::vector<uint8_t>& bytes)
{
    dlsch_result r;
    r.tb.rnti = rnti;
    r.decoded = true;
    r.crc_ok = crc_ok;
    r.bits = bits_of(bytes);
    r.tb.tbs = int(r.bits.size());
    return r;
}

} // namespace

TEST(RarLearning, TemporaryRntisOfRaRntiTbsOnly)
{
    std::string err;
    // RA-RNTI 3 (FDD: 1 + t_id, 36.321 §5.1.4), CRC good: 0x4601 only.
    EXPECT_EQ(rar_temporary_rntis(rar_tb(3, true, rar_bytes), err), std::vector<uint16_t>{ 0x4601 });
    EXPECT_EQ(err, "");
    // A failed CRC, or a C-RNTI's TB with the same bytes: no RAR.
    EXPECT_TRUE(rar_temporary_rntis(rar_tb(3, false, rar_bytes), err).empty());
    EXPECT_TRUE(rar_temporary_rntis(rar_tb(0x4601, true, rar_bytes), err).empty());
    EXPECT_TRUE(rar_temporary_rntis(rar_tb(0xFFFF, true, rar_bytes), err).empty());
    EXPECT_EQ(err, "");
    // Malformed (truncated: the second RAR cut): none, and why.
    const std::vector<uint8_t> cut(rar_bytes.begin(), rar_bytes.begin() + 10);
    EXPECT_TRUE(rar_temporary_rntis(rar_tb(3, true, cut), err).empty());
    EXPECT_NE(err.find("truncated"), std::string::npos) << err;
}

namespace {

/*
 * DCI 1A on C-RNTI/TC-RNTI at 100 PRBs (36.212 §5.3.3.1.3): flag 1,
 * localized 0, RIV 13 bits (ceil(log2(100 x 101 / 2))), MCS 5, HARQ 3,
 * NDI 1, RV 2, TPC 2 = 28 bits (format 0: 1 + 1 + 13 + 5 + 1 + 2 + 3 + 1 =
 * 27, padded to 28; 28 is not ambiguous). VRBs 2..5: RIV = 100 (4 - 1) + 2
 * = 302. MCS 5, NDI 1, TPC 1.
 */
std::vector<uint8_t> format1a_payload(int size)
{
    std::vector<uint8_t> b;
    put(b, 1, 1);
    put(b, 0, 1);
    put(b, 302, 13);
    put(b, 5, 5);
    put(b, 0, 3);
    put(b, 1, 1);
    put(b, 0, 2);
    put(b, 1, 2);
    while (int(b.size()) < size)
        b.push_back(0);
    return b;
}

} // namespace

TEST(RarLearning, TemporaryRntiIsSearchedInTheCommonSpace)
{
    cell c;
    c.n_prb = 100;
    c.cell_id = 3;
    c.ports = 1;
    const control_layout lay = make_control_layout(c, 3);
    const int size = dci_payload_sizes(c).of(dci_format::f1a);
    ASSERT_EQ(size, 28);
    const uint16_t tc = 0x4601;

    // A common-space candidate of aggregation 4 and a subframe where the
    // TC-RNTI's UE-specific space holds no position on its CCEs (a part of
    // them holds every coded bit too, 4 CCEs repeating the 3 x 44 coded
    // bits): only the common space can find the DCI there.
    pdcch_candidate cand{};
    int subframe = -1;
    for (const auto& k4 : common_search_space(lay.n_cce))
        for (int s = 0; s < 10 && subframe < 0 && k4.agg == 4; s++) {
            bool clear = true;
            for (const auto& k : all_pdcch_positions(lay.n_cce))
                if (k.ncce < k4.ncce + 4 && k4.ncce < k.ncce + k.agg && in_ue_search_space(lay.n_cce, tc, s, k))
                    clear = false;
            if (clear) {
                cand = k4;
                subframe = s;
            }
        }
    ASSERT_GE(subframe, 0);

    // The PDCCH: payload + CRC masked with the RNTI, coded, rate matched to
    // 4 CCEs of 72 bits, as LLRs (positive for 1) on those CCEs.
    std::vector<uint8_t> cbits = format1a_payload(size);
    cbits.resize(size_t(size + 16));
    attach_crc16(cbits.data(), size, pdcch_crc_mask(tc));
    const std::vector<uint8_t> e = cc_rate_match(cc_encode(cbits), 72 * cand.agg);
    std::vector<float> llr(size_t(72 * lay.n_cce), 0.0f);
    for (size_t i = 0; i < e.size(); i++)
        llr[size_t(72 * cand.ncce) + i] = e[i] ? 6.0f : -6.0f;

    auto found_tc = [&](rnti_tracker& t, tracked_dci* out) {
        for (auto& d : t.process(lay, llr.data(), subframe))
            if (d.msg.rnti == tc) {
                *out = d;
                return true;
            }
        return false;
    };
    rnti_tracker_config rc;
    rc.common_space = true;

    // Not learnt: the common space takes only SI/P/RA-RNTIs and active C-RNTIs.
    rnti_tracker before(rc);
    tracked_dci d;
    EXPECT_FALSE(found_tc(before, &d));
    EXPECT_FALSE(before.is_active(tc));

    // Learnt from the RAR as the receiver does it: active at once, and Msg4
    // found in the common space.
    rnti_tracker after(rc);
    std::string err;
    for (uint16_t r : rar_temporary_rntis(rar_tb(2, true, rar_bytes), err))
        after.add_rnti(r);
    EXPECT_TRUE(after.is_active(tc));
    EXPECT_FALSE(after.is_active(0x0005));
    ASSERT_TRUE(found_tc(after, &d));
    EXPECT_TRUE(d.active);
    EXPECT_TRUE(d.msg.common_space);
    EXPECT_EQ(d.msg.format, dci_format::f1a);
    EXPECT_EQ(d.msg.ncce, cand.ncce);
    EXPECT_EQ(d.msg.agg, 4);
    EXPECT_EQ(d.msg.rb_start, 2);
    EXPECT_EQ(d.msg.rb_len, 4);
    EXPECT_EQ(d.msg.tb[0].mcs, 5);
}
