/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/lmmse_detector.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

using cd = std::complex<double>;

void lmmse_detector::channel_changed()
{
    const int nt = d_nt, nr = d_nr;
    // A = H^H H + N0 I: Hermitian positive definite since N0 > 0.
    std::vector<cd> a(size_t(nt) * nt);
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < nt; j++) {
            cd s = 0.0;
            for (int r = 0; r < nr; r++)
                s += std::conj(d_h[size_t(r) * nt + i]) * d_h[size_t(r) * nt + j];
            a[size_t(i) * nt + j] = s + (i == j ? d_n0 : 0.0);
        }
    // Cholesky A = L L^H (lower, in place).
    std::vector<cd> l(size_t(nt) * nt, cd(0.0));
    for (int j = 0; j < nt; j++) {
        double diag = a[size_t(j) * nt + j].real();
        for (int k = 0; k < j; k++)
            diag -= std::norm(l[size_t(j) * nt + k]);
        // Rounding can only lower the pivot below N0's share on an extremely
        // ill-conditioned H; N0 I alone keeps A at least that definite.
        const double ljj = std::sqrt(diag > 0.0 ? diag : d_n0);
        l[size_t(j) * nt + j] = ljj;
        for (int i = j + 1; i < nt; i++) {
            cd s = a[size_t(i) * nt + j];
            for (int k = 0; k < j; k++)
                s -= l[size_t(i) * nt + k] * std::conj(l[size_t(j) * nt + k]);
            l[size_t(i) * nt + j] = s / ljj;
        }
    }
    // A^-1 column by column: L z = e_c, then L^H x = z.
    std::vector<cd> inv(size_t(nt) * nt), z(nt);
    for (int c = 0; c < nt; c++) {
        for (int i = 0; i < nt; i++) {
            cd s = i == c ? 1.0 : 0.0;
            for (int k = 0; k < i; k++)
                s -= l[size_t(i) * nt + k] * z[k];
            z[i] = s / l[size_t(i) * nt + i];
        }
        for (int i = nt - 1; i >= 0; i--) {
            cd s = z[i];
            for (int k = i + 1; k < nt; k++)
                s -= std::conj(l[size_t(k) * nt + i]) * inv[size_t(k) * nt + c];
            inv[size_t(i) * nt + c] = s / l[size_t(i) * nt + i];
        }
    }
    // W = A^-1 H^H; mu from the diagonal of A^-1.
    d_w.assign(size_t(nt) * nr, cd(0.0));
    for (int i = 0; i < nt; i++)
        for (int r = 0; r < nr; r++) {
            cd s = 0.0;
            for (int k = 0; k < nt; k++)
                s += inv[size_t(i) * nt + k] * std::conj(d_h[size_t(r) * nt + k]);
            d_w[size_t(i) * nr + r] = s;
        }
    d_mu.resize(nt);
    d_one_minus_mu.resize(nt);
    for (int k = 0; k < nt; k++) {
        d_one_minus_mu[k] = d_n0 * inv[size_t(k) * nt + k].real();
        d_mu[k] = 1.0 - d_one_minus_mu[k];
    }
}

void lmmse_detector::detect_vector(const std::complex<float>* y, float* llr)
{
    constexpr double no_clip = std::numeric_limits<double>::infinity();
    const int q_count = int(d_c->points.size());
    d_sym_metric.resize(q_count);
    d_cost.resize(q_count);
    for (int k = 0; k < d_nt; k++) {
        const float* la = d_apriori ? d_apriori + k * d_c->bits : nullptr;
        const float* extrinsic_of = d_extrinsic ? la : nullptr;
        // mu_k is 0 for a stream the channel does not carry (and, by rounding,
        // within a few ulps of it): nothing is known about its bits but their
        // priors.
        const bool unseen = !(d_mu[k] > 1e-12);
        if (la)
            prior_costs(*d_c, la, d_cost.data());
        else
            std::fill(d_cost.begin(), d_cost.end(), 0.0);
        if (unseen) {
            llrs_from_symbol_minima(
                d_cost.data(), *d_c, 1.0, no_clip, llr + k * d_c->bits, extrinsic_of);
            continue;
        }
        cd x = 0.0;
        for (int r = 0; r < d_nr; r++)
            x += d_w[size_t(k) * d_nr + r] * cd(y[r]);
        // x / mu = s + noise of variance (1 - mu) / mu: metric |z - c|^2 + var P(c).
        const cd z = x / d_mu[k];
        const double var = d_one_minus_mu[k] / d_mu[k];
        for (int q = 0; q < q_count; q++)
            d_sym_metric[q] = std::norm(z - d_c->points[q]) + var * d_cost[q];
        llrs_from_symbol_minima(
            d_sym_metric.data(), *d_c, var, no_clip, llr + k * d_c->bits, extrinsic_of);
    }
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
