/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/control_layout.h"
#include "lte/coding/lte_cc.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

int phich_groups(const cell& c)
{
    // Ng as a fraction num/den: 1/6, 1/2, 1, 2.
    int num = 1, den = 1;
    switch (c.ng) {
    case phich_ng::one_sixth: den = 6; break;
    case phich_ng::half: den = 2; break;
    case phich_ng::one: break;
    case phich_ng::two: num = 2; break;
    }
    const int g = (num * c.n_prb + 8 * den - 1) / (8 * den);
    return c.cp == cyclic_prefix::normal ? g : 2 * g;
}

int phich_mapping_units(const cell& c)
{
    const int g = phich_groups(c);
    return c.cp == cyclic_prefix::normal ? g : g / 2;
}

namespace {

//! True when symbol l of the control region has REGs of 6 REs around
//! reference signals (§6.2.4): symbol 0 always, symbol 1 with 4 ports,
//! symbol 3 with the extended prefix (there it is N_symb - 3).
bool reg_of_six(const cell& c, int l)
{
    if (l == 0)
        return true;
    if (l == 1)
        return c.ports == 4;
    if (l == 3)
        return c.cp == cyclic_prefix::extended;
    return false;
}

} // namespace

void control_layout::reg_offsets(int r, int32_t* out) const
{
    for (int i = 0; i < 4; i++)
        out[i] = int32_t(reg_l[size_t(r)]) * c.n_sc() + reg_k[size_t(4 * r + i)];
}

control_layout make_control_layout(const cell& c, int cfi)
{
    const std::string bad = c.check();
    if (!bad.empty())
        throw std::invalid_argument(bad);
    control_layout lay;
    lay.c = c;
    lay.cfi = cfi;
    lay.n_symbols = control_symbols(c, cfi);
    if (c.phich_extended && lay.n_symbols < 3)
        throw std::invalid_argument("cfi=" + std::to_string(cfi) +
                                    " gives fewer than 3 control symbols, which an extended PHICH duration needs");

    // §6.2.4: REGs of 6 REs hold 4 data REs, skipping those of the
    // reference signals of ports 0 and 1 (also with a single port), which
    // sit where k = v_shift (mod 3). §6.8.5: number them with the
    // subcarrier of each REG's first RE outer, the symbol inner.
    const int n_sc = c.n_sc();
    const int v3 = (c.cell_id % 6) % 3;
    std::vector<int> first_reg_of_symbol(size_t(lay.n_symbols), -1);
    std::vector<std::vector<int>> regs_in_symbol(size_t(lay.n_symbols)); // by frequency
    for (int k0 = 0; k0 < n_sc; k0 += 2) {
        for (int l = 0; l < lay.n_symbols; l++) {
            const int width = reg_of_six(c, l) ? 6 : 4;
            if (k0 % width != 0)
                continue;
            regs_in_symbol[size_t(l)].push_back(lay.n_reg());
            lay.reg_l.push_back(int16_t(l));
            for (int k = k0; k < k0 + width; k++)
                if (width == 4 || k % 3 != v3)
                    lay.reg_k.push_back(int16_t(k));
        }
    }

    // §6.7.4: PCFICH's quadruplet i at the symbol-0 REG of subcarrier
    // k_bar + floor(i N_RB / 2) N_sc^RB / 2, k_bar = N_sc^RB / 2 (N_ID mod
    // 2 N_RB), modulo the band: symbol 0's REGs are 6 subcarriers apart.
    std::vector<uint8_t> taken(size_t(lay.n_reg()), 0);
    const int regs0 = 2 * c.n_prb;
    for (int i = 0; i < 4; i++) {
        const int idx = (c.cell_id % regs0 + (i * c.n_prb) / 2) % regs0;
        const int r = regs_in_symbol[0][size_t(idx)];
        lay.pcfich_reg.push_back(r);
        taken[size_t(r)] = 1;
    }

    // §6.9.3: REGs not used by PCFICH, per symbol, from the lowest
    // frequency; mapping unit m' takes n_i = (floor(N_ID n_l'i / n_0) + m' +
    // floor(i n_l'i / 3)) mod n_l'i in symbol l'_i (0, or i when extended).
    std::vector<std::vector<int>> free_in_symbol(size_t(lay.n_symbols));
    for (int l = 0; l < lay.n_symbols; l++)
        for (int r : regs_in_symbol[size_t(l)])
            if (!taken[size_t(r)])
                free_in_symbol[size_t(l)].push_back(r);
    const int units = phich_mapping_units(c);
    const int n0 = int(free_in_symbol[0].size());
    for (int m = 0; m < units; m++) {
        for (int i = 0; i < 3; i++) {
            const int li = c.phich_extended ? i : 0;
            const int n_li = int(free_in_symbol[size_t(li)].size());
            const int idx = (c.cell_id * n_li / n0 + m + i * n_li / 3) % n_li;
            const int r = free_in_symbol[size_t(li)][size_t(idx)];
            lay.phich_reg.push_back(r);
            taken[size_t(r)] = 1;
        }
    }

    for (int r = 0; r < lay.n_reg(); r++)
        if (!taken[size_t(r)])
            lay.pdcch_reg.push_back(r);

    // §6.8.5: the N_REG quadruplets go through the convolutional code's
    // sub-block interleaver (32 columns, dummies first, the columns read in
    // the permuted order, dummies dropped), then a cyclic shift by N_ID:
    // PDCCH REG m' carries the interleaved quadruplet (m' + N_ID) mod N_REG.
    const int n = lay.n_pdcch_reg();
    lay.n_cce = n / 9;
    lay.reg_of_quad.assign(size_t(n), -1);
    if (n > 0) {
        const int rows = (n + 31) / 32, dummies = 32 * rows - n;
        std::vector<int> interleaved;
        interleaved.reserve(size_t(n));
        for (int col = 0; col < 32; col++)
            for (int row = 0; row < rows; row++) {
                const int p = row * 32 + cc_column_permutation[col];
                if (p >= dummies)
                    interleaved.push_back(p - dummies);
            }
        for (int m = 0; m < n; m++) {
            const int q = interleaved[size_t((m + c.cell_id) % n)];
            lay.reg_of_quad[size_t(q)] = lay.pdcch_reg[size_t(m)];
        }
    }
    lay.cce_re.resize(size_t(36 * lay.n_cce));
    for (int q = 0; q < 9 * lay.n_cce; q++)
        lay.reg_offsets(lay.reg_of_quad[size_t(q)], &lay.cce_re[size_t(4 * q)]);
    return lay;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
