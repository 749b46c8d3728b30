/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/grid/crs.h"

#include "sch/lte_scrambling.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

void crs_sequence(const cell& c, int ns, int l_slot, cf* r)
{
    // 2 bits per value up to m' = 2 N_RB^max - 1: 440 bits, 14 words.
    constexpr int words = (4 * N_RB_MAX_DL + 31) / 32;
    uint32_t w[words];
    sch::gold_words(crs_c_init(c.cell_id, ns, l_slot, c.cp), w, words);
    const float a = 0.70710678118654752f;
    const int m0 = N_RB_MAX_DL - c.n_prb;
    for (int m = 0; m < 2 * c.n_prb; m++) {
        const int i = 2 * (m + m0);
        const int b0 = int(w[i / 32] >> (i % 32)) & 1, b1 = int(w[(i + 1) / 32] >> ((i + 1) % 32)) & 1;
        r[m] = cf(b0 ? -a : a, b1 ? -a : a);
    }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
