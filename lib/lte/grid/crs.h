/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The cell-specific reference signals (36.211 §6.10.1): the sequence
//   r_{l,ns}(m) = (1 - 2 c(2m)) / sqrt(2) + j (1 - 2 c(2m + 1)) / sqrt(2),
// c the Gold sequence of §7.2 with
//   c_init = 2^10 (7 (ns + 1) + l + 1) (2 N_ID^cell + 1) + 2 N_ID^cell + N_CP
// (N_CP = 1 normal, 0 extended), defined for the largest bandwidth
// (m = 0..2 N_RB^max,DL - 1) and cut to the cell's: port p's CRS m = 0..
// 2 N_RB^DL - 1 of symbol l of slot ns is r(m + N_RB^max,DL - N_RB^DL) at
// subcarrier k = 6 m + crs_offset() (common/crs_positions.h).
#ifndef INCLUDED_GPURX_LTE_GRID_CRS_H
#define INCLUDED_GPURX_LTE_GRID_CRS_H

#include "lte/common/crs_positions.h"
#include "lte/common/lte_cell.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

constexpr int N_RB_MAX_DL = 110; //!< N_RB^max,DL (36.211 §6.2.1)

//! c_init of the CRS of symbol \p l_slot of slot \p ns (§6.10.1.1).
inline uint32_t crs_c_init(int cell_id, int ns, int l_slot, cyclic_prefix cp)
{
    const uint32_t n_cp = cp == cyclic_prefix::normal ? 1u : 0u;
    return (1u << 10) * uint32_t(7 * (ns + 1) + l_slot + 1) * uint32_t(2 * cell_id + 1) + 2u * uint32_t(cell_id) +
           n_cp;
}

/*!
 * The cell's 2 n_prb CRS values of symbol \p l_slot of slot \p ns (the same
 * for every port: only their subcarriers differ), r[m] for subcarrier
 * 6 m + crs_offset(c, p, l_slot, ns).
 */
void crs_sequence(const cell& c, int ns, int l_slot, cf* r);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
