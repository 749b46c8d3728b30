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
#include "mimo/one_pass_detector.h"

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

void mimo_detector::detect(const std::complex<float>* y, const float* apriori, float* llr)
{
    d_apriori = apriori;
    if (apriori) {
        const size_t q_count = d_c->points.size();
        d_penalty.resize(size_t(d_nt) * q_count);
        for (int a = 0; a < d_nt; a++) {
            double* p = &d_penalty[size_t(a) * q_count];
            prior_costs(*d_c, apriori + a * d_c->bits, p);
            for (size_t q = 0; q < q_count; q++)
                p[q] *= d_n0;
        }
    }
    detect_vector(y, llr);
}

void mimo_detector::emit_llrs(const double* sym_min,
                              int antenna,
                              double clip,
                              float* llr_all) const
{
    const int off = antenna * d_c->bits;
    llrs_from_symbol_minima(sym_min,
                            *d_c,
                            d_n0,
                            clip,
                            llr_all + off,
                            d_extrinsic && d_apriori ? d_apriori + off : nullptr);
}

std::unique_ptr<mimo_detector> make_detector(const mimo_config& cfg)
{
    std::unique_ptr<mimo_detector> d;
    switch (cfg.algorithm) {
    case algorithm::ml:
        d = std::make_unique<ml_detector>();
        break;
    case algorithm::mtt:
        d = std::make_unique<mtt_detector>(cfg.sorted_qr);
        break;
    case algorithm::kbest:
        d = std::make_unique<kbest_detector>(cfg.sorted_qr, cfg.k, cfg.clip);
        break;
    case algorithm::one_pass:
        d = std::make_unique<one_pass_detector>(cfg.sorted_qr, cfg.clip);
        break;
    default:
        d = std::make_unique<lmmse_detector>();
        break;
    }
    d->set_output(cfg.output);
    return d;
}

void prior_costs(const constellation& c, const float* la, double* cost)
{
    for (size_t q = 0; q < c.points.size(); q++) {
        double p = 0.0;
        for (int i = 0; i < c.bits; i++) {
            const bool bit = (q >> (c.bits - 1 - i)) & 1;
            if (bit != (la[i] > 0.0f))
                p += std::fabs(double(la[i]));
        }
        cost[q] = p;
    }
}

void llrs_from_symbol_minima(const double* sym_min,
                             const constellation& c,
                             double n0,
                             double clip,
                             float* llr,
                             const float* apriori)
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
            l = (min0 - min1) / n0 - (apriori ? double(apriori[i]) : 0.0);
        // Never Inf in float, whatever the inputs: the staging bounds them
        // (mimo_frame.h max_input_component()), this bounds the output.
        const double bound = std::min(clip, double(std::numeric_limits<float>::max()));
        llr[i] = float(std::max(-bound, std::min(bound, l)));
    }
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
