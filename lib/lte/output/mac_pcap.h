/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Decoded transport blocks as a MAC-LTE pcap that Wireshark opens: the
// "mac-lte" framing of Wireshark's packet-mac-lte.h (the one srsRAN and
// LTESniffer write), in a pcap of link type 147 (DLT_USER0). In Wireshark:
// Preferences > Protocols > DLT_USER: DLT 147, payload protocol
// "mac-lte-framed". Each record: "mac-lte", radio type FDD, direction
// downlink, the RNTI type, then tags: RNTI, frame and subframe, CRC status,
// and the payload (the TB's bytes, the first bit the MSB).
#ifndef INCLUDED_GPURX_LTE_OUTPUT_MAC_PCAP_H
#define INCLUDED_GPURX_LTE_OUTPUT_MAC_PCAP_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! Wireshark's RNTI types (packet-mac-lte.h).
enum class mac_rnti_type : uint8_t { none = 0, p = 1, ra = 2, c = 3, si = 4 };
//! The RNTI type of \p rnti as the downlink uses it (36.321 Table 7.1-1):
//! 0xFFFF SI, 0xFFFE P, 1..10 RA (the receiver's RA-RNTIs), else C.
mac_rnti_type rnti_type_of(int rnti);

class mac_pcap_writer
{
public:
    //! Opens \p path for writing (throws std::runtime_error naming it).
    explicit mac_pcap_writer(const std::string& path);
    ~mac_pcap_writer();
    mac_pcap_writer(const mac_pcap_writer&) = delete;
    mac_pcap_writer& operator=(const mac_pcap_writer&) = delete;

    /*!
     * One TB: \p bits (0/1, MSB first, a multiple of 8 in LTE), its RNTI,
     * SFN and subframe, whether its CRC passed, and a time stamp (seconds;
     * the receiver gives the subframe's time in the capture).
     */
    void write(const std::vector<uint8_t>& bits, int rnti, int sfn, int subframe, bool crc_ok, double t);
    size_t records() const { return d_records; }

private:
    std::FILE* d_f = nullptr;
    size_t d_records = 0;
};

//! \p bits (0/1) packed MSB first into bytes (a last partial byte padded
//! with zeros), and as lowercase hex (lte_dl_gen's "payload" layout).
std::vector<uint8_t> pack_bits(const std::vector<uint8_t>& bits);
std::string bits_hex(const std::vector<uint8_t>& bits);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
