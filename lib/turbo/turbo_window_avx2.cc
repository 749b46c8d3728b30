/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd's AVX2 build (this file alone is compiled with -mavx2;
// turbo_window_decoder.cc calls it only on CPUs that have AVX2).
#include "turbo/turbo_window_kernel.h"

#include <algorithm>
#include <immintrin.h>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo_win {

namespace {

struct avx2_ops {
    using V = __m256i;
    static V add(V a, V b) { return _mm256_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi16(a, b); }
    static V addmax(V a, V b, V c) { return _mm256_max_epi16(_mm256_add_epi16(a, b), c); }
    static V zero() { return _mm256_setzero_si256(); }
    static V splat(int x) { return _mm256_set1_epi16(int16_t(x)); }
    static V load(const int16_t* p) { return _mm256_load_si256(reinterpret_cast<const V*>(p)); }
    static void store(int16_t* p, V v) { _mm256_store_si256(reinterpret_cast<V*>(p), v); }
    // A 16-bit lane gather across both 128-bit halves: vpshufb picks within
    // a half, so the lanes from the same half and those from the other
    // (halves swapped) are picked separately and merged.
    static V permute(V v, const uint8_t*, const uint8_t* ctl)
    {
        const V same = _mm256_shuffle_epi8(v, _mm256_load_si256(reinterpret_cast<const V*>(ctl)));
        const V swapped = _mm256_permute4x64_epi64(v, 0x4E);
        const V cross = _mm256_shuffle_epi8(swapped, _mm256_load_si256(reinterpret_cast<const V*>(ctl + 32)));
        return _mm256_or_si256(same, cross);
    }
    // turbo_fx::scale_extrinsic as clamp first (turbo_fx::ext_clamp_of), then
    // floor(le * sq / 256) as the high half of (le << s) * (sq << (8 - s)),
    // with s the smallest shift that keeps both factors in int16 (both
    // products are le * sq * 256 exactly; the clamped |le| << s fits).
    struct scaler {
        V lo, hi, factor;
        __m128i shift;
    };
    static scaler make_scaler(int sq)
    {
        const turbo_fx::ext_clamp c = turbo_fx::ext_clamp_of(sq);
        const int s = sq >= 256 ? 2 : (sq >= 128 ? 1 : 0);
        return { _mm256_set1_epi16(int16_t(c.lo)), _mm256_set1_epi16(int16_t(c.hi)),
                 _mm256_set1_epi16(int16_t(sq << (8 - s))), _mm_cvtsi32_si128(s) };
    }
    static V scale(V le, const scaler& k)
    {
        le = _mm256_min_epi16(_mm256_max_epi16(le, k.lo), k.hi);
        return _mm256_mulhi_epi16(_mm256_sll_epi16(le, k.shift), k.factor);
    }
};

} // namespace

__attribute__((flatten)) void run_avx2(const job& j) { kernel::run<avx2_ops>(j); }

void quantise_avx2(const float* in, size_t n, float scale, int16_t* out)
{
    // max_ps(v, lo) is lo when v is NaN (the second operand wins), as
    // quantize_vectorisable; cvtps rounds half to even (MXCSR default), as
    // its 1.5 * 2^23 trick does.
    const __m256 s = _mm256_set1_ps(scale), lo = _mm256_set1_ps(-float(turbo_fx::LLR_MAX)),
                 hi = _mm256_set1_ps(float(turbo_fx::LLR_MAX));
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(in + i), s), lo), hi);
        const __m256 b = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(in + i + 8), s), lo), hi);
        const __m256i p = _mm256_packs_epi32(_mm256_cvtps_epi32(a), _mm256_cvtps_epi32(b));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permute4x64_epi64(p, 0xD8));
    }
    for (; i < n; i++)
        out[i] = int16_t(turbo_fx::quantize_vectorisable(in[i], scale));
}

void scale_avx2(const int16_t* le, size_t n, int sq, int16_t* out)
{
    alignas(64) int16_t row[LANES];
    const auto k = avx2_ops::make_scaler(sq);
    for (size_t i = 0; i < n; i += LANES) {
        std::copy(le + i, le + i + LANES, row);
        avx2_ops::store(row, avx2_ops::scale(avx2_ops::load(row), k));
        std::copy(row, row + LANES, out + i);
    }
}

} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr
