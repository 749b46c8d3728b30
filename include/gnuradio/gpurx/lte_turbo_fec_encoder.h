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
 * other size (logged once per size: the tagged and async deployments ask
 * for every packet's size). Each input byte's low bit is its bit: bytes
 * other than 0 and 1 are encoded so and logged (gr-fec gives the object no
 * tag or message).
 *
 * Packed PDUs: fec.async_encoder(packed=True) packs get_output_size() / 8
 * bytes, rounded down, and 3K+12 is 4 bits past a byte boundary for every
 * K, so by default it drops the last 4 coded bits (tail bits: d(2)_K+2 and
 * d(0..2)_K+3). With pad_to_bytes the object appends 4 zero bits: 3K+16
 * bits out (get_output_size()), (3K+16) / 8 whole bytes, every coded bit in
 * them; a receiver drops the last 4 bits before a decoder, which takes
 * 3K+12 values. The padding is in every deployment (the extended and
 * tagged encoders output 3K+16 bits per codeword too), so set it only for
 * packed PDUs. gr-fec's async encoder holds rate() x mtu x 8 = 24 mtu
 * output bits: give it an mtu of at least K/8 + 1 bytes.
 */
class GPURX_API lte_turbo_fec_encoder : virtual public gr::fec::generic_encoder
{
public:
    typedef std::shared_ptr<lte_turbo_fec_encoder> sptr;
    /*!
     * \param K block size (TS 36.212 Table 5.1.3-3); throws naming K otherwise
     * \param pad_to_bytes append 4 zero bits to each codeword (3K+16 bits),
     *        for fec.async_encoder(packed=True); see above
     */
    static sptr make(int K, bool pad_to_bytes = false);
    //! The current block size K.
    virtual int block_size() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
