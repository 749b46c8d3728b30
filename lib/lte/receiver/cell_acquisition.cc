/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/receiver/cell_acquisition.h"

#include "lte/common/resource_grid.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/ofdm_demod.h"
#include "lte/pbch/pbch_decoder.h"

#include <cmath>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

acquisition_result acquire_cell(const cf* const* rx, int n_rx, size_t n, double sample_rate, const search_options& options)
{
    acquisition_result a;
    a.fft_size = fft_size_of_rate(sample_rate);
    a.search = search_cell(rx, n_rx, n, sample_rate, options);
    if (!a.search.found) {
        a.reason = "no cell: " + a.search.reason;
        return a;
    }
    a.cfo_hz = a.search.cfo_hz;
    a.frame_start = a.search.frame_start;
    // Before the MIB: the central 6 PRBs, CRS of 4 ports reserved (the
    // PBCH's mapping assumes them), noise from port 0 only.
    cell central;
    central.n_prb = 6;
    central.cell_id = a.search.cell_id;
    central.cp = a.search.cp;
    central.ports = 4;
    channel_estimator_options eo;
    eo.noise_ports = 1;
    eo.use_previous_subframe = false;
    ofdm_demodulator demod(central, a.fft_size, n_rx);
    channel_estimator est(central, n_rx, eo);
    pbch_decoder pbch(central.cell_id, central.cp);
    const size_t sf = size_t(demod.subframe_samples());
    std::vector<std::vector<cf>> buf(static_cast<size_t>(n_rx), std::vector<cf>(sf));
    std::vector<const cf*> ptr(static_cast<size_t>(n_rx));
    subframe_grid grid;
    channel_estimate h;
    const double w = -2.0 * M_PI * a.cfo_hz / sample_rate;
    for (int k = 0; k < 4; k++) {
        const size_t start = size_t(a.frame_start) + size_t(k) * 10 * sf;
        if (start + sf > n)
            break;
        for (int r = 0; r < n_rx; r++) {
            for (size_t i = 0; i < sf; i++) {
                const double ph = w * double(start + i);
                buf[size_t(r)][i] = rx[r][start + i] * cf(float(std::cos(ph)), float(std::sin(ph)));
            }
            ptr[size_t(r)] = buf[size_t(r)].data();
        }
        demod.demodulate(ptr.data(), subframe_time{ 0, 0 }, grid);
        if (!est.estimate(grid, h))
            continue;
        auto m = pbch.decode(grid, h);
        if (!m.found && k > 0)
            m = pbch.decode_combined();
        if (!m.found) {
            a.reason = "cell " + std::to_string(central.cell_id) + " found, but no MIB: " + m.reason;
            continue;
        }
        a.c = central;
        a.c.n_prb = m.m.n_prb;
        a.c.ports = m.ports;
        a.c.ng = m.m.ng;
        a.c.phich_extended = m.m.phich_extended;
        a.sfn = ((m.m.sfn - k) % 1024 + 1024) % 1024;
        if (standard_fft_size(a.c.n_prb) > a.fft_size) {
            a.reason = "cell " + std::to_string(central.cell_id) + " has " + std::to_string(a.c.n_prb) +
                       " PRB, more than the capture's rate (" + std::to_string(sample_rate / 1e6) +
                       " MS/s, FFT " + std::to_string(a.fft_size) + ") carries";
            return a;
        }
        a.found = true;
        a.reason.clear();
        return a;
    }
    if (a.reason.empty())
        a.reason = "cell " + std::to_string(central.cell_id) + " found, but the capture holds no complete subframe 0 after it";
    return a;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
