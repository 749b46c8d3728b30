/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/output/mac_pcap.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

constexpr uint32_t PCAP_MAGIC = 0xa1b2c3d4;
constexpr uint32_t DLT_USER0 = 147;
// packet-mac-lte.h's framing.
constexpr char START[] = "mac-lte";
constexpr uint8_t FDD_RADIO = 1, DIRECTION_DOWNLINK = 1;
constexpr uint8_t PAYLOAD_TAG = 0x01, RNTI_TAG = 0x02, FRAME_SUBFRAME_TAG = 0x04, CRC_STATUS_TAG = 0x07;

void put32(std::vector<uint8_t>& v, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        v.push_back(uint8_t(x >> (8 * i))); // the pcap headers: host (little-endian) order
}

} // namespace

mac_rnti_type rnti_type_of(int rnti)
{
    if (rnti == 0xFFFF)
        return mac_rnti_type::si;
    if (rnti == 0xFFFE)
        return mac_rnti_type::p;
    if (rnti >= 1 && rnti <= 10)
        return mac_rnti_type::ra;
    return mac_rnti_type::c;
}

std::vector<uint8_t> pack_bits(const std::vector<uint8_t>& bits)
{
    std::vector<uint8_t> out((bits.size() + 7) / 8, 0);
    for (size_t i = 0; i < bits.size(); i++)
        if (bits[i])
            out[i / 8] |= uint8_t(0x80u >> (i % 8));
    return out;
}

std::string bits_hex(const std::vector<uint8_t>& bits)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (uint8_t b : pack_bits(bits)) {
        s.push_back(digits[b >> 4]);
        s.push_back(digits[b & 15]);
    }
    return s;
}

mac_pcap_writer::mac_pcap_writer(const std::string& path)
{
    d_f = std::fopen(path.c_str(), "wb");
    if (!d_f)
        throw std::runtime_error("pcap=" + path + ": cannot be opened for writing: " + std::strerror(errno));
    std::vector<uint8_t> h;
    put32(h, PCAP_MAGIC);
    h.push_back(2); // version 2.4
    h.push_back(0);
    h.push_back(4);
    h.push_back(0);
    put32(h, 0);      // this zone
    put32(h, 0);      // sigfigs
    put32(h, 65535);  // snaplen
    put32(h, DLT_USER0);
    std::fwrite(h.data(), 1, h.size(), d_f);
}

mac_pcap_writer::~mac_pcap_writer()
{
    if (d_f)
        std::fclose(d_f);
}

void mac_pcap_writer::write(const std::vector<uint8_t>& bits, int rnti, int sfn, int subframe, bool crc_ok, double t)
{
    std::vector<uint8_t> rec(START, START + sizeof(START) - 1);
    rec.push_back(FDD_RADIO);
    rec.push_back(DIRECTION_DOWNLINK);
    rec.push_back(uint8_t(rnti_type_of(rnti)));
    rec.push_back(RNTI_TAG); // network byte order
    rec.push_back(uint8_t(rnti >> 8));
    rec.push_back(uint8_t(rnti));
    const int fs = ((sfn & 1023) << 4) | (subframe & 15);
    rec.push_back(FRAME_SUBFRAME_TAG);
    rec.push_back(uint8_t(fs >> 8));
    rec.push_back(uint8_t(fs));
    rec.push_back(CRC_STATUS_TAG);
    rec.push_back(crc_ok ? 1 : 0);
    rec.push_back(PAYLOAD_TAG);
    const auto bytes = pack_bits(bits);
    rec.insert(rec.end(), bytes.begin(), bytes.end());
    std::vector<uint8_t> h;
    const double whole = std::floor(t);
    put32(h, uint32_t(whole));
    put32(h, uint32_t((t - whole) * 1e6));
    put32(h, uint32_t(rec.size()));
    put32(h, uint32_t(rec.size()));
    std::fwrite(h.data(), 1, h.size(), d_f);
    std::fwrite(rec.data(), 1, rec.size(), d_f);
    d_records++;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
