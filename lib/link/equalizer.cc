/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "link/equalizer.h"

#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

bool cholesky_solve(std::vector<cdouble>& a, std::vector<cdouble>& b, int n)
{
    // A = L L^H, L stored in the lower triangle of a.
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j].real();
        for (int k = 0; k < j; k++)
            d -= std::norm(a[j * n + k]);
        if (!(d > 0.0))
            return false;
        const double ljj = std::sqrt(d);
        a[j * n + j] = ljj;
        for (int i = j + 1; i < n; i++) {
            cdouble s = a[i * n + j];
            for (int k = 0; k < j; k++)
                s -= a[i * n + k] * std::conj(a[j * n + k]);
            a[i * n + j] = s / ljj;
        }
    }
    for (int i = 0; i < n; i++) { // L y = b
        cdouble s = b[i];
        for (int k = 0; k < i; k++)
            s -= a[i * n + k] * b[k];
        b[i] = s / a[i * n + i].real();
    }
    for (int i = n - 1; i >= 0; i--) { // L^H x = y
        cdouble s = b[i];
        for (int k = i + 1; k < n; k++)
            s -= std::conj(a[k * n + i]) * b[k];
        b[i] = s / a[i * n + i].real();
    }
    return true;
}

namespace {
// LS over the taps in use[]; the others stay 0. Returns the residual energy.
double solve_taps(const std::complex<float>* z,
                  const std::complex<float>* p,
                  int n,
                  int span,
                  const std::vector<bool>& use,
                  std::vector<cdouble>& h)
{
    std::vector<int> idx;
    for (int m = -span; m <= span; m++)
        if (use[m + span])
            idx.push_back(m);
    const int t = int(idx.size());
    std::vector<cdouble> a(size_t(t) * t, 0.0), b(size_t(t), 0.0);
    for (int k = span; k < n - span; k++)
        for (int r = 0; r < t; r++) {
            const cdouble pr = p[k - idx[r]];
            b[r] += std::conj(pr) * cdouble(z[k]);
            for (int c = 0; c < t; c++)
                a[r * t + c] += std::conj(pr) * cdouble(p[k - idx[c]]);
        }
    h.assign(size_t(2 * span + 1), 0.0);
    if (!cholesky_solve(a, b, t))
        return -1.0;
    for (int r = 0; r < t; r++)
        h[idx[r] + span] = b[r];
    double res = 0.0;
    for (int k = span; k < n - span; k++) {
        cdouble e = z[k];
        for (int m = -span; m <= span; m++)
            e -= h[m + span] * cdouble(p[k - m]);
        res += std::norm(e);
    }
    return res;
}
} // namespace

channel_estimate estimate_channel(const std::complex<float>* z, const std::complex<float>* p, int n, int span)
{
    channel_estimate ch;
    ch.span = span;
    const int rows = n - 2 * span;
    std::vector<bool> use(static_cast<size_t>(2 * span + 1), true);
    double res = solve_taps(z, p, n, span, use, ch.h);
    const double sigma2_full = res / double(rows - (2 * span + 1));
    // A tap's estimation variance is about sigma2 / rows (unit-energy,
    // nearly orthogonal known symbols).
    int kept = 0;
    for (int m = -span; m <= span; m++) {
        const bool keep = m == 0 || std::norm(ch.h[m + span]) > 4.0 * sigma2_full / rows;
        use[m + span] = keep;
        kept += keep;
    }
    if (kept < 2 * span + 1)
        res = solve_taps(z, p, n, span, use, ch.h);
    ch.sigma2 = res / double(rows - kept);
    return ch;
}

mmse_equalizer design_mmse(const channel_estimate& ch, int half)
{
    const int M = ch.span, n = 2 * half + 1;
    // H[i][c]: the weight of s_(k+c) in z_(k+i), i = -L..L, c = -L-M..L+M.
    auto H = [&](int i, int c) -> cdouble {
        const int m = i - c;
        return (m < -M || m > M) ? cdouble(0.0) : ch.h[m + M];
    };
    std::vector<cdouble> a(size_t(n) * n, 0.0), b(size_t(n), 0.0);
    for (int i = -half; i <= half; i++) {
        for (int j = -half; j <= half; j++) {
            cdouble s = 0.0;
            for (int c = -half - M; c <= half + M; c++)
                s += H(i, c) * std::conj(H(j, c));
            a[(i + half) * n + (j + half)] = s;
        }
        a[(i + half) * n + (i + half)] += ch.sigma2;
        b[i + half] = H(i, 0);
    }
    mmse_equalizer eq;
    eq.half = half;
    if (!cholesky_solve(a, b, n)) // sigma2 > 0 makes this impossible in practice
        b.assign(size_t(n), 0.0);
    eq.w = b;
    cdouble g = 0.0;
    for (int i = -half; i <= half; i++)
        g += std::conj(eq.w[i + half]) * H(i, 0);
    eq.gain = g.real();
    eq.error = eq.gain - eq.gain * eq.gain;
    return eq;
}

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr
