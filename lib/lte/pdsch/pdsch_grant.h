/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A downlink grant as the DCI formats carry it (36.212 §5.3.3.1): which
// resource blocks (36.213 §7.1.6), the transport blocks, and how they are
// sent (36.211 §6.3.3, §6.3.4). The DCI parser fills it; prbs_of() turns
// its resource allocation into the physical resource blocks of each slot.
#ifndef INCLUDED_GPURX_LTE_PDSCH_PDSCH_GRANT_H
#define INCLUDED_GPURX_LTE_PDSCH_PDSCH_GRANT_H

#include "lte/common/lte_cell.h"
#include "lte/common/resource_blocks.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! Resource allocation types of 36.213 §7.1.6.
enum class resource_allocation : int32_t {
    type0 = 0, //!< a bitmap of resource block groups
    type1 = 1, //!< a bitmap of PRBs within one RBG subset
    type2 = 2, //!< contiguous virtual resource blocks (localized or distributed)
};

//! How the PDSCH's layers reach the antenna ports (36.211 §6.3.4).
enum class pdsch_scheme : int32_t {
    single_port = 0,          //!< port 0 (TM1; and TM2-4's fallbacks in 1-port cells)
    transmit_diversity = 1,   //!< SFBC (2 ports), SFBC+FSTD (4 ports), §6.3.4.3
    large_delay_cdd = 2,      //!< TM3, §6.3.4.2.2
    spatial_multiplexing = 3, //!< TM4 closed loop, §6.3.4.2.1, codebook of §6.3.4.2.3
};

const char* pdsch_scheme_name(pdsch_scheme s);

//! One transport block of a grant.
struct pdsch_tb {
    bool enabled = false;
    //! The DCI's TB this is (0: TB 1, 1: TB 2): it names the HARQ buffer,
    //! whichever codeword the TB travels on.
    int tb_index = 0;
    int mcs = 0;          //!< I_MCS (DCI 1A for SI/P/RA-RNTI: I_TBS as the DCI says)
    int tbs = 0;          //!< transport block size, bits (from 36.213 §7.1.7)
    int rv = 0;           //!< redundancy version 0..3
    int ndi = 0;          //!< new data indicator 0/1
    int harq_process = 0; //!< 0..7 (FDD)
    int qm = 2;           //!< bits per symbol: 2, 4, 6 (8 with 256-QAM tables)
};

struct pdsch_grant {
    int rnti = 0; //!< the RNTI the CRC was masked with; the scrambling's n_RNTI

    resource_allocation alloc = resource_allocation::type0;
    //! Type 0: one bit per RBG, RBG 0 the most significant of N_RBG bits
    //! (the order the DCI carries them in).
    uint32_t rbg_bitmask = 0;
    //! Type 1: the RBG subset p (0..P-1), the shift bit, and the bitmap of
    //! N_RB^TYPE1 bits, its first bit the most significant.
    int type1_subset = 0;
    bool type1_shift = false;
    uint32_t type1_bitmap = 0;
    //! Type 2: the first VRB and the number of VRBs (the RIV decoded),
    //! localized (VRB = PRB) or distributed (§6.2.3.2) with gap 1 or 2.
    int rb_start = 0;
    int rb_len = 0;
    bool distributed = false;
    int gap = 1;

    //! The TBs in codeword order: tb[0] travels on codeword 0, tb[1] on
    //! codeword 1 (the scrambling's q, 36.211 §6.3.1). A DCI's TB-to-codeword
    //! swap flag (36.212 §5.3.3.1.5) has been applied; each TB keeps its
    //! DCI index in tb_index. A lone TB is on codeword 0 wherever it is.
    std::array<pdsch_tb, 2> tb;

    pdsch_scheme scheme = pdsch_scheme::single_port;
    //! Layers in all (large-delay CDD and spatial multiplexing: 1 or 2; transmit
    //! diversity: the cell's ports, as §6.3.3.3 maps onto that many layers).
    int n_layers = 1;
    //! Spatial multiplexing: the codebook index of 36.211 Table 6.3.4.2.3-1 for
    //! n_layers (2 ports: 0..3 for one layer, 0..2 for two). See
    //! dci2_precoding().
    int codebook_index = 0;

    //! Number of transport blocks enabled.
    int n_codewords() const { return int(tb[0].enabled) + int(tb[1].enabled); }
};

//! The physical resource blocks of a grant in each slot of the subframe
//! (different only for distributed VRBs), each list increasing.
struct prb_allocation {
    std::array<std::vector<int>, 2> slot;
};

/*!
 * The PRB of distributed VRB \p n_vrb in slot \p slot_parity (0 even, 1 odd)
 * (36.211 §6.2.3.2): block interleaver of 4 columns and N_row rows written
 * row by row, read column by column, N_null nulls in the last N_null/2 rows
 * of columns 1 and 3; the odd slot's index shifted by half the interleaver;
 * the upper half moved up by N_gap.
 */
int distributed_vrb_to_prb(int n_vrb, int slot_parity, int n_prb, int gap);

//! "" when \p g can be received in \p c (its allocation within the
//! bandwidth, its TBs and scheme consistent), else what is wrong, naming the
//! field and its value.
std::string grant_problem(const pdsch_grant& g, const cell& c);

//! The PRBs of \p g in both slots. Throws std::invalid_argument with
//! grant_problem()'s reason when the allocation does not fit the cell.
prb_allocation prbs_of(const pdsch_grant& g, const cell& c);

/*!
 * DCI format 2's "precoding information" for 2 ports (36.212 Table
 * 5.3.3.1.5-4) into the grant's scheme, layers and codebook index:
 * one codeword: 0 transmit diversity, 1..4 one layer with codebook index
 * 0..3; two codewords: 0 and 1 two layers with codebook index 1 and 2.
 * Returns false for the values that refer to the UE's PMI report (one
 * codeword 5, 6; two codewords 2) or are reserved.
 */
bool dci2_precoding(int n_codewords, int precoding_info, pdsch_grant& g);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
