/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/control_region.h"
#include "lte/control/pdcch.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

control_region_result decode_control_region(const cell& c, const subframe_grid& g, const channel_estimate& h,
                                            pdcch_blind_decoder& decoder, const blind_config& cfg,
                                            float min_cfi_correlation, float gate_sigmas)
{
    control_region_result r;
    r.pcfich = decode_pcfich(c, g, h);
    if (r.pcfich.cfi == 0 || !(r.pcfich.correlation >= min_cfi_correlation)) {
        r.reason = "PCFICH unreliable (correlation " + std::to_string(r.pcfich.correlation) + ")";
        return r;
    }
    r.layout = make_control_layout(c, r.pcfich.cfi);
    r.cce_llr = pdcch_cce_llrs(r.layout, g, h);
    r.cce_power = pdcch_cce_power(r.layout, g, h);
    r.n_rx = g.n_rx;
    r.dcis = decoder.decode(r.layout, r.cce_llr.data(), g.time.subframe, cfg, r.gate(gate_sigmas));
    r.ok = true;
    return r;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
