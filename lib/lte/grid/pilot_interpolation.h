/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The channel estimator's arithmetic on one OFDM symbol's pilots, as plain
// loops over arrays (a GPU kernel can run the same per thread): least-squares
// estimates at the CRS, their smoothing in frequency (with the noise it
// removes), interpolation to every subcarrier, and between symbols.
#ifndef INCLUDED_GPURX_LTE_GRID_PILOT_INTERPOLATION_H
#define INCLUDED_GPURX_LTE_GRID_PILOT_INTERPOLATION_H

#include "lte/common/lte_cell.h"

#include <algorithm>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! LS estimates at \p n pilots: ls[m] = y[6 m + offset] conj(r[m]) (|r| = 1).
inline void crs_least_squares(const cf* y, const cf* r, int offset, int n, cf* ls)
{
    for (int m = 0; m < n; m++)
        ls[m] = y[6 * m + offset] * std::conj(r[m]);
}

/*!
 * Moving average of the \p n pilots over up to 2 \p half + 1 neighbours,
 * the window cut symmetrically at the band edges (so a channel linear in
 * frequency is kept exactly): out[m] averages ls[m-h..m+h], h = min(half, m,
 * n-1-m). With the same white noise of variance s2 on every pilot,
 * E|ls[m] - out[m]|^2 = s2 (1 - 1/(2h+1)) for a channel that is linear over
 * the window; those terms are added to \p resid and \p weight, so that
 * resid / weight estimates s2 (pilots with h = 0 add nothing).
 */
inline void smooth_pilots(const cf* ls, int n, int half, cf* out, double& resid, double& weight)
{
    for (int m = 0; m < n; m++) {
        const int h = std::min(half, std::min(m, n - 1 - m));
        cf s(0.0f, 0.0f);
        for (int j = m - h; j <= m + h; j++)
            s += ls[j];
        out[m] = s / float(2 * h + 1);
        if (h > 0) {
            resid += double(std::norm(ls[m] - out[m]));
            weight += 1.0 - 1.0 / double(2 * h + 1);
        }
    }
}

/*!
 * The channel at every subcarrier k = 0..n_sc-1 from \p n pilot values at
 * k = 6 m + offset: linear between neighbouring pilots, and linearly
 * extrapolated from the two outermost ones below the first and above the
 * last.
 */
inline void interpolate_frequency(const cf* v, int n, int offset, int n_sc, cf* h)
{
    for (int k = 0; k < n_sc; k++) {
        // The pilot pair around k (the outermost pair at the edges).
        int m = (k - offset) / 6;
        if (k < offset)
            m = 0;
        m = std::min(m, n - 2);
        const float t = float(k - (6 * m + offset)) / 6.0f;
        h[k] = v[m] + t * (v[m + 1] - v[m]);
    }
}

/*!
 * The channel of symbol \p l from estimates of symbols l0 < l1 (a and b):
 * linear between them; outside [l0, l1] linear extrapolation, or with
 * \p hold the nearer of the two.
 */
inline cf interpolate_time(cf a, cf b, int l0, int l1, int l, bool hold)
{
    if (hold && l <= l0)
        return a;
    if (hold && l >= l1)
        return b;
    const float t = float(l - l0) / float(l1 - l0);
    return a + t * (b - a);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
