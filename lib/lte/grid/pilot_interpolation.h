/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The channel estimator's arithmetic on one OFDM symbol's pilots, as plain
// loops over arrays: least-squares estimates at the CRS, their smoothing in
// frequency (with the noise it removes), interpolation to every subcarrier,
// and between symbols. One definition for both backends: each loop is
// built on a function of one output element, which a GPU thread runs for
// its element (lte/grid/cuda/), and every function is a template over the
// complex type (std::complex<float> on the CPU, the kernels' own
// device_cf), using only +, -, *, conj(), norm() and division by a float,
// so that g++ and nvcc perform the same float operations in the same order.
#ifndef INCLUDED_GPURX_LTE_GRID_PILOT_INTERPOLATION_H
#define INCLUDED_GPURX_LTE_GRID_PILOT_INTERPOLATION_H

#include "common/host_device.h"
#include "lte/common/lte_cell.h"

#include <complex>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! min() for host and device code (std::min is host-only for nvcc).
GPURX_HD int min_of(int a, int b) { return a < b ? a : b; }

//! The LS estimate at pilot \p m: y[6 m + offset] conj(r[m]) (|r| = 1).
template <typename C>
GPURX_HD C crs_least_squares_at(const C* y, const C* r, int offset, int m)
{
    return y[6 * m + offset] * conj(r[m]);
}

//! LS estimates at \p n pilots: ls[m] = y[6 m + offset] conj(r[m]) (|r| = 1).
template <typename C>
GPURX_HD void crs_least_squares(const C* y, const C* r, int offset, int n, C* ls)
{
    for (int m = 0; m < n; m++)
        ls[m] = crs_least_squares_at(y, r, offset, m);
}

//! Half the moving average's window at pilot \p m of \p n: cut
//! symmetrically at the band edges, h = min(half, m, n-1-m).
GPURX_HD int smoothing_half_width(int n, int half, int m) { return min_of(half, min_of(m, n - 1 - m)); }

//! The moving average at pilot \p m: the mean of ls[m-h..m+h], summed in
//! index order.
template <typename C>
GPURX_HD C smoothed_pilot_at(const C* ls, int n, int half, int m)
{
    const int h = smoothing_half_width(n, half, m);
    C s(0.0f, 0.0f);
    for (int j = m - h; j <= m + h; j++)
        s += ls[j];
    return s / float(2 * h + 1);
}

//! What pilot \p m adds to the noise estimate's residual: |ls[m] - out[m]|^2,
//! or nothing where its window is the pilot alone (h = 0).
template <typename C>
GPURX_HD double smoothing_residual_at(C ls_m, C out_m, int n, int half, int m)
{
    return smoothing_half_width(n, half, m) > 0 ? double(norm(ls_m - out_m)) : 0.0;
}

//! What pilot \p m adds to the residual's expectation per unit noise:
//! 1 - 1/(2h+1), or nothing where h = 0.
GPURX_HD double smoothing_weight_at(int n, int half, int m)
{
    const int h = smoothing_half_width(n, half, m);
    return h > 0 ? 1.0 - 1.0 / double(2 * h + 1) : 0.0;
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
template <typename C>
GPURX_HD void smooth_pilots(const C* ls, int n, int half, C* out, double& resid, double& weight)
{
    for (int m = 0; m < n; m++) {
        out[m] = smoothed_pilot_at(ls, n, half, m);
        resid += smoothing_residual_at(ls[m], out[m], n, half, m);
        weight += smoothing_weight_at(n, half, m);
    }
}

/*!
 * Whether a subframe's pilots are better averaged over the wide window
 * (2 \p half + 1 pilots) than the narrow one (2 \p half_narrow + 1), from
 * the residuals and weights smooth_pilots() gave for each over the
 * subframe. Each resid / weight estimates the noise s2 where the channel is
 * linear over the window; where it bends within a window (a long delay
 * spread: EVA, ETU), the wide one's also holds the bias b_w^2 / (1 - 1/w)
 * that its average makes. An average's error is b^2 + s2 / (window), so the
 * wide one wins while b_w^2 - b_n^2, about (noise_wide - noise_narrow)
 * (1 - 1/w), stays below s2 (1/n - 1/w), s2 taken from the narrow window.
 * Without weight on either side (too few pilots): the wide one.
 */
GPURX_HD bool wide_average_wins(double resid_wide, double weight_wide, double resid_narrow, double weight_narrow,
                                int half, int half_narrow)
{
    if (!(weight_wide > 0.0) || !(weight_narrow > 0.0))
        return true;
    const double wide = double(2 * half + 1), narrow = double(2 * half_narrow + 1);
    const double s2_wide = resid_wide / weight_wide, s2_narrow = resid_narrow / weight_narrow;
    return (s2_wide - s2_narrow) * (1.0 - 1.0 / wide) <= s2_narrow * (1.0 / narrow - 1.0 / wide);
}

/*!
 * The channel at subcarrier \p k from \p n pilot values at k = 6 m +
 * offset: linear between neighbouring pilots, and linearly extrapolated from
 * the two outermost ones below the first and above the last.
 */
template <typename C>
GPURX_HD C interpolate_frequency_at(const C* v, int n, int offset, int k)
{
    // The pilot pair around k (the outermost pair at the edges).
    int m = (k - offset) / 6;
    if (k < offset)
        m = 0;
    m = min_of(m, n - 2);
    const float t = float(k - (6 * m + offset)) / 6.0f;
    return v[m] + t * (v[m + 1] - v[m]);
}

//! interpolate_frequency_at() for every subcarrier k = 0..n_sc-1 into \p h.
template <typename C>
GPURX_HD void interpolate_frequency(const C* v, int n, int offset, int n_sc, C* h)
{
    for (int k = 0; k < n_sc; k++)
        h[k] = interpolate_frequency_at(v, n, offset, k);
}

/*!
 * The channel of symbol \p l from estimates of symbols l0 < l1 (a and b):
 * linear between them; outside [l0, l1] linear extrapolation, or with
 * \p hold the nearer of the two.
 */
template <typename C>
GPURX_HD C interpolate_time(C a, C b, int l0, int l1, int l, bool hold)
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
