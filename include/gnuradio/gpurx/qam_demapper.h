/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_QAM_DEMAPPER_H
#define INCLUDED_GPURX_QAM_DEMAPPER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/sync_interpolator.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Max-log soft QAM demapper: complex symbols in, bits_per_symbol
 * float LLRs out per symbol, in the order b(0), b(1), ...
 * \ingroup gpurx
 *
 * The constellation of qam_mapper (3GPP TS 36.211 7.1, unit average energy).
 * For y = s + n with E|n|^2 = noise_var, the LLR of bit i is
 * L = (min over s with b(i)=0 of |y-s|^2 - min over s with b(i)=1 of |y-s|^2) / noise_var,
 * GNU Radio's convention L = ln P(b=1)/P(b=0) (max-log), positive for bit 1.
 * A non-finite symbol gives LLRs of 0 (no information), never NaN; each
 * burst of them is tagged "gpurx_error" on its first LLR and logged (at its
 * start and, with its length, at its end). Every LLR is finite: y is
 * clamped to +-1e6 and N0 is at least 1e-20.
 *
 * Per-burst gain and N0 (a receiver front end such as burst_sync tags them):
 * a "n0" tag on a symbol sets noise_var from that symbol on (as
 * set_noise_var()); a "gain" tag (real, > 0, initially 1) sets the model to
 * y = gain s + n from that symbol on. A tag that is not a number in range is
 * ignored with a warning.
 */
class GPURX_API qam_demapper : virtual public gr::sync_interpolator
{
public:
    typedef std::shared_ptr<qam_demapper> sptr;
    /*!
     * \param modulation "qpsk", "16qam", "64qam" or "256qam"
     * \param noise_var N0 = E|n|^2, 1e-20..1e20 (SNRs within +-200 dB)
     */
    static sptr make(const std::string& modulation = "16qam", float noise_var = 1.0f);
    virtual int bits_per_symbol() const = 0;
    virtual float noise_var() const = 0;
    //! Throws std::invalid_argument naming noise_var outside 1e-20..1e20.
    virtual void set_noise_var(float noise_var) = 0;
};

} // namespace gpurx
} // namespace gr

#endif
