/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Where the cell-specific reference signals sit (36.211 §6.10.1.2): every
// step that maps or demaps resource elements (control channels, PBCH, PDSCH)
// skips them, and the channel estimator reads them.
//   ports 0, 1: symbols 0 and N_symb-3 of each slot;  ports 2, 3: symbol 1
//   k = 6 m + (v + v_shift) mod 6,  v_shift = N_ID^cell mod 6
//   v: port 0: 0 in symbol 0, 3 in N_symb-3;  port 1: the opposite;
//      port 2: 3 (n_s mod 2);  port 3: 3 + 3 (n_s mod 2)
#ifndef INCLUDED_GPURX_LTE_COMMON_CRS_POSITIONS_H
#define INCLUDED_GPURX_LTE_COMMON_CRS_POSITIONS_H

#include "lte/common/lte_cell.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! True when symbol \p l_slot (0..N_symb-1) of a slot carries port \p p's CRS.
inline bool crs_symbol(const cell& c, int p, int l_slot)
{
    const int last = c.symbols_per_slot() - 3;
    if (p < 2)
        return l_slot == 0 || l_slot == last;
    return l_slot == 1;
}

//! v + v_shift mod 6 of port \p p in symbol \p l_slot of slot \p ns (only
//! meaningful where crs_symbol() holds): port p's CRS subcarriers are
//! k = 6 m + crs_offset(...).
inline int crs_offset(const cell& c, int p, int l_slot, int ns)
{
    int v = 0;
    switch (p) {
    case 0: v = l_slot == 0 ? 0 : 3; break;
    case 1: v = l_slot == 0 ? 3 : 0; break;
    case 2: v = 3 * (ns % 2); break;
    default: v = 3 + 3 * (ns % 2); break;
    }
    return (v + c.cell_id % 6) % 6;
}

/*!
 * True when resource element (l, k) of a subframe (l = 0..2 N_symb-1) is
 * reserved for a CRS of any of the cell's ports. With 1 port the REs of
 * port 1 are not reserved (36.211 §6.10.1.2: REs used for one port's
 * reference signal carry nothing on the others, so only the cell's own
 * ports count).
 */
inline bool is_crs_re(const cell& c, int l, int k)
{
    const int per_slot = c.symbols_per_slot();
    const int ls = l % per_slot, ns = l / per_slot;
    for (int p = 0; p < c.ports; p++)
        if (crs_symbol(c, p, ls) && k % 6 == crs_offset(c, p, ls, ns))
            return true;
    return false;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
