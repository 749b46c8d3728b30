/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/mimo_chanest.h"

#include <cmath>

#include <algorithm>
#include <complex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

chanest_result estimate_mimo_channel(const mimo_training& tr, int nr, const cfloat* y, int group)
{
    const int nt = tr.nt, K = tr.used, T = tr.symbols();
    if (nr < 1 || nr > 8)
        throw std::invalid_argument("nr must be in 1..8, got " + std::to_string(nr));
    if (group < 1 || K % group != 0)
        throw std::invalid_argument("group must divide the used subcarriers (" + std::to_string(K) + "), got " +
                                    std::to_string(group));
    const auto& L = tr.sequence();
    std::vector<std::complex<double>> hk(size_t(nr) * nt);
    chanest_result res;
    res.h.assign(size_t(K / group) * nr * nt, cfloat(0.0f, 0.0f));
    double residual = 0.0;
    for (int k = 0; k < K; k++) {
        const std::complex<double> lc = std::conj(std::complex<double>(L[k]));
        for (int r = 0; r < nr; r++) {
            for (int j = 0; j < nt; j++) {
                std::complex<double> acc = 0.0;
                for (int t = 0; t < T; t++)
                    acc += double(tr.cover(j, t % nt)) * std::complex<double>(y[(size_t(t) * nr + r) * K + k]);
                hk[size_t(r) * nt + j] = acc * lc / double(T);
            }
            for (int t = 0; t < T; t++) {
                std::complex<double> model = 0.0;
                for (int j = 0; j < nt; j++)
                    model += hk[size_t(r) * nt + j] * double(tr.cover(j, t % nt));
                residual += std::norm(std::complex<double>(y[(size_t(t) * nr + r) * K + k]) -
                                      model * std::complex<double>(L[k]));
            }
        }
        const int g = k / group;
        for (int i = 0; i < nr * nt; i++)
            res.h[size_t(g) * nr * nt + i] += cfloat(hk[i] / double(group));
    }
    if (T > nt)
        res.n0 = residual / (double(nr) * K * (T - nt));
    return res;
}

lmmse_smoother::lmmse_smoother(const std::vector<int>& bins, int fft_len, int spread)
    : d_k(int(bins.size())), d_l(spread)
{
    if (spread < 1 || spread > fft_len || spread > d_k)
        throw std::invalid_argument("spread must be in 1..min(used subcarriers, fft_len), got " +
                                    std::to_string(spread));
    using cd = std::complex<double>;
    const double pi = std::acos(-1.0);
    d_f.resize(size_t(d_k) * d_l);
    for (int k = 0; k < d_k; k++)
        for (int l = 0; l < d_l; l++)
            d_f[size_t(k) * d_l + l] = std::polar(1.0, -2.0 * pi * double(bins[k]) * l / fft_len);
    d_g.assign(size_t(d_l) * d_l, cd(0.0));
    for (int a = 0; a < d_l; a++)
        for (int b = 0; b < d_l; b++) {
            cd s = 0.0;
            for (int k = 0; k < d_k; k++)
                s += std::conj(d_f[size_t(k) * d_l + a]) * d_f[size_t(k) * d_l + b];
            d_g[size_t(a) * d_l + b] = s;
        }
}

void lmmse_smoother::apply(chanest_result& est, int nr, int nt, int training_symbols) const
{
    using cd = std::complex<double>;
    const int K = d_k, L = d_l;
    if (est.h.size() != size_t(K) * nr * nt)
        throw std::invalid_argument("lmmse_smoother: one estimate per used subcarrier (group 1) expected");
    const double sigma2 = std::max(est.n0, 0.0) / training_symbols;
    // A = F^H F + L sigma2 I, factored once (Cholesky, lower, in place).
    std::vector<cd> a = d_g;
    for (int i = 0; i < L; i++)
        a[size_t(i) * L + i] += double(L) * sigma2;
    for (int j = 0; j < L; j++) {
        double d = a[size_t(j) * L + j].real();
        for (int k = 0; k < j; k++)
            d -= std::norm(a[size_t(j) * L + k]);
        if (!(d > 0.0))
            return; // not positive definite (cannot happen with distinct bins): keep the LS estimate
        const double ljj = std::sqrt(d);
        a[size_t(j) * L + j] = ljj;
        for (int i = j + 1; i < L; i++) {
            cd s = a[size_t(i) * L + j];
            for (int k = 0; k < j; k++)
                s -= a[size_t(i) * L + k] * std::conj(a[size_t(j) * L + k]);
            a[size_t(i) * L + j] = s / ljj;
        }
    }
    std::vector<cd> c(static_cast<size_t>(L));
    for (int e = 0; e < nr * nt; e++) {
        // c = F^H h, then A x = c, then h~ = F x.
        for (int l = 0; l < L; l++) {
            cd s = 0.0;
            for (int k = 0; k < K; k++)
                s += std::conj(d_f[size_t(k) * L + l]) * cd(est.h[size_t(k) * nr * nt + e]);
            c[l] = s;
        }
        for (int i = 0; i < L; i++) {
            cd s = c[i];
            for (int k = 0; k < i; k++)
                s -= a[size_t(i) * L + k] * c[k];
            c[i] = s / a[size_t(i) * L + i].real();
        }
        for (int i = L - 1; i >= 0; i--) {
            cd s = c[i];
            for (int k = i + 1; k < L; k++)
                s -= std::conj(a[size_t(k) * L + i]) * c[k];
            c[i] = s / a[size_t(i) * L + i].real();
        }
        for (int k = 0; k < K; k++) {
            cd s = 0.0;
            for (int l = 0; l < L; l++)
                s += d_f[size_t(k) * L + l] * c[l];
            est.h[size_t(k) * nr * nt + e] = cfloat(s);
        }
    }
}

void smooth_lmmse(chanest_result& est, int nr, int nt, const std::vector<int>& bins, int fft_len, int spread,
                  int training_symbols)
{
    lmmse_smoother(bins, fft_len, spread).apply(est, nr, nt, training_symbols);
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
