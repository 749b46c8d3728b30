/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pdsch/pdsch_lmmse_many.h"
#include "lte/pdsch/pdsch_precoding.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

typedef float float8 __attribute__((vector_size(32)));
constexpr int lanes = 8;

// A complex number per lane.
struct c8 {
    float8 re, im;
};

inline c8 mul(c8 a, c8 b) { return { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re }; }
//! conj(a) b, as std::complex computes it (conj first, then the product).
inline c8 conj_mul(c8 a, c8 b) { return { a.re * b.re - (-a.im) * b.im, a.re * b.im + (-a.im) * b.re }; }

// Eight REs from i: the arithmetic of effective_channel and lmmse_streams,
// operation for operation, on vectors.
template <int NR, int NL>
inline __attribute__((always_inline)) void lmmse_lanes(const lmmse_many_args& a, int i)
{
    constexpr int np = 2;
    const float8 zero = {};
    c8 y[NR], h[NR][np];
    for (int l = 0; l < lanes; l++)
        for (int r = 0; r < NR; r++) {
            const cf yy = a.y[size_t(i + l) * NR + size_t(r)];
            y[r].re[l] = yy.real();
            y[r].im[l] = yy.imag();
            for (int q = 0; q < np; q++) {
                const cf hh = a.h[(size_t(i + l) * NR + size_t(r)) * np + size_t(q)];
                h[r][q].re[l] = hh.real();
                h[r][q].im[l] = hh.imag();
            }
        }
    // P[q][l]: fixed, or CDD's (0.5, 0.5; s, -s) with s = +-0.5 by the RE's parity.
    c8 p[np][NL];
    if (a.cdd) {
        float8 s;
        for (int l = 0; l < lanes; l++)
            s[l] = ((i + l) & 1) ? -0.5f : 0.5f;
        p[0][0] = { zero + 0.5f, zero };
        p[0][NL - 1] = { zero + 0.5f, zero };
        p[1][0] = { s, zero };
        p[1][NL - 1] = { -s, zero };
    } else {
        for (int q = 0; q < np; q++)
            for (int k = 0; k < NL; k++)
                p[q][k] = { zero + a.p[q * NL + k].real(), zero + a.p[q * NL + k].imag() };
    }
    c8 heff[NR][NL];
    for (int r = 0; r < NR; r++)
        for (int k = 0; k < NL; k++) {
            c8 s = { zero, zero };
            for (int q = 0; q < np; q++) {
                const c8 t = mul(h[r][q], p[q][k]);
                s.re = s.re + t.re;
                s.im = s.im + t.im;
            }
            heff[r][k] = { a.amp * s.re, a.amp * s.im };
        }
    c8 g00 = { zero, zero }, g01 = { zero, zero }, g11 = { zero, zero }, b0 = { zero, zero }, b1 = { zero, zero };
    for (int r = 0; r < NR; r++) {
        const c8 x = heff[r][0];
        const c8 t00 = conj_mul(x, x), tb0 = conj_mul(x, y[r]);
        g00 = { g00.re + t00.re, g00.im + t00.im };
        b0 = { b0.re + tb0.re, b0.im + tb0.im };
        if (NL == 2) {
            const c8 c = heff[r][NL - 1];
            const c8 t01 = conj_mul(x, c), t11 = conj_mul(c, c), tb1 = conj_mul(c, y[r]);
            g01 = { g01.re + t01.re, g01.im + t01.im };
            g11 = { g11.re + t11.re, g11.im + t11.im };
            b1 = { b1.re + tb1.re, b1.im + tb1.im };
        }
    }
    const float n0 = a.n0;
    if (NL == 1) {
        const float8 a00 = g00.re + n0;
        const float8 mu = g00.re / a00;
        const auto seen = mu > zero;
        const float8 zr = b0.re / a00 / mu, zi = b0.im / a00 / mu, nz = (n0 / a00) / mu;
        for (int l = 0; l < lanes; l++) {
            a.z[0][i + l] = seen[l] ? cf(zr[l], zi[l]) : cf(0.0f, 0.0f);
            a.n0_out[0][i + l] = seen[l] ? nz[l] : 0.0f;
        }
        return;
    }
    const float8 a00 = g00.re + n0, a11 = g11.re + n0;
    const float8 det = a00 * a11 - (g01.re * g01.re + g01.im * g01.im);
    const auto ok = det > zero;
    // x0 = (a11 b0 - g01 b1) / det, x1 = (a00 b1 - conj(g01) b0) / det
    const c8 gb1 = mul(g01, b1), gb0 = conj_mul(g01, b0);
    const c8 x[2] = { { (a11 * b0.re - gb1.re) / det, (a11 * b0.im - gb1.im) / det },
                      { (a00 * b1.re - gb0.re) / det, (a00 * b1.im - gb0.im) / det } };
    const float8 one_minus_mu[2] = { n0 * a11 / det, n0 * a00 / det };
    for (int k = 0; k < 2; k++) {
        const float8 mu = 1.0f - one_minus_mu[k];
        const auto seen = mu > zero + 1e-12f;
        const float8 zr = x[k].re / mu, zi = x[k].im / mu, nz = one_minus_mu[k] / mu;
        for (int l = 0; l < lanes; l++) {
            const bool s = ok[l] && seen[l];
            a.z[k][i + l] = s ? cf(zr[l], zi[l]) : cf(0.0f, 0.0f);
            a.n0_out[k][i + l] = s ? nz[l] : 0.0f;
        }
    }
}

// target_clones on a template is not reliable: one plain function per shape.
__attribute__((target_clones("avx2", "default"))) void run_1_1(const lmmse_many_args& a, int n)
{
    for (int i = 0; i < n; i += lanes)
        lmmse_lanes<1, 1>(a, i);
}
__attribute__((target_clones("avx2", "default"))) void run_2_1(const lmmse_many_args& a, int n)
{
    for (int i = 0; i < n; i += lanes)
        lmmse_lanes<2, 1>(a, i);
}
__attribute__((target_clones("avx2", "default"))) void run_2_2(const lmmse_many_args& a, int n)
{
    for (int i = 0; i < n; i += lanes)
        lmmse_lanes<2, 2>(a, i);
}

//! The per-RE reference for REs [from, to).
void per_re(const lmmse_many_args& a, int from, int to)
{
    cf p[4], heff[4];
    if (!a.cdd)
        for (int k = 0; k < 2 * a.nl; k++)
            p[k] = a.p[k];
    for (int i = from; i < to; i++) {
        if (a.cdd)
            large_delay_cdd_2port(i, p);
        effective_channel(&a.h[size_t(i) * size_t(a.nr) * 2], p, a.nr, 2, a.nl, a.amp, heff);
        cf z[2];
        float n0_eff[2];
        lmmse_streams(&a.y[size_t(i) * size_t(a.nr)], heff, a.nr, a.nl, a.n0, z, n0_eff);
        for (int k = 0; k < a.nl; k++) {
            a.z[k][i] = z[k];
            a.n0_out[k][i] = n0_eff[k];
        }
    }
}

} // namespace

void lmmse_streams_many(const lmmse_many_args& a)
{
    if (a.nr < 1 || a.nr > 2)
        throw std::invalid_argument("nr=" + std::to_string(a.nr) + " is not 1 or 2");
    if (a.nl < 1 || a.nl > a.nr)
        throw std::invalid_argument("nl=" + std::to_string(a.nl) + " is not 1.." + std::to_string(a.nr));
    if (a.cdd && a.nl != 2)
        throw std::invalid_argument("nl=" + std::to_string(a.nl) + ": large-delay CDD has 2 layers here");
    const int full = a.n - a.n % lanes;
    if (a.nr == 1)
        run_1_1(a, full);
    else if (a.nl == 1)
        run_2_1(a, full);
    else
        run_2_2(a, full);
    per_re(a, full, a.n);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
