/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One subframe's control region end to end: PCFICH gives the CFI, the
// layout of that region, PDCCH's soft bits per CCE, the DCIs of the given
// RNTIs (and the broadcast ones).
#ifndef INCLUDED_GPURX_LTE_CONTROL_CONTROL_REGION_H
#define INCLUDED_GPURX_LTE_CONTROL_CONTROL_REGION_H

#include "lte/common/resource_grid.h"
#include "lte/control/control_layout.h"
#include "lte/control/dci.h"
#include "lte/control/pcfich.h"
#include "lte/control/pdcch_blind.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct control_region_result {
    pcfich_result pcfich;
    bool ok = false;            //!< false: nothing decoded, see reason
    std::string reason;
    control_layout layout;      //!< of the decoded CFI
    std::vector<float> cce_llr; //!< 72 per CCE
    std::vector<float> cce_power; //!< per CCE, pdcch_cce_power (empty: no noise estimate)
    //! The blind decoders' gate on cce_power (sigmas from the caller); none
    //! without a noise estimate.
    cce_power_gate gate(float sigmas) const
    {
        return { cce_power.empty() ? nullptr : cce_power.data(), n_rx, sigmas };
    }
    int n_rx = 1;
    std::vector<dci_message> dcis;
};

/*!
 * Decodes the control region of the grid's subframe. A PCFICH whose best
 * codeword correlates below \p min_cfi_correlation (nothing there, or
 * noise) gives ok = false with the reason. PDCCH candidates on CCEs that
 * hold no more power than noise are not decoded (cce_power_gate with
 * \p gate_sigmas; 0 decodes every one).
 */
control_region_result decode_control_region(const cell& c, const subframe_grid& g, const channel_estimate& h,
                                            pdcch_blind_decoder& decoder, const blind_config& cfg,
                                            float min_cfi_correlation = 0.3f, float gate_sigmas = 2.0f);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
