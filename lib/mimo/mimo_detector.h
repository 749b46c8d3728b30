/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A soft MIMO detector on the CPU: given a channel H (nr x nt, row-major
// h[r * nt + t]) and the noise variance N0, it turns each received vector y
// (nr complex) into nt * bits_per_symbol max-log LLRs, antenna 0's bits first,
// each antenna's in the order b(0), b(1), ... (qam.h; L = ln P(1)/P(0)).
// The model is y = H s + n with unit-energy symbols and E|n|^2 = N0 per
// receive antenna; all bits are a priori equiprobable (no a-priori input).
//
// One detector per worker thread: it keeps its scratch between frames.
// The arithmetic is double precision: these are the references the GPU
// implementations will be checked against.
#ifndef INCLUDED_GPURX_MIMO_MIMO_DETECTOR_H
#define INCLUDED_GPURX_MIMO_MIMO_DETECTOR_H

#include "mimo/channel_qr.h"
#include "mimo/mimo_config.h"
#include "mimo/qam.h"

#include <complex>
#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class mimo_detector
{
public:
    explicit mimo_detector(bool sorted_qr) : d_sorted_qr(sorted_qr) {}
    virtual ~mimo_detector() = default;

    /*!
     * Take the channel of the detect() calls that follow (1 <= nt <= nr <= 8,
     * n0 > 0; the caller has checked them). Returns the channel's numerical
     * rank (from its QR): below nt, some bits cannot be told apart, and their
     * LLRs are 0 (never NaN).
     */
    int
    set_channel(const std::complex<float>* h, int nr, int nt, modulation m, double n0);
    //! LLRs of one received vector y (nr entries) into llr (nt * bits).
    virtual void detect(const std::complex<float>* y, float* llr) = 0;

protected:
    //! The channel changed: precompute what detect() needs.
    virtual void channel_changed() {}

    const bool d_sorted_qr;
    int d_nr = 0, d_nt = 0;
    double d_n0 = 1.0;
    const constellation* d_c = nullptr;
    std::vector<std::complex<double>> d_h; //!< H in double, row-major
    channel_qr d_qr;
};

//! The detector of cfg.algorithm (k, clip, sorted_qr from cfg).
std::unique_ptr<mimo_detector> make_detector(const mimo_config& cfg);

/*!
 * Max-log LLRs of one stream's bits from the least distance of each symbol
 * value: sym_min[q] = min distance over the candidates whose symbol is q
 * (+inf where none was seen). llr[i] = (min over b(i)=0 - min over b(i)=1) / n0.
 * A bit with no candidate on one side gets +-clip; every |LLR| is bounded by
 * clip (infinity: no bound).
 */
void llrs_from_symbol_minima(
    const double* sym_min, const constellation& c, double n0, double clip, float* llr);

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
