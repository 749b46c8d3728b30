/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/mtt_detector.h"

#include <limits>
#include <utility>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

void mtt_detector::interference(const path_set& p, int layer)
{
    const int q_count = int(d_c->points.size());
    d_delta.resize(q_count);
    for (int k = 0; k < q_count; k++) {
        std::complex<double> s = 0.0;
        for (int j = layer + 1; j < d_nt; j++)
            s += d_qr.R(layer, j) * d_c->points[p.symbols[size_t(k) * d_nt + j]];
        d_delta[k] = s;
    }
}

void mtt_detector::edge_reduction(const path_set& in, int layer, path_set& out)
{
    // Vertex q of this stage keeps the best of the Q paths that reach it.
    const int q_count = int(d_c->points.size());
    const std::complex<double> rll = d_qr.R(layer, layer);
    const int antenna = d_qr.order[layer];
    interference(in, layer);
    out.symbols.resize(in.symbols.size());
    out.metric.resize(q_count);
    for (int q = 0; q < q_count; q++) {
        const std::complex<double> target = d_y_hat[layer] - rll * d_c->points[q];
        const double prior = penalty(antenna, q);
        int best = 0;
        double best_metric = std::numeric_limits<double>::infinity();
        for (int k = 0; k < q_count; k++) {
            const double m = in.metric[k] + std::norm(target - d_delta[k]) + prior;
            if (m < best_metric) {
                best_metric = m;
                best = k;
            }
        }
        for (int j = layer + 1; j < d_nt; j++)
            out.symbols[size_t(q) * d_nt + j] = in.symbols[size_t(best) * d_nt + j];
        out.symbols[size_t(q) * d_nt + layer] = q;
        out.metric[q] = best_metric;
    }
}

void mtt_detector::path_extension(path_set& p, int layer)
{
    // Path k keeps the best of its Q outgoing edges.
    const int q_count = int(d_c->points.size());
    const std::complex<double> rll = d_qr.R(layer, layer);
    const int antenna = d_qr.order[layer];
    interference(p, layer);
    for (int k = 0; k < q_count; k++) {
        const std::complex<double> target = d_y_hat[layer] - d_delta[k];
        int best = 0;
        double best_weight = std::numeric_limits<double>::infinity();
        for (int q = 0; q < q_count; q++) {
            const double w = std::norm(target - rll * d_c->points[q]) + penalty(antenna, q);
            if (w < best_weight) {
                best_weight = w;
                best = q;
            }
        }
        p.symbols[size_t(k) * d_nt + layer] = best;
        p.metric[k] += best_weight;
    }
}

void mtt_detector::detect_vector(const std::complex<float>* y, float* llr)
{
    const int q_count = int(d_c->points.size());
    d_y_hat.resize(d_nt);
    d_qr.rotate(y, d_y_hat.data(), d_work);

    // Stage 0 (the last layer): one edge from the root into each vertex.
    const int last = d_nt - 1;
    d_reduced.symbols.assign(size_t(q_count) * d_nt, 0);
    d_reduced.metric.resize(q_count);
    for (int q = 0; q < q_count; q++) {
        d_reduced.symbols[size_t(q) * d_nt + last] = q;
        d_reduced.metric[q] =
            std::norm(d_y_hat[last] - d_qr.R(last, last) * d_c->points[q]) +
            penalty(d_qr.order[last], q);
    }
    d_sym_min.resize(q_count);
    for (int t = 0; t < d_nt; t++) {
        const int layer = last - t;
        if (t > 0) {
            edge_reduction(d_reduced, layer, d_next);
            std::swap(d_reduced, d_next);
        }
        // d_reduced: path q ends in vertex q of stage t. Extend each to the end.
        d_list = d_reduced;
        for (int s = t + 1; s < d_nt; s++)
            path_extension(d_list, last - s);
        for (int q = 0; q < q_count; q++)
            d_sym_min[q] = d_list.metric[q];
        emit_llrs(d_sym_min.data(),
                  d_qr.order[layer],
                  std::numeric_limits<double>::infinity(),
                  llr);
    }
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
