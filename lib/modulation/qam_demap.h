/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The soft QAM demapper every single-antenna path uses (the qam_demapper
// block, the packet link, the BER apps): max-log, or exact, one axis at a
// time. qam.h's demap_max_log() is its plain reference (a distance to every
// point); the tests hold the two together.
//
// The 36.211 constellation is the product of two Gray PAMs (b(0), b(2), ...
// set the in-phase amplitude, b(1), b(3), ... the quadrature one), so
// |y - s|^2 splits into an in-phase and a quadrature distance, and the
// minimum over the points with b(i) = 0 (or 1) takes its other-axis term
// from the same nearest level on both sides: an in-phase bit's LLR depends
// on Re y alone. sqrt(M) distances per axis instead of M per symbol.
#ifndef INCLUDED_GPURX_MODULATION_QAM_DEMAP_H
#define INCLUDED_GPURX_MODULATION_QAM_DEMAP_H

#include "modulation/qam.h"

#include <complex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace qam {

class axis_demapper
{
public:
    /*!
     * \p exact: the exact LLR, ln of the sums of exp(-|y-s|^2/N0) over the
     * points with b(i) = 1 and 0 (the separation holds for sums as for
     * minima), instead of max-log.
     */
    explicit axis_demapper(modulation m, bool exact = false);
    //! bits() LLRs of \p y, noise power \p n0 per complex sample.
    void demap(std::complex<float> y, float n0, float* llr) const { demap_scaled(y, 1.0f / n0, llr); }
    //! The same with 1/N0 given (a caller that keeps it across symbols).
    void demap_scaled(std::complex<float> y, float inv_n0, float* llr) const;
    /*!
     * demap() of \p n symbols, each with its own noise power: bits() LLRs
     * of y[i] at llr[i * bits()]. A noise power that is not positive (a
     * symbol not seen) gives LLRs 0. Max-log: the same LLRs as demap(), bit
     * for bit, several symbols at a time (the AVX2 build where the CPU has
     * it); exact: demap() symbol by symbol.
     */
    void demap_many(const std::complex<float>* y, const float* n0, size_t n, float* llr) const;
    int bits() const { return d_bits; }

private:
    int d_bits, d_levels;     //!< bits per symbol; amplitudes per axis
    bool d_exact;
    std::vector<float> d_amp; //!< the axis amplitudes, by axis-bit pattern
};

} // namespace qam
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
