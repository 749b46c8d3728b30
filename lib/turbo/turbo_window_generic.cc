/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd's portable build: GCC vector types (16 x int16), compiled
// for the target's baseline (SSE2 on x86-64, NEON on aarch64). The reference
// the other builds are tested against, bit for bit.
#pragma GCC diagnostic ignored "-Wpsabi" // 32-byte vectors stay inside this file

#include "turbo/turbo_window_kernel.h"

#include <cstring>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo_win {

namespace {

struct generic_ops : turbo_fx::simd_ops {
    using V = turbo_fx::simd_v;
    static V load(const int16_t* p)
    {
        V v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static void store(int16_t* p, V v) { std::memcpy(p, &v, sizeof v); }
    static V permute(V v, const uint8_t* idx, const uint8_t*)
    {
        V r;
        for (int t = 0; t < LANES; t++)
            r[t] = v[idx[t]];
        return r;
    }
    // turbo_fx::scale_extrinsic per lane: widened to 32 bits for the product.
    using scaler = int;
    static scaler make_scaler(int sq) { return sq; }
    static V scale(V le, int sq)
    {
        typedef int32_t wide __attribute__((vector_size(4 * LANES)));
        wide w = (__builtin_convertvector(le, wide) * sq) >> 8;
        const wide hi = wide{} + turbo_fx::EXT_MAX, lo = wide{} - turbo_fx::EXT_MAX;
        w = w > hi ? hi : w;
        w = w < lo ? lo : w;
        return __builtin_convertvector(w, V);
    }
};

} // namespace

namespace {

__attribute__((flatten)) void run(const job& j) { kernel::run<generic_ops>(j); }

// Quantises n floats: GCC vectors, so the selects are branch-free (the
// plain loop is not vectorised and mispredicts on noisy LLRs).
void quantise(const float* in, size_t n, float scale, int16_t* out)
{
    typedef float f8 __attribute__((vector_size(32)));
    typedef int32_t i8 __attribute__((vector_size(32)));
    const f8 lo = f8{} - float(turbo_fx::LLR_MAX), hi = f8{} + float(turbo_fx::LLR_MAX);
    const f8 round_even = f8{} + 12582912.0f;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        f8 v;
        std::memcpy(&v, in + i, sizeof v);
        v = v * scale;
        v = v >= lo ? v : lo; // NaN and -Inf: -LLR_MAX
        v = v <= hi ? v : hi;
        const i8 r = __builtin_convertvector((v + round_even) - round_even, i8);
        for (int k = 0; k < 8; k++)
            out[i + k] = int16_t(r[k]);
    }
    for (; i < n; i++)
        out[i] = int16_t(turbo_fx::quantize_vectorisable(in[i], scale));
}

void quantise_split(const float* in, int K, float scale, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail)
{
    int16_t q[3 * 16];
    for (int k = 0; k < K; k += 16) {
        const int m = K - k < 16 ? K - k : 16;
        quantise(in + 3 * size_t(k), 3 * size_t(m), scale, q);
        for (int i = 0; i < m; i++) {
            sys[k + i] = q[3 * i];
            p0[k + i] = q[3 * i + 1];
            p1[k + i] = q[3 * i + 2];
        }
    }
    quantise(in + 3 * size_t(K), 12, scale, tail);
}

void split_int8(const int8_t* in, int K, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail)
{
    for (int k = 0; k < K; k++) {
        sys[k] = int16_t(turbo_fx::quantize(in[3 * k]));
        p0[k] = int16_t(turbo_fx::quantize(in[3 * k + 1]));
        p1[k] = int16_t(turbo_fx::quantize(in[3 * k + 2]));
    }
    for (int i = 0; i < 12; i++)
        tail[i] = int16_t(turbo_fx::quantize(in[3 * K + i]));
}

void permute_rows(const int16_t* src, int W, const uint16_t* to_row, const uint8_t* idx, const uint8_t*,
                  int16_t* dst)
{
    for (int r = 0; r < W; r++) {
        int16_t* d = dst + size_t(to_row[r]) * LANES;
        const uint8_t* x = idx + size_t(r) * LANES;
        for (int t = 0; t < LANES; t++)
            d[t] = src[size_t(r) * LANES + x[t]];
    }
}

void to_lanes(const int16_t* const* src, int W, int16_t* dst)
{
    for (int r = 0; r < W; r++)
        for (int t = 0; t < LANES; t++)
            dst[r * LANES + t] = src[t][r];
}

void hard_from_lanes(const int16_t* app, int W, uint8_t* const* dst)
{
    for (int t = 0; t < LANES; t++)
        for (int r = 0; r < W; r++)
            dst[t][r] = app[r * LANES + t] > 0 ? 1 : 0;
}

void scale(const int16_t* le, size_t n, int sq, int16_t* out)
{
    for (size_t i = 0; i < n; i += LANES)
        generic_ops::store(out + i, generic_ops::scale(generic_ops::load(le + i), sq));
}

} // namespace

const build_fns& generic_build()
{
    static const build_fns f{ run, quantise_split, split_int8, permute_rows, to_lanes, hard_from_lanes, scale };
    return f;
}

} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr
