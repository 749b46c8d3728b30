/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The PDSCH's per-RE arithmetic for two antenna ports, as small functions
// over flat arrays that a GPU kernel can share (no allocation, no library
// calls): the precoders of 36.211 §6.3.4.2 (codebook Table 6.3.4.2.3-1,
// large-delay CDD's W D(i) U), the effective channel H P, the SFBC
// (Alamouti) combining of §6.3.4.3, and a per-stream LMMSE for up to two
// layers. Matrices are row-major: h[rx][port], p[port][layer].
#ifndef INCLUDED_GPURX_LTE_PDSCH_PDSCH_PRECODING_H
#define INCLUDED_GPURX_LTE_PDSCH_PDSCH_PRECODING_H

#include "lte/common/lte_cell.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

constexpr float inv_sqrt2 = 0.70710678118654752f;

/*!
 * W of 36.211 Table 6.3.4.2.3-1 for 2 ports, \p n_layers 1 (index 0..3) or
 * 2 (index 0..2), as p[port * n_layers + layer]. Returns false for an index
 * the table does not have.
 */
inline bool codebook_2port(int n_layers, int index, cf* p)
{
    const cf j(0.0f, 1.0f);
    if (n_layers == 1) {
        static const cf second[4] = { cf(1, 0), cf(-1, 0), cf(0, 1), cf(0, -1) };
        if (index < 0 || index > 3)
            return false;
        p[0] = inv_sqrt2;
        p[1] = second[index] * inv_sqrt2;
        return true;
    }
    if (n_layers != 2)
        return false;
    switch (index) {
    case 0: // 1/sqrt2 [1 0; 0 1]
        p[0] = inv_sqrt2, p[1] = 0.0f, p[2] = 0.0f, p[3] = inv_sqrt2;
        return true;
    case 1: // 1/2 [1 1; 1 -1]
        p[0] = 0.5f, p[1] = 0.5f, p[2] = 0.5f, p[3] = -0.5f;
        return true;
    case 2: // 1/2 [1 1; j -j]
        p[0] = 0.5f, p[1] = 0.5f, p[2] = 0.5f * j, p[3] = -0.5f * j;
        return true;
    default:
        return false;
    }
}

/*!
 * Large-delay CDD for 2 ports and 2 layers (§6.3.4.2.2): P(i) = W D(i) U
 * with W = 1/sqrt2 I (codebook index 0), D(i) = diag(1, e^{-j pi i}) and
 * U = 1/sqrt2 [1 1; 1 e^{-j pi}] (Table 6.3.4.2.2-1): i is the layer symbol
 * index, so P alternates between 1/2 [1 1; 1 -1] and 1/2 [1 1; -1 1].
 */
inline void large_delay_cdd_2port(int i, cf* p)
{
    const float s = (i & 1) ? -0.5f : 0.5f;
    p[0] = 0.5f, p[1] = 0.5f, p[2] = s, p[3] = -s;
}

//! heff = a h p: h nr x np, p np x nl, heff nr x nl.
inline void
effective_channel(const cf* h, const cf* p, int nr, int np, int nl, float a, cf* heff)
{
    for (int r = 0; r < nr; r++)
        for (int l = 0; l < nl; l++) {
            cf s(0.0f, 0.0f);
            for (int q = 0; q < np; q++)
                s += h[r * np + q] * p[q * nl + l];
            heff[r * nl + l] = a * s;
        }
}

/*!
 * Maximum-ratio combining of one RE sent on one port: y[r] = g h[r * np] s
 * + n. Gives z = s + noise of variance *n0_out; a channel of no power gives
 * z = 0 and n0_out = 0 (the caller's LLRs are then 0).
 */
inline cf
mrc_one_port(const cf* y, const cf* h, int nr, int np, float g, float n0, float* n0_out)
{
    cf num(0.0f, 0.0f);
    float pow = 0.0f;
    for (int r = 0; r < nr; r++) {
        const cf hr = g * h[r * np];
        num += std::conj(hr) * y[r];
        pow += std::norm(hr);
    }
    if (!(pow > 0.0f)) {
        *n0_out = 0.0f;
        return cf(0.0f, 0.0f);
    }
    *n0_out = n0 / pow;
    return num / pow;
}

/*!
 * SFBC for 2 ports (§6.3.4.3): RE a carries g (x0, -x1*) on ports (pa, pb),
 * RE b carries g (x1, x0*), g the amplitude of each port's symbol (2
 * ports: pa, pb = 0, 1; 4 ports with FSTD: 0, 2 on REs 4i, 4i+1 and 1, 3 on
 * 4i+2, 4i+3). From the two REs' y (nr each) and h (nr x np), the
 * Alamouti combiner gives z0, z1 = x0, x1 + noise of variance n0_out[0], [1]
 * (exact when the channel is the same on both REs).
 */
inline void sfbc_2port_combine(const cf* ya,
                               const cf* yb,
                               const cf* ha,
                               const cf* hb,
                               int nr,
                               int np,
                               int pa,
                               int pb,
                               float g,
                               float n0,
                               cf* z0,
                               cf* z1,
                               float* n0_out)
{
    cf s0(0.0f, 0.0f), s1(0.0f, 0.0f);
    float p0 = 0.0f, p1 = 0.0f;
    for (int r = 0; r < nr; r++) {
        const cf h0a = g * ha[r * np + pa], h1a = g * ha[r * np + pb];
        const cf h0b = g * hb[r * np + pa], h1b = g * hb[r * np + pb];
        // ya = h0a x0 - h1a x1* ;  yb* = h0b* x1* + h1b* x0
        s0 += std::conj(h0a) * ya[r] + h1b * std::conj(yb[r]);
        s1 += std::conj(h0b) * yb[r] - h1a * std::conj(ya[r]);
        p0 += std::norm(h0a) + std::norm(h1b);
        p1 += std::norm(h0b) + std::norm(h1a);
    }
    // A stream of no channel power gets z = 0 and noise 0 (LLRs 0).
    *z0 = p0 > 0.0f ? s0 / p0 : cf(0.0f, 0.0f);
    *z1 = p1 > 0.0f ? s1 / p1 : cf(0.0f, 0.0f);
    n0_out[0] = p0 > 0.0f ? n0 / p0 : 0.0f;
    n0_out[1] = p1 > 0.0f ? n0 / p1 : 0.0f;
}

/*!
 * Per-stream LMMSE of y = H x + n for nl = 1 or 2 layers (H nr x nl, unit
 * symbols, E|n|^2 = n0): with A = H^H H + n0 I, x_k's estimate is
 * (A^-1 H^H y)_k = mu_k x_k + e_k, mu_k = 1 - n0 (A^-1)_kk; z[k] is it over
 * mu_k, of noise variance n0_out[k] = (1 - mu_k) / mu_k (0 when mu_k = 0,
 * z 0: the stream is not seen). The same model as lib/mimo's LMMSE detector,
 * for layers of different modulations.
 */
inline void
lmmse_streams(const cf* y, const cf* h, int nr, int nl, float n0, cf* z, float* n0_out)
{
    // G = H^H H (nl x nl, Hermitian), b = H^H y.
    cf g00(0, 0), g01(0, 0), g11(0, 0), b0(0, 0), b1(0, 0);
    for (int r = 0; r < nr; r++) {
        const cf a = h[r * nl];
        g00 += std::conj(a) * a;
        b0 += std::conj(a) * y[r];
        if (nl == 2) {
            const cf c = h[r * nl + 1];
            g01 += std::conj(a) * c;
            g11 += std::conj(c) * c;
            b1 += std::conj(c) * y[r];
        }
    }
    if (nl == 1) {
        const float a00 = g00.real() + n0;
        const float mu = g00.real() / a00;
        if (!(mu > 0.0f)) {
            z[0] = 0.0f, n0_out[0] = 0.0f;
            return;
        }
        z[0] = b0 / a00 / mu;
        n0_out[0] = (n0 / a00) / mu;
        return;
    }
    const float a00 = g00.real() + n0, a11 = g11.real() + n0;
    const float det = a00 * a11 - std::norm(g01);
    if (!(det > 0.0f)) {
        z[0] = z[1] = 0.0f, n0_out[0] = n0_out[1] = 0.0f;
        return;
    }
    // A^-1 = [a11 -g01; -g01* a00] / det
    const cf x0 = (a11 * b0 - g01 * b1) / det;
    const cf x1 = (a00 * b1 - std::conj(g01) * b0) / det;
    const float one_minus_mu[2] = { n0 * a11 / det, n0 * a00 / det };
    const cf x[2] = { x0, x1 };
    for (int k = 0; k < 2; k++) {
        const float mu = 1.0f - one_minus_mu[k];
        if (!(mu > 1e-12f)) {
            z[k] = 0.0f, n0_out[k] = 0.0f;
            continue;
        }
        z[k] = x[k] / mu;
        n0_out[k] = one_minus_mu[k] / mu;
    }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
