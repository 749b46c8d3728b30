/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/mimo_chanest.h"
#include "ofdm/ofdm_fft.h"

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
    : d_k(int(bins.size())), d_l(spread), d_n(fft_len), d_bins(bins)
{
    if (spread < 1 || spread > fft_len || spread > d_k)
        throw std::invalid_argument("spread must be in 1..min(used subcarriers, fft_len), got " +
                                    std::to_string(spread));
    // F^H F is Hermitian Toeplitz: element (a, b) is g(a - b) =
    // sum_k exp(j 2 pi b_k (a - b) / fft_len).
    const double pi = std::acos(-1.0);
    d_g.assign(size_t(d_l), 0.0);
    for (int d = 0; d < d_l; d++)
        for (int k = 0; k < d_k; k++)
            d_g[size_t(d)] += std::polar(1.0, 2.0 * pi * double(bins[k]) * d / fft_len);
}

namespace {
using cd = std::complex<double>;

// Levinson's recursion for A x = y, A Hermitian Toeplitz with first column
// t (A[i][j] = t[i - j], t[-d] = conj(t[d])), positive definite: O(L^2)
// per right-hand side where a factorisation costs L^3 / 6 (at L = 144, the
// cyclic prefix of a 2048-point FFT, that was a millisecond per frame).
// The forward and backward vectors, f (A_m f = e_1) and b (A_m b = e_m),
// serve every right-hand side; returns false where a minor is singular.
class toeplitz_solver
{
public:
    bool factor(const std::vector<cd>& t)
    {
        const size_t L = t.size();
        d_t = t;
        d_steps.clear();
        if (!(t[0].real() > 0.0))
            return false;
        std::vector<cd> f{ 1.0 / t[0] }, b{ 1.0 / t[0] };
        d_steps.push_back({ f, b });
        for (size_t m = 1; m < L; m++) {
            cd ef = 0.0, eb = 0.0;
            for (size_t i = 0; i < m; i++) {
                ef += t[m - i] * f[i];
                eb += std::conj(t[i + 1]) * b[i];
            }
            const cd den = 1.0 - ef * eb;
            if (!(std::abs(den) > 1e-300))
                return false;
            std::vector<cd> nf(m + 1), nb(m + 1);
            for (size_t i = 0; i <= m; i++) {
                const cd fi = i < m ? f[i] : 0.0, bi = i > 0 ? b[i - 1] : 0.0;
                nf[i] = (fi - ef * bi) / den;
                nb[i] = (bi - eb * fi) / den;
            }
            f.swap(nf);
            b.swap(nb);
            d_steps.push_back({ f, b });
        }
        return true;
    }

    void solve(std::vector<cd>& x) const // y in, x out
    {
        const size_t L = d_t.size();
        std::vector<cd> s{ x[0] / d_t[0] };
        for (size_t m = 1; m < L; m++) {
            cd ex = 0.0;
            for (size_t i = 0; i < m; i++)
                ex += d_t[m - i] * s[i];
            const std::vector<cd>& b = d_steps[m].second;
            s.push_back(0.0);
            const cd c = x[m] - ex;
            for (size_t i = 0; i <= m; i++)
                s[i] += c * b[i];
        }
        x.swap(s);
    }

private:
    std::vector<cd> d_t;
    std::vector<std::pair<std::vector<cd>, std::vector<cd>>> d_steps;
};
} // namespace

void lmmse_smoother::apply(chanest_result& est, int nr, int nt, int training_symbols) const
{
    const int K = d_k, L = d_l, N = d_n;
    if (est.h.size() != size_t(K) * nr * nt)
        throw std::invalid_argument("lmmse_smoother: one estimate per used subcarrier (group 1) expected");
    const double sigma2 = std::max(est.n0, 0.0) / training_symbols;
    // A = F^H F + L sigma2 I.
    std::vector<cd> t = d_g;
    t[0] += double(L) * sigma2;
    toeplitz_solver A;
    if (!A.factor(t))
        return; // not positive definite (cannot happen with distinct bins): keep the LS estimate
    std::vector<cfloat> buf(static_cast<size_t>(N)), out(static_cast<size_t>(N));
    std::vector<cd> c(static_cast<size_t>(L));
    for (int e = 0; e < nr * nt; e++) {
        // c = F^H h: the estimates on their bins, an inverse FFT, its first
        // L taps; then A x = c; then h~ = F x: x's L taps, an FFT, read at
        // the bins.
        std::fill(buf.begin(), buf.end(), cfloat(0, 0));
        for (int k = 0; k < K; k++)
            buf[size_t(d_bins[size_t(k)])] = est.h[size_t(k) * nr * nt + e];
        fft(buf.data(), out.data(), size_t(N), true);
        c.resize(size_t(L));
        for (int l = 0; l < L; l++)
            c[size_t(l)] = cd(out[size_t(l)]);
        A.solve(c);
        std::fill(buf.begin(), buf.end(), cfloat(0, 0));
        for (int l = 0; l < L; l++)
            buf[size_t(l)] = cfloat(c[size_t(l)]);
        fft(buf.data(), out.data(), size_t(N), false);
        for (int k = 0; k < K; k++)
            est.h[size_t(k) * nr * nt + e] = out[size_t(d_bins[size_t(k)])];
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
