/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/one_pass_detector.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

void one_pass_detector::detect_vector(const std::complex<float>* y, float* llr)
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    const int q_count = int(d_c->points.size());
    const size_t nt = size_t(d_nt);
    d_y_hat.resize(d_nt);
    d_qr.rotate(y, d_y_hat.data(), d_work);

    // Stage 0 (the last layer): one edge from the root into each vertex.
    const int last = d_nt - 1;
    d_paths.assign(q_count * nt, 0);
    d_metric.resize(q_count);
    for (int q = 0; q < q_count; q++) {
        d_paths[q * nt + last] = q;
        d_metric[q] = std::norm(d_y_hat[last] - d_qr.R(last, last) * d_c->points[q]) +
                      penalty(d_qr.order[last], q);
    }
    // Stages 1..nt-1: vertex q keeps the best of the Q paths that reach it.
    d_delta.resize(q_count);
    d_next_paths.resize(q_count * nt);
    d_next_metric.resize(q_count);
    for (int layer = last - 1; layer >= 0; layer--) {
        const std::complex<double> rll = d_qr.R(layer, layer);
        const int antenna = d_qr.order[layer];
        for (int k = 0; k < q_count; k++) {
            std::complex<double> s = 0.0;
            for (int j = layer + 1; j < d_nt; j++)
                s += d_qr.R(layer, j) * d_c->points[d_paths[k * nt + j]];
            d_delta[k] = d_y_hat[layer] - s;
        }
        for (int q = 0; q < q_count; q++) {
            const std::complex<double> rc = rll * d_c->points[q];
            int best = 0;
            double best_metric = inf;
            for (int k = 0; k < q_count; k++) {
                const double m = d_metric[k] + std::norm(d_delta[k] - rc);
                if (m < best_metric) {
                    best_metric = m;
                    best = k;
                }
            }
            std::copy_n(&d_paths[best * nt], nt, &d_next_paths[q * nt]);
            d_next_paths[q * nt + layer] = q;
            d_next_metric[q] = best_metric + penalty(antenna, q);
        }
        std::swap(d_paths, d_next_paths);
        std::swap(d_metric, d_next_metric);
    }

    d_sym_min.resize(q_count);
    for (int layer = 0; layer < d_nt; layer++) {
        std::fill(d_sym_min.begin(), d_sym_min.end(), inf);
        for (int k = 0; k < q_count; k++) {
            double& m = d_sym_min[d_paths[k * nt + layer]];
            m = std::min(m, d_metric[k]);
        }
        emit_llrs(d_sym_min.data(), d_qr.order[layer], d_clip, llr);
    }
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
