/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-ber's channel: a transmission's coded bits as 36.211 Gray QAM
// symbols (lib/mimo/qam.h, unit average energy), complex AWGN, and max-log
// LLRs per bit (L = ln P(b=1)/P(b=0), positive for 1), the decoder's input.
#ifndef INCLUDED_GPURX_APPS_LTE_BER_CHANNEL_H
#define INCLUDED_GPURX_APPS_LTE_BER_CHANNEL_H

#include "common/awgn_llr.h"
#include "mimo/qam.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

/*!
 * Max-log demapping of 36.211 QAM one axis at a time. The constellation is
 * the product of two Gray PAMs (b(0), b(2), ... set the in-phase amplitude,
 * b(1), b(3), ... the quadrature one), so |y - s|^2 splits into an in-phase
 * and a quadrature distance and the minimum over the points with b(i) = 0
 * (or 1) takes its other-axis term from the same nearest level on both
 * sides: the LLR of an in-phase bit depends on Re y alone. This gives the
 * values of core::mimo::demap_max_log with sqrt(M) distances per axis
 * instead of M per symbol (64QAM: 16 instead of 64; the test compares the two).
 */
class axis_demapper
{
public:
    /*!
     * \p exact: the exact LLR, ln of the sums of exp(-|y-s|^2/N0) over the
     * points with b(i) = 1 and 0 (the separation holds for sums as for
     * minima), instead of max-log: what max-log costs, measured.
     */
    explicit axis_demapper(core::mimo::modulation m, bool exact = false);
    //! bits_per_symbol LLRs of \p y, noise power \p n0 per complex sample.
    void demap(std::complex<float> y, float n0, float* llr) const;
    int bits() const { return d_bits; }

private:
    int d_bits, d_levels;       //!< bits per symbol; amplitudes per axis
    bool d_exact;
    std::vector<float> d_amp;   //!< the axis amplitudes, by axis-bit pattern
};

//! QAM over AWGN at a given Es/N0; one per generator thread (its own noise).
class qam_awgn_channel
{
public:
    //! \p exact: exact LLRs instead of max-log (axis_demapper).
    qam_awgn_channel(int qm, uint64_t seed, bool exact = false);
    /*!
     * The \p g LLRs of the coded bits \p c (0/1; g a multiple of qm) sent as
     * g/qm symbols, b(0) of each symbol first, at Es/N0 = \p esn0_db
     * (Es = 1, E|n|^2 = N0 per complex sample).
     */
    void transmit(const uint8_t* c, size_t g, double esn0_db, float* llr);

private:
    //! A standard complex normal sample, E|n|^2 = 1 (Box-Muller).
    std::complex<float> normal();

    core::mimo::modulation d_mod;
    const core::mimo::constellation& d_points;
    axis_demapper d_demap;
    core::awgn_llr_source d_rng; //!< its uniform generator (xoshiro128+)
};

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
