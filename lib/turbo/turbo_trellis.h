/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE constituent code's trellis and the BCJR recursion steps, compiled
// into both the CPU decoder (g++) and the CUDA kernel (nvcc) from this one
// source, so the two backends perform the same operations in the same order.
//
// Conventions: LLRs are positive for bit 1 (L = ln P(1)/P(0)). A branch that
// carries systematic bit u and parity bit z has metric u*Lu + z*Lp, where Lu
// is the systematic channel LLR plus the a-priori LLR.
// State s = 4*s1 + 2*s2 + s3, with s1 the newest register bit.
#ifndef INCLUDED_GPURX_TURBO_TURBO_TRELLIS_H
#define INCLUDED_GPURX_TURBO_TURBO_TRELLIS_H

#include "common/host_device.h"
#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo {

//! Metric of an impossible state: finite, so sums and differences stay finite.
constexpr float NEG = -1.0e30f;

enum algorithm : int { LOG_MAP = 0, MAX_LOG_MAP = 1, SCALED_MAX_LOG_MAP = 2 };

// g0 = 1 + D^2 + D^3 (feedback), g1 = 1 + D + D^3 (parity).
GPURX_HD int rsc_feedback(int s) { return ((s >> 1) ^ s) & 1; } // s2 ^ s3
GPURX_HD int rsc_next(int s, int u) { return (((u ^ rsc_feedback(s)) & 1) << 2) | (s >> 1); }
GPURX_HD int rsc_parity(int s, int u)
{
    const int a = (u ^ rsc_feedback(s)) & 1;
    return (a ^ (s >> 2) ^ s) & 1; // a ^ s1 ^ s3
}

GPURX_HD float fmax2(float a, float b) { return a > b ? a : b; }

//! max*(a,b) = ln(e^a + e^b): exact with the correction term (log-MAP), or
//! the max alone (max-log-MAP).
template <bool LOG>
GPURX_HD float max_star(float a, float b)
{
    const float m = fmax2(a, b);
    if (LOG) {
        const float d = a > b ? a - b : b - a;
        return m + log1pf(expf(-d));
    }
    return m;
}

// Branch metric for systematic u and parity z.
GPURX_HD float branch(int u, int z, float Lu, float Lp)
{
    return (u ? Lu : 0.0f) + (z ? Lp : 0.0f);
}

//! alpha_{k+1} from alpha_k, normalised so that state 0 has metric 0.
template <bool LOG>
GPURX_HD void alpha_step(const float a[8], float Lu, float Lp, float out[8])
{
GPURX_UNROLL
    for (int ns = 0; ns < 8; ns++) {
        // Predecessors of ns: s1 = bit1 of ns, s2 = bit0 of ns, s3 free.
        const int s_hi = ((ns >> 1) & 1) << 2 | (ns & 1) << 1;
        const int s0 = s_hi, s1 = s_hi | 1;
        const int a_bit = ns >> 2;
        const int u0 = a_bit ^ rsc_feedback(s0), u1 = a_bit ^ rsc_feedback(s1);
        const float m0 = a[s0] + branch(u0, rsc_parity(s0, u0), Lu, Lp);
        const float m1 = a[s1] + branch(u1, rsc_parity(s1, u1), Lu, Lp);
        out[ns] = max_star<LOG>(m0, m1);
    }
    const float n0 = out[0];
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        out[s] = out[s] - n0;
}

//! beta_k from beta_{k+1}, normalised so that state 0 has metric 0.
template <bool LOG>
GPURX_HD void beta_step(const float b[8], float Lu, float Lp, float out[8])
{
GPURX_UNROLL
    for (int s = 0; s < 8; s++) {
        const float m0 = branch(0, rsc_parity(s, 0), Lu, Lp) + b[rsc_next(s, 0)];
        const float m1 = branch(1, rsc_parity(s, 1), Lu, Lp) + b[rsc_next(s, 1)];
        out[s] = max_star<LOG>(m0, m1);
    }
    const float n0 = out[0];
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        out[s] = out[s] - n0;
}

//! Extrinsic LLR of step k: the systematic and a-priori part (Lu) is left out
//! of both sides, so it is exactly L_app - Lu.
template <bool LOG>
GPURX_HD float extrinsic(const float a[8], const float b_next[8], float Lp)
{
    float acc0 = NEG, acc1 = NEG;
GPURX_UNROLL
    for (int s = 0; s < 8; s++) {
        acc0 = max_star<LOG>(acc0, a[s] + branch(0, rsc_parity(s, 0), 0.0f, Lp) + b_next[rsc_next(s, 0)]);
        acc1 = max_star<LOG>(acc1, a[s] + branch(0, rsc_parity(s, 1), 0.0f, Lp) + b_next[rsc_next(s, 1)]);
    }
    return acc1 - acc0;
}

//! Extrinsic LLR of the parity bit of step k: its own channel LLR (Lp) is
//! left out of both sides, so it is exactly L_app(z_k) - Lp. Iterative
//! detection and decoding feeds it back to the detector.
template <bool LOG>
GPURX_HD float parity_extrinsic(const float a[8], const float b_next[8], float Lu)
{
    float acc0 = NEG, acc1 = NEG;
GPURX_UNROLL
    for (int s = 0; s < 8; s++) {
GPURX_UNROLL
        for (int u = 0; u < 2; u++) {
            const float m = a[s] + branch(u, 0, Lu, 0.0f) + b_next[rsc_next(s, u)];
            if (rsc_parity(s, u))
                acc1 = max_star<LOG>(acc1, m);
            else
                acc0 = max_star<LOG>(acc0, m);
        }
    }
    return acc1 - acc0;
}

//! beta_K from the three termination steps: tail[2t] = LLR of x_{K+t},
//! tail[2t+1] = LLR of z_{K+t}. The encoder ends in state 0.
template <bool LOG>
GPURX_HD void tail_beta(const float tail[6], float out[8])
{
    float b[8];
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        b[s] = s == 0 ? 0.0f : NEG;
    for (int t = 2; t >= 0; t--) {
        float nb[8];
GPURX_UNROLL
        for (int s = 0; s < 8; s++) {
            // During termination the input equals the feedback: one branch per state.
            const int x = rsc_feedback(s);
            nb[s] = branch(x, rsc_parity(s, x), tail[2 * t], tail[2 * t + 1]) + b[rsc_next(s, x)];
        }
GPURX_UNROLL
        for (int s = 0; s < 8; s++)
            b[s] = nb[s] - nb[0];
    }
GPURX_UNROLL
    for (int s = 0; s < 8; s++)
        out[s] = b[s];
}

//! Window length of automatic sub-blocks (subblocks = 0): 48 gives K = 6144
//! 128 windows, four warps per codeword pair in cuda-fixed16-dpx, its fastest
//! geometry on an H100 (docs/benchmarks.md), within 0.01 dB of P = 1
//! (docs/turbo_ber.md).
constexpr int AUTO_WINDOW = 48;
//! P for a codeword of K steps: \p P itself, or with P = 0 (automatic) the
//! fewest windows of at most AUTO_WINDOW steps.
GPURX_HD int subblocks_for(int P, int K) { return P > 0 ? P : (K + AUTO_WINDOW - 1) / AUTO_WINDOW; }

//! Window geometry for P sub-blocks: windows of ceil(K/P) steps.
GPURX_HD int window_length(int K, int P) { return (K + P - 1) / P; }
GPURX_HD int window_count(int K, int P)
{
    const int W = window_length(K, P);
    return (K + W - 1) / W;
}

//! Forward training steps of window w (taken from the previous window).
GPURX_HD int guard_before(int w, int W, int guard) { return w > 0 ? (guard < W ? guard : W) : 0; }
//! Backward training steps of window w (taken from the next window, whose
//! length is next_len).
GPURX_HD int guard_after(int w, int nwin, int next_len, int guard)
{
    return w + 1 < nwin ? (guard < next_len ? guard : next_len) : 0;
}

//! What one half-iteration runs of window w (of nwin windows of W steps over
//! K): its own len steps from start, gf training steps before it (in window
//! w-1) and gb after it (in w+1), and the offsets where it takes the metrics
//! its neighbours train from: alpha at ja (for w+1), beta at jb (for w-1).
//! A thread without a window (w >= nwin) gets len = gb = ja = jb = 0.
struct window_plan {
    int start, len, gf, gb, ja, jb;
};
GPURX_HD window_plan plan_window(int w, int nwin, int W, int K, int guard)
{
    const bool active = w < nwin;
    const int start = w * W;
    const int len = active ? (K - start < W ? K - start : W) : 0;
    const int rest = K - start - len;
    const int next_len = active ? (rest < W ? (rest > 0 ? rest : 0) : W) : 0;
    const int head = guard < len ? guard : len;
    return { start, len, guard_before(w, W, guard), guard_after(w, nwin, next_len, guard), len - head, head };
}

} // namespace turbo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
