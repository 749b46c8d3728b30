/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_DECODER_TAGGED_H
#define INCLUDED_GPURX_LTE_TURBO_DECODER_TAGGED_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE turbo decoder for tagged streams: K is taken from each packet.
 * \ingroup gpurx
 *
 * In: a float stream of LLRs (positive for bit 1: L = ln P(1)/P(0)) cut into
 * packets by \p len_tag_key tags; a packet of 3K+12 LLRs is one codeword, and
 * packets of different K may follow each other. Out: a uint8 stream of
 * unpacked bits, one packet of K bits per codeword, tagged with
 * \p len_tag_key = K, "turbo_iterations" and, with CRC early termination,
 * "crc_ok". Packets are batched across work() calls.
 *
 * A packet whose length fits no K, or that holds NaN/Inf, is dropped: a
 * warning is logged and a message with the reason is posted on the "errors"
 * port. Other packets are unaffected.
 * The upstream buffer must hold a whole packet (3K+12 items; for K = 6144
 * set its minimum output buffer to 18444 or more).
 * Max-log-MAP (scaled or not) decodes in 16-bit fixed point (LLRs quantised
 * to 1/8, saturating at +-15.9), identically on both backends; log-MAP in
 * float. subblocks = 0 picks windows of at most 48 steps for each K.
 */
class GPURX_API lte_turbo_decoder_tagged : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_turbo_decoder_tagged> sptr;
    static sptr make(int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     int subblocks = 0,
                     float scaling = 0.75f,
                     const std::string& early_termination = "none",
                     int max_batch = 64,
                     int slots = 3,
                     int flush_us = 1000,
                     const std::string& backend = "auto",
                     int device = 0,
                     const std::string& len_tag_key = "packet_len");
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
