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
// nothing here calls an inline function of another header.
//
// V provides: T (metric), llr_t, offset_t, vec, lanes; load, store, add,
// sub (saturating for integers), max, greater (a lane mask), broadcast_llr,
// signed_llr(L, trellis, poly, butterfly) = +-L of that polynomial,
// bias(trellis, class, butterfly) (the integer negations' "+1"),
// store_interleaved(out, lo, hi) (out[2l] = lo[l], out[2l+1] = hi[l]),
// decision_word(d_lo, d_hi) (the 2 x lanes decisions interleaved the same
// way: bit 2l of d_lo[l], bit 2l+1 of d_hi[l]), hmax(vec), unreachable.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_SIMD_ACS_H
#define INCLUDED_GPURX_VITERBI_VITERBI_SIMD_ACS_H

#include "viterbi/viterbi_simd_trellis.h"

#include <cstring>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_simd_detail {

template <typename V, bool Symmetric, int N>
typename V::offset_t forward_pass(const simd_trellis& tr,
                                  const typename V::llr_t* llr,
                                  int steps,
                                  int start,
                                  typename V::T* metrics,
                                  uint64_t* decisions)
{
    using T = typename V::T;
    using vec = typename V::vec;
    constexpr int W = V::lanes;
    const int S = tr.states, H = tr.half, groups = H / W, words = decision_words(S);
    alignas(64) T buf_a[256], buf_b[256];
    T* cur = buf_a;
    T* next = buf_b;
    for (int s = 0; s < S; s++)
        cur[s] = s == start ? T(0) : V::unreachable;
    typename V::offset_t offset = 0;

    for (int t = 0; t < steps; t++) {
        vec L[N];
        for (int i = 0; i < N; i++)
            L[i] = V::broadcast_llr(llr[size_t(t) * N + i]);
        uint64_t* dec = decisions + size_t(t) * size_t(words);
        if (2 * W < 8) // sub-byte words are ORed in
            for (int w = 0; w < words; w++)
                dec[w] = 0;
        for (int g = 0; g < groups; g++) {
            const int b = g * W; // first butterfly of the group
            const vec m0 = V::load(cur + b), m1 = V::load(cur + H + b);
            vec a0, b0, a1, b1; // candidates: (p0 | p1) x (input 0 | 1)
            if (Symmetric) {
                vec A = V::bias(tr, 0, b);
                for (int i = 0; i < N; i++)
                    A = V::add(A, V::signed_llr(L[i], tr, i, b));
                a0 = V::add(m0, A);
                b0 = V::sub(m1, A);
                a1 = V::sub(m0, A);
                b1 = V::add(m1, A);
            } else {
                vec sum[3] = { V::bias(tr, 0, b), V::bias(tr, 1, b), V::bias(tr, 2, b) };
                for (int i = 0; i < N; i++) {
                    const int c = tr.poly_class[i];
                    sum[c] = V::add(sum[c], V::signed_llr(L[i], tr, i, b));
                }
                const vec ab = V::add(sum[0], sum[1]), a_b = V::sub(sum[0], sum[1]);
                a0 = V::add(m0, V::add(ab, sum[2]));            // A+B+C
                b0 = V::add(m1, V::sub(sum[2], ab));            // -A-B+C
                a1 = V::sub(m0, V::add(a_b, sum[2]));           // -A+B-C
                b1 = V::add(m1, V::sub(a_b, sum[2]));           // A-B-C
            }
            // Strictly greater: a tie keeps the lower (even) predecessor.
            const auto d_lo = V::greater(b0, a0), d_hi = V::greater(b1, a1);
            // Group g's 2W decisions are bits [2 b, 2 b + 2W) of the step.
            const auto word = V::decision_word(d_lo, d_hi);
            if (2 * W >= 8)
                std::memcpy(reinterpret_cast<uint8_t*>(dec) + 2 * b / 8, &word, 2 * W / 8);
            else
                dec[2 * b / 64] |= uint64_t(word) << (2 * b % 64);
            V::store_interleaved(next + 2 * b, V::max(a0, b0), V::max(a1, b1));
        }
        T* swap = cur;
        cur = next;
        next = swap;
        // Subtracting the best metric from all keeps every difference (so
        // every decision) and bounds the magnitudes: the int16 range, and
        // the float resolution on long frames.
        if ((t + 1) % renorm_period == 0) {
            vec best = V::load(cur);
            for (int s = W; s < S; s += W)
                best = V::max(best, V::load(cur + s));
            const T m = V::hmax(best);
            const vec mv = V::broadcast(m);
            for (int s = 0; s < S; s += W)
                V::store(cur + s, V::sub(V::load(cur + s), mv));
            offset += m;
        }
    }
    for (int s = 0; s < S; s++)
        metrics[s] = cur[s];
    return offset;
}

//! The lanes_kernel::forward of V: the pass for the code's polynomial count
//! and symmetry.
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
            return forward_pass<V, true, 2>(tr, llr, steps, start, metrics, decisions);
        case 3:
            return forward_pass<V, true, 3>(tr, llr, steps, start, metrics, decisions);
        default:
            return forward_pass<V, true, 4>(tr, llr, steps, start, metrics, decisions);
        }
    }
    switch (tr.n) {
    case 2:
        return forward_pass<V, false, 2>(tr, llr, steps, start, metrics, decisions);
    case 3:
        return forward_pass<V, false, 3>(tr, llr, steps, start, metrics, decisions);
    default:
        return forward_pass<V, false, 4>(tr, llr, steps, start, metrics, decisions);
    }
}

} // namespace viterbi_simd_detail
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
