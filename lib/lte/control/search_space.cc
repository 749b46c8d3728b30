/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/search_space.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

void add_candidates(std::vector<pdcch_candidate>& out, int n_cce, uint32_t y, int agg, int count)
{
    const int slots = n_cce / agg;
    if (slots == 0)
        return;
    for (int m = 0; m < count; m++) {
        const pdcch_candidate c{ agg * int((y + uint32_t(m)) % uint32_t(slots)), agg };
        if (std::find(out.begin(), out.end(), c) == out.end())
            out.push_back(c);
    }
}

void check_subframe(int subframe)
{
    if (subframe < 0 || subframe > 9)
        throw std::invalid_argument("subframe=" + std::to_string(subframe) + " is outside 0..9");
}

} // namespace

uint32_t search_space_y(uint16_t rnti, int subframe)
{
    check_subframe(subframe);
    uint32_t y = rnti;
    for (int k = 0; k <= subframe; k++)
        y = (39827u * y) % 65537u;
    return y;
}

std::vector<pdcch_candidate> common_search_space(int n_cce)
{
    // At most 16 CCEs take part (§9.1.1: CCEs 0..15).
    std::vector<pdcch_candidate> out;
    add_candidates(out, std::min(n_cce, 16), 0, 4, 4);
    add_candidates(out, std::min(n_cce, 16), 0, 8, 2);
    return out;
}

std::vector<pdcch_candidate> ue_search_space(int n_cce, uint16_t rnti, int subframe)
{
    const uint32_t y = search_space_y(rnti, subframe);
    std::vector<pdcch_candidate> out;
    add_candidates(out, n_cce, y, 1, 6);
    add_candidates(out, n_cce, y, 2, 6);
    add_candidates(out, n_cce, y, 4, 2);
    add_candidates(out, n_cce, y, 8, 2);
    return out;
}

bool in_ue_search_space(int n_cce, uint16_t rnti, int subframe, const pdcch_candidate& cand)
{
    const auto s = ue_search_space(n_cce, rnti, subframe);
    return std::find(s.begin(), s.end(), cand) != s.end();
}

std::vector<pdcch_candidate> all_pdcch_positions(int n_cce)
{
    std::vector<pdcch_candidate> out;
    for (int agg : { 1, 2, 4, 8 })
        for (int n = 0; n + agg <= n_cce; n += agg)
            out.push_back({ n, agg });
    return out;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
