/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The decode loop of cpu-window16-simd over a vector-ops type S, included by
// one translation unit per build (turbo_window_generic.cc, _avx2.cc), each
// compiled for its instruction set. S provides turbo_fx's ops interface (V,
// add, sub, addmax, zero, splat) and
//   load(const int16_t*), store(int16_t*, V)   one row of LANES int16
//   permute(V, idx, ctl)   dst[t] = src[idx[t]] (ctl: the vpshufb form)
//   make_scaler(sq), scale(V le, scaler)   turbo_fx::scale_extrinsic per lane
// Every value is exactly the one turbo_fixed.h gives: the builds differ only
// in instructions, never in arithmetic.
//
// Per half-iteration of decoder d: a forward pass stores alpha_j of every
// row; a backward pass computes beta, the extrinsic and the next decoder's
// input Lu = Ls + scaled extrinsic, which it writes straight into the other
// decoder's layout (row permutation + lane shuffle, turbo_window_plan.h).
// Normalisation runs on odd steps within the window (as in the reference),
// so the loops are unrolled by two and the flag is a constant.
#ifndef INCLUDED_GPURX_TURBO_TURBO_WINDOW_KERNEL_H
#define INCLUDED_GPURX_TURBO_TURBO_WINDOW_KERNEL_H

#include "turbo/turbo_fixed.h"
#include "turbo/turbo_window_decoder.h"

namespace gr {
namespace gpurx {
namespace core {
namespace turbo_win {
namespace kernel {

constexpr int L = LANES;

// One half-iteration's pointers, copied out of the job: vector stores (a
// may_alias type) could otherwise be the job's own fields to the compiler,
// which would reload them after every store.
struct half_ptrs {
    const int16_t* lu;       // this decoder's input
    const int16_t* lp;
    const int16_t* ls;
    int16_t* next;           // the other decoder's input
    int16_t* alpha;
    int16_t* app;
    const uint16_t* to_row;  // row of the other layout each row goes to
    const uint8_t* idx;      // its lane gathers (generic) ...
    const uint8_t* ctl;      // ... and vpshufb controls
    const uint16_t* nat_row; // decisions: rows into natural order
    const uint8_t* nat_idx;
    const uint8_t* nat_ctl;
};

template <class S, bool NORM>
inline void forward_step(const half_ptrs& h, int j, typename S::V a[8])
{
    using V = typename S::V;
    const V Lu = S::load(h.lu + L * j), Lp = S::load(h.lp + L * j);
    int16_t* row = h.alpha + size_t(8 * L) * j;
    V t[8];
    for (int s = 0; s < 8; s++)
        S::store(row + L * s, a[s]);
    turbo_fx::alpha_step<S>(a, Lu, Lp, t, NORM);
    for (int s = 0; s < 8; s++)
        a[s] = t[s];
}

template <class S, bool NORM, bool DECIDE>
inline void backward_step(const half_ptrs& h, int j, typename S::V b[8], const typename S::scaler& sc)
{
    using V = typename S::V;
    const V Lu = S::load(h.lu + L * j), Lp = S::load(h.lp + L * j);
    const int16_t* row = h.alpha + size_t(8 * L) * j;
    V a[8], t[8];
    for (int s = 0; s < 8; s++)
        a[s] = S::load(row + L * s);
    const V le = turbo_fx::extrinsic<S>(a, b, Lp);
    if (DECIDE) // a-posteriori LLR, into natural order
        S::store(h.app + L * h.nat_row[j],
                 S::permute(S::add(Lu, le), h.nat_idx + size_t(L) * j, h.nat_ctl + size_t(64) * j));
    turbo_fx::beta_step<S>(b, Lu, Lp, t, NORM);
    for (int s = 0; s < 8; s++)
        b[s] = t[s];
    const V next = S::add(S::load(h.ls + L * j), S::scale(le, sc));
    S::store(h.next + L * h.to_row[j], S::permute(next, h.idx + size_t(L) * j, h.ctl + size_t(64) * j));
}

template <class S, bool DECIDE>
inline void backward_pass(const half_ptrs& h, int W, typename S::V m[8], const typename S::scaler& sc)
{
    int j = W - 1;
    if (!(j & 1))
        backward_step<S, false, DECIDE>(h, j--, m, sc);
    for (; j > 0; j -= 2) {
        backward_step<S, true, DECIDE>(h, j, m, sc);
        backward_step<S, false, DECIDE>(h, j - 1, m, sc);
    }
}

// Window edges for the next iteration: the alpha a window ended with starts
// the next window (one lane up), the beta it started with ends the previous
// one (one lane down); a codeword's first window starts in state 0 and its
// last one ends in the termination's beta, always.
inline void shift_edges(const job& jb, int d, const int16_t* aend, const int16_t* bstart)
{
    const int P = jb.pl->P; // a power of two (windows_for): t % P as a mask, not a division per lane
    for (int s = 0; s < 8; s++)
        for (int t = 0; t < L; t++) {
            const int w = t & (P - 1);
            jb.ainit[d][L * s + t] = w == 0 ? int16_t(s == 0 ? 0 : turbo_fx::NEG) : aend[L * s + t - 1];
            jb.binit[d][L * s + t] = w == P - 1 ? jb.tail[d][L * s + t] : bstart[L * s + t + 1];
        }
}

template <class S>
void half_iteration(const job& jb, int d, bool decide)
{
    using V = typename S::V;
    const plan& p = *jb.pl;
    const int W = p.W;
    // Decoder 0 writes its output into interleaved rows, decoder 1 into
    // natural ones.
    const half_ptrs h{ jb.lu[d], jb.lp[d], jb.ls[d], jb.lu[1 - d], jb.alpha, jb.app,
                       d ? p.nat_row.data() : p.int_row.data(), d ? p.to_nat.data() : p.to_int.data(),
                       d ? p.to_nat_ctl.data() : p.to_int_ctl.data(), p.nat_row.data(), p.to_nat.data(),
                       p.to_nat_ctl.data() };
    alignas(64) int16_t edge_a[8 * L], edge_b[8 * L];
    V m[8];
    for (int s = 0; s < 8; s++)
        m[s] = S::load(jb.ainit[d] + L * s);
    int j = 0;
    for (; j + 1 < W; j += 2) {
        forward_step<S, false>(h, j, m);
        forward_step<S, true>(h, j + 1, m);
    }
    if (j < W)
        forward_step<S, false>(h, j, m);
    for (int s = 0; s < 8; s++)
        S::store(edge_a + L * s, m[s]);

    const typename S::scaler sc = S::make_scaler(jb.sq);
    for (int s = 0; s < 8; s++)
        m[s] = S::load(jb.binit[d] + L * s);
    if (d == 1 && decide)
        backward_pass<S, true>(h, W, m, sc);
    else
        backward_pass<S, false>(h, W, m, sc);
    for (int s = 0; s < 8; s++)
        S::store(edge_b + L * s, m[s]);
    shift_edges(jb, d, edge_a, edge_b);
}

template <class S>
void run(const job& jb)
{
    for (int it = 1; it <= jb.iterations; it++) {
        const bool decide = jb.every || it == jb.iterations;
        half_iteration<S>(jb, 0, false);
        half_iteration<S>(jb, 1, decide);
        if (decide && jb.end_iteration(jb.ctx, it))
            return;
    }
}

} // namespace kernel
} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
