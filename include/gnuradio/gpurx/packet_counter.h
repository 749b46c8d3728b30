/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PACKET_COUNTER_H
#define INCLUDED_GPURX_PACKET_COUNTER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/sync_block.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The packet link's receive counters: decoded transport blocks in,
 * good payloads out as PDUs, counts and link estimates.
 * \ingroup gpurx
 *
 * In: lte_sch_decoder_tagged's output, a tagged stream of TB bits (uint8
 * 0/1) with "crc_ok" and, where the receiver front end put them, "snr_db"
 * and "cfo" on each packet's first bit. A packet whose CRC passed is
 * "decoded": its payload (the bits packed MSB first into bytes) leaves on
 * message port "pdus" and its first 32 bits, the transmitter's sequence
 * number, count the packets lost since the previous decoded one (those no
 * failed CRC accounts for; none before the first decoded packet). A packet whose CRC failed is
 * counted, never delivered. After every packet a dict of the counters
 * leaves on "stats": "decoded", "crc_fail", "lost" (sequence gaps), "per",
 * "snr_db", "cfo", "goodput_bps" (payload bits per second of wall time).
 */
class GPURX_API packet_counter : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<packet_counter> sptr;
    //! \param len_tag_key the packet length tag
    static sptr make(const std::string& len_tag_key = "packet_len");
    virtual uint64_t decoded() const = 0;
    virtual uint64_t crc_fail() const = 0;
    //! Packets missing between decoded sequence numbers, failed CRCs excepted.
    virtual uint64_t lost() const = 0;
    //! (crc_fail + lost) / (decoded + crc_fail + lost); 0 before any packet.
    virtual double per() const = 0;
    //! Mean over the packets seen (NaN before any).
    virtual double snr_db() const = 0;
    virtual double cfo() const = 0;
    //! Payload bits of decoded packets per second since the first packet.
    virtual double goodput_bps() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
