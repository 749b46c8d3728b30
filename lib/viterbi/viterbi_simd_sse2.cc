/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-simd's SSE2 passes (compiled with -msse2; every x86-64 CPU has it):
// 8 int16 lanes, 4 float lanes.
#include "viterbi/viterbi_simd_acs.h"

#include <emmintrin.h>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_simd_detail {

namespace {

struct sse2_int16 {
    using T = int16_t;
    using llr_t = int8_t;
    using offset_t = int64_t;
    using vec = __m128i;
    static constexpr int lanes = 8;
    static constexpr bool has_bias = true;
    static constexpr T unreachable = unreachable_int16;
    static vec load(const T* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
    static void store(T* p, vec v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
    static vec add(vec a, vec b) { return _mm_adds_epi16(a, b); }
    static vec sub(vec a, vec b) { return _mm_subs_epi16(a, b); }
    static vec max(vec a, vec b) { return _mm_max_epi16(a, b); }
    static vec greater(vec a, vec b) { return _mm_cmpgt_epi16(a, b); }
    static vec broadcast(T x) { return _mm_set1_epi16(x); }
    static vec broadcast_llr(int8_t x) { return _mm_set1_epi16(x); }
    static vec signed_llr(vec L, const simd_trellis& tr, int i, int b)
    {
        return _mm_xor_si128(L, load(&tr.negate_mask16[size_t(i) * tr.half + b]));
    }
    static vec bias(const simd_trellis& tr, int c, int b) { return load(&tr.negations16[size_t(c) * tr.half + b]); }
    static void interleave(vec lo, vec hi, vec& first, vec& second)
    {
        first = _mm_unpacklo_epi16(lo, hi);
        second = _mm_unpackhi_epi16(lo, hi);
    }
    // A 16-bit lane's compare mask is two equal bytes, so the byte
    // movemask spaces lane l's decision to bits 2l and 2l+1: masking and
    // ORing interleaves the two without a shuffle.
    static uint32_t decision_word(vec lo, vec hi)
    {
        return (uint32_t(_mm_movemask_epi8(lo)) & 0x5555u) | (uint32_t(_mm_movemask_epi8(hi)) & 0xAAAAu);
    }
    static T hmax(vec v)
    {
        v = _mm_max_epi16(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
        v = _mm_max_epi16(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
        v = _mm_max_epi16(v, _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1)));
        return T(_mm_cvtsi128_si32(v));
    }
};

struct sse2_float {
    using T = float;
    using llr_t = float;
    using offset_t = double;
    using vec = __m128;
    static constexpr int lanes = 4;
    static constexpr bool has_bias = false;
    static constexpr T unreachable = -__builtin_inff();
    static vec load(const T* p) { return _mm_loadu_ps(p); }
    static void store(T* p, vec v) { _mm_storeu_ps(p, v); }
    static vec add(vec a, vec b) { return _mm_add_ps(a, b); }
    static vec sub(vec a, vec b) { return _mm_sub_ps(a, b); }
    static vec max(vec a, vec b) { return _mm_max_ps(a, b); }
    static vec greater(vec a, vec b) { return _mm_cmpgt_ps(a, b); }
    static vec broadcast(T x) { return _mm_set1_ps(x); }
    static vec broadcast_llr(float x) { return _mm_set1_ps(0.5f * x); }
    static vec signed_llr(vec L, const simd_trellis& tr, int i, int b)
    {
        const auto* m = reinterpret_cast<const __m128i*>(&tr.sign_mask32[size_t(i) * tr.half + b]);
        return _mm_xor_ps(L, _mm_castsi128_ps(_mm_loadu_si128(m)));
    }
    static vec bias(const simd_trellis&, int, int) { return _mm_setzero_ps(); }
    static void interleave(vec lo, vec hi, vec& first, vec& second)
    {
        first = _mm_unpacklo_ps(lo, hi);
        second = _mm_unpackhi_ps(lo, hi);
    }
    static uint32_t decision_word(vec lo, vec hi)
    {
        return uint32_t(_mm_movemask_ps(_mm_unpacklo_ps(lo, hi))) |
               uint32_t(_mm_movemask_ps(_mm_unpackhi_ps(lo, hi))) << 4;
    }
    static T hmax(vec v)
    {
        v = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
        v = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtss_f32(v);
    }
};

} // namespace

const isa_kernels& sse2_kernels()
{
    static const isa_kernels k{
        { "sse2", sse2_int16::lanes, forward_dispatch<sse2_int16> },
        { "sse2", sse2_float::lanes, forward_dispatch<sse2_float> },
    };
    return k;
}

} // namespace viterbi_simd_detail
} // namespace core
} // namespace gpurx
} // namespace gr
