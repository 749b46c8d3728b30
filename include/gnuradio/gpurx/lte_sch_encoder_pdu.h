/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_SCH_ENCODER_PDU_H
#define INCLUDED_GPURX_LTE_SCH_ENCODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE DL-SCH / UL-SCH transport-block encoder for PDUs, on the CPU
 * (TS 36.212 5.3.2 / 5.2.2, TS 36.211 6.3.1 / 5.3.1): CRC24A, code block
 * segmentation with CRC24B and filler bits, turbo coding, rate matching
 * for the TB's rv (with the downlink soft-buffer limit), concatenation,
 * the uplink channel interleaver (no UCI), scrambling.
 * \ingroup gpurx
 *
 * In ("pdus"): a TB's tbs bits (u8vector of 0/1), with lte_sch_decoder_pdu's
 * metadata keys and "g", the codeword's coded bits G (required). Out
 * ("pdus"): the G scrambled codeword bits (u8vector of 0/1) in transmission
 * order, with the metadata unchanged. A PDU with bad metadata (missing,
 * ill-typed, a TB that cannot be laid out, tbs other than its length, tbs
 * > max_tbs, g > max_g) or bytes other than 0/1 is dropped and reported on
 * "errors" (a dict with the "reason", naming the field and its value).
 */
class GPURX_API lte_sch_encoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_sch_encoder_pdu> sptr;
    /*!
     * \param channel "dlsch" or "ulsch"
     * \param max_tbs the largest TB accepted, 1..391656
     * \param max_g the largest G accepted, 8..2097152
     */
    static sptr make(const std::string& channel = "dlsch", int max_tbs = 97896, int max_g = 262144);
    //! "cpu": the encoder runs on the CPU.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
