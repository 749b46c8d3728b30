/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_QAM_MAPPER_H
#define INCLUDED_GPURX_QAM_MAPPER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/sync_decimator.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief QAM mapper: unpacked bits (uint8, each byte's low bit) in, complex
 * symbols out, bits_per_symbol bits per symbol.
 * \ingroup gpurx
 *
 * modulation "qpsk", "16qam", "64qam" or "256qam", exactly as 3GPP TS 36.211
 * section 7.1: Gray mapped, unit average energy, the first bit of a symbol
 * b(0), then b(1), ... (b(0) the sign of the in-phase part, b(1) of the
 * quadrature part). The constellation is the MIMO detector's. A byte other
 * than 0 and 1 is mapped by its low bit, as the turbo encoders take it; each
 * run of symbols holding such bytes is tagged "gpurx_error" on its first
 * symbol and logged (at its start and, with its size, at its end).
 */
class GPURX_API qam_mapper : virtual public gr::sync_decimator
{
public:
    typedef std::shared_ptr<qam_mapper> sptr;
    //! \param modulation "qpsk", "16qam", "64qam" or "256qam"
    static sptr make(const std::string& modulation = "16qam");
    virtual int bits_per_symbol() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
