/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One Eb/N0 point of a BER curve with its statistical error, and where a
// curve crosses a target BER with the uncertainty of that crossing.
//
// Bit errors of a Viterbi (or turbo) decoder come in bursts: one wrong path
// through the trellis flips several bits of the same frame. Counting bits as
// independent trials would understate the error of the BER, so the standard
// error is taken over frames (independent: fresh data and noise each), from
// the per-frame error counts: se(BER) = sd(e_f) / sqrt(F) / bits_per_frame.
#ifndef INCLUDED_GPURX_APPS_BER_POINT_H
#define INCLUDED_GPURX_APPS_BER_POINT_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

struct ber_point {
    double ebn0 = 0;
    uint64_t frames = 0, frame_errors = 0, bits = 0, bit_errors = 0;
    double sum_sq_errors = 0; //!< sum over frames of (bit errors in the frame)^2

    void add_frame(uint64_t bits_in_frame, uint64_t errors)
    {
        frames++;
        bits += bits_in_frame;
        bit_errors += errors;
        frame_errors += errors > 0;
        sum_sq_errors += double(errors) * double(errors);
    }
    double ber() const { return bits ? double(bit_errors) / double(bits) : 0; }
    double fer() const { return frames ? double(frame_errors) / double(frames) : 0; }
    //! Standard error of ber() over frames (all frames of one point have the same length).
    double ber_stderr() const
    {
        if (frames < 2)
            return NAN;
        const double F = double(frames), mean = double(bit_errors) / F;
        const double var = (sum_sq_errors / F - mean * mean) * F / (F - 1);
        return std::sqrt(std::max(var, 0.0) / F) / (double(bits) / F);
    }
};

//! Where log10(BER) crosses log10(target) between two measured points.
struct ber_crossing {
    double ebn0 = NAN;      //!< linear interpolation of log10(BER) between the bracketing points
    double stat_sigma = NAN; //!< 1 sigma from the two points' standard errors
    //! |linear - quadratic| interpolation through the three nearest points
    //! (the curve bends; NAN when there is no third point).
    double interp_error = NAN;
    bool found() const { return !std::isnan(ebn0); }
};

inline ber_crossing find_crossing(const std::vector<ber_point>& pts, double target)
{
    ber_crossing c;
    const double lt = std::log10(target);
    for (size_t i = 1; i < pts.size(); i++) {
        const ber_point &a = pts[i - 1], &b = pts[i];
        if (!(a.ber() >= target && b.ber() < target && b.bit_errors > 0))
            continue;
        const double l0 = std::log10(a.ber()), l1 = std::log10(b.ber());
        const double x0 = a.ebn0, x1 = b.ebn0;
        const double u = (lt - l0) / (l1 - l0);
        c.ebn0 = x0 + u * (x1 - x0);
        // d ebn0 / d l0 = -(x1 - x0)(1 - u)/(l1 - l0), d ebn0 / d l1 = -(x1 - x0) u/(l1 - l0);
        // sigma(log10 BER) = se / (BER ln 10).
        const double s0 = a.ber_stderr() / (a.ber() * std::log(10.0));
        const double s1 = b.ber_stderr() / (b.ber() * std::log(10.0));
        c.stat_sigma = std::fabs((x1 - x0) / (l1 - l0)) * std::hypot((1 - u) * s0, u * s1);
        // A third point (the nearer neighbour of the pair) gives the bend.
        const ber_point* third = nullptr;
        if (i + 1 < pts.size() && pts[i + 1].bit_errors > 0)
            third = &pts[i + 1];
        else if (i >= 2)
            third = &pts[i - 2];
        if (third) {
            // Solve the quadratic through the three (x, log10 BER) for x at lt,
            // by bisection on [x0, x1] where it is monotone in practice.
            const double x2 = third->ebn0, l2 = std::log10(third->ber());
            auto q = [&](double x) {
                return l0 * (x - x1) * (x - x2) / ((x0 - x1) * (x0 - x2)) +
                       l1 * (x - x0) * (x - x2) / ((x1 - x0) * (x1 - x2)) +
                       l2 * (x - x0) * (x - x1) / ((x2 - x0) * (x2 - x1)) - lt;
            };
            double lo = x0, hi = x1;
            if (q(lo) * q(hi) <= 0) {
                for (int it = 0; it < 60; it++) {
                    const double mid = 0.5 * (lo + hi);
                    (q(lo) * q(mid) <= 0 ? hi : lo) = mid;
                }
                c.interp_error = std::fabs(0.5 * (lo + hi) - c.ebn0);
            }
        }
        return c;
    }
    return c;
}

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
