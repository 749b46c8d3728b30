/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// 16-bit fixed-point max-log-MAP: the arithmetic of the fastest CUDA kernel
// (two codewords per thread, packed 16x2 with Hopper's DPX add-max) and of its
// CPU twin, written once for both over an "ops" type:
//   - int_ops (here): plain int, for the CPU decoder;
//   - s16x2 ops (lib/turbo/cuda/turbo_decode_fixed.cu): two int16 lanes per
//     32-bit register, add.s16x2 / max.s16x2 / VIADDMNMX (Hopper's DPX);
//   - s16x2_portable_ops (here): the same two lanes in plain integer
//     arithmetic, for GPUs without DPX (sm_75 .. sm_89, sm_100, sm_120).
// Integer add and max are exact, so the two agree bit for bit as long as no
// 16-bit lane overflows. The bounds below guarantee that:
//   channel LLRs |Ls|, |Lp| <= LLR_MAX = 127, a-priori |La| <= EXT_MAX = 511,
//   so a branch metric spans at most |Ls + La| + |Lp| <= 765; any state reaches
//   any other in 3 steps, so metrics just normalised (state 0 subtracted)
//   stay within |NEG| + 3 * 765 = 4343. Normalisation runs on every other
//   step (odd offsets within a window), so at most 2 steps run without it
//   (at a window edge), adding up to 2 * 765: metrics within 5873, a sum
//   alpha + beta + Lp within 11873, the extrinsic difference of two such sums
//   within 23746 < 32767.
// The CPU tests decode saturated and random inputs with checked_int_ops,
// which verifies every intermediate value against the int16 range.
//
// Quantisation: a float LLR L becomes rint(clamp(L * scale, -127, 127)), an
// int8 LLR v becomes max(v, -127); soft output is the integer a-posteriori
// LLR times the size of one step in LLR units.
#ifndef INCLUDED_GPURX_CORE_TURBO_FIXED_H
#define INCLUDED_GPURX_CORE_TURBO_FIXED_H

#include "common/llr_int8.h"
#include "turbo/turbo_trellis.h"
#include <cmath>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo_fx {

constexpr int LLR_MAX = int8_llr_max; //!< channel LLR saturation, in steps
constexpr int EXT_MAX = 511;  //!< a-priori/extrinsic saturation, in steps
constexpr int NEG = -2048;    //!< metric of a state the trellis cannot be in
constexpr int SCALE_ONE = 256; //!< extrinsic scale denominator (0.75 = 192/256)

//! Quantise a float LLR: round half to even after saturation (+-Inf
//! saturate; NaN becomes -LLR_MAX, as fmaxf returns the number; the blocks
//! drop codewords holding NaN before they get here). The module's one
//! definition (common/llr_int8.h), which int8 LLR producers use too.
GPURX_HD int quantize(float x, float scale) { return quantize_llr(x, scale, LLR_MAX); }
GPURX_HD int quantize(int8_t v) { return v < -LLR_MAX ? -LLR_MAX : int(v); }

//! Extrinsic scale in 1/256 steps: round(scaling * 256), at least 1.
inline int scale_q(float scaling)
{
    const int q = int(std::lround(scaling * SCALE_ONE));
    return q < 1 ? 1 : q;
}

//! Scaled and saturated extrinsic from the raw difference le (|le| < 2^15).
GPURX_HD int scale_extrinsic(int le, int sq)
{
    const int v = (le * sq) >> 8; // arithmetic shift: floor, as on the GPU
    return v > EXT_MAX ? EXT_MAX : (v < -EXT_MAX ? -EXT_MAX : v);
}

//! The same scaling as saturation first: scale_extrinsic(le, sq) equals
//! floor(clamp(le, lo, hi) * sq / 256) for every int16 le and 1 <= sq <=
//! 256, with these bounds (the largest |le| whose scaled value is within
//! EXT_MAX; floor moves by at most one step per step of le as sq <= 256).
//! The GPU clamps two lanes with one instruction each, so only the multiply
//! is done per lane.
struct ext_clamp {
    int lo, hi;
};
inline ext_clamp ext_clamp_of(int sq)
{
    const int lo = -(EXT_MAX * SCALE_ONE) / sq;
    const int hi = (EXT_MAX * SCALE_ONE + SCALE_ONE - 1) / sq;
    return { lo < -32768 ? -32768 : lo, hi > 32767 ? 32767 : hi };
}

//! Plain int arithmetic (CPU).
struct int_ops {
    using V = int;
    static GPURX_HD V add(V a, V b) { return a + b; }
    static GPURX_HD V sub(V a, V b) { return a - b; }
    //! max(a + b, c), one DPX instruction on the GPU
    static GPURX_HD V addmax(V a, V b, V c)
    {
        const V s = a + b;
        return s > c ? s : c;
    }
    static GPURX_HD V zero() { return 0; }
    static GPURX_HD V splat(int x) { return x; }
};

//! Two int16 lanes in one 32-bit word (low lane: codeword A), in plain
//! 32-bit integer arithmetic (SWAR, no lane unpacking, so no extra live
//! registers): the GPU kernel's portable path, for GPUs without Hopper's DPX
//! add-max (lib/turbo/cuda/turbo_decode_fixed.cu selects it at run time
//! below compute capability 9.0, or with GPURX_CUDA_PORTABLE=1).
//! add/sub wrap each lane modulo 2^16 like add.s16x2 / sub.s16x2, for every
//! input. addmax(a, b, c) = max(a + b, c) per signed lane, as VIADDMNMX.S16x2,
//! whenever the two compared values of a lane differ by less than 2^15,
//! which the bounds above guarantee (metrics within 5873, the sums compared
//! by extrinsic() within 11873) and checked_int_ops verifies on every
//! compare. Within the bounds nothing wraps, so each lane is int_ops bit for
//! bit. Compiled by g++ too: the CPU tests check it against int_ops.
struct s16x2_portable_ops {
    using V = uint32_t;
    static GPURX_HD int lo(V v) { return int(int16_t(uint16_t(v & 0xFFFFu))); }
    static GPURX_HD int hi(V v) { return int(int16_t(uint16_t(v >> 16))); }
    static GPURX_HD V pack(int l, int h) { return (uint32_t(l) & 0xFFFFu) | (uint32_t(h) << 16); }
    //! lane-wise a + b: the 32-bit sum less the low lane's carry into bit 16
    //! (bit 16 of a ^ b ^ sum)
    static GPURX_HD V add(V a, V b)
    {
        const V s = a + b;
        return s - ((a ^ b ^ s) & 0x10000u);
    }
    //! lane-wise a - b: the 32-bit difference plus the low lane's borrow
    static GPURX_HD V sub(V a, V b)
    {
        const V d = a - b;
        return d + ((a ^ b ^ d) & 0x10000u);
    }
    //! lane-wise signed max(s, c) for lanes with |s - c| < 2^15: the sign of
    //! each lane of c - s selects (0xFFFF where s > c)
    static GPURX_HD V max_near(V s, V c)
    {
        const V m = ((sub(c, s) >> 15) & 0x00010001u) * 0xFFFFu;
        return (s & m) | (c & ~m);
    }
    //! max(a + b, c) per lane: an add and a select where DPX does one instruction
    static GPURX_HD V addmax(V a, V b, V c) { return max_near(add(a, b), c); }
    static GPURX_HD V zero() { return 0u; }
    static GPURX_HD V splat(int x) { return pack(x, x); }
};

#ifndef __CUDACC__
//! quantize() in a form the compiler vectorises (no libm calls): the same
//! value for every input, NaN and Inf included. Rounding half to even by
//! adding and subtracting 1.5 * 2^23 is exact for |v| <= 127 in IEEE single
//! precision (the build disables contraction).
inline int quantize_vectorisable(float x, float scale)
{
    float v = x * scale;
    v = v >= -float(LLR_MAX) ? v : -float(LLR_MAX); // NaN and -Inf: -LLR_MAX
    v = v <= float(LLR_MAX) ? v : float(LLR_MAX);
    constexpr float round_even = 12582912.0f;
    return int((v + round_even) - round_even);
}

//! Quantise a codeword's LLRs: float (scale steps per LLR unit), or int8.
inline void quantize_llrs(const float* in, size_t n, float scale, int* out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = quantize_vectorisable(in[i], scale);
}
inline void quantize_llrs(const int8_t* in, size_t n, int* out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = quantize(in[i]);
}

//! One lane of s16x2_portable_ops as plain int ops (tests): each value
//! travels in lane Lane of a word whose other lane holds its negation, every
//! operation is the packed one, and the result is read back from lane Lane.
//! decode_fixed<s16x2_lane_ops<L>> therefore runs the GPU's portable
//! arithmetic, and must equal decode_fixed<int_ops> bit for bit.
template <int Lane>
struct s16x2_lane_ops {
    using V = int;
    using P = s16x2_portable_ops;
    static P::V in(V v) { return Lane ? P::pack(-v, v) : P::pack(v, -v); }
    static V out(P::V w) { return Lane ? P::hi(w) : P::lo(w); }
    static V add(V a, V b) { return out(P::add(in(a), in(b))); }
    static V sub(V a, V b) { return out(P::sub(in(a), in(b))); }
    static V addmax(V a, V b, V c) { return out(P::addmax(in(a), in(b), in(c))); }
    static V zero() { return out(P::zero()); }
    static V splat(int x) { return out(P::splat(x)); }
};

//! int_ops that count every intermediate value outside the int16 range
//! (tests: the bounds above must hold on any input).
struct checked_int_ops {
    using V = int;
    static inline long violations = 0; // single-threaded tests only
    static inline int max_abs = 0;     // largest magnitude seen
    static V check(V v)
    {
        if (v < -32768 || v > 32767)
            violations++;
        const int m = v < 0 ? -v : v;
        max_abs = m > max_abs ? m : max_abs;
        return v;
    }
    static V add(V a, V b) { return check(a + b); }
    static V sub(V a, V b) { return check(a - b); }
    static V addmax(V a, V b, V c)
    {
        const V s = check(a + b);
        // the portable GPU path needs compared values within 2^15 - 1
        if (s - c > 32767 || c - s > 32767)
            violations++;
        const int dist = s > c ? s - c : c - s;
        max_dist = dist > max_dist ? dist : max_dist;
        return s > c ? s : c;
    }
    static V zero() { return 0; }
    static V splat(int x) { return x; }
    static inline int max_dist = 0; // largest |a + b - c| of an addmax
};

//! SIMD_LANES codewords side by side, one per int16 lane of a vector (GCC
//! vector extensions: SSE2/AVX2 code without intrinsics). The CPU backend's
//! fast path; lanes never mix, so each lane is int_ops bit for bit.
constexpr int SIMD_LANES = 16;
// GCC gives this type the alignment of the ISA a function is compiled for
// (16 bytes without AVX, 32 with), so heap buffers of it must be allocated
// 64-byte aligned whatever the caller's ISA (aligned64_allocator).
typedef int16_t simd_v __attribute__((vector_size(2 * SIMD_LANES)));
// These functions are inlined within one translation unit: the ABI note GCC
// gives for 32-byte vectors built without AVX does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
struct simd_ops {
    using V = simd_v;
    static V add(V a, V b) { return a + b; }
    static V sub(V a, V b) { return a - b; }
    static V addmax(V a, V b, V c)
    {
        const V s = a + b;
        return s > c ? s : c;
    }
    static V zero() { return V{}; }
    static V splat(int x) { return V{} + int16_t(x); }
};
#pragma GCC diagnostic pop
#endif

namespace detail {
// Branch metric of (u, z) from Lu, Lp and Lu + Lp; zero for (0, 0), which
// callers fold away.
template <class O>
GPURX_HD typename O::V gamma(int u, int z, typename O::V Lu, typename O::V Lp, typename O::V g11)
{
    return u ? (z ? g11 : Lu) : Lp;
}

// max(m0 + g0, m1 + g1) where g = 0 for (u, z) = (0, 0): one add-max when
// either branch is the all-zero one, else an add and an add-max.
template <class O>
GPURX_HD typename O::V
max2(typename O::V m0, int u0, int z0, typename O::V m1, int u1, int z1,
     typename O::V Lu, typename O::V Lp, typename O::V g11)
{
    if (!u0 && !z0)
        return O::addmax(m1, gamma<O>(u1, z1, Lu, Lp, g11), m0);
    if (!u1 && !z1)
        return O::addmax(m0, gamma<O>(u0, z0, Lu, Lp, g11), m1);
    return O::addmax(m0, gamma<O>(u0, z0, Lu, Lp, g11), O::add(m1, gamma<O>(u1, z1, Lu, Lp, g11)));
}

template <class O>
GPURX_HD void normalise(typename O::V m[8])
{
    const typename O::V n = m[0];
GPURX_UNROLL
    for (int s = 1; s < 8; s++)
        m[s] = O::sub(m[s], n);
    m[0] = O::zero();
}
} // namespace detail

//! alpha_{k+1} from alpha_k (state 0 normalised to 0 when \p norm).
//! Normalisation runs when \p norm: on odd offsets within the window, which
//! halves its cost and keeps the bounds above.
template <class O>
GPURX_HD void
alpha_step(const typename O::V a[8], typename O::V Lu, typename O::V Lp, typename O::V out[8], bool norm)
{
    using namespace turbo;
    const typename O::V g11 = O::add(Lu, Lp);
GPURX_UNROLL
    for (int ns = 0; ns < 8; ns++) {
        const int s0 = ((ns >> 1) & 1) << 2 | (ns & 1) << 1, s1 = s0 | 1;
        const int u0 = (ns >> 2) ^ rsc_feedback(s0), u1 = (ns >> 2) ^ rsc_feedback(s1);
        out[ns] = detail::max2<O>(a[s0], u0, rsc_parity(s0, u0), a[s1], u1, rsc_parity(s1, u1), Lu, Lp, g11);
    }
    if (norm)
        detail::normalise<O>(out);
}

//! beta_k from beta_{k+1} (state 0 normalised to 0 when \p norm).
template <class O>
GPURX_HD void
beta_step(const typename O::V b[8], typename O::V Lu, typename O::V Lp, typename O::V out[8], bool norm)
{
    using namespace turbo;
    const typename O::V g11 = O::add(Lu, Lp);
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        out[s] = detail::max2<O>(b[rsc_next(s, 0)], 0, rsc_parity(s, 0),
                                 b[rsc_next(s, 1)], 1, rsc_parity(s, 1), Lu, Lp, g11);
    if (norm)
        detail::normalise<O>(out);
}

//! Extrinsic LLR (without Lu) of a step: max over u = 1 branches minus max
//! over u = 0 branches of alpha + beta + z Lp. Each (u, z) class has 4
//! branches; Lp is added once per class.
template <class O>
GPURX_HD typename O::V extrinsic(const typename O::V a[8], const typename O::V b_next[8], typename O::V Lp)
{
    using namespace turbo;
    typename O::V m[2][2];
    bool have[2][2] = { { false, false }, { false, false } };
GPURX_UNROLL
    for (int s = 0; s < 8; s++) {
GPURX_UNROLL
        for (int u = 0; u < 2; u++) {
            const int z = rsc_parity(s, u);
            const typename O::V bn = b_next[rsc_next(s, u)];
            m[u][z] = have[u][z] ? O::addmax(a[s], bn, m[u][z]) : O::add(a[s], bn);
            have[u][z] = true;
        }
    }
    const typename O::V m1 = O::addmax(m[1][1], Lp, m[1][0]);
    const typename O::V m0 = O::addmax(m[0][1], Lp, m[0][0]);
    return O::sub(m1, m0);
}

//! beta_K from the quantised termination LLRs: tail[2t] systematic,
//! tail[2t+1] parity of termination step t. The encoder ends in state 0.
template <class O>
GPURX_HD void tail_beta(const typename O::V tail[6], typename O::V out[8])
{
    using namespace turbo;
    typename O::V b[8];
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        b[s] = s == 0 ? O::zero() : O::splat(NEG);
    for (int t = 2; t >= 0; t--) {
        typename O::V nb[8];
GPURX_UNROLL
        for (int s = 0; s < 8; s++) {
            // The termination input equals the feedback: one branch per state.
            const int x = rsc_feedback(s), z = rsc_parity(s, x);
            typename O::V m = b[rsc_next(s, x)];
            if (x)
                m = O::add(m, tail[2 * t]);
            if (z)
                m = O::add(m, tail[2 * t + 1]);
            nb[s] = m;
        }
        detail::normalise<O>(nb);
GPURX_UNROLL
        for (int s = 0; s < 8; s++)
            b[s] = nb[s];
    }
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        out[s] = b[s];
}

} // namespace turbo_fx
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
