/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/pdcch.h"
#include "lte/control/control_demap.h"
#include "sch/lte_scrambling.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

std::vector<float> pdcch_cce_llrs(const control_layout& lay, const subframe_grid& g, const channel_estimate& h)
{
    if (g.n_sc != lay.c.n_sc())
        throw std::invalid_argument("grid n_sc=" + std::to_string(g.n_sc) + " is not the cell's " +
                                    std::to_string(lay.c.n_sc()));
    std::vector<float> llr(size_t(72 * lay.n_cce), 0.0f);
    if (lay.n_cce == 0)
        return llr;
    demap_control_quadruplets(g, h, lay.c.ports, lay.cce_re.data(), 9 * lay.n_cce, llr.data());
    const uint32_t c_init = uint32_t(g.time.subframe) * 512u + uint32_t(lay.c.cell_id);
    const auto scr = sch::gold_bits(c_init, llr.size());
    for (size_t i = 0; i < llr.size(); i++)
        if (scr[i])
            llr[i] = -llr[i];
    return llr;
}

std::vector<float> pdcch_cce_power(const control_layout& lay, const subframe_grid& g, const channel_estimate& h)
{
    const float n0 = h.noise_var;
    if (!(n0 > 0.0f) || !std::isfinite(n0) || g.n_rx < 1)
        return {};
    std::vector<float> power(size_t(lay.n_cce), 0.0f);
    const size_t plane = size_t(g.n_symbols) * size_t(g.n_sc);
    if (lay.cce_re.size() < size_t(36) * size_t(lay.n_cce) || g.re.size() < size_t(g.n_rx) * plane)
        throw std::invalid_argument("control layout or grid smaller than its dimensions say");
    for (int n = 0; n < lay.n_cce; n++) {
        double sum = 0.0;
        for (int a = 0; a < g.n_rx; a++) {
            const cf* rx = &g.re[size_t(a) * plane];
            for (int i = 0; i < 36; i++) {
                const size_t off = size_t(lay.cce_re[size_t(36 * n + i)]);
                if (off < plane)
                    sum += double(std::norm(rx[off]));
            }
        }
        const double p = sum / (36.0 * g.n_rx * double(n0));
        power[size_t(n)] = std::isfinite(p) ? float(p) : 0.0f;
    }
    return power;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
