/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/grid/cuda/grid_setup.h"

#include "lte/common/crs_positions.h"
#include "lte/grid/crs.h"

#include <algorithm>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

grid_layout make_grid_layout(const cell& c, const ofdm_demodulator& demod, int batch,
                             const channel_estimator_options& o)
{
    const int per_slot = c.symbols_per_slot();
    grid_layout L;
    L.batch = batch;
    L.n_rx = demod.n_rx();
    L.ports = c.ports;
    L.n_sym = c.symbols_per_subframe();
    L.n_sc = c.n_sc();
    L.n_pil = 2 * c.n_prb;
    L.fft = demod.num().fft_size;
    L.subframe_samples = demod.subframe_samples();
    for (int l = 0; l < L.n_sym; l++)
        L.window_start[l] = demod.num().useful_start(l) - demod.window_advance();
    for (int p = 0; p < c.ports; p++) {
        int j = 0;
        for (int l = 0; l < L.n_sym; l++)
            if (crs_symbol(c, p, l % per_slot)) {
                L.crs_l[p][j] = l;
                // Slot n_s = 2 subframe + l / per_slot: crs_offset reads only
                // its parity (ports 2 and 3), which is l / per_slot.
                L.crs_offset[p][j] = crs_offset(c, p, l % per_slot, l / per_slot);
                j++;
            }
        L.n_crs[p] = j;
    }
    L.half = o.average_span / 2;
    L.half_narrow = o.narrow_span / 2;
    L.averaged = o.frequency == frequency_interpolation::averaged ? 1 : 0;
    L.hold = o.hold_in_time ? 1 : 0;
    L.use_previous = o.use_previous_subframe ? 1 : 0;
    // channel_estimator's default: ports 0 and 1 when the cell has them.
    L.noise_ports = o.noise_ports > 0 ? std::min(o.noise_ports, c.ports) : c.ports >= 2 ? 2 : 1;
    L.first_subframe = 0;
    L.carry_usable = 0;
    return L;
}

std::vector<cf> crs_table(const cell& c)
{
    const int n_sym = c.symbols_per_subframe(), per_slot = c.symbols_per_slot(), n_pil = 2 * c.n_prb;
    std::vector<cf> t(size_t(10) * size_t(n_sym) * size_t(n_pil));
    for (int sf = 0; sf < 10; sf++)
        for (int l = 0; l < n_sym; l++)
            crs_sequence(c, 2 * sf + l / per_slot, l % per_slot, &t[(size_t(sf) * n_sym + l) * n_pil]);
    return t;
}

bool carry_usable(const channel_estimator_options& o, bool have_last, const subframe_time& last,
                  const subframe_time& first)
{
    return o.use_previous_subframe && have_last &&
           (last.sfn * 10 + last.subframe + 1) % 10240 == first.sfn * 10 + first.subframe;
}

subframe_time subframe_after(const subframe_time& t, int n)
{
    const int abs = (t.sfn * 10 + t.subframe + n) % 10240;
    subframe_time r;
    r.sfn = abs / 10;
    r.subframe = abs % 10;
    return r;
}

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
