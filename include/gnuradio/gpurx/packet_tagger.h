/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PACKET_TAGGER_H
#define INCLUDED_GPURX_PACKET_TAGGER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/sync_block.h>
#include <pmt/pmt.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Adds fixed tags to the first item of every packet of a tagged
 * stream: a link's constant per-packet parameters, such as the transport
 * block's (tbs, rv, qm, rnti, ...) for the shared-channel blocks.
 * \ingroup gpurx
 *
 * Items pass unchanged. A tag already on the packet's first item with the
 * same key is left as it is (the packet's own value wins).
 */
class GPURX_API packet_tagger : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<packet_tagger> sptr;
    /*!
     * \param itemsize bytes per item, 1..65536
     * \param tags a dict: key (symbol) to value
     * \param len_tag_key the packet length tag
     */
    static sptr make(int itemsize, const pmt::pmt_t& tags, const std::string& len_tag_key = "packet_len");
};

} // namespace gpurx
} // namespace gr

#endif
