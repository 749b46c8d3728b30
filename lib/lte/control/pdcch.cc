/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/pdcch.h"
#include "lte/control/control_demap.h"
#include "sch/lte_scrambling.h"

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

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
