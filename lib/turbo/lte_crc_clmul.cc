/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// crc24_update's x86 build (this file alone is compiled with -mavx2
// -mpclmul; lte_crc.cc calls it only on CPUs that have both). Reflected
// form throughout (lte_crc_impl.h).
//
// The bits are packed 32 at a time (each byte's lowest bit shifted to its
// top, then vpmovmskb), a chunk at a time into a buffer on the stack, and
// the packed message is folded: four 128-bit accumulators, each moved 512
// bits on by two carry-less multiplies per step (independent of the other
// three, so the multiplies overlap), then folded into one, which takes the
// 128-bit blocks left, 128 bits on per step. The message so far is
// congruent to that last 128-bit value modulo g, so the register is its
// CRC: two table steps. The fewer than 128 bits left go through the tables.
//
// The folds, in the reflected layout: a 128-bit value X (bit i = the
// coefficient of x^(127 - i)) is H x^64 + L with H its low quadword and L
// its high one, each a 64-bit reflected value. Moving X on by D bits,
// X x^D = H x^(D+64) + L x^D, congruent to H (x^(D+63) mod g) x + L (x^(D-1)
// mod g) x; and pclmulqdq of two 64-bit reflected values a, b is a b x in the
// 128-bit layout (the product's top coefficient lands in bit 1, not 0), so
// the constants are x^(D+63) and x^(D-1) mod g (tables::fold). Each product
// has degree below 64 + 24 + 1, so it fits, unreduced, in 128 bits.
#include "turbo/lte_crc_impl.h"

#include <algorithm>
#include <immintrin.h>

namespace gr {
namespace gpurx {
namespace core {
namespace crc24_impl {

namespace {

// 32 bytes' lowest bits, byte i to bit i. A 16-bit shift by 7 puts each
// byte's bit 0 in its top bit and moves no other bit there.
inline uint32_t pack32(const uint8_t* bits)
{
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bits));
    return uint32_t(_mm256_movemask_epi8(_mm256_slli_epi16(v, 7)));
}

inline void pack(const uint8_t* bits, size_t n32, uint8_t* packed)
{
    for (size_t j = 0; j < n32; j++) {
        const uint32_t w = pack32(bits + 32 * j);
        std::memcpy(packed + 4 * j, &w, 4);
    }
}

inline __m128i load128(const uint8_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }

// x moved on by the constants' distance, plus d.
inline __m128i fold(__m128i x, __m128i k, __m128i d)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), d);
}

inline __m128i constants(const tables& T, int d)
{
    return _mm_set_epi64x(int64_t(T.fold[d][1]), int64_t(T.fold[d][0]));
}

} // namespace

uint32_t update_clmul(uint32_t rho, const uint8_t* bits, size_t n, const tables& T)
{
    constexpr size_t CHUNK = 8192; // bits packed per pass: 1 KiB on the stack
    alignas(64) uint8_t packed[CHUNK / 8];
    size_t i = 0;
    if (n >= 512) {
        const __m128i k512 = constants(T, 3);
        __m128i x0 = _mm_setzero_si128(), x1 = x0, x2 = x0, x3 = x0;
        bool first = true;
        while (n - i >= 512) {
            const size_t m = std::min((n - i) & ~size_t(511), CHUNK);
            pack(bits + i, m / 32, packed);
            size_t b = 0;
            if (first) {
                // The register enters as the first 24 bits' sum with it
                // (n >= 24): r x^n + M x^24 = (M + r x^(n-24)) x^24.
                x0 = _mm_xor_si128(load128(packed), _mm_cvtsi32_si128(int(rho)));
                x1 = load128(packed + 16);
                x2 = load128(packed + 32);
                x3 = load128(packed + 48);
                b = 64;
                first = false;
            }
            for (; b < m / 8; b += 64) {
                x0 = fold(x0, k512, load128(packed + b));
                x1 = fold(x1, k512, load128(packed + b + 16));
                x2 = fold(x2, k512, load128(packed + b + 32));
                x3 = fold(x3, k512, load128(packed + b + 48));
            }
            i += m;
        }
        // x0 x^384 + x1 x^256 + x2 x^128 + x3; then whole 128-bit blocks,
        // one accumulator; then its CRC from zero.
        const __m128i k128 = constants(T, 0);
        __m128i x = fold(x2, k128, x3);
        x = fold(x1, constants(T, 1), x);
        x = fold(x0, constants(T, 2), x);
        const size_t n32 = (n - i) / 128 * 4;
        pack(bits + i, n32, packed);
        for (size_t b = 0; b < 4 * n32; b += 16)
            x = fold(x, k128, load128(packed + b));
        i += 32 * n32;
        alignas(16) uint8_t last[16];
        _mm_store_si128(reinterpret_cast<__m128i*>(last), x);
        rho = update_packed(0, last, 16, T);
    }
    // Fewer than 512 bits left (128 after a fold): whole words of 32 packed,
    // then the tables.
    const size_t n32 = (n - i) / 32;
    pack(bits + i, n32, packed);
    rho = update_packed(rho, packed, 4 * n32, T);
    i += 32 * n32;
    return update_generic(rho, bits + i, n - i, T);
}

} // namespace crc24_impl
} // namespace core
} // namespace gpurx
} // namespace gr
