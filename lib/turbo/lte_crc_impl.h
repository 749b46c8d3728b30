/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Inside crc24_update (lte_crc.h): what its builds share, lte_crc.cc's
// generic one and lte_crc_clmul.cc's. Not part of the library's interface.
//
// The builds run the CRC in its reflected form: the register's coefficient
// of x^(23-j) is held in bit j (rho = reflect24(reg)), and the message bits
// are packed first bit lowest (bit i of byte k is bit 8k + i: what a byte
// movemask gives). The first bit then meets the register's top coefficient
// at bit 0, as in the LSB-first CRCs (CRC-32 of Ethernet): one right shift
// per bit, 64 bits per table step, and 128-bit carry-less multiplies whose
// operands need no bit reversal. The parity is the same polynomial
// remainder; only its bits are held in the other order, and crc24_update
// reflects the register once on the way in and once on the way out.
//
// The arithmetic has one definition, times_x below (the spec's shift
// register, one bit): every table and fold constant is built from it at
// start-up, for either polynomial, so the builds can differ from the spec
// and from each other only in how they lay out and combine the bits, which
// is what test_lte_crc checks against a register written independently.
#ifndef INCLUDED_GPURX_TURBO_LTE_CRC_IMPL_H
#define INCLUDED_GPURX_TURBO_LTE_CRC_IMPL_H

#include "turbo/lte_crc.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {
namespace crc24_impl {

//! reg * x mod g, reg in the spec's order (bit 23 = coefficient of x^23).
constexpr uint32_t times_x(uint32_t reg, uint32_t g)
{
    return ((reg << 1) & 0xFFFFFFu) ^ ((reg & 0x800000u) ? g : 0u);
}

//! The 24 low bits in the other order.
inline uint32_t reflect24(uint32_t r)
{
    r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
    r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
    r = ((r >> 4) & 0x0F0F0F0Fu) | ((r & 0x0F0F0F0Fu) << 4);
    r = ((r >> 8) & 0x00FF00FFu) | ((r & 0x00FF00FFu) << 8);
    r = (r >> 16) | (r << 16);
    return r >> 8;
}

struct tables {
    //! slice[s][b]: reflected (b(x) x^(24 + 8s) mod g), where b(x) is the
    //! byte b as 8 message bits (bit 0 first: the coefficient of x^7). A
    //! 64-bit step looks up byte k of (data ^ rho) in slice[7 - k].
    uint32_t slice[8][256];
    //! The folds' constants (lte_crc_clmul.cc): fold[d][0] and fold[d][1]
    //! are x^(128(d+1) + 63) and x^(128(d+1) - 1) mod g, reflected in 64
    //! bits (the coefficient of x^e in bit 63 - e).
    uint64_t fold[4][2];
    explicit tables(uint32_t g);
};
//! Built once per polynomial (lte_crc.cc).
const tables& tables_of(crc24_type t);

//! x86 build (lte_crc_clmul.cc): rho after the n unpacked bits.
uint32_t update_clmul(uint32_t rho, const uint8_t* bits, size_t n, const tables& T);

// Internal linkage from here on: each build's file compiles its own copy
// with its own instruction set (an inline function of external linkage
// would be one copy for both, whichever the linker kept).
namespace {

//! rho after the 64 message bits of d (bit i = message bit i).
inline uint32_t step64(uint32_t rho, uint64_t d, const tables& T)
{
    const uint64_t v = d ^ rho;
    return T.slice[7][v & 0xFFu] ^ T.slice[6][(v >> 8) & 0xFFu] ^ T.slice[5][(v >> 16) & 0xFFu] ^
           T.slice[4][(v >> 24) & 0xFFu] ^ T.slice[3][(v >> 32) & 0xFFu] ^ T.slice[2][(v >> 40) & 0xFFu] ^
           T.slice[1][(v >> 48) & 0xFFu] ^ T.slice[0][v >> 56];
}

//! rho after m < 8 message bits, bit i of b = message bit i (the bits above
//! m ignored): the top m coefficients leave the register and come back,
//! with the bits, as a byte of m bits shifted up to the byte's end.
inline uint32_t step_bits(uint32_t rho, uint32_t b, unsigned m, const tables& T)
{
    if (m == 0)
        return rho;
    const uint32_t v = (rho ^ b) & ((1u << m) - 1u);
    return (rho >> m) ^ T.slice[0][(v << (8 - m)) & 0xFFu];
}

inline uint64_t load64(const uint8_t* p)
{
    uint64_t x;
    std::memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

//! rho after the 8 * nbytes bits of packed bytes (bit i of byte k = message bit 8k + i).
inline uint32_t update_packed(uint32_t rho, const uint8_t* packed, size_t nbytes, const tables& T)
{
    size_t k = 0;
    for (; k + 8 <= nbytes; k += 8)
        rho = step64(rho, load64(packed + k), T);
    for (; k < nbytes; k++)
        rho = (rho >> 8) ^ T.slice[0][(rho ^ packed[k]) & 0xFFu];
    return rho;
}

//! Eight bytes' lowest bits as one byte, byte i to bit i (the multiply
//! gathers them in the top byte: each lands there once, nothing carries).
inline uint32_t pack8(const uint8_t* bits)
{
    return uint32_t(((load64(bits) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

//! The generic build: rho after the n unpacked bits, 64 per step.
inline uint32_t update_generic(uint32_t rho, const uint8_t* bits, size_t n, const tables& T)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t d = 0;
        for (int k = 0; k < 8; k++)
            d |= uint64_t(pack8(bits + i + 8 * k)) << (8 * k);
        rho = step64(rho, d, T);
    }
    for (; i + 8 <= n; i += 8)
        rho = (rho >> 8) ^ T.slice[0][(rho ^ pack8(bits + i)) & 0xFFu];
    uint32_t b = 0;
    for (size_t j = i; j < n; j++)
        b |= uint32_t(bits[j] & 1u) << (j - i);
    return step_bits(rho, b, unsigned(n - i), T);
}

} // namespace

} // namespace crc24_impl
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
