/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A small OFDM demodulator for the control tests only (the receiver's own
// is lib/lte/grid/): a generator capture that starts at a subframe boundary,
// cut into symbols (cyclic prefix dropped), FFT, the subcarriers taken in
// 36.211 order, scaled back to the generator's unit-power REs; and the
// ideal channel of the generator's outputs (-o with 1 port, -S with 2:
// h = 1 from every port to the one antenna).
#ifndef INCLUDED_GPURX_LTE_CONTROL_TESTS_TEST_OFDM_H
#define INCLUDED_GPURX_LTE_CONTROL_TESTS_TEST_OFDM_H

#include "lte/common/resource_grid.h"
#include "lte/grid/ofdm_demod.h"


#include <cmath>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

using core::lte::cf;

//! Subframe \p sf (counted from the file's start) of every antenna file,
//! through the receiver's own OFDM demodulator (grid/).
inline core::lte::subframe_grid demodulate_subframe(const std::vector<std::vector<cf>>& rx, int n_prb, int sf,
                                                    int sfn_of_file_start = 0)
{
    using namespace core::lte;
    cell c;
    c.n_prb = n_prb;
    const ofdm_demodulator demod(c, standard_fft_size(n_prb), int(rx.size()));
    const size_t base = size_t(sf) * size_t(demod.subframe_samples());
    std::vector<const cf*> p;
    for (const auto& a : rx) {
        if (base + size_t(demod.subframe_samples()) > a.size())
            throw std::runtime_error("capture too short for subframe " + std::to_string(sf));
        p.push_back(a.data() + base);
    }
    subframe_grid g;
    demod.demodulate(p.data(), subframe_time{ (sfn_of_file_start + sf / 10) % 1024, sf % 10 }, g);
    return g;
}

//! h = 1 from each of \p ports to each antenna, at every RE.
inline core::lte::channel_estimate ideal_channel(int n_rx, int ports, int n_sc, float noise_var = 1e-2f)
{
    core::lte::channel_estimate h;
    h.resize(n_rx, ports, 14, n_sc);
    for (auto& v : h.h)
        v = cf(1.0f, 0.0f);
    h.noise_var = noise_var;
    return h;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
