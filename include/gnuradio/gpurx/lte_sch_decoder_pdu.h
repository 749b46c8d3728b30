/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_SCH_DECODER_PDU_H
#define INCLUDED_GPURX_LTE_SCH_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE DL-SCH / UL-SCH transport-block decoder for PDUs (TS 36.212
 * 5.3.2 / 5.2.2, TS 36.211 6.3.1 / 5.3.1): descrambling, uplink channel
 * deinterleaving (no UCI), rate dematching, HARQ combining, turbo decoding
 * of every code block, CRC24B and CRC24A.
 * \ingroup gpurx
 *
 * In ("pdus"): one transport block (TB) per PDU: its G LLRs (f32vector;
 * with input "int8" an s8vector or u8vector, L = value / 8) in
 * transmission order, still scrambled, L = ln P(b=1)/P(b=0), positive for
 * bit 1. G is the vector's length. The metadata dict describes the TB:
 * "tbs", "rv" (0-3), "qm" (2, 4, 6, 8), "rnti", "cell_id", "subframe"
 * (0-9), "harq_process" (0-15), "ndi" (0/1), all required; downlink, with
 * their defaults: "codeword" (0), "nl" (1), "n_soft" (absent: no
 * soft-buffer limit), "kc" (1), "k_mimo" (1), "m_dl_harq" (8), "m_limit"
 * (8); uplink: "n_symb" (12). A "g" present must equal G.
 *
 * Out ("pdus"): the TB's tbs bits (u8vector of 0/1), in arrival order, with
 * the input metadata plus "crc_ok" (bool: CRC24A), "cb_crc" (u8vector, one
 * 0/1 per code block), "iterations" (the most any code block ran) and
 * "transmissions" (how many transmissions were combined). A TB that fails
 * its CRC is still output, flagged crc_ok = false.
 *
 * HARQ: harq_buffers soft buffers, keyed by (rnti, harq_process, codeword).
 * A toggled ndi, or another tbs, starts a new TB in the key's buffer, and
 * so does an optional "harq_reset" (bool, or 0/1) that is true, whatever
 * ndi says: nothing before it is combined with it (a key that came from
 * another decoder, docs/scale-out.md); the same ndi and tbs is a
 * retransmission, combined with the buffer (after
 * every transmission before it has been decoded: it never shares a batch
 * with them). A TB that passes its CRC releases its buffer. A new key when
 * every buffer is taken evicts the least recently used one (logged). A
 * retransmission whose layout contradicts its buffer's (code blocks, N_cb,
 * channel) is decoded alone and reported on "errors"; one without a
 * buffer (released, evicted, never seen) is decoded alone.
 *
 * A PDU whose metadata is missing or ill-typed, whose TB cannot be laid
 * out (G not a multiple of nl*qm, tbs outside 1..max_tbs, G too small for
 * one bit of every code block, an uplink n_symb that does not divide G/qm,
 * an n_soft leaving fewer soft bits than K), with G > max_g, or holding
 * NaN/Inf, is dropped: logged, and posted on "errors" as a dict whose
 * "reason" names the field and its value. Its neighbours are not touched.
 * Batching, backend and GPUs: see pipeline_options (one GPU: the soft
 * buffers live in its memory).
 */
class GPURX_API lte_sch_decoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_sch_decoder_pdu> sptr;
    /*!
     * \param channel "dlsch" or "ulsch"
     * \param iterations full turbo iterations, 1..16
     * \param algorithm "log-map", "max-log-map" or "scaled-max-log-map"
     * \param input "float" (float32 LLRs) or "int8" (one char per LLR, L =
     *        value / 8)
     * \param harq_buffers HARQ soft buffers kept, 0..65536 (0: no combining)
     * \param early_termination stop a code block once its CRC checks
     * \param max_tbs the largest TB accepted, 16..391656 (sizes each soft
     *        buffer: code blocks x (3K+12) int16)
     * \param max_g the largest G accepted, 8..2097152 (sizes the staging)
     * \param implementation "auto", "cpu-sch" or "cuda-sch" (gpurx-info)
     * \param options batching, backend and GPUs (pipeline_options)
     */
    static sptr make(const std::string& channel = "dlsch",
                     int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     const std::string& input = "float",
                     int harq_buffers = 16,
                     bool early_termination = true,
                     int max_tbs = 97896,
                     int max_g = 262144,
                     const std::string& implementation = "auto",
                     const pipeline_options& options = pipeline_options());
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
    //! Decoded PDUs published on "pdus" since the block was made (what a
    //! gpurx-worker reports as decoded).
    virtual uint64_t pdus_out() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
