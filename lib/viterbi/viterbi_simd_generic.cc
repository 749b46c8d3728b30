/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-simd's portable path: one lane, plain C++. It runs every code (the
// SIMD ones need at least as many butterflies as lanes) on every CPU, and is
// what the SSE2 and AVX2 passes are tested against (test_viterbi_simd).
#include "viterbi/viterbi_simd_acs.h"

#include <cstring>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_simd_detail {

namespace {

int16_t saturate16(int x) { return int16_t(x > 32767 ? 32767 : x < -32768 ? -32768 : x); }

struct generic_int16 {
    using T = int16_t;
    using llr_t = int8_t;
    using offset_t = int64_t;
    using vec = int16_t;
    static constexpr int lanes = 1;
    static constexpr bool has_bias = true;
    static constexpr T unreachable = unreachable_int16;
    static vec load(const T* p) { return *p; }
    static void store(T* p, vec v) { *p = v; }
    static vec add(vec a, vec b) { return saturate16(int(a) + int(b)); }
    static vec sub(vec a, vec b) { return saturate16(int(a) - int(b)); }
    static vec max(vec a, vec b) { return a > b ? a : b; }
    static bool greater(vec a, vec b) { return a > b; }
    static vec broadcast(T x) { return x; }
    static vec broadcast_llr(int8_t x) { return x; }
    static vec signed_llr(vec L, const simd_trellis& tr, int i, int b)
    {
        return vec(L ^ tr.negate_mask16[size_t(i) * tr.half + b]);
    }
    static vec bias(const simd_trellis& tr, int c, int b) { return tr.negations16[size_t(c) * tr.half + b]; }
    static void interleave(vec lo, vec hi, vec& first, vec& second)
    {
        first = lo;
        second = hi;
    }
    static uint32_t decision_word(bool lo, bool hi) { return uint32_t(lo) | uint32_t(hi) << 1; }
    static T hmax(vec v) { return v; }
};

struct generic_float {
    using T = float;
    using llr_t = float;
    using offset_t = double;
    using vec = float;
    static constexpr int lanes = 1;
    static constexpr bool has_bias = false;
    static constexpr T unreachable = -__builtin_inff();
    static vec load(const T* p) { return *p; }
    static void store(T* p, vec v) { *p = v; }
    static vec add(vec a, vec b) { return a + b; }
    static vec sub(vec a, vec b) { return a - b; }
    static vec max(vec a, vec b) { return a > b ? a : b; }
    static bool greater(vec a, vec b) { return a > b; }
    static vec broadcast(T x) { return x; }
    static vec broadcast_llr(float x) { return 0.5f * x; }
    static vec signed_llr(vec L, const simd_trellis& tr, int i, int b)
    {
        // The same sign flip as the SIMD passes' XOR, so all round alike.
        uint32_t u;
        std::memcpy(&u, &L, sizeof u);
        u ^= tr.sign_mask32[size_t(i) * tr.half + b];
        std::memcpy(&L, &u, sizeof u);
        return L;
    }
    static vec bias(const simd_trellis&, int, int) { return 0.0f; }
    static void interleave(vec lo, vec hi, vec& first, vec& second)
    {
        first = lo;
        second = hi;
    }
    static uint32_t decision_word(bool lo, bool hi) { return uint32_t(lo) | uint32_t(hi) << 1; }
    static T hmax(vec v) { return v; }
};

} // namespace

const isa_kernels& generic_kernels()
{
    static const isa_kernels k{
        { "generic", generic_int16::lanes, forward_dispatch<generic_int16> },
        { "generic", generic_float::lanes, forward_dispatch<generic_float> },
    };
    return k;
}

} // namespace viterbi_simd_detail
} // namespace core
} // namespace gpurx
} // namespace gr
