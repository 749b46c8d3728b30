/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The resource-block arithmetic that DCI sizes (control/) and PDSCH
// allocations (pdsch/) share: resource block groups (36.213 §7.1.6.1-2)
// and the gaps of distributed virtual resource blocks (36.211 §6.2.3.2).
#ifndef INCLUDED_GPURX_LTE_COMMON_RESOURCE_BLOCKS_H
#define INCLUDED_GPURX_LTE_COMMON_RESOURCE_BLOCKS_H

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! RBG size P of 36.213 Table 7.1.6.1-1: 1 (<= 10 PRB), 2 (11-26), 3 (27-63),
//! 4 (64-110). Throws naming n_prb outside 6..110.
int rbg_size(int n_prb);
//! N_RBG = ceil(n_prb / P).
int rbg_count(int n_prb);
//! N_RB^TYPE1 = ceil(n_prb / P) - ceil(log2 P) - 1: bits of a type-1 bitmap.
int type1_bitmap_bits(int n_prb);
//! N_gap of 36.211 Table 6.2.3.2-1 (gap 1 or 2); 0 where the table has none
//! (gap 2 below 50 PRB).
int vrb_gap(int n_prb, int gap);
//! N_VRB^DL of distributed VRBs: 2 min(N_gap, n_prb - N_gap) for gap 1,
//! floor(n_prb / 2 N_gap) 2 N_gap for gap 2.
int distributed_vrb_count(int n_prb, int gap);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
