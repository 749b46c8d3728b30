/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared channel's CPU steps with AVX2 (this file alone is compiled with
// -mavx2; sch_steps.cc calls it only on CPUs that have AVX2). Each function
// gives, value for value, what its plain twin in sch_steps.cc gives (the
// tests hold them to it): the same Gold words (sch_arith.h), the same
// quantisation (clamp with NaN to -127, round half to even) and the same
// integer sign flips.
#include "sch/sch_steps_fast.h"
#include "common/llr_int8.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"

#include <immintrin.h>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {
namespace avx2 {

namespace {

// 32 scrambling bits as 32 sign bytes (0 or -1), bit b to byte b: each
// 128-bit half picks its two bytes of the word, the mask tests bit b % 8.
inline __m256i sign_bytes(uint32_t word)
{
    const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, //
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x(int64_t(0x8040201008040201ull));
    const __m256i b = _mm256_shuffle_epi8(_mm256_set1_epi32(int32_t(word)), pick);
    return _mm256_cmpeq_epi8(_mm256_and_si256(b, bit), bit);
}

// quantize8() of sch_steps.cc on 8 floats: max_ps(v, lo) is lo when v is NaN
// (the second operand wins), as `v > lo ? v : lo` is; cvtps rounds half to
// even (MXCSR default), as the 1.5 x 2^23 trick does.
inline __m256i quantise8(const float* x)
{
    const __m256 lo = _mm256_set1_ps(-127.0f), hi = _mm256_set1_ps(127.0f), steps = _mm256_set1_ps(int8_llr_steps);
    const __m256 v = _mm256_mul_ps(_mm256_loadu_ps(x), steps);
    return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(v, lo), hi));
}

inline __m256i flip(__m256i v, __m256i s) { return _mm256_sub_epi8(_mm256_xor_si256(v, s), s); }

} // namespace

void descramble_float(const float* x, size_t G, uint32_t c_init, int8_t* out)
{
    uint32_t x1, x2;
    gold_start(c_init, x1, x2);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t j = 0;
    for (; j + 32 <= G; j += 32) {
        const __m256i s = sign_bytes(gold_word(x1, x2));
        x1 = gold_x1_advance32(x1);
        x2 = gold_x2_advance32(x2);
        // packs work per 128-bit half: the dword order 0 4 1 5 2 6 3 7 puts
        // the 32 values back in sequence.
        const __m256i a = _mm256_packs_epi32(quantise8(x + j), quantise8(x + j + 8));
        const __m256i b = _mm256_packs_epi32(quantise8(x + j + 16), quantise8(x + j + 24));
        const __m256i v = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(a, b), order);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), flip(v, s));
    }
    if (j < G) {
        const uint32_t w = gold_word(x1, x2);
        for (size_t i = 0; j + i < G; i++) {
            const int8_t s = int8_t(0 - int((w >> i) & 1u));
            float v = x[j + i] * int8_llr_steps;
            v = v > -127.0f ? v : -127.0f;
            v = v < 127.0f ? v : 127.0f;
            const int8_t q = int8_t(int((v + 12582912.0f) - 12582912.0f));
            out[j + i] = int8_t((q ^ s) - s);
        }
    }
}

void descramble_int8(const int8_t* q, size_t G, uint32_t c_init, int8_t* out)
{
    uint32_t x1, x2;
    gold_start(c_init, x1, x2);
    const __m256i lo = _mm256_set1_epi8(-127);
    size_t j = 0;
    for (; j + 32 <= G; j += 32) {
        const __m256i s = sign_bytes(gold_word(x1, x2));
        x1 = gold_x1_advance32(x1);
        x2 = gold_x2_advance32(x2);
        const __m256i v = _mm256_max_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + j)), lo);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), flip(v, s));
    }
    if (j < G) {
        const uint32_t w = gold_word(x1, x2);
        for (size_t i = 0; j + i < G; i++) {
            const int8_t s = int8_t(0 - int((w >> i) & 1u));
            const int8_t v = q[j + i] < -127 ? int8_t(-127) : q[j + i];
            out[j + i] = int8_t((v ^ s) - s);
        }
    }
}

} // namespace avx2
} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr
