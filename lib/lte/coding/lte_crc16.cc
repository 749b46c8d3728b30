/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/coding/lte_crc16.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

void check_n(int n, int max, const char* what)
{
    if (n < 0 || n > max)
        throw std::invalid_argument(std::string(what) + "=" + std::to_string(n) + " is not in 0.." +
                                    std::to_string(max));
}

} // namespace

uint16_t crc16(const uint8_t* bits, int n)
{
    if (n < 0)
        throw std::invalid_argument("n=" + std::to_string(n) + " is not a bit count (negative)");
    // 36.212 §5.1.1: the remainder of a(D) * D^16 divided by g_CRC16(D),
    // one input bit at a time, the register's MSB holding the coefficient of
    // the highest power (p_0).
    uint16_t r = 0;
    for (int i = 0; i < n; i++) {
        const unsigned in = bits[i] ? 1u : 0u;
        const unsigned top = (r >> 15) & 1u;
        r = uint16_t(r << 1);
        if (top ^ in)
            r ^= crc16_polynomial;
    }
    return r;
}

uint32_t bits_to_value(const uint8_t* bits, int n)
{
    check_n(n, 32, "n");
    uint32_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 1) | (bits[i] ? 1u : 0u);
    return v;
}

void value_to_bits(uint32_t value, int n, uint8_t* bits)
{
    check_n(n, 32, "n");
    for (int i = 0; i < n; i++)
        bits[i] = uint8_t((value >> (n - 1 - i)) & 1u);
}

uint16_t pbch_crc_mask(int ports)
{
    switch (ports) {
    case 1: return 0x0000;
    case 2: return 0xFFFF;
    case 4: return 0x5555; // <0,1,0,1,...,0,1>, x_ant,0 = 0 the MSB
    default:
        throw std::invalid_argument("ports=" + std::to_string(ports) + " is not 1, 2 or 4");
    }
}

int pbch_ports_of_mask(uint16_t mask)
{
    for (int p : { 1, 2, 4 })
        if (pbch_crc_mask(p) == mask)
            return p;
    return 0;
}

void attach_crc16(uint8_t* bits, int n, uint16_t mask)
{
    const uint16_t parity = uint16_t(crc16(bits, n) ^ mask);
    value_to_bits(parity, 16, bits + n);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
