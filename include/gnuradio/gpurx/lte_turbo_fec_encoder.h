/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_FEC_ENCODER_H
#define INCLUDED_GPURX_LTE_TURBO_FEC_ENCODER_H

#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gpurx/api.h>
#include <memory>

namespace gr {
namespace gpurx {

/*!
 * \brief The LTE turbo encoder (TS 36.212 5.1.3.2) as a gr-fec encoder
 * object (gr::fec::generic_encoder), for fec.extended_encoder,
 * fec.tagged_encoder, fec.async_encoder and fec_bercurve_generator.
 * \ingroup gpurx
 *
 * K unpacked bits in, 3K+12 unpacked bits out, in the layout
 * lte_turbo_encoder writes and every gr-gpurx turbo decoder takes:
 * c[3k+i] = d(i)_k, k = 0..K+3. rate() is 3; set_frame_size() takes any K
 * of TS 36.212 Table 5.1.3-3 and refuses (returns false, keeping K) any
 * other size. Each input byte's low bit is its bit: bytes other than 0 and 1
 * are encoded so and logged (gr-fec gives the object no tag or message).
 */
class GPURX_API lte_turbo_fec_encoder : virtual public gr::fec::generic_encoder
{
public:
    typedef std::shared_ptr<lte_turbo_fec_encoder> sptr;
    //! \param K block size (TS 36.212 Table 5.1.3-3); throws naming K otherwise
    static sptr make(int K);
    //! The current block size K.
    virtual int block_size() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
