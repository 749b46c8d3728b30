/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Which resource elements of a subframe carry a PDSCH, in the order its
// symbols fill them (36.211 §6.3.5, §6.4): in the allocated PRBs of each
// slot, frequency first (k increasing over all the PRBs of the symbol), then
// time (l increasing), leaving out the control region, the CRS of the
// cell's ports, and the central 72 subcarriers in the PSS/SSS symbols
// (subframes 0 and 5) and the PBCH symbols (subframe 0, slot 1 symbols
// 0..3). FDD frame structure.
#ifndef INCLUDED_GPURX_LTE_PDSCH_PDSCH_RE_MAP_H
#define INCLUDED_GPURX_LTE_PDSCH_PDSCH_RE_MAP_H

#include "lte/common/crs_positions.h"
#include "lte/common/lte_cell.h"
#include "lte/pdsch/pdsch_grant.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

/*!
 * True when RE (l, k) of subframe \p subframe (l = 0..2 N_symb - 1) is
 * outside the PDSCH whatever the allocation: control region, CRS, PBCH,
 * PSS/SSS. The synchronisation signals and the PBCH exclude exactly the
 * central 72 subcarriers, so in odd bandwidths (15, 25, 75 PRB) the PRB
 * that straddles their edge keeps its other six subcarriers for the PDSCH,
 * and the PBCH symbols' REs reserved for CRS ports the cell does not have
 * stay unused (§6.6.4).
 */
inline bool is_reserved_re(const cell& c, int subframe, int cfi, int l, int k)
{
    if (l < control_symbols(c, cfi) || is_crs_re(c, l, k))
        return true;
    const int half = c.n_sc() / 2;
    if (k < half - 36 || k >= half + 36)
        return false;
    const int per_slot = c.symbols_per_slot();
    // PSS in the slot's last symbol, SSS in the one before (§6.11.1.2, §6.11.2.2).
    if ((subframe == 0 || subframe == 5) && l >= per_slot - 2 && l < per_slot)
        return true;
    // PBCH: slot 1 of subframe 0, symbols 0..3 (§6.6.4).
    return subframe == 0 && l >= per_slot && l < per_slot + 4;
}

/*!
 * The PDSCH's REs as grid indices l n_sc + k, in mapping order.
 * \p cfi 1..3 (throws naming cfi otherwise), \p subframe 0..9.
 */
std::vector<int32_t>
pdsch_re_indices(const cell& c, int subframe, int cfi, const prb_allocation& prbs);

//! The number of REs pdsch_re_indices() gives (36.212's G = this x Qm x
//! the codeword's layers, a transmit-diversity codeword counting one).
int pdsch_re_count(const cell& c, int subframe, int cfi, const prb_allocation& prbs);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
