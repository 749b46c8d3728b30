/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_FEC_DECODER_H
#define INCLUDED_GPURX_LTE_TURBO_FEC_DECODER_H

#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/gpurx/api.h>
#include <memory>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The LTE turbo decoder as a gr-fec decoder object
 * (gr::fec::generic_decoder), for fec.extended_decoder,
 * fec.extended_tagged_decoder, fec.async_decoder, fec.decoder,
 * fec.tagged_decoder and fec_bercurve_generator.
 * \ingroup gpurx
 *
 * A frame is one codeword: 3K+12 float soft values in the layout of
 * lte_turbo_decoder (c[3k+i] = d(i)_k, TS 36.212 5.1.3.2) in, K unpacked
 * bits out. rate() is 1/3 (the 12 tail values are left out of it, as
 * gr-fec's cc_decoder leaves out its tail), so the tagged and async
 * deployments find K from a packet of 3K+12 values; set_frame_size() takes
 * any K of TS 36.212 Table 5.1.3-3 (and K+4, as GNU Radio 3.10.5's tagged
 * decoder asks for it, unless the caller read both sizes first and so took
 * the tail off, as the async decoder does). Any other size is refused
 * without reinterpreting it, K kept: a negative one (wrapped to unsigned;
 * gr-fec's size for a packet shorter than the tail) gets false; any other
 * gets true, get_output_size() reports it until the next set_frame_size(),
 * and a frame decoded meanwhile comes out as that many zero bits, with
 * get_iterations() 0 and a warning (gr-fec cannot be told to drop a packet,
 * and on false its async decoder splits it into codewords of the previous
 * K or ends its thread). gr-fec passes the packet's length divided by 3,
 * rounded down: a packet 1 or 2 values longer than a codeword arrives as
 * that codeword's K and its extra values are never seen. gr-fec's own
 * async decoder outputs an empty PDU for an empty one and ends its thread
 * ("bad block multiple in!") on one it cannot split into codewords.
 *
 * Soft values: the decoder works on LLRs L = ln P(b=1)/P(b=0), positive
 * for bit 1 (GNU Radio's convention, also gr-fec's: its BER tools send bit
 * 1 as +1). Each input value y is decoded as the LLR llr_scale * y. For
 * BPSK y = +-1 + n with noise variance sigma^2 per real dimension (Es = 1,
 * sigma^2 = N0/2), the exact LLR is 2 y / sigma^2 = 4 y Es/N0. Inputs
 * that are already LLRs take llr_scale = 1.
 *
 * The default, llr_scale = 2, is that exact LLR at Es/N0 = -3 dB
 * (sigma^2 = 1), where a rate-1/3 turbo code starts to decode well. The
 * max-log-MAP algorithms (the default) need no exact scale, only one that
 * suits their 16-bit fixed point (LLRs in steps of 1/8, saturating at
 * +-15.9): 2 gives a +-1 input 16 steps and saturates only beyond |y| = 8.
 * Unscaled (1) keeps 8 steps; at K = 1024, Es/N0 = -5 and -4.5 dB, scales
 * 1, 2, 4 and the exact one decoded alike, 0.5 (quantisation) and 8
 * (saturation) worse. log-MAP (float) needs the exact scale: there 2 was
 * near it, 4 made about twice the bit errors; set 2 / sigma^2 when the
 * noise is known.
 *
 * The decoder runs on gr-gpurx's batching pipeline (CPU or CUDA backend,
 * the same implementations as lte_turbo_decoder), but gr-fec hands it one
 * frame per generic_work() call and needs the result before the call
 * returns, so every frame is a batch of one. These objects are for gr-fec
 * interoperability; lte_turbo_decoder (stream, tagged, PDU) batches frames
 * and is the throughput path. A frame holding NaN or Inf is not decoded:
 * its output is zeros and a warning is logged (checked before llr_scale:
 * finite values scaled beyond float's range are clamped).
 *
 * Puncturing: fec.extended_decoder and fec.extended_tagged_decoder
 * depuncture (a puncpat other than "11") with depuncture_bb, on bytes, and
 * convert their float input to bytes only for an object whose
 * get_input_conversion() is "uchar". With input_conversion "uchar" this
 * object reports that, as gr-fec's cc_decoder does (get_shift() 128,
 * get_input_item_size() 1): the deployment sends each value y as
 * round(48 y + 128) clamped to 0..255, and the object decodes
 * (byte - 128) / 48 as y; depuncture_bb's fill byte 127 reads as -1/48,
 * nearly an erasure. The values then clip at |y| = 128/48 (about 2.67), so
 * scale true LLRs down to that range first; no NaN or Inf can arrive.
 * gr-fec's async decoder converts too, but casts 48 y + 128 to a byte
 * without clamping, so a value beyond that range wraps around to the other
 * sign: keep "none" there. With "none" (the default) the object takes float
 * values (item size 4) and a puncpat other than "11" fails the flowgraph
 * ("itemsize mismatch: depuncture_bb0:0 using 1, fec_decoder0:0 using 4").
 */
class GPURX_API lte_turbo_fec_decoder : virtual public gr::fec::generic_decoder
{
public:
    typedef std::shared_ptr<lte_turbo_fec_decoder> sptr;
    /*!
     * \param K block size (TS 36.212 Table 5.1.3-3: 40..6144)
     * \param iterations full turbo iterations, 1..16
     * \param algorithm "log-map", "max-log-map" or "scaled-max-log-map"
     * \param subblocks P, parallel windows per codeword, 1..256, or 0: automatic
     * \param scaling extrinsic scale of scaled-max-log-map, (0, 1]
     * \param early_termination "none", "crc24a", "crc24b" or "hard-decision"
     * \param llr_scale each input value y is decoded as the LLR llr_scale * y, > 0
     * \param backend "auto", "cuda" or "cpu" (see pipeline_options)
     * \param input_conversion "none": float values; "uchar": gr-fec's 8-bit
     *        soft values, for a puncpat other than "11" (see above)
     *
     * Bad parameters throw std::invalid_argument naming the parameter.
     */
    static sptr make(int K,
                     int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     int subblocks = 0,
                     float scaling = 0.75f,
                     const std::string& early_termination = "none",
                     float llr_scale = 2.0f,
                     const std::string& backend = "auto",
                     const std::string& input_conversion = "none");

    //! The current block size K.
    virtual int block_size() const = 0;
    //! The input multiplier.
    virtual float llr_scale() const = 0;
    //! "cuda" or "cpu": the backend this object decodes on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
