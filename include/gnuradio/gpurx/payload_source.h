/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PAYLOAD_SOURCE_H
#define INCLUDED_GPURX_PAYLOAD_SOURCE_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/sync_block.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Test payloads for a packet link: a tagged stream of bytes, one
 * packet of \p payload_bytes per payload, its first 4 bytes a sequence
 * number (big endian, from 0), the rest pseudo-random from \p seed.
 * \ingroup gpurx
 *
 * Ends the stream after \p packets payloads (0: never). packet_counter
 * counts lost packets by the sequence numbers.
 */
class GPURX_API payload_source : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<payload_source> sptr;
    /*!
     * \param payload_bytes bytes per payload, 4..1048576
     * \param packets payloads before the stream ends, 0 for no end
     * \param seed the pseudo-random bytes' seed
     * \param len_tag_key the packet length tag
     */
    static sptr make(int payload_bytes = 128,
                     uint64_t packets = 0,
                     uint64_t seed = 1,
                     const std::string& len_tag_key = "packet_len");
    //! Payloads output so far.
    virtual uint64_t sent() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
