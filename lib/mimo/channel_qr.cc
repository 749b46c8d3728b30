/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/channel_qr.h"

#include <cmath>
#include <utility>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

using cd = std::complex<double>;

void qr_decompose(const cd* h, int nr, int nt, bool sorted, channel_qr& out)
{
    out.nr = nr;
    out.nt = nt;
    out.order.resize(nt);
    out.reflectors.assign(size_t(nt) * nr, cd(0.0));
    // a: working copy, column-major (a[col * nr + row]) so that pivoting swaps
    // contiguous columns.
    std::vector<cd> a(size_t(nr) * nt);
    double frobenius = 0.0;
    for (int r = 0; r < nr; r++)
        for (int t = 0; t < nt; t++) {
            a[size_t(t) * nr + r] = h[size_t(r) * nt + t];
            frobenius += std::norm(h[size_t(r) * nt + t]);
        }
    for (int t = 0; t < nt; t++)
        out.order[t] = t;

    auto trailing_norm2 = [&](int col, int from) {
        double s = 0.0;
        for (int r = from; r < nr; r++)
            s += std::norm(a[size_t(col) * nr + r]);
        return s;
    };

    for (int i = 0; i < nt; i++) {
        if (sorted) {
            int best = i;
            double best_norm = trailing_norm2(i, i);
            for (int j = i + 1; j < nt; j++) {
                const double n = trailing_norm2(j, i);
                if (n < best_norm) {
                    best = j;
                    best_norm = n;
                }
            }
            if (best != i) {
                for (int r = 0; r < nr; r++)
                    std::swap(a[size_t(i) * nr + r], a[size_t(best) * nr + r]);
                std::swap(out.order[i], out.order[best]);
            }
        }
        cd* x = &a[size_t(i) * nr];
        const double xnorm = std::sqrt(trailing_norm2(i, i));
        if (xnorm == 0.0)
            continue; // nothing to reflect: R(i, i) = 0, the reflector stays zero
        // alpha = -e^{j arg x_i} ||x||: v = x - alpha e_i never cancels.
        const cd phase = std::abs(x[i]) > 0.0 ? x[i] / std::abs(x[i]) : cd(1.0);
        const cd alpha = -phase * xnorm;
        cd* v = &out.reflectors[size_t(i) * nr];
        for (int r = i; r < nr; r++)
            v[r] = x[r];
        v[i] -= alpha;
        double vnorm2 = 0.0;
        for (int r = i; r < nr; r++)
            vnorm2 += std::norm(v[r]);
        const double vscale = 1.0 / std::sqrt(vnorm2);
        for (int r = i; r < nr; r++)
            v[r] *= vscale;
        // (I - 2 v v^H) on the remaining columns; column i becomes alpha e_i.
        for (int j = i + 1; j < nt; j++) {
            cd* c = &a[size_t(j) * nr];
            cd dot = 0.0;
            for (int r = i; r < nr; r++)
                dot += std::conj(v[r]) * c[r];
            dot *= 2.0;
            for (int r = i; r < nr; r++)
                c[r] -= v[r] * dot;
        }
        x[i] = alpha;
        for (int r = i + 1; r < nr; r++)
            x[r] = 0.0;
    }

    out.r.assign(size_t(nt) * nt, cd(0.0));
    const double tol = 1e-9 * std::sqrt(frobenius);
    out.rank = 0;
    for (int i = 0; i < nt; i++) {
        for (int j = i; j < nt; j++)
            out.r[size_t(i) * nt + j] = a[size_t(j) * nr + i];
        if (std::abs(out.r[size_t(i) * nt + i]) > tol)
            out.rank++;
    }
}

void channel_qr::rotate(const std::complex<float>* y,
                        cd* y_hat,
                        std::vector<cd>& work) const
{
    work.resize(nr);
    for (int r = 0; r < nr; r++)
        work[r] = cd(y[r]);
    for (int i = 0; i < nt; i++) {
        const cd* v = &reflectors[size_t(i) * nr];
        cd dot = 0.0;
        for (int r = i; r < nr; r++)
            dot += std::conj(v[r]) * work[r];
        dot *= 2.0;
        for (int r = i; r < nr; r++)
            work[r] -= v[r] * dot;
    }
    for (int i = 0; i < nt; i++)
        y_hat[i] = work[i];
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
