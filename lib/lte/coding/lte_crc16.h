/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The 16-bit CRC of TS 36.212 §5.1.1 that the BCH (MIB) and the DCIs carry,
// and the masks that §5.3.1.1 (PBCH: antenna ports) and §5.3.3.2 (PDCCH:
// RNTI) XOR onto its parity bits.
//
// Bit order, the one convention every function here shares: a 16-bit value
// v stands for the parity bits p_0..p_15 with p_0 = the MOST significant bit
// (bit 15 of v) and p_15 = bit 0. 36.212 sends p_0 first (it is the
// coefficient of D^15), so v is read off the air MSB first.
//
//   CRC:   g_CRC16(D) = D^16 + D^12 + D^5 + 1 (0x1021), register starting at 0,
//          no reflection, no final XOR: crc16("1") = 0x1021.
//   PBCH:  x_ant,0..15 as a value in the same order: 1 port 0x0000, 2 ports
//          0xFFFF, 4 ports 0x5555 (<0,1,0,1,...>: x_ant,0 = 0 is the MSB).
//   PDCCH: x_rnti,0 = the MSB of the RNTI, so the mask's value IS the RNTI.
//
// A receiver computes crc16 over the received payload bits and XORs it with
// the received 16 parity bits (read MSB first): the result is the mask the
// transmitter applied, i.e. the port mask (PBCH) or the RNTI (PDCCH) when
// the payload is right.
#ifndef INCLUDED_GPURX_LTE_CODING_LTE_CRC16_H
#define INCLUDED_GPURX_LTE_CODING_LTE_CRC16_H

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The generator's low 16 bits (D^12 + D^5 + 1), D^16 implied.
constexpr uint16_t crc16_polynomial = 0x1021;

//! The parity bits p_0..p_15 (p_0 = MSB) of the \p n bits a_0..a_{n-1}
//! (0/1 bytes; any nonzero byte counts as 1). n = 0 gives 0. Throws
//! std::invalid_argument naming n when it is negative.
uint16_t crc16(const uint8_t* bits, int n);

//! \p n bits (MSB first) as a value: bits[0] becomes bit n-1. n in 0..32.
uint32_t bits_to_value(const uint8_t* bits, int n);
//! \p value's low \p n bits as 0/1 bytes, MSB first. n in 0..32.
void value_to_bits(uint32_t value, int n, uint8_t* bits);

//! 36.212 §5.3.1.1 (Table 5.3.1.1-1): the PBCH CRC mask for 1, 2 or 4 cell
//! antenna ports (0x0000, 0xFFFF, 0x5555). Throws naming ports otherwise.
uint16_t pbch_crc_mask(int ports);
//! The port count (1, 2, 4) whose mask is \p mask, or 0 when none is.
int pbch_ports_of_mask(uint16_t mask);

//! 36.212 §5.3.3.2: the PDCCH CRC mask of an RNTI (x_rnti,0 = its MSB), the
//! RNTI itself. Spelled out so that callers say what they mean.
constexpr uint16_t pdcch_crc_mask(uint16_t rnti) { return rnti; }

//! Appends the 16 parity bits of bits[0..n) XOR \p mask at bits[n..n+16)
//! (p_0 first): what a transmitter sends (36.212 §5.1.1, §5.3.1.1, §5.3.3.2).
void attach_crc16(uint8_t* bits, int n, uint16_t mask = 0);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
