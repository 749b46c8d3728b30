/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/grid/channel_estimator.h"

#include "lte/common/crs_positions.h"
#include "lte/grid/crs.h"
#include "lte/grid/pilot_interpolation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {
//! The subframe's symbols (0..2 N_symb-1) that carry port p's CRS.
std::vector<int> crs_symbols_of_port(const cell& c, int p)
{
    std::vector<int> ls;
    for (int l = 0; l < c.symbols_per_subframe(); l++)
        if (crs_symbol(c, p, l % c.symbols_per_slot()))
            ls.push_back(l);
    return ls;
}

bool follows(const subframe_time& prev, const subframe_time& cur)
{
    return (prev.sfn * 10 + prev.subframe + 1) % 10240 == cur.sfn * 10 + cur.subframe;
}
} // namespace

channel_estimator::channel_estimator(const cell& c, int n_rx, const channel_estimator_options& o)
    : d_cell(c), d_rx(n_rx), d_opt(o)
{
    const std::string bad = c.check();
    if (!bad.empty())
        throw std::invalid_argument(bad);
    if (n_rx < 1)
        throw std::invalid_argument("n_rx=" + std::to_string(n_rx) + " is not at least 1");
    if (o.average_span < 3 || o.average_span % 2 == 0)
        throw std::invalid_argument("average_span=" + std::to_string(o.average_span) + " is not odd and at least 3");
    if (o.narrow_span != 0 && (o.narrow_span < 3 || o.narrow_span % 2 == 0 || o.narrow_span >= o.average_span))
        throw std::invalid_argument("narrow_span=" + std::to_string(o.narrow_span) +
                                    " is not 0, or odd, at least 3 and below average_span=" +
                                    std::to_string(o.average_span));
    if (o.noise_ports < 0 || o.noise_ports > 2)
        throw std::invalid_argument("noise_ports=" + std::to_string(o.noise_ports) + " is not 0, 1 or 2");
    d_last.assign(size_t(n_rx) * size_t(c.ports) * size_t(c.n_sc()), cf(0.0f, 0.0f));
}

bool channel_estimator::estimate(const subframe_grid& g, channel_estimate& est)
{
    const int n_sc = d_cell.n_sc(), n_sym = d_cell.symbols_per_subframe(), per_slot = d_cell.symbols_per_slot();
    const int ports = d_cell.ports, n_pil = 2 * d_cell.n_prb, half = d_opt.average_span / 2;
    est.resize(d_rx, ports, n_sym, n_sc);
    est.noise_var = 0.0f;
    if (g.n_rx != d_rx || g.n_symbols != n_sym || g.n_sc != n_sc ||
        g.re.size() != size_t(d_rx) * size_t(n_sym) * size_t(n_sc)) {
        d_have_previous = false;
        return false;
    }
    const bool previous = d_opt.use_previous_subframe && d_have_previous && follows(d_previous, g.time);
    const int noise_ports = d_opt.noise_ports > 0 ? std::min(d_opt.noise_ports, ports) : ports >= 2 ? 2 : 1;
    const int half_narrow = d_opt.narrow_span / 2;
    constexpr int max_crs = 4; // CRS symbols of a port in a subframe

    // 1. Every CRS symbol's LS values and both moving averages, with the
    // residuals of each over the noise ports (the wide one's over every
    // port too: only to catch values that are not finite).
    std::vector<cf> r(static_cast<size_t>(n_pil));
    const size_t slots = size_t(d_rx) * size_t(ports) * max_crs * size_t(n_pil);
    d_ls.resize(slots);
    d_wide.resize(slots);
    d_narrow.resize(half_narrow > 0 ? slots : 0);
    auto at = [&](int a, int p, int j) { return ((size_t(a) * ports + size_t(p)) * max_crs + size_t(j)) * n_pil; };
    std::vector<std::vector<int>> crs_l(static_cast<size_t>(ports));
    for (int p = 0; p < ports; p++)
        crs_l[size_t(p)] = crs_symbols_of_port(d_cell, p);
    double resid = 0.0, weight = 0.0, resid_n = 0.0, weight_n = 0.0, all_ports = 0.0;
    for (int a = 0; a < d_rx; a++)
        for (int p = 0; p < ports; p++)
            for (size_t j = 0; j < crs_l[size_t(p)].size(); j++) {
                const int l = crs_l[size_t(p)][j];
                const int ns = g.time.slot() + l / per_slot, l_slot = l % per_slot;
                crs_sequence(d_cell, ns, l_slot, r.data());
                const int offset = crs_offset(d_cell, p, l_slot, ns);
                cf* ls = &d_ls[at(a, p, int(j))];
                crs_least_squares(g.symbol(a, l), r.data(), offset, n_pil, ls);
                double res = 0.0, w = 0.0, res_n = 0.0, w_n = 0.0;
                smooth_pilots(ls, n_pil, half, &d_wide[at(a, p, int(j))], res, w);
                if (half_narrow > 0)
                    smooth_pilots(ls, n_pil, half_narrow, &d_narrow[at(a, p, int(j))], res_n, w_n);
                all_ports += res;
                if (p < noise_ports) {
                    resid += res;
                    weight += w;
                    resid_n += res_n;
                    weight_n += w_n;
                }
            }
    // 2. The moving average for the subframe, and its noise estimate.
    const bool wide = half_narrow == 0 || wide_average_wins(resid, weight, resid_n, weight_n, half, half_narrow);
    if (!wide) {
        resid = resid_n;
        weight = weight_n;
    }
    d_last_span = wide ? d_opt.average_span : d_opt.narrow_span;
    const std::vector<cf>& smooth = wide ? d_wide : d_narrow;

    // 3. Every subcarrier of each CRS symbol, then every symbol.
    std::vector<cf> sym_h; // [crs symbol][k], the previous subframe's first when used
    std::vector<int> sym_l;
    for (int a = 0; a < d_rx; a++)
        for (int p = 0; p < ports; p++) {
            cf* last = &d_last[(size_t(a) * ports + p) * n_sc];
            sym_l.clear();
            sym_h.clear();
            if (previous) {
                // The previous subframe's last CRS symbol, n_sym symbols earlier.
                sym_l.push_back(crs_l[size_t(p)].back() - n_sym);
                sym_h.insert(sym_h.end(), last, last + n_sc);
            }
            for (size_t j = 0; j < crs_l[size_t(p)].size(); j++) {
                const int l = crs_l[size_t(p)][j];
                const int ns = g.time.slot() + l / per_slot, l_slot = l % per_slot;
                const int offset = crs_offset(d_cell, p, l_slot, ns);
                const cf* v = d_opt.frequency == frequency_interpolation::averaged ? &smooth[at(a, p, int(j))]
                                                                                   : &d_ls[at(a, p, int(j))];
                sym_l.push_back(l);
                sym_h.resize(sym_h.size() + size_t(n_sc));
                interpolate_frequency(v, n_pil, offset, n_sc, &sym_h[sym_h.size() - size_t(n_sc)]);
            }
            // In time: each symbol from the pair of CRS symbols around it.
            const int n_crs = int(sym_l.size());
            for (int l = 0; l < n_sym; l++) {
                int i = 0;
                while (i + 2 < n_crs && sym_l[size_t(i) + 1] < l)
                    i++;
                const cf* h0 = &sym_h[size_t(i) * n_sc];
                const cf* h1 = &sym_h[size_t(i + 1) * n_sc];
                for (int k = 0; k < n_sc; k++)
                    est.at(a, p, l, k) = interpolate_time(h0[k], h1[k], sym_l[size_t(i)], sym_l[size_t(i) + 1], l,
                                                          d_opt.hold_in_time);
            }
            const cf* newest = &sym_h[size_t(n_crs - 1) * n_sc];
            std::copy(newest, newest + n_sc, last);
        }
    const double nv = weight > 0.0 ? resid / weight : 0.0;
    if (!std::isfinite(nv) || !std::isfinite(all_ports)) {
        est.resize(d_rx, ports, n_sym, n_sc);
        est.noise_var = 0.0f;
        d_have_previous = false;
        return false;
    }
    est.noise_var = float(nv);
    d_previous = g.time;
    d_have_previous = true;
    return true;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
