/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/common/resource_blocks.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

int rbg_size(int n_prb)
{
    if (n_prb < 6 || n_prb > 110)
        throw std::invalid_argument("n_prb=" + std::to_string(n_prb) + " is outside 6..110");
    return n_prb <= 10 ? 1 : n_prb <= 26 ? 2 : n_prb <= 63 ? 3 : 4;
}

int rbg_count(int n_prb)
{
    const int P = rbg_size(n_prb);
    return (n_prb + P - 1) / P;
}

int type1_bitmap_bits(int n_prb)
{
    const int P = rbg_size(n_prb);
    int log2p = 0;
    while ((1 << log2p) < P)
        log2p++;
    return rbg_count(n_prb) - log2p - 1;
}

int vrb_gap(int n_prb, int gap)
{
    rbg_size(n_prb); // range check
    if (gap == 1) {
        if (n_prb <= 10)
            return (n_prb + 1) / 2;
        if (n_prb == 11)
            return 4;
        if (n_prb <= 19)
            return 8;
        if (n_prb <= 26)
            return 12;
        if (n_prb <= 44)
            return 18;
        if (n_prb <= 63)
            return 27;
        if (n_prb <= 79)
            return 32;
        return 48;
    }
    if (gap == 2)
        return n_prb < 50 ? 0 : n_prb <= 63 ? 9 : 16;
    throw std::invalid_argument("gap=" + std::to_string(gap) + " is not 1 or 2");
}

int distributed_vrb_count(int n_prb, int gap)
{
    const int n_gap = vrb_gap(n_prb, gap);
    if (n_gap == 0)
        return 0;
    if (gap == 1)
        return 2 * std::min(n_gap, n_prb - n_gap);
    return (n_prb / (2 * n_gap)) * 2 * n_gap;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
