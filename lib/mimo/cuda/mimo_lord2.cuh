/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-mtt-fast at two streams: MTT is exact max-log ML there, and so is
// this, computed as LORD does (layered orthogonal lattice detection): with
// the QR of H in one column order, the top layer's symbol s1 enumerated and
// the bottom layer's best symbol for each by per-axis slicing,
//   m(s1) = |y1 - r11 s1|^2 + min_s0 |y0 - r01 s1 - r00 s0|^2,
// is the least metric of every candidate whose top symbol is s1: the exact
// minima of the top stream's bits. The QR with the columns swapped (a Givens
// rotation of R, per channel) gives the other stream's. 2 Q candidates per
// vector instead of the trellis' Q^2 edges.
//
// Per channel (lord2_prepare, in the prepare step): each orientation's rows
// derotated so that r00 and r11 are real and non-negative, in units of the
// constellation's scale. Per candidate (lord2_detect), in those coordinates:
//   t = Y0 - a s1  (a = conj(ph0) r01, s1 on the odd-integer grid),
//   min over an axis' levels of (t - rho0 l)^2 by folding: the distance of
//   |t| to the nearest odd multiple of rho0 in [rho0, (M-1) rho0] is
//   |..||t| - (M/2) rho0| - (M/4) rho0| ... - rho0|, M levels per axis
// (rho0 = 0, a column the channel lacks: |t|, as it should). With priors
// the axis' minimum is taken over its M levels, each with its prior cost.
// The per-bit minima come from the row (in-phase level) and column
// (quadrature level) minima of the Q candidates: Gray bits of one axis
// depend on that axis' level only.
//
// Host-and-device code, so that a host program can check it against an
// exhaustive search in double (no device needed).
#ifndef INCLUDED_GPURX_MIMO_CUDA_MIMO_LORD2_CUH
#define INCLUDED_GPURX_MIMO_CUDA_MIMO_LORD2_CUH

#include "common/host_device.h"
#include "mimo/cuda/mimo_device.cuh"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_gpu {
namespace lord2 {

//! Per orientation o (0: the QR's layer order, 1: its two columns swapped):
//! the map of y_hat onto the orientation's derotated coordinates, R(0, 1)
//! derotated and the diagonal's moduli, in units of the constellation's scale.
struct __align__(16) lord2_prep {
    float2 m[2][4]; //!< o: (Y0, Y1) = (m0 yh0 + m1 yh1, m2 yh0 + m3 yh1)
    float2 a[2];    //!< o: conj(phase R00) R01 scale
    float rho0[2];  //!< o: |R00| scale
    float rho1[2];  //!< o: |R11| scale
};

// A frame's lord2_prep lives in rows 2.. of its frame_prep::qh, which two
// streams leave unused (every detector reads rows 0..nt-1 only): frame_prep
// keeps its size, and the other shapes' kernels their data layout (a larger
// frame_prep measured 1.4% slower at 4x4 QPSK on the H100).
static_assert(sizeof(lord2_prep) <= sizeof(frame_prep::qh) - 2 * max_ant * sizeof(float2),
              "lord2_prep fits in rows 2.. of frame_prep::qh");
static_assert(2 * max_ant * sizeof(float2) % 16 == 0, "rows 2.. of qh are 16-byte aligned");
GPURX_HD lord2_prep& lord2_of(frame_prep& fp)
{
    return *reinterpret_cast<lord2_prep*>(fp.qh + 2 * max_ant);
}
GPURX_HD const lord2_prep& lord2_of(const frame_prep& fp)
{
    return *reinterpret_cast<const lord2_prep*>(fp.qh + 2 * max_ant);
}

GPURX_HD float2 mul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
GPURX_HD float2 conj_of(float2 a) { return make_float2(a.x, -a.y); }
GPURX_HD float2 scaled(float2 a, float s) { return make_float2(a.x * s, a.y * s); }

//! 36.211 axis amplitude (odd integer) of an axis' bit vector: bit j is the
//! symbol's bit b(first + 2j) (axis_amplitude of mimo_device.cuh).
GPURX_HD constexpr int axis_amp(unsigned bv, int k)
{
    int t = 1;
    for (int j = k - 1; j >= 1; j--)
        t = (1 << (k - j)) - t * (1 - 2 * int((bv >> j) & 1u));
    return t * (1 - 2 * int(bv & 1u));
}
//! The axis bit vector of level a (amplitude 2a - (M - 1)).
GPURX_HD constexpr unsigned level_bv(int a, int k)
{
    for (unsigned bv = 0; bv < (1u << k); bv++)
        if (axis_amp(bv, k) == 2 * a - ((1 << k) - 1))
            return bv;
    return 0;
}
//! Every level's bit vector, 4 bits each (k <= 4).
GPURX_HD constexpr uint64_t level_bvs(int k)
{
    uint64_t p = 0;
    for (int a = 0; a < (1 << k); a++)
        p |= uint64_t(level_bv(a, k)) << (4 * a);
    return p;
}

GPURX_HD float scale_of_bits(int bits)
{
    return bits == 2 ? 0.70710678118654752f
                     : bits == 4 ? 0.31622776601683794f
                                 : bits == 6 ? 0.15430334996209191f : 0.07669649888473704f;
}

//! |z| and conj(z) / |z| (1 where z = 0).
GPURX_HD void polar(float2 z, float& mag, float2& unphase)
{
    mag = sqrtf(z.x * z.x + z.y * z.y);
    unphase = mag > 0.0f ? make_float2(z.x / mag, -z.y / mag) : make_float2(1.0f, 0.0f);
}

//! One orientation from its R (r00, r01, r11) and the unitary map g of y_hat
//! onto its rows (row-major 2x2).
GPURX_HD void orientation(float2 r00, float2 r01, float2 r11, const float2 (&g)[4],
                                 float sc, lord2_prep& out, int o)
{
    float m0, m1;
    float2 u0, u1;
    polar(r00, m0, u0);
    polar(r11, m1, u1);
    out.m[o][0] = mul(u0, g[0]);
    out.m[o][1] = mul(u0, g[1]);
    out.m[o][2] = mul(u1, g[2]);
    out.m[o][3] = mul(u1, g[3]);
    out.a[o] = scaled(mul(u0, r01), sc);
    out.rho0[o] = m0 * sc;
    out.rho1[o] = m1 * sc;
}

//! Both orientations from the QR's R (layer 0 above layer 1).
GPURX_HD void lord2_prepare(float2 r00, float2 r01, float2 r11, int bits, lord2_prep& out)
{
    const float sc = scale_of_bits(bits);
    const float2 one = make_float2(1.0f, 0.0f), zero = make_float2(0.0f, 0.0f);
    const float2 id[4] = { one, zero, zero, one };
    orientation(r00, r01, r11, id, sc, out, 0);
    // Columns swapped: R P = [r01 r00; r11 0]; G^H = [conj(c0) conj(c1); -c1 c0]
    // with (c0, c1) = (r01, r11) / n zeroes its first column below the
    // diagonal: R' = G^H R P = [n, conj(c0) r00; 0, -c1 r00], y_hat' = G^H y_hat.
    const float n = sqrtf(r01.x * r01.x + r01.y * r01.y + r11.x * r11.x + r11.y * r11.y);
    if (n > 0.0f) {
        const float2 c0 = scaled(r01, 1.0f / n), c1 = scaled(r11, 1.0f / n);
        const float2 g[4] = { conj_of(c0), conj_of(c1), make_float2(-c1.x, -c1.y), c0 };
        const float2 m11 = mul(c1, r00);
        orientation(make_float2(n, 0.0f), mul(conj_of(c0), r00), make_float2(-m11.x, -m11.y), g,
                    sc, out, 1);
    } else { // the first column is zero: R P = [0 r00; 0 0] is already triangular
        orientation(zero, r00, zero, id, sc, out, 1);
    }
}

//! Prior cost (LLR units) of the axis level with bit vector bv, from the
//! axis' priors la[2j] (every other LLR of the antenna, from \p la).
template <int K>
GPURX_HD float axis_prior(const float* la, unsigned bv)
{
    float p = 0.0f;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const float l = la[2 * j];
        if (bool((bv >> j) & 1u) != (l > 0.0f))
            p += fabsf(l);
    }
    return p;
}

//! (t - rho0 l)^2 least over an axis' levels l, without priors (the fold).
template <int M>
GPURX_HD float axis_dist(float t, float rho0)
{
    float v = fabsf(t);
#pragma unroll
    for (int s = M / 2; s >= 2; s /= 2)
        v = fabsf(v - rho0 * float(s)); // rho0 times a power of 2: exact
    return v - rho0;
}

GPURX_HD float llr_of(float min0, float min1, float la, bool extrinsic)
{
    // final_llr with clip = +infinity (mtt): every bit has both hypotheses here.
    const float l = min0 - min1;
    return extrinsic ? l - la : l;
}

/*!
 * The vector's 2 * BITS LLRs. \p yh: rows 0 and 1 of Q^H y; \p ant: layer ->
 * antenna (fp.order); \p la: the vector's priors (2 * BITS) or nullptr;
 * put(antenna, llrs[BITS]) stores one antenna's LLRs.
 */
template <int BITS, typename Put>
GPURX_HD void lord2_detect(const lord2_prep& L, float2 yh0, float2 yh1, int ant0, int ant1,
                                  const float* la, float n0, bool extrinsic, Put put)
{
    constexpr int K = BITS / 2, M = 1 << K;
    constexpr uint64_t bvs = level_bvs(K);
    const float inv_n0 = 1.0f / n0;
    const float inf = __builtin_huge_valf();
#pragma unroll
    for (int o = 0; o < 2; o++) {
        const int top = o == 0 ? ant1 : ant0, bot = o == 0 ? ant0 : ant1;
        float2 Y0 = mul(L.m[o][0], yh0), Y1 = mul(L.m[o][2], yh0);
        {
            const float2 p = mul(L.m[o][1], yh1), q = mul(L.m[o][3], yh1);
            Y0 = make_float2(Y0.x + p.x, Y0.y + p.y);
            Y1 = make_float2(Y1.x + q.x, Y1.y + q.y);
        }
        const float2 A = L.a[o];
        const float rho1 = L.rho1[o];
        const float rho0 = L.rho0[o];
        const float* la_top = la ? la + top * BITS : nullptr;
        const float* la_bot = la ? la + bot * BITS : nullptr;
        // Per quadrature level b: the top symbol's term and a's part of t.
        float e1y[M], qx[M], qy[M], colmin[M];
#pragma unroll
        for (int b = 0; b < M; b++) {
            const float lev = float(2 * b - (M - 1));
            const float d = fmaf(-rho1, lev, Y1.y);
            e1y[b] = d * d;
            if (la_top)
                e1y[b] = fmaf(n0, axis_prior<K>(la_top + 1, unsigned(bvs >> (4 * b)) & 15u), e1y[b]);
            qx[b] = A.y * lev;
            qy[b] = -A.x * lev;
            colmin[b] = inf;
        }
        float m0i[K], m1i[K];
#pragma unroll
        for (int j = 0; j < K; j++)
            m0i[j] = m1i[j] = inf;
        // The bottom symbol's prior costs per axis level (n0 P), with priors.
        float pci[M], pcq[M];
#pragma unroll
        for (int l = 0; l < M; l++) {
            pci[l] = la_bot ? n0 * axis_prior<K>(la_bot, unsigned(bvs >> (4 * l)) & 15u) : 0.0f;
            pcq[l] = la_bot ? n0 * axis_prior<K>(la_bot + 1, unsigned(bvs >> (4 * l)) & 15u) : 0.0f;
        }
#pragma unroll(M <= 8 ? M : 1)
        for (int a = 0; a < M; a++) {
            const unsigned bva = unsigned(bvs >> (4 * a)) & 15u;
            const float lev = float(2 * a - (M - 1));
            const float d1 = fmaf(-rho1, lev, Y1.x);
            float e1x = d1 * d1;
            if (la_top)
                e1x = fmaf(n0, axis_prior<K>(la_top, bva), e1x);
            const float px = fmaf(-A.x, lev, Y0.x), py = fmaf(-A.y, lev, Y0.y);
            float row = inf;
            if (!la_bot) {
#pragma unroll
                for (int b = 0; b < M; b++) {
                    const float dx = axis_dist<M>(px + qx[b], rho0);
                    const float dy = axis_dist<M>(py + qy[b], rho0);
                    const float m = fmaf(dy, dy, fmaf(dx, dx, e1x)) + e1y[b];
                    row = fminf(row, m);
                    colmin[b] = fminf(colmin[b], m);
                }
            } else {
#pragma unroll
                for (int b = 0; b < M; b++) {
                    const float tx = px + qx[b], ty = py + qy[b];
                    float bx = inf, by = inf;
#pragma unroll
                    for (int l = 0; l < M; l++) {
                        const float c = rho0 * float(2 * l - (M - 1));
                        const float dx = tx - c, dy = ty - c;
                        bx = fminf(bx, fmaf(dx, dx, pci[l]));
                        by = fminf(by, fmaf(dy, dy, pcq[l]));
                    }
                    const float m = (e1x + bx) + by + e1y[b];
                    row = fminf(row, m);
                    colmin[b] = fminf(colmin[b], m);
                }
            }
#pragma unroll
            for (int j = 0; j < K; j++) {
                if ((bva >> j) & 1u)
                    m1i[j] = fminf(m1i[j], row);
                else
                    m0i[j] = fminf(m0i[j], row);
            }
        }
        float llr[BITS];
#pragma unroll
        for (int j = 0; j < K; j++) {
            float m0q = inf, m1q = inf;
#pragma unroll
            for (int b = 0; b < M; b++) {
                if (((bvs >> (4 * b)) >> j) & 1u)
                    m1q = fminf(m1q, colmin[b]);
                else
                    m0q = fminf(m0q, colmin[b]);
            }
            llr[2 * j] = llr_of(m0i[j] * inv_n0, m1i[j] * inv_n0, la_top ? la_top[2 * j] : 0.0f,
                                extrinsic);
            llr[2 * j + 1] = llr_of(m0q * inv_n0, m1q * inv_n0,
                                    la_top ? la_top[2 * j + 1] : 0.0f, extrinsic);
        }
        put(top, llr);
    }
}

} // namespace lord2
} // namespace mimo_gpu
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
