/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Every UE of a cell without being told their C-RNTIs: each PDCCH position
// (every CCE-aligned candidate of aggregation 1, 2, 4, 8) is decoded at
// every UE-specific DCI size, and the CRC remainder names a candidate RNTI.
// Noise gives a random remainder at every decoding, so a candidate is
// believed only when
//   - the remainder is a C-RNTI value (0x000B..0xFFF3: not RA, P or SI),
//   - that RNTI's UE-specific search space (36.213 §9.1.1) holds the
//     candidate's position in this subframe,
//   - the decoded bits with their masked CRC, re-encoded and rate matched,
//     match the soft bits: a normalised correlation above a threshold per
//     aggregation level (the best of 376800 decodings of Gaussian noise,
//     100 PRBs, sizes of 1A/1/2A/2: 0.88 at aggregation 1, 0.72 at 2, 0.57
//     at 4, 0.41 at 8; at aggregation 1 a payload of 44 to 67 bits in 72
//     coded bits fits noise almost as well as a signal does),
//   - the DCI's fields are possible (parse_dci's checks);
// and an RNTI seen in N distinct subframes becomes active. RNTIs learnt
// elsewhere (a random access response) can be added directly.
#ifndef INCLUDED_GPURX_LTE_CONTROL_RNTI_TRACKER_H
#define INCLUDED_GPURX_LTE_CONTROL_RNTI_TRACKER_H

#include "lte/control/pdcch_blind.h"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct rnti_tracker_config {
    //! Formats tried in the UE-specific spaces (0 comes with 1A).
    std::vector<dci_format> ue_formats = { dci_format::f1a, dci_format::f1, dci_format::f2a, dci_format::f2 };
    //! Correlation thresholds for aggregation 1, 2, 4, 8.
    std::array<float, 4> min_correlation = { 0.90f, 0.75f, 0.60f, 0.45f };
    //! Distinct subframes an RNTI must be seen in to become active.
    int sightings_to_activate = 2;
    //! Also search the common space for SI/P/RA-RNTI (1A, 1C) and the
    //! active C-RNTIs' 0/1A.
    bool common_space = true;
};

struct tracked_dci {
    dci_message msg;
    float correlation = 0.0f;
    bool active = false; //!< the RNTI is active (after this subframe's sighting)
};

class rnti_tracker
{
public:
    explicit rnti_tracker(rnti_tracker_config cfg = {});

    /*!
     * One subframe: the DCIs that pass the checks (broadcast ones and those
     * of candidate or active C-RNTIs), counting each RNTI's sighting.
     */
    std::vector<tracked_dci> process(const control_layout& lay, const float* cce_llr, int subframe,
                                     const cce_power_gate& gate = {});
    const pdcch_blind_decoder& decoder() const { return d_decoder; }

    //! An RNTI known from elsewhere: active at once.
    void add_rnti(uint16_t rnti);
    bool is_active(uint16_t rnti) const;
    int sightings(uint16_t rnti) const;
    std::vector<uint16_t> active_rntis() const;
    //! Every RNTI seen at least once.
    std::vector<uint16_t> seen_rntis() const;
    const rnti_tracker_config& config() const { return d_cfg; }

private:
    rnti_tracker_config d_cfg;
    pdcch_blind_decoder d_decoder;
    std::map<uint16_t, int> d_sightings; //!< RNTI -> subframes seen (activated: >= threshold)
};

//! 0x000B..0xFFF3: a C-RNTI's range here (not an FDD RA-RNTI, P- or SI-RNTI).
inline bool is_c_rnti_value(uint16_t rnti) { return rnti >= 0x000B && rnti <= 0xFFF3; }

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
