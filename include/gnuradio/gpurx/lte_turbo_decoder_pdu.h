/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_DECODER_PDU_H
#define INCLUDED_GPURX_LTE_TURBO_DECODER_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE turbo decoder for PDUs.
 * \ingroup gpurx
 *
 * Message port "pdus" in: a PDU whose vector is 3K+12 float32 LLRs (positive
 * for bit 1: L = ln P(1)/P(0)). Port "pdus" out: a PDU of K unpacked bits
 * (u8vector), its metadata extended with "K", "iterations" and "crc_ok"
 * (with CRC early termination). PDUs leave in the order they arrived; they
 * are batched, and a partial batch is decoded after flush_us. A malformed PDU
 * (wrong type, length fitting no K, NaN/Inf) is logged and reported on the
 * "errors" port; the PDUs around it are unaffected.
 * Max-log-MAP (scaled or not) decodes in 16-bit fixed point (LLRs quantised
 * to 1/8, saturating at +-15.9), identically on both backends; log-MAP in
 * float. subblocks = 0 picks windows of at most 48 steps for each K.
 */
class GPURX_API lte_turbo_decoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_turbo_decoder_pdu> sptr;
    static sptr make(int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     int subblocks = 0,
                     float scaling = 0.75f,
                     const std::string& early_termination = "none",
                     int max_batch = 64,
                     int slots = 3,
                     int flush_us = 1000,
                     const std::string& backend = "auto",
                     int device = 0);
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
