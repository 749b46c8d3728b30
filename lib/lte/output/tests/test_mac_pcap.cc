/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MAC-LTE pcap, byte by byte against the layouts written out by hand:
// libpcap's file and record headers, and packet-mac-lte.h's framing.
#include "lte/output/mac_pcap.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

using namespace gr::gpurx::core::lte;

TEST(MacPcap, HeaderAndOneRecord)
{
    const std::string path = testing::TempDir() + "gpurx_mac_lte.pcap";
    {
        mac_pcap_writer w(path);
        // 16 bits: 0xA5 0x0F
        const std::vector<uint8_t> bits{ 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1 };
        w.write(bits, 0x4601, 513, 7, true, 2.25);
        EXPECT_EQ(w.records(), 1u);
    }
    std::ifstream f(path, std::ios::binary);
    const std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::vector<uint8_t> global{ 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0xff, 0xff, 0, 0, 147, 0, 0, 0 };
    ASSERT_GE(b.size(), 24u + 16u);
    EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.begin() + 24), global);
    // Record header: 2 s, 250000 us, 21 bytes captured and on the wire.
    const std::vector<uint8_t> rec_hdr{ 2, 0, 0, 0, 0x90, 0xd0, 0x03, 0, 21, 0, 0, 0, 21, 0, 0, 0 };
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 24, b.begin() + 40), rec_hdr);
    // "mac-lte", FDD, downlink, C-RNTI, RNTI tag 0x4601, frame/subframe
    // tag (513 << 4 | 7 = 0x2017), CRC OK, payload tag, A5 0F.
    const std::vector<uint8_t> rec{ 'm', 'a', 'c', '-', 'l', 't', 'e', 1, 1, 3, 0x02, 0x46, 0x01,
                                    0x04, 0x20, 0x17, 0x07, 1, 0x01, 0xa5, 0x0f };
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 40, b.end()), rec);
}

TEST(MacPcap, RntiTypesAndHex)
{
    EXPECT_EQ(rnti_type_of(0xFFFF), mac_rnti_type::si);
    EXPECT_EQ(rnti_type_of(0xFFFE), mac_rnti_type::p);
    EXPECT_EQ(rnti_type_of(2), mac_rnti_type::ra);
    EXPECT_EQ(rnti_type_of(0x1234), mac_rnti_type::c);
    EXPECT_EQ(bits_hex({ 1, 1, 0, 0, 0, 0, 0, 1 }), "c1");
    EXPECT_THROW(mac_pcap_writer("/nonexistent/dir/x.pcap"), std::runtime_error);
}
