/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/mimo_chanest.h"
#include "link/equalizer.h"

#include <cmath>

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

void smooth_lmmse(chanest_result& est, int nr, int nt, const std::vector<int>& bins, int fft_len, int spread,
                  int training_symbols)
{
    const int K = int(bins.size());
    if (spread < 1 || spread > fft_len)
        throw std::invalid_argument("spread must be in 1..fft_len, got " + std::to_string(spread));
    if (est.h.size() != size_t(K) * nr * nt)
        throw std::invalid_argument("smooth_lmmse: one estimate per used subcarrier (group 1) expected");
    using cd = std::complex<double>;
    const double pi = std::acos(-1.0);
    std::vector<cd> R(size_t(K) * K);
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            cd s = 0.0;
            for (int l = 0; l < spread; l++)
                s += std::polar(1.0, -2.0 * pi * double(bins[a] - bins[b]) * l / fft_len);
            R[size_t(a) * K + b] = s / double(spread);
        }
    const double sigma2 = std::max(est.n0, 1e-12) / training_symbols;
    std::vector<cd> x(static_cast<size_t>(K));
    for (int i = 0; i < nr * nt; i++) {
        std::vector<cd> a = R;
        for (int k = 0; k < K; k++) {
            a[size_t(k) * K + k] += sigma2;
            x[k] = cd(est.h[size_t(k) * nr * nt + i]);
        }
        if (!link::cholesky_solve(a, x, K))
            return; // not positive definite: keep the LS estimate
        for (int k = 0; k < K; k++) {
            cd s = 0.0;
            for (int b = 0; b < K; b++)
                s += R[size_t(k) * K + b] * x[b];
            est.h[size_t(k) * nr * nt + i] = cfloat(s);
        }
    }
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
