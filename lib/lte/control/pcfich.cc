/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/pcfich.h"
#include "lte/control/control_demap.h"
#include "lte/control/control_layout.h"
#include "sch/lte_scrambling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

std::array<uint8_t, 32> cfi_codeword(int cfi)
{
    // Table 5.3.4-1: CFI 1 is 011 repeated, CFI 2 101, CFI 3 110, cut at 32.
    static const uint8_t base[3][3] = { { 0, 1, 1 }, { 1, 0, 1 }, { 1, 1, 0 } };
    if (cfi < 1 || cfi > 3)
        throw std::invalid_argument("cfi=" + std::to_string(cfi) + " is not 1, 2 or 3");
    std::array<uint8_t, 32> w{};
    for (int i = 0; i < 32; i++)
        w[size_t(i)] = base[cfi - 1][i % 3];
    return w;
}

std::array<int32_t, 16> pcfich_res(const cell& c)
{
    // The PCFICH REGs do not depend on the CFI: take them from a 1-symbol
    // region (CFI 1 for wide cells; the REGs of symbol 0 are the same).
    const control_layout lay = make_control_layout(c, 1);
    std::array<int32_t, 16> re{};
    for (int i = 0; i < 4; i++)
        lay.reg_offsets(lay.pcfich_reg[size_t(i)], &re[size_t(4 * i)]);
    return re;
}

pcfich_result cfi_from_llrs(const float* llr)
{
    pcfich_result r;
    float total = 0.0f;
    for (int i = 0; i < 32; i++)
        total += std::fabs(llr[i]);
    for (int cfi = 1; cfi <= 3; cfi++) {
        const auto w = cfi_codeword(cfi);
        float s = 0.0f;
        for (int i = 0; i < 32; i++)
            s += w[size_t(i)] ? llr[i] : -llr[i];
        r.score[size_t(cfi - 1)] = s;
    }
    if (!(total > 0.0f))
        return r;
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (r.score[size_t(i)] > r.score[size_t(best)])
            best = i;
    float second = -1e30f;
    for (int i = 0; i < 3; i++)
        if (i != best)
            second = std::max(second, r.score[size_t(i)]);
    r.cfi = best + 1;
    r.correlation = r.score[size_t(best)] / total;
    r.margin = (r.score[size_t(best)] - second) / total;
    return r;
}

pcfich_result decode_pcfich(const cell& c, const subframe_grid& g, const channel_estimate& h)
{
    if (g.n_sc != c.n_sc())
        throw std::invalid_argument("grid n_sc=" + std::to_string(g.n_sc) + " is not the cell's " +
                                    std::to_string(c.n_sc()));
    const auto re = pcfich_res(c);
    float llr[32];
    demap_control_quadruplets(g, h, c.ports, re.data(), 4, llr);
    const uint32_t c_init = uint32_t((g.time.subframe + 1) * (2 * c.cell_id + 1)) * 512u + uint32_t(c.cell_id);
    const auto scr = sch::gold_bits(c_init, 32);
    for (int i = 0; i < 32; i++)
        if (scr[size_t(i)])
            llr[i] = -llr[i];
    return cfi_from_llrs(llr);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
