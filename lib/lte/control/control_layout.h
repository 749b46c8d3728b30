/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Where the control channels sit in a subframe's control region: its
// resource-element groups (36.211 §6.2.4), the four of PCFICH (§6.7.4), the
// PHICH groups' (§6.9.3) and the rest, in the order of §6.8.5, for PDCCH,
// with the quadruplet permutation that spreads each CCE over them.
//
// Everything is a flat table so that a GPU twin can copy it as it is:
// a REG is its symbol and its 4 data subcarriers, and each CCE is the 36
// resource elements (9 REGs) of its quadruplets, as offsets l * n_sc + k
// into one antenna's subframe grid, in the order its QPSK symbols were sent.
#ifndef INCLUDED_GPURX_LTE_CONTROL_CONTROL_LAYOUT_H
#define INCLUDED_GPURX_LTE_CONTROL_CONTROL_LAYOUT_H

#include "lte/common/lte_cell.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {


//! PHICH groups (36.211 §6.9): ceil(Ng N_RB / 8), twice that with the
//! extended cyclic prefix.
int phich_groups(const cell& c);

//! PHICH mapping units (§6.9.3): one per group, one per two groups with the
//! extended cyclic prefix.
int phich_mapping_units(const cell& c);

struct control_layout {
    cell c;
    int cfi = 1;
    int n_symbols = 1; //!< OFDM symbols of the control region

    //! Every REG of the control region in §6.8.5's order (subcarrier of the
    //! REG's first RE outer, symbol inner): symbol [r] and the 4 subcarriers
    //! that carry the quadruplet [4 r .. 4 r + 3] (REs of reference signals
    //! skipped; with one port those of ports 0 and 1, §6.2.4).
    std::vector<int16_t> reg_l;
    std::vector<int16_t> reg_k;

    std::vector<int> pcfich_reg; //!< [4]: REG of quadruplet i, index into reg_l
    std::vector<int> phich_reg;  //!< [unit * 3 + i]: REGs of PHICH mapping unit
    std::vector<int> pdcch_reg;  //!< the others, in order (N_REG of §6.8.1)

    int n_cce = 0; //!< floor(N_REG / 9)
    //! [q]: the REG (index into reg_l) that carries quadruplet q of the
    //! PDCCH bit stream (q = 9 n_cce + j), after the permutation and cyclic
    //! shift of §6.8.5; q runs over all N_REG quadruplets (the last
    //! N_REG mod 9 carry no CCE).
    std::vector<int> reg_of_quad;
    //! [36 n + i]: offset l * n_sc + k of QPSK symbol i of CCE n.
    std::vector<int32_t> cce_re;

    int n_reg() const { return int(reg_l.size()); }
    int n_pdcch_reg() const { return int(pdcch_reg.size()); }
    //! Offsets l * n_sc + k of the 4 REs of REG r.
    void reg_offsets(int r, int32_t* out) const;
};

/*!
 * The layout for \p c and \p cfi (1..3). Throws std::invalid_argument
 * naming the parameter: a cell that fails check(), cfi outside 1..3, or an
 * extended PHICH duration with fewer than 3 control symbols (its PHICH
 * spans symbols 0..2, 36.211 Table 6.9.3-1).
 */
control_layout make_control_layout(const cell& c, int cfi);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
