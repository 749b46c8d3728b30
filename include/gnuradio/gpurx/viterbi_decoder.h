/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_VITERBI_DECODER_H
#define INCLUDED_GPURX_VITERBI_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief Viterbi decoder, stream form: one input vector per frame of \p frame_bits
 * information bits (its coded length: n x (frame_bits + K - 1) items when
 * terminated, n x frame_bits otherwise, less the punctured ones), one
 * uint8 vector of frame_bits bits out, in order. A vector holding NaN or Inf
 * is not decoded: zeros out, tagged "gpurx_error" with the reason.
 * \ingroup gpurx
 *
 * The code: constraint length K (3..9), rate 1/n with n = len(polys) (2..4),
 * generator polynomials in octal as standards print them ([0o133, 0o171]
 * for K=7: the most significant bit taps the current input bit, as 3GPP,
 * IEEE 802.11, IT++ and MATLAB write them), or bit-reversed as gr-fec's
 * cc_encoder takes them with gr_fec_order=True. termination is
 * "terminated" (K-1 zero tail bits), "truncated" or "tail-biting" (decoded
 * exactly, for every frame length from K-1 bits). puncture: keep (1) / drop
 * (0) flags over the coded bits of consecutive steps (empty: none), the
 * dropped ones depunctured as zero LLRs. input: "soft" (float32 LLRs, L = ln
 * P(b=1)/P(b=0), positive for bit 1; finite LLRs beyond +-1e4 are clamped)
 * "int8" (int8 LLRs at any positive scale: the path does not depend on it;
 * the metric is in the input's units) or "hard" (bytes, 0 or not 0; Hamming
 * metric). Coded bits: the n of each
 * trellis step together, in polynomial order (as cc_encoder emits them).
 * chunk: the tile length of the tiled decoder. Output bits are unpacked
 * uint8, tagged (or, for PDUs, described) "frame_bits" and "metric".
 * Batching, backend and GPUs: see pipeline_options (this build decodes on
 * the CPU; backend="auto" says so in the log).
 */
class GPURX_API viterbi_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<viterbi_decoder> sptr;
    /*!
     * \param frame_bits information bits per frame
     * \param K constraint length, 3..9
     * \param polys generator polynomials, one per coded bit
     * \param termination "terminated", "truncated" or "tail-biting"
     * \param chunk tile length in trellis steps, 1..65536
     * \param puncture keep/drop flags over coded bits, empty for none
     * \param input "soft" (float LLRs), "int8" (int8 LLRs) or "hard" (bytes)
     * \param gr_fec_order polys given bit-reversed, as gr-fec's cc_encoder
     * \param options batching, backend and GPUs (pipeline_options)
     */
    static sptr make(int frame_bits,
                     int K = 7,
                     const std::vector<int>& polys = { 0133, 0171 },
                     const std::string& termination = "terminated",
                     int chunk = 64,
                     const std::vector<int>& puncture = {},
                     const std::string& input = "soft",
                     bool gr_fec_order = false,
                     const pipeline_options& options = pipeline_options());
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
