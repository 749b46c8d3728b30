/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/kbest_detector.h"
#include "mimo/lmmse_detector.h"
#include "mimo/mimo_detector.h"
#include "mimo/ml_detector.h"
#include "mimo/mtt_detector.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

int mimo_detector::set_channel(
    const std::complex<float>* h, int nr, int nt, modulation m, double n0)
{
    d_nr = nr;
    d_nt = nt;
    d_n0 = n0;
    d_c = &constellation_of(m);
    d_h.resize(size_t(nr) * nt);
    for (size_t i = 0; i < d_h.size(); i++)
        d_h[i] = std::complex<double>(h[i]);
    qr_decompose(d_h.data(), nr, nt, d_sorted_qr, d_qr);
    channel_changed();
    return d_qr.rank;
}

std::unique_ptr<mimo_detector> make_detector(const mimo_config& cfg)
{
    switch (cfg.algorithm) {
    case algorithm::ml:
        return std::make_unique<ml_detector>();
    case algorithm::mtt:
        return std::make_unique<mtt_detector>(cfg.sorted_qr);
    case algorithm::kbest:
        return std::make_unique<kbest_detector>(cfg.sorted_qr, cfg.k, cfg.clip);
    default:
        return std::make_unique<lmmse_detector>();
    }
}

void llrs_from_symbol_minima(
    const double* sym_min, const constellation& c, double n0, double clip, float* llr)
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    const int q_count = int(c.points.size());
    for (int i = 0; i < c.bits; i++) {
        double min0 = inf, min1 = inf;
        for (int q = 0; q < q_count; q++) {
            double& m = (q >> (c.bits - 1 - i)) & 1 ? min1 : min0;
            m = std::min(m, sym_min[q]);
        }
        double l;
        if (min0 == inf && min1 == inf)
            l = 0.0;
        else if (min0 == inf)
            l = clip;
        else if (min1 == inf)
            l = -clip;
        else
            l = (min0 - min1) / n0;
        llr[i] = float(std::max(-clip, std::min(clip, l)));
    }
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
