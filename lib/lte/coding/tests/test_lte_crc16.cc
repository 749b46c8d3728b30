/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CRC16 of 36.212 §5.1.1 against a long division written out here, a
// published check value, and the masks of §5.3.1.1 / §5.3.3.2 worked by hand.
#include "lte/coding/lte_crc16.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

using namespace gr::gpurx::core::lte;

namespace {

// a(D) * D^16 mod g(D), as the textbook long division: write the message
// followed by 16 zeros, and wherever the leading coefficient is 1 subtract
// (XOR) g = 1 0001 0000 0010 0001 (D^16 + D^12 + D^5 + 1) aligned under it.
// The last 16 coefficients are the remainder: p_0 (D^15) .. p_15 (D^0).
std::vector<uint8_t> long_division_parity(const std::vector<uint8_t>& a)
{
    const int g[17] = { 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    std::vector<uint8_t> r(a);
    r.resize(a.size() + 16, 0);
    for (size_t i = 0; i < a.size(); i++)
        if (r[i])
            for (int j = 0; j < 17; j++)
                r[i + j] ^= uint8_t(g[j]);
    return std::vector<uint8_t>(r.end() - 16, r.end());
}

uint16_t msb_first(const std::vector<uint8_t>& p)
{
    uint16_t v = 0;
    for (uint8_t b : p)
        v = uint16_t((v << 1) | b);
    return v;
}

std::vector<uint8_t> bytes_to_bits(const std::string& s)
{
    std::vector<uint8_t> bits;
    for (unsigned char c : s)
        for (int i = 7; i >= 0; i--)
            bits.push_back(uint8_t((c >> i) & 1));
    return bits;
}

} // namespace

TEST(Crc16, SingleBitIsTheGenerator)
{
    // a = <1>: D^16 mod g = D^12 + D^5 + 1.
    const uint8_t one = 1;
    EXPECT_EQ(crc16(&one, 1), 0x1021);
    EXPECT_EQ(crc16(nullptr, 0), 0);
}

TEST(Crc16, WorkedExampleAgainstLongDivision)
{
    // A 24-bit message 0xA5 0x3C 0x01 by hand: the division above gives the
    // parity bits one by one; the library's value must be them, MSB first.
    const std::vector<uint8_t> a = bytes_to_bits("\xA5\x3C\x01");
    ASSERT_EQ(a.size(), 24u);
    const std::vector<uint8_t> p = long_division_parity(a);
    EXPECT_EQ(crc16(a.data(), 24), msb_first(p));
    // attach_crc16 appends p_0 first.
    std::vector<uint8_t> c(a);
    c.resize(40);
    attach_crc16(c.data(), 24);
    for (int i = 0; i < 16; i++)
        EXPECT_EQ(c[24 + i], p[i]) << "p_" << i;
    // The whole block (message and parity) divides by g: remainder 0.
    EXPECT_EQ(crc16(c.data(), 40), 0);
}

TEST(Crc16, PublishedCheckValue)
{
    // The same CRC (poly 0x1021, register 0, no reflection, no final XOR) is
    // catalogued as CRC-16/XMODEM, whose check value over ASCII "123456789"
    // is 0x31C3.
    const std::vector<uint8_t> a = bytes_to_bits("123456789");
    EXPECT_EQ(crc16(a.data(), int(a.size())), 0x31C3);
}

TEST(Crc16, RandomMessagesAgainstLongDivision)
{
    std::mt19937 rng(5);
    for (int n = 1; n <= 80; n++) {
        std::vector<uint8_t> a(n);
        for (auto& b : a)
            b = uint8_t(rng() & 1);
        EXPECT_EQ(crc16(a.data(), n), msb_first(long_division_parity(a))) << n;
    }
}

TEST(Crc16, PbchMasksAsBits)
{
    // 36.212 Table 5.3.1.1-1: x_ant,0..15 = all 0 (1 port), all 1 (2 ports),
    // <0,1,0,1,...,0,1> (4 ports), x_ant,0 the MSB of the value.
    EXPECT_EQ(pbch_crc_mask(1), 0x0000);
    EXPECT_EQ(pbch_crc_mask(2), 0xFFFF);
    EXPECT_EQ(pbch_crc_mask(4), 0x5555);
    uint8_t x[16];
    value_to_bits(pbch_crc_mask(4), 16, x);
    for (int k = 0; k < 16; k++)
        EXPECT_EQ(x[k], k % 2) << "x_ant," << k;
    EXPECT_EQ(pbch_ports_of_mask(0x5555), 4);
    EXPECT_EQ(pbch_ports_of_mask(0xFFFF), 2);
    EXPECT_EQ(pbch_ports_of_mask(0x0000), 1);
    EXPECT_EQ(pbch_ports_of_mask(0x1234), 0);
    EXPECT_THROW(pbch_crc_mask(3), std::invalid_argument);
}

TEST(Crc16, MibWithFourPortsWorkedByHand)
{
    // A 24-bit MIB, 4 ports: c_k = p_(k-24) XOR x_ant,(k-24); x_ant is
    // 0,1,0,1,... so the even parity bits go as they are, the odd inverted.
    const std::vector<uint8_t> a = bytes_to_bits("\x9B\x40\x2C");
    const std::vector<uint8_t> p = long_division_parity(a);
    std::vector<uint8_t> c(a);
    c.resize(40);
    attach_crc16(c.data(), 24, pbch_crc_mask(4));
    for (int k = 0; k < 16; k++)
        EXPECT_EQ(c[24 + k], uint8_t(p[k] ^ (k % 2))) << k;
    // The receiver's check: received parity XOR computed CRC = the mask.
    const uint16_t x = uint16_t(bits_to_value(c.data() + 24, 16) ^ crc16(c.data(), 24));
    EXPECT_EQ(x, 0x5555);
    EXPECT_EQ(pbch_ports_of_mask(x), 4);
}

TEST(Crc16, DciRntiMaskWorkedByHand)
{
    // 36.212 §5.3.3.2: c_(B+k) = b_(B+k) XOR x_rnti,k with x_rnti,0 the
    // RNTI's MSB. C-RNTI 0x003D = 0000 0000 0011 1101: the first ten parity
    // bits go as they are, then 1,1,1,1,0,1 flip bits 10..13 and 15.
    const uint16_t rnti = 0x003D;
    const int flipped[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1 };
    std::mt19937 rng(11);
    std::vector<uint8_t> a(27);
    for (auto& b : a)
        b = uint8_t(rng() & 1);
    const std::vector<uint8_t> p = long_division_parity(a);
    std::vector<uint8_t> c(a);
    c.resize(27 + 16);
    attach_crc16(c.data(), 27, pdcch_crc_mask(rnti));
    for (int k = 0; k < 16; k++)
        EXPECT_EQ(c[27 + k], uint8_t(p[k] ^ flipped[k])) << k;
    EXPECT_EQ(uint16_t(bits_to_value(c.data() + 27, 16) ^ crc16(c.data(), 27)), rnti);
}

TEST(Crc16, BitValueHelpers)
{
    uint8_t b[16];
    value_to_bits(0x8001, 16, b);
    EXPECT_EQ(b[0], 1);
    EXPECT_EQ(b[1], 0);
    EXPECT_EQ(b[15], 1);
    EXPECT_EQ(bits_to_value(b, 16), 0x8001u);
    EXPECT_THROW(bits_to_value(b, 33), std::invalid_argument);
    EXPECT_THROW(crc16(b, -1), std::invalid_argument);
}
