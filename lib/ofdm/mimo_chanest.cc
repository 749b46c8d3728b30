/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/mimo_chanest.h"

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

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
