/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-simd's AVX2 passes (this file alone is compiled with -mavx2; they run
// only where __builtin_cpu_supports("avx2")): 16 int16 lanes, 8 float lanes.
// The 256-bit unpack and pack instructions work within 128-bit halves, so
// the interleaved stores fix the order with one cross-half permute per
// output.
#include "viterbi/viterbi_simd_acs.h"

#include <immintrin.h>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_simd_detail {

namespace {

struct avx2_int16 {
    using T = int16_t;
    using llr_t = int8_t;
    using offset_t = int64_t;
    using vec = __m256i;
    static constexpr int lanes = 16;
    static constexpr bool has_bias = false; // signed_llr negates with vpsignw
    static constexpr T unreachable = unreachable_int16;
    static vec load(const T* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static void store(T* p, vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
    static vec add(vec a, vec b) { return _mm256_adds_epi16(a, b); }
    static vec sub(vec a, vec b) { return _mm256_subs_epi16(a, b); }
    static vec max(vec a, vec b) { return _mm256_max_epi16(a, b); }
    static vec greater(vec a, vec b) { return _mm256_cmpgt_epi16(a, b); }
    static vec broadcast(T x) { return _mm256_set1_epi16(x); }
    static vec broadcast_llr(int8_t x) { return _mm256_set1_epi16(x); }
    // vpsignw by the +-1 of each lane: +-L in one instruction, where SSE2
    // needs an XOR and the "+1" of the two's-complement negation (bias).
    static vec signed_llr(vec L, const simd_trellis& tr, int i, int b)
    {
        return _mm256_sign_epi16(L, load(&tr.sign16[size_t(i) * tr.half + b]));
    }
    static vec bias(const simd_trellis&, int, int) { return _mm256_setzero_si256(); }
    static void interleave(vec lo, vec hi, vec& first, vec& second)
    {
        const vec l = _mm256_unpacklo_epi16(lo, hi), h = _mm256_unpackhi_epi16(lo, hi);
        first = _mm256_permute2x128_si256(l, h, 0x20);
        second = _mm256_permute2x128_si256(l, h, 0x31);
    }
    // A 16-bit lane's compare mask is two equal bytes: taking the low byte
    // from the input-0 mask and the high byte from the input-1 mask puts
    // lane l's two decisions at bits 2l and 2l+1 of one byte movemask,
    // without a shuffle (the shuffles are this pass's bottleneck).
    static uint32_t decision_word(vec lo, vec hi)
    {
        const vec high_bytes = _mm256_set1_epi16(int16_t(0xFF00));
        return uint32_t(_mm256_movemask_epi8(_mm256_blendv_epi8(lo, hi, high_bytes)));
    }
    static T hmax(vec v)
    {
        __m128i x = _mm_max_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        x = _mm_max_epi16(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2)));
        x = _mm_max_epi16(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
        x = _mm_max_epi16(x, _mm_shufflelo_epi16(x, _MM_SHUFFLE(2, 3, 0, 1)));
        return T(_mm_cvtsi128_si32(x));
    }
};

struct avx2_float {
    using T = float;
    using llr_t = float;
    using offset_t = double;
    using vec = __m256;
    static constexpr int lanes = 8;
    static constexpr bool has_bias = false;
    static constexpr T unreachable = -__builtin_inff();
    static vec load(const T* p) { return _mm256_loadu_ps(p); }
    static void store(T* p, vec v) { _mm256_storeu_ps(p, v); }
    static vec add(vec a, vec b) { return _mm256_add_ps(a, b); }
    static vec sub(vec a, vec b) { return _mm256_sub_ps(a, b); }
    static vec max(vec a, vec b) { return _mm256_max_ps(a, b); }
    static vec greater(vec a, vec b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
    static vec broadcast(T x) { return _mm256_set1_ps(x); }
    static vec broadcast_llr(float x) { return _mm256_set1_ps(0.5f * x); }
    static vec signed_llr(vec L, const simd_trellis& tr, int i, int b)
    {
        const auto* m = reinterpret_cast<const __m256i*>(&tr.sign_mask32[size_t(i) * tr.half + b]);
        return _mm256_xor_ps(L, _mm256_castsi256_ps(_mm256_loadu_si256(m)));
    }
    static vec bias(const simd_trellis&, int, int) { return _mm256_setzero_ps(); }
    static void interleave(vec lo, vec hi, vec& first, vec& second)
    {
        const vec l = _mm256_unpacklo_ps(lo, hi), h = _mm256_unpackhi_ps(lo, hi);
        first = _mm256_permute2f128_ps(l, h, 0x20);
        second = _mm256_permute2f128_ps(l, h, 0x31);
    }
    // As the int16 lanes: byte 1 of each 32-bit lane's mask taken from the
    // input-1 mask puts lane l's decisions at bits 4l and 4l+1 of the byte
    // movemask; scalar shifts close the gaps (no shuffle).
    static uint32_t decision_word(vec lo, vec hi)
    {
        const __m256i byte1 = _mm256_set1_epi32(0x0000FF00);
        uint32_t x = uint32_t(_mm256_movemask_epi8(
                         _mm256_blendv_epi8(_mm256_castps_si256(lo), _mm256_castps_si256(hi), byte1))) &
                     0x33333333u;
        x = (x | (x >> 2)) & 0x0F0F0F0Fu;
        x = (x | (x >> 4)) & 0x00FF00FFu;
        return (x | (x >> 8)) & 0x0000FFFFu;
    }
    static T hmax(vec v)
    {
        __m128 x = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        x = _mm_max_ps(x, _mm_shuffle_ps(x, x, _MM_SHUFFLE(1, 0, 3, 2)));
        x = _mm_max_ps(x, _mm_shuffle_ps(x, x, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtss_f32(x);
    }
};

} // namespace

const isa_kernels& avx2_kernels()
{
    static const isa_kernels k{
        { "avx2", avx2_int16::lanes, forward_dispatch<avx2_int16> },
        { "avx2", avx2_float::lanes, forward_dispatch<avx2_float> },
    };
    return k;
}

} // namespace viterbi_simd_detail
} // namespace core
} // namespace gpurx
} // namespace gr
