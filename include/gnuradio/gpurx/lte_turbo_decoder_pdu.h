/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_DECODER_PDU_H
#define INCLUDED_GPURX_LTE_TURBO_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE turbo decoder for PDUs: K is taken from each PDU's length.
 * \ingroup gpurx
 *
 * In ("pdus"): PDUs of 3K+12 float32 LLRs. Out ("pdus"): PDUs of K unpacked
 * bits (u8vector), in order, with the input's metadata plus "K",
 * "iterations" and, with CRC early termination, "crc_ok". A partial batch
 * leaves after flush_us even without new input.
 *
 * Soft input: LLRs L = ln P(b=1)/P(b=0), positive for bit 1 (GNU Radio's
 * convention); finite LLRs beyond +-1e4 are clamped to it.
 * Max-log-MAP (scaled or not) decodes in 16-bit fixed point (LLRs quantised
 * to 1/8, saturating at +-15.9), identically on both backends; log-MAP in
 * float. subblocks = 0 picks windows of at most 48 steps for each K.
 * Batching, backend and GPUs: see pipeline_options.
 *
 * A PDU that is not float32, fits no K, or holds NaN/Inf is dropped: logged,
 * and posted on "errors" as a dict with the "reason". stop() publishes the
 * PDUs that have completed and keeps the others (counted in the log): they
 * go out first, in order, when the flowgraph starts again, and are lost if
 * it does not (see pipeline_options).
 */
class GPURX_API lte_turbo_decoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_turbo_decoder_pdu> sptr;
    /*!
     * \param iterations full turbo iterations, 1..16
     * \param algorithm "log-map", "max-log-map" or "scaled-max-log-map"
     * \param subblocks P, parallel windows per codeword, 1..256 (1 = no
     *        windowing), or 0 (default): automatic, windows of at most 48
     *        steps per codeword (P = 128 for K = 6144, within 0.01 dB of P = 1);
     *        windows overlap their neighbours by 16 training steps
     * \param scaling extrinsic scale of scaled-max-log-map, (0, 1]
     * \param early_termination "none", "crc24a", "crc24b" or "hard-decision"
     * \param options batching, backend and GPUs (pipeline_options)
     * \param input "soft" (default): float32 LLRs; "int8": one char (int8)
     *        per LLR in steps of 1/8, value v = round(8 L) saturated to
     *        +-127, which the fixed-point decoders use exactly as the float
     *        LLR v / 8 (their own quantisation): a quarter of the bytes
     *        through the pipeline and onto the GPU
     */
    static sptr make(int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     int subblocks = 0,
                     float scaling = 0.75f,
                     const std::string& early_termination = "none",
                     const pipeline_options& options = pipeline_options(),
                     const std::string& input = "soft");
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
