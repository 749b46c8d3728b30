/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PDCCH search spaces (36.213 §9.1.1): where a UE looks for its DCIs in a
// subframe with N_CCE CCEs. Candidate m of aggregation L starts at CCE
// L ((Y_k + m) mod floor(N_CCE / L)); the common space has Y_k = 0 and
// 4, 2 candidates of aggregation 4, 8; a UE's space has Y_k = (A Y_k-1) mod
// D from Y_-1 = n_RNTI (A = 39827, D = 65537, k = subframe) and 6, 6, 2, 2
// candidates of aggregation 1, 2, 4, 8.
#ifndef INCLUDED_GPURX_LTE_CONTROL_SEARCH_SPACE_H
#define INCLUDED_GPURX_LTE_CONTROL_SEARCH_SPACE_H

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct pdcch_candidate {
    int ncce = 0; //!< first CCE
    int agg = 1;  //!< aggregation level L: 1, 2, 4, 8 CCEs
    bool operator==(const pdcch_candidate& o) const { return ncce == o.ncce && agg == o.agg; }
};

//! Y_k of an RNTI for subframe k (0..9).
uint32_t search_space_y(uint16_t rnti, int subframe);

//! The common search space's distinct candidates (aggregation 4 then 8).
std::vector<pdcch_candidate> common_search_space(int n_cce);

//! The distinct candidates of \p rnti's UE-specific space in \p subframe
//! (aggregation 1, 2, 4, 8 in turn, m in order).
std::vector<pdcch_candidate> ue_search_space(int n_cce, uint16_t rnti, int subframe);

//! True when \p cand is one of \p rnti's UE-specific candidates.
bool in_ue_search_space(int n_cce, uint16_t rnti, int subframe, const pdcch_candidate& cand);

//! Every position a DCI of aggregation 1, 2, 4, 8 can take (CCE a multiple
//! of L, all L CCEs present): what a receiver that does not know the RNTIs
//! decodes.
std::vector<pdcch_candidate> all_pdcch_positions(int n_cce);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
