/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/kbest_detector.h"

#include <algorithm>
#include <limits>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

void kbest_detector::detect_vector(const std::complex<float>* y, float* llr)
{
    const int q_count = int(d_c->points.size());
    d_y_hat.resize(d_nt);
    d_qr.rotate(y, d_y_hat.data(), d_work);

    // The root: one empty path.
    size_t kept = 1;
    d_paths.assign(size_t(d_nt), 0);
    d_metric.assign(1, 0.0);
    for (int layer = d_nt - 1; layer >= 0; layer--) {
        // A layer of K x Q children takes up to a second at K = 65536 and
        // 256-QAM: a stop is answered between layers and within expansions.
        if (poll_stop()) {
            std::fill(llr, llr + size_t(d_nt) * d_c->bits, 0.0f);
            return;
        }
        const std::complex<double> rll = d_qr.R(layer, layer);
        const int antenna = d_qr.order[layer];
        d_children.clear();
        for (size_t p = 0; p < kept; p++) {
            if ((p & 4095) == 4095 && poll_stop()) {
                std::fill(llr, llr + size_t(d_nt) * d_c->bits, 0.0f);
                return;
            }
            std::complex<double> delta = 0.0;
            for (int j = layer + 1; j < d_nt; j++)
                delta += d_qr.R(layer, j) * d_c->points[d_paths[p * d_nt + j]];
            const std::complex<double> target = d_y_hat[layer] - delta;
            for (int q = 0; q < q_count; q++)
                d_children.push_back(
                    { d_metric[p] + std::norm(target - rll * d_c->points[q]) +
                          penalty(antenna, q),
                      int(p),
                      q });
        }
        const size_t keep = std::min(d_children.size(), size_t(d_k));
        // Ties go to the earlier parent, then the lower symbol: deterministic.
        std::partial_sort(d_children.begin(),
                          d_children.begin() + keep,
                          d_children.end(),
                          [](const child& a, const child& b) {
                              if (a.metric != b.metric)
                                  return a.metric < b.metric;
                              return a.parent != b.parent ? a.parent < b.parent
                                                          : a.symbol < b.symbol;
                          });
        d_next_paths.resize(keep * d_nt);
        d_metric.resize(keep);
        for (size_t c = 0; c < keep; c++) {
            const child& ch = d_children[c];
            for (int j = layer + 1; j < d_nt; j++)
                d_next_paths[c * d_nt + j] = d_paths[size_t(ch.parent) * d_nt + j];
            d_next_paths[c * d_nt + layer] = ch.symbol;
            d_metric[c] = ch.metric;
        }
        std::swap(d_paths, d_next_paths);
        kept = keep;
    }

    d_sym_min.resize(q_count);
    for (int layer = 0; layer < d_nt; layer++) {
        std::fill(
            d_sym_min.begin(), d_sym_min.end(), std::numeric_limits<double>::infinity());
        for (size_t p = 0; p < kept; p++) {
            double& m = d_sym_min[d_paths[p * d_nt + layer]];
            m = std::min(m, d_metric[p]);
        }
        emit_llrs(d_sym_min.data(), d_qr.order[layer], d_clip, llr);
    }
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
