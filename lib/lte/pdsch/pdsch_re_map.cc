/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pdsch/pdsch_re_map.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

void check_args(const cell& c, int subframe, int cfi, const prb_allocation& prbs)
{
    if (cfi < 1 || cfi > 3)
        throw std::invalid_argument("cfi=" + std::to_string(cfi) + " is outside 1..3");
    if (subframe < 0 || subframe > 9)
        throw std::invalid_argument("subframe=" + std::to_string(subframe) +
                                    " is outside 0..9");
    for (const auto& s : prbs.slot)
        for (int n : s)
            if (n < 0 || n >= c.n_prb)
                throw std::invalid_argument("prb=" + std::to_string(n) +
                                            " is outside the cell's 0.." +
                                            std::to_string(c.n_prb - 1));
}

template <typename Visit>
void for_each_pdsch_re(
    const cell& c, int subframe, int cfi, const prb_allocation& prbs, Visit visit)
{
    const int per_slot = c.symbols_per_slot();
    for (int l = control_symbols(c, cfi); l < 2 * per_slot; l++)
        for (int n : prbs.slot[size_t(l / per_slot)])
            for (int k = 12 * n; k < 12 * n + 12; k++)
                if (!is_reserved_re(c, subframe, cfi, l, k))
                    visit(l, k);
}

} // namespace

std::vector<int32_t>
pdsch_re_indices(const cell& c, int subframe, int cfi, const prb_allocation& prbs)
{
    check_args(c, subframe, cfi, prbs);
    std::vector<int32_t> re;
    re.reserve(size_t(12) * size_t(c.symbols_per_slot()) * (prbs.slot[0].size() + prbs.slot[1].size()));
    const int n_sc = c.n_sc();
    for_each_pdsch_re(
        c, subframe, cfi, prbs, [&](int l, int k) { re.push_back(l * n_sc + k); });
    return re;
}

int pdsch_re_count(const cell& c, int subframe, int cfi, const prb_allocation& prbs)
{
    check_args(c, subframe, cfi, prbs);
    int n = 0;
    for_each_pdsch_re(c, subframe, cfi, prbs, [&](int, int) { n++; });
    return n;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
