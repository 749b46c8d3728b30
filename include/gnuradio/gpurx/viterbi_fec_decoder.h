/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_VITERBI_FEC_DECODER_H
#define INCLUDED_GPURX_VITERBI_FEC_DECODER_H

#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/gpurx/api.h>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief The Viterbi decoder as a gr-fec decoder object
 * (gr::fec::generic_decoder), for fec.extended_decoder,
 * fec.extended_tagged_decoder, fec.async_decoder, fec.decoder,
 * fec.tagged_decoder and fec_bercurve_generator, beside gr-fec's own
 * cc_encoder.
 * \ingroup gpurx
 *
 * The code is viterbi_decoder's: constraint length K (3..9), rate 1/n
 * with n = len(polys) (2..4), termination "terminated" (K-1 zero tail
 * bits), "truncated" or "tail-biting". A frame is the coded bits of
 * frame_bits information bits, the n of each trellis step together in
 * polynomial order, as float soft values; out: frame_bits unpacked bits.
 * Puncturing is left to gr-fec (the puncpat of its extended encoder and
 * decoder, with input_conversion "uchar": see below), so rate() is exactly
 * 1/n.
 *
 * Polynomials: in octal as the standards print them ([0o133, 0o171] for
 * K = 7: the most significant bit taps the current input bit), or, with
 * gr_fec_order = true, bit-reversed as gr-fec's cc_encoder takes them (the
 * same code is [109, 79] there). Against fec.cc_encoder_make(frame_bits,
 * K, n, polys, 0, mode): the same polys with gr_fec_order = true, start
 * state 0, and CC_TERMINATED / CC_TRUNCATED / CC_TAILBITING for
 * "terminated" / "truncated" / "tail-biting" (CC_STREAMING has no
 * counterpart: use viterbi_stream_decoder).
 *
 * frame_bits is the largest frame: as with gr-fec's cc_decoder,
 * set_frame_size() takes any smaller one (the tagged and async
 * deployments set it per packet) and clamps a larger one to it, returning
 * false - unless the caller read both sizes first (the async decoder,
 * which takes the tail off): then a larger size is a packet of several
 * frames, or of one with extra values, and is refused like any other size
 * no frame has (shorter than the code takes): set_frame_size() returns
 * true, get_output_size() reports that size until the next
 * set_frame_size(), and a frame decoded meanwhile comes out as that many
 * zero bits with a warning. A negative size (wrapped to unsigned; gr-fec's
 * size for a packet shorter than the tail) is refused with false. gr-fec
 * passes the packet's length times 1/n, rounded down: a packet up to n-1
 * values longer than a frame arrives as that frame and its extra values
 * are never seen. gr-fec's own async decoder outputs an empty PDU for an
 * empty one and ends its thread ("bad block multiple in!") on one it
 * cannot split into frames.
 *
 * Soft values: LLRs L = ln P(b=1)/P(b=0), positive for bit 1 (GNU Radio's
 * and gr-fec's convention: bit 1 sent as +1); each input value y is decoded
 * as llr_scale * y. The decoder works in float and the path it picks does
 * not depend on the scale, so llr_scale = 1 (the default) suits gr-fec's
 * +-1 + noise values as well as true LLRs (2 y / sigma^2); it only scales
 * the path metric.
 *
 * One frame per generic_work() call, as a batch of one through gr-gpurx's
 * pipeline (backend "auto", "cuda" or "cpu"): for gr-fec interoperability;
 * viterbi_decoder (stream, tagged, PDU) is the throughput path. A frame
 * holding NaN or Inf is not decoded: its output is zeros and a warning is
 * logged (checked before llr_scale: finite values scaled beyond float's
 * range are clamped).
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
class GPURX_API viterbi_fec_decoder : virtual public gr::fec::generic_decoder
{
public:
    typedef std::shared_ptr<viterbi_fec_decoder> sptr;
    /*!
     * \param frame_bits information bits per frame (the largest frame)
     * \param K constraint length, 3..9
     * \param polys generator polynomials, one per coded bit
     * \param termination "terminated", "truncated" or "tail-biting"
     * \param gr_fec_order polys given bit-reversed, as gr-fec's cc_encoder
     * \param chunk tile length of the tiled decoder, 1..65536
     * \param llr_scale each input value y is decoded as the LLR llr_scale * y, > 0
     * \param backend "auto", "cuda" or "cpu" (see pipeline_options)
     * \param input_conversion "none": float values; "uchar": gr-fec's 8-bit
     *        soft values, for a puncpat other than "11" (see above)
     *
     * Bad parameters throw std::invalid_argument naming the parameter.
     */
    static sptr make(int frame_bits,
                     int K = 7,
                     const std::vector<int>& polys = { 0133, 0171 },
                     const std::string& termination = "terminated",
                     bool gr_fec_order = false,
                     int chunk = 64,
                     float llr_scale = 1.0f,
                     const std::string& backend = "auto",
                     const std::string& input_conversion = "none");

    //! The current frame size in information bits.
    virtual int frame_bits() const = 0;
    //! The input multiplier.
    virtual float llr_scale() const = 0;
    //! "cuda" or "cpu": the backend this object decodes on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
