/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Random access response PDUs built byte by byte from 36.321's layout
// (§6.1.5 subheaders E/T/RAPID and E/T/R/R/BI, §6.2.3 the 6-byte MAC RAR:
// R | TA 11 | UL grant 20 | TC-RNTI 16), each byte worked out below; the
// malformed ones (truncated, reserved bits, misplaced backoff, reserved
// values) reported, and random bytes never crash the parser.
#include "lte/mac/rar.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

using namespace gr::gpurx::core::lte;

namespace {

rar_pdu parse(const std::vector<uint8_t>& b) { return parse_rar(b.data(), b.size()); }

void expect_rar(const mac_rar& a, int rapid, int ta, uint32_t grant, uint16_t tc)
{
    EXPECT_EQ(a.rapid, rapid);
    EXPECT_EQ(a.timing_advance, ta);
    EXPECT_EQ(a.ul_grant, grant);
    EXPECT_EQ(a.tc_rnti, tc);
}

// A backoff indicator and one RAR, padding after it.
//   0x85 = 1 0 00 0101: E=1 (a subheader follows), T=0 (backoff), R R = 0, BI = 5
//   0x65 = 0 1 100101:  E=0 (RARs next), T=1, RAPID = 37
//   MAC RAR: R = 0, TA = 1000 = 0b011'1110'1000, UL grant 0xABCDE, TC-RNTI 0x4601:
//     0x3E = 0 0111110      R, TA's 7 MSBs
//     0x8A = 1000 1010      TA's 4 LSBs, the grant's 4 MSBs (0xA)
//     0xBC 0xDE             the grant's other 16 bits
//     0x46 0x01             TC-RNTI
//   0x00 0x00: padding
const std::vector<uint8_t> bi_and_one = { 0x85, 0x65, 0x3E, 0x8A, 0xBC, 0xDE, 0x46, 0x01, 0x00, 0x00 };

} // namespace

TEST(RarPdu, BackoffAndOneRar)
{
    const rar_pdu r = parse(bi_and_one);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.backoff_indicator, 5);
    ASSERT_EQ(r.rars.size(), 1u);
    expect_rar(r.rars[0], 37, 1000, 0xABCDE, 0x4601);
}

// Three RARs, no backoff, no padding. Subheaders: 0xC0 = 11 000000 (E=1,
// T=1, RAPID 0), 0xFF = 11 111111 (E=1, T=1, RAPID 63), 0x4C = 01 001100
// (E=0, T=1, RAPID 12). RARs in the subheaders' order:
//   RAPID 0:  TA 0, grant 0, TC-RNTI 0x000B                00 00 00 00 00 0B
//   RAPID 63: TA 1282 = 0b101'0000'0010, grant 0xFFFFF, TC-RNTI 0xFFF3:
//             0 1010000 = 0x50; 0010 1111 = 0x2F; FF FF; FF F3
//   RAPID 12: TA 31 = 0b000'0001'1111, grant 0x12345, TC-RNTI 0x0101:
//             0 0000001 = 0x01; 1111 0001 = 0xF1; 23 45; 01 01
TEST(RarPdu, ThreeRarsInSubheaderOrder)
{
    const std::vector<uint8_t> b = { 0xC0, 0xFF, 0x4C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0B, 0x50, 0x2F,
                                     0xFF, 0xFF, 0xFF, 0xF3, 0x01, 0xF1, 0x23, 0x45, 0x01, 0x01 };
    const rar_pdu r = parse(b);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.backoff_indicator, -1);
    ASSERT_EQ(r.rars.size(), 3u);
    expect_rar(r.rars[0], 0, 0, 0, 0x000B);
    expect_rar(r.rars[1], 63, 1282, 0xFFFFF, 0xFFF3);
    expect_rar(r.rars[2], 12, 31, 0x12345, 0x0101);
}

// A backoff indicator alone (0x0A = 0 0 00 1010: E=0, T=0, BI=10), padding after.
TEST(RarPdu, BackoffOnly)
{
    const rar_pdu r = parse({ 0x0A, 0x00, 0x00, 0x00 });
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.backoff_indicator, 10);
    EXPECT_TRUE(r.rars.empty());
}

// A transport block's bits (first bit the MSB of the first byte) read as
// the bytes are.
TEST(RarPdu, FromTransportBlockBits)
{
    std::vector<uint8_t> bits;
    for (uint8_t v : bi_and_one)
        for (int i = 7; i >= 0; i--)
            bits.push_back(uint8_t((v >> i) & 1));
    const rar_pdu r = parse_rar_bits(bits.data(), bits.size());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.backoff_indicator, 5);
    ASSERT_EQ(r.rars.size(), 1u);
    expect_rar(r.rars[0], 37, 1000, 0xABCDE, 0x4601);
    // Not whole bytes: malformed, reported.
    const rar_pdu odd = parse_rar_bits(bits.data(), 12);
    EXPECT_FALSE(odd.ok);
    EXPECT_NE(odd.error.find("n_bits=12"), std::string::npos) << odd.error;
}

TEST(RarPdu, MalformedAreReported)
{
    struct bad {
        std::vector<uint8_t> b;
        const char* why; // a word the reason must contain
    };
    std::vector<bad> cases = {
        { {}, "empty" },
        // 0xC5 = 11 000101: E=1 but nothing follows.
        { { 0xC5 }, "truncated" },
        // One RAPID subheader (0x45: E=0, T=1, RAPID 5), 5 of the RAR's 6 bytes.
        { { 0x45, 0x00, 0x10, 0x00, 0x00, 0x12 }, "truncated" },
        // Two RAPID subheaders, one RAR.
        { { 0xC1, 0x42, 0x00, 0x10, 0x00, 0x00, 0x12, 0x34 }, "truncated" },
        // 0x1A = 0 0 01 1010: a backoff subheader with its second R bit set.
        { { 0x1A }, "reserved" },
        // 0xC1 (E=1, T=1, RAPID 1) then 0x05 (E=0, T=0, BI 5): backoff not first.
        { { 0xC1, 0x05, 0x00, 0x10, 0x00, 0x00, 0x12, 0x34 }, "not first" },
        // 0x45 then a RAR whose first octet 0x80 has its R bit set.
        { { 0x45, 0x80, 0x10, 0x00, 0x00, 0x12, 0x34 }, "reserved" },
        // TC-RNTI 0x0000 and 0xFFF4 (36.321 Table 7.1-1: no Temporary C-RNTI).
        { { 0x45, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00 }, "temporary C-RNTI" },
        { { 0x45, 0x00, 0x10, 0x00, 0x00, 0xFF, 0xF4 }, "temporary C-RNTI" },
        // TA 1283 = 0b101'0000'0011: 0x50, 0x3x.
        { { 0x45, 0x50, 0x30, 0x00, 0x00, 0x12, 0x34 }, "timing advance" },
    };
    for (size_t i = 0; i < cases.size(); i++) {
        const rar_pdu r = parse(cases[i].b);
        EXPECT_FALSE(r.ok) << "case " << i;
        EXPECT_TRUE(r.rars.empty()) << "case " << i;
        EXPECT_NE(r.error.find(cases[i].why), std::string::npos) << "case " << i << ": " << r.error;
    }
    EXPECT_THROW(parse_rar(nullptr, 3), std::invalid_argument);
    EXPECT_TRUE(parse_rar(nullptr, 0).error == "empty PDU");
}

// Random bytes (what a false CRC pass would carry): any result, no crash,
// and an accepted PDU's RARs within their fields' ranges.
TEST(RarPdu, RandomBytesNeverCrash)
{
    std::mt19937 rng(5);
    int accepted = 0;
    for (int k = 0; k < 20000; k++) {
        std::vector<uint8_t> b(size_t(rng() % 40));
        for (auto& v : b)
            v = uint8_t(rng());
        const rar_pdu r = parse(b);
        if (!r.ok) {
            EXPECT_FALSE(r.error.empty());
            continue;
        }
        accepted++;
        for (const auto& a : r.rars) {
            EXPECT_LE(a.rapid, 63);
            EXPECT_LE(a.timing_advance, 1282);
            EXPECT_LE(a.ul_grant, 0xFFFFFu);
            EXPECT_GE(a.tc_rnti, 1);
            EXPECT_LE(a.tc_rnti, 0xFFF3);
        }
    }
    EXPECT_GT(accepted, 0);
}
