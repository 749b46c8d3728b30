/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_ENCODER_TAGGED_H
#define INCLUDED_GPURX_LTE_TURBO_ENCODER_TAGGED_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/tagged_stream_block.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE turbo encoder for tagged streams: K is each packet's length.
 * \ingroup gpurx
 *
 * In: packets of K unpacked bits. Out: packets of 3K+12 unpacked bits
 * (c[3k+i] = d(i)_k). A packet whose length is not a valid K is dropped
 * with a logged warning and a message on the "errors" port. Each byte's low
 * bit is its bit: a packet holding bytes other than 0 and 1 is encoded so,
 * and reported (a warning, a message on "errors" with their count).
 */
class GPURX_API lte_turbo_encoder_tagged : virtual public gr::tagged_stream_block
{
public:
    typedef std::shared_ptr<lte_turbo_encoder_tagged> sptr;
    static sptr make(const std::string& len_tag_key = "packet_len");
};

/*!
 * \brief LTE turbo encoder for PDUs: a u8vector of K bits in, 3K+12 bits out.
 * \ingroup gpurx
 *
 * Each byte's low bit is its bit: a PDU holding bytes other than 0 and 1 is
 * encoded so, and reported (a warning, a message on "errors").
 */
class GPURX_API lte_turbo_encoder_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_turbo_encoder_pdu> sptr;
    static sptr make();
};

} // namespace gpurx
} // namespace gr

#endif
