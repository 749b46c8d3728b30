/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pbch/pbch_mapping.h"

#include "lte/common/crs_positions.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

std::vector<re_position> pbch_positions(const cell& c, int n_sc)
{
    if (n_sc < 72 || n_sc % 2)
        throw std::invalid_argument("n_sc=" + std::to_string(n_sc) + " is not an even count of at least 72");
    cell four = c;
    four.ports = 4; // §6.6.4: REs reserved for the CRS of 4 ports
    const int per_slot = c.symbols_per_slot(), k0 = n_sc / 2 - 36;
    std::vector<re_position> pos;
    pos.reserve(240);
    for (int ls = 0; ls < 4; ls++) {
        const int l = per_slot + ls;
        for (int k = k0; k < k0 + 72; k++) {
            // k0 = 6 (N_RB - 6) for a standard grid: a cell's CRS offsets
            // (mod 6) hold whatever bandwidth the grid was cut at.
            bool crs = false;
            for (int p = 0; p < 4; p++)
                if (crs_symbol(four, p, ls) && k % 6 == crs_offset(four, p, ls, 1))
                    crs = true;
            if (!crs)
                pos.push_back({ l, k });
        }
    }
    return pos;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
