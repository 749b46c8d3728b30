/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/mac/rar.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

rar_pdu malformed(std::string why)
{
    rar_pdu r;
    r.error = std::move(why);
    return r;
}

} // namespace

rar_pdu parse_rar(const uint8_t* bytes, size_t n)
{
    if (!bytes && n > 0)
        throw std::invalid_argument("bytes=null with n=" + std::to_string(n));
    if (n == 0)
        return malformed("empty PDU");
    rar_pdu r;
    // The header: subheaders until one with E = 0.
    std::vector<int> rapids;
    size_t at = 0;
    for (bool more = true; more; at++) {
        if (at >= n)
            return malformed("truncated: subheader " + std::to_string(at) + " has E=1 and ends the PDU");
        const uint8_t h = bytes[at];
        more = (h & 0x80) != 0;
        if (h & 0x40) {
            rapids.push_back(h & 0x3F);
        } else {
            // §6.1.5: the backoff indicator subheader, once and first.
            if (at != 0)
                return malformed("backoff indicator subheader at byte " + std::to_string(at) + ", not first");
            if (h & 0x30)
                return malformed("reserved bits of the backoff indicator subheader set (byte " +
                                 std::to_string(h) + ")");
            r.backoff_indicator = h & 0x0F;
        }
    }
    if (n - at < 6 * rapids.size())
        return malformed("truncated: " + std::to_string(rapids.size()) + " RAPID subheaders need " +
                         std::to_string(6 * rapids.size()) + " bytes of MAC RARs, " + std::to_string(n - at) +
                         " follow the header");
    // The MAC RARs, in the subheaders' order (§6.1.5); what follows is padding.
    for (size_t i = 0; i < rapids.size(); i++) {
        const uint8_t* b = bytes + at + 6 * i;
        if (b[0] & 0x80)
            return malformed("reserved bit of MAC RAR " + std::to_string(i) + " set");
        mac_rar a;
        a.rapid = rapids[i];
        a.timing_advance = ((b[0] & 0x7F) << 4) | (b[1] >> 4);
        a.ul_grant = (uint32_t(b[1] & 0x0F) << 16) | (uint32_t(b[2]) << 8) | b[3];
        a.tc_rnti = uint16_t((b[4] << 8) | b[5]);
        // 36.213 §4.2.3: T_A is 0..1282; the 11 bits' other values mean nothing.
        if (a.timing_advance > 1282)
            return malformed("MAC RAR " + std::to_string(i) + ": timing advance " +
                             std::to_string(a.timing_advance) + " is above 1282");
        // 36.321 Table 7.1-1: 0x0000 and 0xFFF4.. are no Temporary C-RNTI.
        if (a.tc_rnti == 0 || a.tc_rnti > 0xFFF3)
            return malformed("MAC RAR " + std::to_string(i) + ": temporary C-RNTI " + std::to_string(a.tc_rnti) +
                             " is outside 1..65523");
        r.rars.push_back(a);
    }
    r.ok = true;
    return r;
}

rar_pdu parse_rar_bits(const uint8_t* bits, size_t n_bits)
{
    if (!bits && n_bits > 0)
        throw std::invalid_argument("bits=null with n_bits=" + std::to_string(n_bits));
    if (n_bits % 8)
        return malformed("n_bits=" + std::to_string(n_bits) + " is not whole bytes");
    std::vector<uint8_t> bytes(n_bits / 8, 0);
    for (size_t i = 0; i < n_bits; i++)
        if (bits[i])
            bytes[i / 8] |= uint8_t(0x80 >> (i % 8));
    return parse_rar(bytes.data(), bytes.size());
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
