/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/lte_crc.h"

#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

// The CRC runs 32 bits per step (the decoders' early stop checks every code
// block after every iteration; a bit per step cost a third of a transport
// block's decoding time). With v = (register << 8) ^ the next 32 bits, the
// register becomes v x^24 mod g, the sum of t[k][byte k of v] where
// t[k][b] = b x^(8k+24) mod g: four lookups that do not wait on each other.
struct crc_tables {
    uint32_t t[4][256];
    explicit crc_tables(uint32_t g)
    {
        auto times_x = [g](uint32_t r) { return ((r << 1) & 0xFFFFFFu) ^ ((r & 0x800000u) ? g : 0u); };
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t r = b << 16; // b x^16: then 8 steps give b x^24 mod g
            for (int i = 0; i < 8; i++)
                r = times_x(r);
            for (int k = 0; k < 4; k++) {
                t[k][b] = r;
                for (int i = 0; i < 8; i++)
                    r = times_x(r);
            }
        }
    }
};

const crc_tables& tables_of(crc24_type t)
{
    static const crc_tables a(crc24a_poly), b(crc24b_poly);
    return t == crc24_type::a ? a : b;
}

// Eight 0/1 bytes as one byte, the first bit highest (the multiply gathers
// them in the top byte).
inline uint32_t pack8(const uint8_t* bits)
{
    uint64_t x;
    std::memcpy(&x, bits, 8);
    return uint32_t(((x & 0x0101010101010101ull) * 0x8040201008040201ull) >> 56);
}

} // namespace

uint32_t crc24_update(uint32_t r, const uint8_t* bits, size_t n, crc24_type type)
{
    const auto& T = tables_of(type).t;
    const uint32_t g = crc24_poly(type);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const uint32_t v = (r << 8) ^ (pack8(bits + i) << 24) ^ (pack8(bits + i + 8) << 16) ^
                           (pack8(bits + i + 16) << 8) ^ pack8(bits + i + 24);
        r = T[3][v >> 24] ^ T[2][(v >> 16) & 0xFFu] ^ T[1][(v >> 8) & 0xFFu] ^ T[0][v & 0xFFu];
    }
    for (; i < n; i++) {
        const uint32_t fb = ((r >> 23) & 1u) ^ (bits[i] & 1u);
        r = ((r << 1) & 0xFFFFFFu) ^ (fb ? g : 0u);
    }
    return r;
}

uint32_t crc24(const uint8_t* bits, size_t n, crc24_type t) { return crc24_update(0, bits, n, t); }

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
