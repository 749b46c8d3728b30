/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd's AVX2 build (this file alone is compiled with -mavx2;
// turbo_window_decoder.cc calls it only on CPUs that have AVX2).
#include "turbo/turbo_window_kernel.h"

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

// 8 x 8 int16 transpose within each 128-bit half: half h of out[k] is row
// 8h + k of in[0..7] (unpacks at 16, 32, 64 bits).
inline void transpose8(const __m256i* in, __m256i* out)
{
    __m256i a[8], b[8];
    for (int i = 0; i < 4; i++) {
        a[2 * i] = _mm256_unpacklo_epi16(in[2 * i], in[2 * i + 1]);
        a[2 * i + 1] = _mm256_unpackhi_epi16(in[2 * i], in[2 * i + 1]);
    }
    for (int i = 0; i < 2; i++) {
        b[4 * i] = _mm256_unpacklo_epi32(a[4 * i], a[4 * i + 2]);
        b[4 * i + 1] = _mm256_unpackhi_epi32(a[4 * i], a[4 * i + 2]);
        b[4 * i + 2] = _mm256_unpacklo_epi32(a[4 * i + 1], a[4 * i + 3]);
        b[4 * i + 3] = _mm256_unpackhi_epi32(a[4 * i + 1], a[4 * i + 3]);
    }
    for (int i = 0; i < 4; i++) {
        out[2 * i] = _mm256_unpacklo_epi64(b[i], b[4 + i]);
        out[2 * i + 1] = _mm256_unpackhi_epi64(b[i], b[4 + i]);
    }
}

// 16 x 16 int16 transpose: out[r] lane t = in[t] lane r.
inline void transpose16(const __m256i* in, __m256i* out)
{
    __m256i x[8], y[8];
    transpose8(in, x);
    transpose8(in + 8, y);
    for (int k = 0; k < 8; k++) {
        out[k] = _mm256_permute2x128_si256(x[k], y[k], 0x20);
        out[8 + k] = _mm256_permute2x128_si256(x[k], y[k], 0x31);
    }
}

} // namespace

namespace {

__attribute__((flatten)) void run(const job& j) { kernel::run<avx2_ops>(j); }

// Saturated and rounded as turbo_fx::quantize_vectorisable: max_ps(v, lo)
// is lo when v is NaN (the second operand wins); cvtps rounds half to even
// (MXCSR default), as its 1.5 * 2^23 trick does.
inline __m256i quantise8(__m256 v, __m256 scale)
{
    const __m256 lo = _mm256_set1_ps(-float(turbo_fx::LLR_MAX)), hi = _mm256_set1_ps(float(turbo_fx::LLR_MAX));
    return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(v, scale), lo), hi));
}

// 24 floats (8 steps of d0 d1 d2) into their three streams: blends gather
// each stream's values, a lane permutation puts them in order.
inline void split24(const float* in, __m256* s)
{
    const __m256 a = _mm256_loadu_ps(in), b = _mm256_loadu_ps(in + 8), c = _mm256_loadu_ps(in + 16);
    s[0] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24),
                                    _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    s[1] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x24), c, 0x49),
                                    _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    s[2] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x49), c, 0x92),
                                    _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

void quantise_split(const float* in, int K, float scale, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail)
{
    const __m256 sc = _mm256_set1_ps(scale);
    int16_t* out[3] = { sys, p0, p1 };
    int k = 0;
    for (; k + 16 <= K; k += 16) {
        __m256 u[3], v[3];
        split24(in + 3 * k, u);
        split24(in + 3 * k + 24, v);
        for (int i = 0; i < 3; i++) {
            const __m256i p = _mm256_packs_epi32(quantise8(u[i], sc), quantise8(v[i], sc));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[i] + k), _mm256_permute4x64_epi64(p, 0xD8));
        }
    }
    for (; k < K; k++)
        for (int i = 0; i < 3; i++)
            out[i][k] = int16_t(turbo_fx::quantize_vectorisable(in[3 * k + i], scale));
    for (int i = 0; i < 12; i++)
        tail[i] = int16_t(turbo_fx::quantize_vectorisable(in[3 * K + i], scale));
}

// 16 steps of int8 d0 d1 d2 (48 bytes) into their three streams: each
// stream's bytes picked from the three 16-byte loads (0x80: none), merged,
// saturated (-128 to -LLR_MAX) and widened.
void split_int8(const int8_t* in, int K, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail)
{
    alignas(16) static const int8_t pick[3][3][16] = {
        { { 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 },
          { -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1 },
          { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13 } },
        { { 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 },
          { -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1 },
          { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14 } },
        { { 2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 },
          { -1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1 },
          { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15 } },
    };
    const __m128i lo = _mm_set1_epi8(int8_t(-turbo_fx::LLR_MAX));
    int16_t* out[3] = { sys, p0, p1 };
    int k = 0;
    for (; k + 16 <= K; k += 16) {
        __m128i x[3];
        for (int b = 0; b < 3; b++)
            x[b] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 3 * k + 16 * b));
        for (int i = 0; i < 3; i++) {
            __m128i v = _mm_setzero_si128();
            for (int b = 0; b < 3; b++)
                v = _mm_or_si128(v, _mm_shuffle_epi8(x[b], _mm_load_si128(reinterpret_cast<const __m128i*>(pick[i][b]))));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[i] + k), _mm256_cvtepi8_epi16(_mm_max_epi8(v, lo)));
        }
    }
    for (; k < K; k++)
        for (int i = 0; i < 3; i++)
            out[i][k] = int16_t(turbo_fx::quantize(in[3 * k + i]));
    for (int i = 0; i < 12; i++)
        tail[i] = int16_t(turbo_fx::quantize(in[3 * K + i]));
}

void permute_rows(const int16_t* src, int W, const uint16_t* to_row, const uint8_t* idx, const uint8_t* ctl,
                  int16_t* dst)
{
    for (int r = 0; r < W; r++)
        avx2_ops::store(dst + size_t(to_row[r]) * LANES,
                        avx2_ops::permute(avx2_ops::load(src + size_t(r) * LANES), idx + size_t(r) * LANES,
                                          ctl + size_t(64) * r));
}

void to_lanes(const int16_t* const* src, int W, int16_t* dst)
{
    int r = 0;
    for (; r + 16 <= W; r += 16) {
        __m256i in[16], out[16];
        for (int t = 0; t < LANES; t++)
            in[t] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src[t] + r));
        transpose16(in, out);
        for (int i = 0; i < 16; i++)
            _mm256_store_si256(reinterpret_cast<__m256i*>(dst + (r + i) * LANES), out[i]);
    }
    for (; r < W; r++)
        for (int t = 0; t < LANES; t++)
            dst[r * LANES + t] = src[t][r];
}

void hard_from_lanes(const int16_t* app, int W, uint8_t* const* dst)
{
    int r = 0;
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1);
    for (; r + 16 <= W; r += 16) {
        __m256i in[16], out[16];
        for (int i = 0; i < 16; i++)
            in[i] = _mm256_load_si256(reinterpret_cast<const __m256i*>(app + (r + i) * LANES));
        transpose16(in, out);
        for (int t = 0; t < LANES; t += 2) {
            // packs works per 128-bit half: [t lo, t+1 lo, t hi, t+1 hi] -> [t, t+1]
            const __m256i p = _mm256_packs_epi16(_mm256_cmpgt_epi16(out[t], zero), _mm256_cmpgt_epi16(out[t + 1], zero));
            const __m256i b = _mm256_and_si256(_mm256_permute4x64_epi64(p, 0xD8), one);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst[t] + r), _mm256_castsi256_si128(b));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst[t + 1] + r), _mm256_extracti128_si256(b, 1));
        }
    }
    for (; r < W; r++)
        for (int t = 0; t < LANES; t++)
            dst[t][r] = app[r * LANES + t] > 0 ? 1 : 0;
}

void scale(const int16_t* le, size_t n, int sq, int16_t* out)
{
    const auto k = avx2_ops::make_scaler(sq);
    for (size_t i = 0; i < n; i += LANES)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                            avx2_ops::scale(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(le + i)), k));
}

} // namespace

const build_fns& avx2_build()
{
    static const build_fns f{ run, quantise_split, split_int8, permute_rows, to_lanes, hard_from_lanes, scale };
    return f;
}

} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr
