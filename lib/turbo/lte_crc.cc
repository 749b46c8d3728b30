/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/lte_crc.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

uint32_t crc24(const uint8_t* bits, size_t n, crc24_type t)
{
    const uint32_t g = crc24_poly(t);
    uint32_t r = 0; // bit 23 = coefficient of D^23
    for (size_t i = 0; i < n; i++) {
        const uint32_t fb = ((r >> 23) & 1u) ^ (bits[i] & 1u);
        r = (r << 1) & 0xFFFFFFu;
        if (fb)
            r ^= g;
    }
    return r;
}

void crc24_attach(uint8_t* bits, size_t n, crc24_type t)
{
    const uint32_t p = crc24(bits, n, t);
    for (int i = 0; i < 24; i++)
        bits[n + i] = uint8_t((p >> (23 - i)) & 1u);
}

bool crc24_check(const uint8_t* bits, size_t n, crc24_type t)
{
    if (n < 24)
        return false;
    const uint32_t p = crc24(bits, n - 24, t);
    for (int i = 0; i < 24; i++)
        if (bits[n - 24 + i] != uint8_t((p >> (23 - i)) & 1u))
            return false;
    return true;
}

crc24_type parse_crc24(const std::string& name, const char* param)
{
    if (name == "crc24a")
        return crc24_type::a;
    if (name == "crc24b")
        return crc24_type::b;
    throw std::invalid_argument(std::string(param) + " must be \"crc24a\" or \"crc24b\", got \"" +
                                name + "\"");
}

} // namespace core
} // namespace gpurx
} // namespace gr
