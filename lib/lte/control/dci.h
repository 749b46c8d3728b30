/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A decoded DCI and its fields (36.212 §5.3.3.1, Rel-8 FDD), with the
// resource allocation read as 36.213 §7.1.6 defines it and the checks that
// catch a grant no eNodeB could send (allocation outside the band, an RIV
// out of range, both transport blocks disabled).
#ifndef INCLUDED_GPURX_LTE_CONTROL_DCI_H
#define INCLUDED_GPURX_LTE_CONTROL_DCI_H

#include "lte/common/lte_cell.h"
#include "lte/control/dci_sizes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

constexpr uint16_t si_rnti = 0xFFFF;
constexpr uint16_t p_rnti = 0xFFFE;
//! RA-RNTIs of FDD (36.321 §5.1.4: 1 + t_id, t_id 0..9).
inline bool is_ra_rnti(uint16_t rnti) { return rnti >= 1 && rnti <= 10; }
//! SI-, P- or RA-RNTI: format 1A and 1C then carry broadcast grants.
inline bool is_broadcast_rnti(uint16_t rnti) { return rnti == si_rnti || rnti == p_rnti || is_ra_rnti(rnti); }

//! One transport block's fields.
struct dci_tb {
    int mcs = 0;
    int ndi = 0;
    int rv = 0;
    bool enabled = true; //!< formats 2, 2A: disabled by MCS 0 with RV 1 (36.213 §7.1.7.2)
};

struct dci_message {
    dci_format format = dci_format::f1a;
    uint16_t rnti = 0;
    int ncce = 0, agg = 1;
    bool common_space = false;
    std::vector<uint8_t> bits; //!< the payload, as sent (padding included)

    // Resource allocation (downlink formats): type 0 (RBG bitmap), 1 (RBG
    // subset), 2 (RIV: contiguous VRBs, localized or distributed).
    int ra_type = 0;
    uint32_t rbg_bitmap = 0;   //!< type 0: the field, MSB = RBG 0
    int subset = 0, shift = 0; //!< type 1: RBG subset p and the shift bit
    uint32_t subset_bitmap = 0;//!< type 1: the bitmap, MSB = its first PRB
    int riv = 0;               //!< type 2
    bool distributed = false;  //!< type 2: distributed VRBs (1A, 1B, 1D, always for 1C)
    int gap = 1;               //!< distributed: N_gap,1 or N_gap,2
    int rb_start = 0, rb_len = 0; //!< type 2: first VRB, number of VRBs
    //! The PRBs of a type-0, type-1 or localized type-2 allocation, in
    //! increasing order; for distributed ones the VRBs (their PRBs are the
    //! PDSCH step's to map).
    std::vector<int> rbs;

    int harq_pid = 0;
    int tpc = 0;
    dci_tb tb[2];
    int n_tb = 1;                //!< transport blocks the format carries (2 for 2, 2A)
    bool swap = false;           //!< formats 2, 2A: TB-to-codeword swap flag
    int precoding = 0;           //!< formats 2, 2A: precoding information field; 1B, 1D: TPMI
    int pmi_confirmation = 0;    //!< 1B
    int power_offset = 0;        //!< 1D
    //! Formats 2, 2A with 2 ports (36.212 Tables 5.3.3.1.5-4, 5.3.3.1.5A-2):
    //! transmit diversity (layers = ports, 36.211 §6.3.3.3), or spatial
    //! layers and the TPMI of the codebook (-1: the UE's last reported PMI,
    //! or large-delay CDD for 2A). With 4 ports: layers from the TB count,
    //! precoding left as the raw field.
    int layers = 1;
    bool tx_diversity = false;
    int tpmi = -1;

    // Format 1A for SI-, P-, RA-RNTI (and 1C): N_PRB^1A (2 or 3, from the
    // TPC field's LSB, 36.213 §7.1.7), and the TBS index (I_TBS = MCS).
    int n_prb_1a = 0;
    int tbs_index = -1;          //!< 1C: the TBS index field; 1A broadcast: the MCS field
    bool pdcch_order = false;    //!< 1A with C-RNTI starting random access (36.212 §5.3.3.1.3)
    int preamble_index = 0, prach_mask = 0;

    // Format 0 (uplink grant).
    bool hopping = false;
    int ul_riv = 0, ul_mcs_rv = 0, cyclic_shift = 0, cqi_request = 0;

    bool valid = true;
    std::string error; //!< why the grant is impossible, when !valid
};

/*!
 * Reads the fields of a payload of format \p f (0 and 1A: the flag bit
 * decides; give either) for \p c. Never throws on bad content: an
 * impossible grant comes back with valid = false and the reason. Throws
 * std::invalid_argument naming n_bits when it is not the format's size.
 */
dci_message parse_dci(const cell& c, dci_format f, const uint8_t* bits, int n_bits, uint16_t rnti);

//! The contiguous allocation (start, length) of an RIV over n RBs (36.213
//! §7.1.6.3); false when the RIV is not one (out of range).
bool riv_decode(int riv, int n, int& start, int& length);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
