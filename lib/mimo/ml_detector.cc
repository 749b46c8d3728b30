/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/ml_detector.h"

#include <algorithm>
#include <limits>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

void ml_detector::visit(int t, double prior_so_far)
{
    const int q_count = int(d_c->points.size());
    const std::complex<double>* in = &d_residual[size_t(t) * d_nr];
    std::complex<double>* out = &d_residual[size_t(t + 1) * d_nr];
    for (int q = 0; q < q_count; q++) {
        // Up to 2^24 candidates per vector: a stop is answered between the
        // top-level branches (Q^(nt-1) candidates each).
        if (t == 0 && poll_stop())
            return;
        const std::complex<double> s = d_c->points[q];
        for (int r = 0; r < d_nr; r++)
            out[r] = in[r] - d_h[size_t(r) * d_nt + t] * s;
        d_symbol[t] = q;
        const double prior = prior_so_far + penalty(t, q);
        if (t + 1 < d_nt) {
            visit(t + 1, prior);
            continue;
        }
        double d = prior;
        for (int r = 0; r < d_nr; r++)
            d += std::norm(out[r]);
        for (int a = 0; a < d_nt; a++) {
            double& m = d_sym_min[size_t(a) * q_count + d_symbol[a]];
            if (d < m)
                m = d;
        }
    }
}

void ml_detector::detect_vector(const std::complex<float>* y, float* llr)
{
    const int q_count = int(d_c->points.size());
    d_residual.resize(size_t(d_nt + 1) * d_nr);
    d_symbol.resize(d_nt);
    d_sym_min.assign(size_t(d_nt) * q_count, std::numeric_limits<double>::infinity());
    for (int r = 0; r < d_nr; r++)
        d_residual[r] = std::complex<double>(y[r]);
    visit(0, 0.0);
    if (stopped()) {
        std::fill(llr, llr + size_t(d_nt) * d_c->bits, 0.0f);
        return;
    }
    for (int a = 0; a < d_nt; a++)
        emit_llrs(&d_sym_min[size_t(a) * q_count],
                  a,
                  std::numeric_limits<double>::infinity(),
                  llr);
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
