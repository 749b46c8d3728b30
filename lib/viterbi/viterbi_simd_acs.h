/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Internal to cpu-simd: the forward pass (add-compare-select over the whole
// frame, decisions as bits) written once over a lane type V, which each
// instruction set's file supplies (viterbi_simd_generic.cc, _sse2.cc,
// _avx2.cc) and compiles with its own -m flags.
//
// V is declared in an unnamed namespace of that file, so every instantiation
// below has internal linkage: the linker can never merge an AVX2 copy into
// the generic path (the classic multi-ISA ODR trap). For the same reason
// nothing here calls an inline function of another header (std::memcpy of
// a constant size is a compiler builtin).
//
// V provides: T (metric), llr_t, offset_t, vec, lanes; load, store, add,
// sub (saturating for integers), max, greater (a lane mask), broadcast_llr,
// signed_llr(L, trellis, poly, butterfly) = +-L of that polynomial,
// bias(trellis, class, butterfly) (the integer negations' "+1", where
// has_bias),
// interleave(lo, hi, first, second) (lo[0], hi[0], lo[1], hi[1], ... over
// the two vectors), decision_word(d_lo, d_hi) (the 2 x lanes decisions
// interleaved the same way: bit 2l of d_lo[l], bit 2l+1 of d_hi[l]),
// hmax(vec), unreachable.
//
// Two passes: one with the 2^(K-1) metrics in a fixed number of vectors,
// fully unrolled so that they stay in registers from step to step (the
// standard codes on SSE2/AVX2: at most 16 vectors), and one over metrics in
// memory for everything else (the generic path from K=6 on, K=9 on SSE2,
// codes whose polynomials tap one end only).
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_SIMD_ACS_H
#define INCLUDED_GPURX_VITERBI_VITERBI_SIMD_ACS_H

#include "viterbi/viterbi_simd_trellis.h"

#include <cstring>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_simd_detail {

// One butterfly group's candidates: (p0 | p1) x (input 0 | 1).
template <typename V>
struct candidates {
    typename V::vec a0, b0, a1, b1;
};

//! Branch metrics of group g (first butterfly b) added to its old metrics.
template <typename V, bool Symmetric, int N>
candidates<V> add_branches(const simd_trellis& tr, const typename V::vec* L, typename V::vec m0, typename V::vec m1, int b)
{
    using vec = typename V::vec;
    candidates<V> c;
    if (Symmetric) {
        vec A = V::signed_llr(L[0], tr, 0, b);
        for (int i = 1; i < N; i++)
            A = V::add(A, V::signed_llr(L[i], tr, i, b));
        if (V::has_bias)
            A = V::add(A, V::bias(tr, 0, b));
        c.a0 = V::add(m0, A);
        c.b0 = V::sub(m1, A);
        c.a1 = V::sub(m0, A);
        c.b1 = V::add(m1, A);
    } else {
        vec sum[3] = { V::bias(tr, 0, b), V::bias(tr, 1, b), V::bias(tr, 2, b) };
        for (int i = 0; i < N; i++) {
            const int k = tr.poly_class[i];
            sum[k] = V::add(sum[k], V::signed_llr(L[i], tr, i, b));
        }
        const vec ab = V::add(sum[0], sum[1]), a_b = V::sub(sum[0], sum[1]);
        c.a0 = V::add(m0, V::add(ab, sum[2]));  // A+B+C
        c.b0 = V::add(m1, V::sub(sum[2], ab));  // -A-B+C
        c.a1 = V::sub(m0, V::add(a_b, sum[2])); // -A+B-C
        c.b1 = V::add(m1, V::sub(a_b, sum[2])); // A-B-C
    }
    return c;
}

//! Group g's 2W decisions to bits [2b, 2b + 2W) of the step's bit array.
//! Strictly greater: a tie keeps the lower (even) predecessor.
template <typename V>
void store_decisions(const candidates<V>& c, uint64_t* dec, int b)
{
    constexpr int W = V::lanes;
    const auto word = V::decision_word(V::greater(c.b0, c.a0), V::greater(c.b1, c.a1));
    if (2 * W >= 8) // whole bytes: a plain store (little-endian: x86 only)
        std::memcpy(reinterpret_cast<uint8_t*>(dec) + 2 * b / 8, &word, 2 * W / 8);
    else // the one-lane path: OR into the cleared word, byte order free
        dec[2 * b / 64] |= uint64_t(word) << (2 * b % 64);
}

template <typename V>
void initial_metrics(typename V::T* m, int states, int start)
{
    for (int s = 0; s < states; s++)
        m[s] = s == start ? typename V::T(0) : V::unreachable;
}

// Subtracting the best metric from all keeps every difference (so every
// decision) and bounds the magnitudes: the int16 range (viterbi_simd.cc),
// and the float resolution on long frames.
template <typename V>
typename V::T renormalise(typename V::vec* m, int vectors)
{
    typename V::vec best = m[0];
    for (int k = 1; k < vectors; k++)
        best = V::max(best, m[k]);
    const typename V::T top = V::hmax(best);
    const typename V::vec t = V::broadcast(top);
    for (int k = 0; k < vectors; k++)
        m[k] = V::sub(m[k], t);
    return top;
}

//! The pass with the metrics in NV = states / lanes vectors, fully unrolled.
//! Lane-label state r lies in vector r / W, lane r % W; butterfly group g
//! reads vectors g and g + NV/2 and writes vectors 2g and 2g + 1.
template <typename V, bool Symmetric, int N, int NV>
typename V::offset_t forward_in_registers(const simd_trellis& tr,
                                          const typename V::llr_t* llr,
                                          int steps,
                                          int start,
                                          typename V::T* metrics,
                                          uint64_t* decisions)
{
    using T = typename V::T;
    using vec = typename V::vec;
    constexpr int W = V::lanes, G = NV / 2;
    const int words = tr.decision_words;
    alignas(64) T init[NV * W];
    initial_metrics<V>(init, NV * W, start);
    vec m[NV];
#pragma GCC unroll 16
    for (int k = 0; k < NV; k++)
        m[k] = V::load(init + k * W);
    typename V::offset_t offset = 0;
    for (int t = 0; t < steps; t++) {
        vec L[N];
#pragma GCC unroll 4
        for (int i = 0; i < N; i++)
            L[i] = V::broadcast_llr(llr[size_t(t) * N + i]);
        uint64_t* dec = decisions + size_t(t) * size_t(words);
        if (2 * W < 8)
            dec[0] = 0;
        vec next[NV];
#pragma GCC unroll 16
        for (int g = 0; g < G; g++) {
            const candidates<V> c = add_branches<V, Symmetric, N>(tr, L, m[g], m[g + G], g * W);
            store_decisions<V>(c, dec, g * W);
            V::interleave(V::max(c.a0, c.b0), V::max(c.a1, c.b1), next[2 * g], next[2 * g + 1]);
        }
#pragma GCC unroll 16
        for (int k = 0; k < NV; k++)
            m[k] = next[k];
        if ((t + 1) % renorm_period == 0)
            offset += renormalise<V>(m, NV);
    }
#pragma GCC unroll 16
    for (int k = 0; k < NV; k++)
        V::store(metrics + k * W, m[k]);
    return offset;
}

//! The pass over metrics in memory, for any number of vectors.
template <typename V, bool Symmetric, int N>
typename V::offset_t forward_in_memory(const simd_trellis& tr,
                                       const typename V::llr_t* llr,
                                       int steps,
                                       int start,
                                       typename V::T* metrics,
                                       uint64_t* decisions)
{
    using T = typename V::T;
    using vec = typename V::vec;
    constexpr int W = V::lanes;
    const int S = tr.states, NV = S / W, G = NV / 2, words = tr.decision_words;
    alignas(64) T buf_a[256], buf_b[256];
    T* cur = buf_a;
    T* next = buf_b;
    initial_metrics<V>(cur, S, start);
    typename V::offset_t offset = 0;
    for (int t = 0; t < steps; t++) {
        vec L[N];
        for (int i = 0; i < N; i++)
            L[i] = V::broadcast_llr(llr[size_t(t) * N + i]);
        uint64_t* dec = decisions + size_t(t) * size_t(words);
        if (2 * W < 8)
            for (int w = 0; w < words; w++)
                dec[w] = 0;
        for (int g = 0; g < G; g++) {
            const candidates<V> c =
                add_branches<V, Symmetric, N>(tr, L, V::load(cur + g * W), V::load(cur + (g + G) * W), g * W);
            store_decisions<V>(c, dec, g * W);
            vec first, second;
            V::interleave(V::max(c.a0, c.b0), V::max(c.a1, c.b1), first, second);
            V::store(next + 2 * g * W, first);
            V::store(next + (2 * g + 1) * W, second);
        }
        T* swap = cur;
        cur = next;
        next = swap;
        if ((t + 1) % renorm_period == 0) {
            vec m[256 / W];
            for (int k = 0; k < NV; k++)
                m[k] = V::load(cur + k * W);
            offset += renormalise<V>(m, NV);
            for (int k = 0; k < NV; k++)
                V::store(cur + k * W, m[k]);
        }
    }
    for (int s = 0; s < S; s++)
        metrics[s] = cur[s];
    return offset;
}

template <typename V, int N>
typename V::offset_t forward_symmetric(const simd_trellis& tr,
                                       const typename V::llr_t* llr,
                                       int steps,
                                       int start,
                                       typename V::T* metrics,
                                       uint64_t* decisions)
{
    switch (tr.states / V::lanes) {
    case 2:
        return forward_in_registers<V, true, N, 2>(tr, llr, steps, start, metrics, decisions);
    case 4:
        return forward_in_registers<V, true, N, 4>(tr, llr, steps, start, metrics, decisions);
    case 8:
        return forward_in_registers<V, true, N, 8>(tr, llr, steps, start, metrics, decisions);
    case 16:
        return forward_in_registers<V, true, N, 16>(tr, llr, steps, start, metrics, decisions);
    default:
        return forward_in_memory<V, true, N>(tr, llr, steps, start, metrics, decisions);
    }
}

//! The lanes_kernel::forward of V: the pass for the code's polynomial
//! count, symmetry and size.
template <typename V>
typename V::offset_t forward_dispatch(const simd_trellis& tr,
                                      const typename V::llr_t* llr,
                                      int steps,
                                      int start,
                                      typename V::T* metrics,
                                      uint64_t* decisions)
{
    if (tr.symmetric) {
        switch (tr.n) {
        case 2:
            return forward_symmetric<V, 2>(tr, llr, steps, start, metrics, decisions);
        case 3:
            return forward_symmetric<V, 3>(tr, llr, steps, start, metrics, decisions);
        default:
            return forward_symmetric<V, 4>(tr, llr, steps, start, metrics, decisions);
        }
    }
    switch (tr.n) {
    case 2:
        return forward_in_memory<V, false, 2>(tr, llr, steps, start, metrics, decisions);
    case 3:
        return forward_in_memory<V, false, 3>(tr, llr, steps, start, metrics, decisions);
    default:
        return forward_in_memory<V, false, 4>(tr, llr, steps, start, metrics, decisions);
    }
}

} // namespace viterbi_simd_detail
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
