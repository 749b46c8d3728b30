/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Where the PBCH sits (36.211 §6.6.4): subframe 0 of every radio frame,
// symbols 0..3 of its second slot, the 72 subcarriers around DC
// (k = n_sc/2 - 36 + k', k' = 0..71), skipping the REs of the CRS of four
// ports whatever ports the cell has (the UE does not know them yet), in
// increasing k first, then l. Normal CP: 48 + 48 + 72 + 72 = 240 REs, 480
// bits per frame; extended CP (its symbol 3 carries CRS too): 216 REs, 432
// bits. Four frames carry the 1920 (1728) scrambled bits of one BCH block.
#ifndef INCLUDED_GPURX_LTE_PBCH_PBCH_MAPPING_H
#define INCLUDED_GPURX_LTE_PBCH_PBCH_MAPPING_H

#include "lte/common/lte_cell.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct re_position {
    int l; //!< symbol of the subframe, 0..2 N_symb-1
    int k; //!< subcarrier of the grid
};

//! PBCH REs per frame: 240 (normal CP) or 216 (extended).
inline int pbch_symbols_per_frame(cyclic_prefix cp) { return cp == cyclic_prefix::normal ? 240 : 216; }
//! M_bit (36.211 §6.6.1): the bits of one BCH block over 4 frames.
inline int pbch_bits_per_block(cyclic_prefix cp) { return 8 * pbch_symbols_per_frame(cp); }

/*!
 * The PBCH REs of a grid of \p n_sc subcarriers (at least 72; only the
 * cell ID and CP of \p c count), in mapping order. Throws
 * std::invalid_argument naming n_sc when it is below 72 or odd.
 */
std::vector<re_position> pbch_positions(const cell& c, int n_sc);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
