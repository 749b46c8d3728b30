/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MAC PDU of a random access response (36.321 §6.1.5, §6.2.2, §6.2.3),
// the transport block a PDSCH addressed to an RA-RNTI carries:
//
//   header:  subheaders of one byte each, while E = 1 another follows
//            E/T/R/R/BI   (T = 0) the backoff indicator, at most once, first
//            E/T/RAPID    (T = 1) one per MAC RAR, in the RARs' order
//   payload: one 6-byte MAC RAR per RAPID subheader, then padding
//   MAC RAR: R (1) | Timing Advance (11) | UL grant (20) | Temporary C-RNTI (16)
//
// The Temporary C-RNTI is the UE's C-RNTI once contention resolution (Msg4
// on that RNTI) succeeds, which is why a receiver learns RNTIs from it.
// Malformed PDUs (truncated, reserved bits set, a backoff subheader out of
// place, a timing advance above 1282, a reserved RNTI value) come back with the reason, never a throw.
#ifndef INCLUDED_GPURX_LTE_MAC_RAR_H
#define INCLUDED_GPURX_LTE_MAC_RAR_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! One MAC RAR and the RAPID of its subheader.
struct mac_rar {
    int rapid = 0;            //!< random access preamble identifier, 0..63
    int timing_advance = 0;   //!< T_A, 0..1282 (11 bits; 36.213 §4.2.3)
    uint32_t ul_grant = 0;    //!< the 20-bit uplink grant (36.213 §6.2), MSB first
    uint16_t tc_rnti = 0;     //!< Temporary C-RNTI, 0x0001..0xFFF3
};

struct rar_pdu {
    bool ok = false;
    std::string error;          //!< why the PDU is malformed, when !ok
    int backoff_indicator = -1; //!< BI 0..15 (36.321 Table 7.2-1), -1: none
    std::vector<mac_rar> rars;
};

//! The RAR PDU of \p n bytes. Never throws on bad content; throws
//! std::invalid_argument naming bytes when it is null with n > 0.
rar_pdu parse_rar(const uint8_t* bytes, size_t n);

//! The same from a transport block's bits (0/1 bytes, the first bit the MSB
//! of the first byte, as the DL-SCH decoder gives them); \p n_bits not a
//! multiple of 8 is a malformed PDU.
rar_pdu parse_rar_bits(const uint8_t* bits, size_t n_bits);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
