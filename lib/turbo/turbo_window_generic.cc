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

#include <algorithm>
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

__attribute__((flatten)) void run_generic(const job& j) { kernel::run<generic_ops>(j); }

void scale_generic(const int16_t* le, size_t n, int sq, int16_t* out)
{
    alignas(64) int16_t row[LANES];
    const auto k = generic_ops::make_scaler(sq);
    for (size_t i = 0; i < n; i += LANES) {
        std::copy(le + i, le + i + LANES, row);
        generic_ops::store(row, generic_ops::scale(generic_ops::load(row), k));
        std::copy(row, row + LANES, out + i);
    }
}

} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr
