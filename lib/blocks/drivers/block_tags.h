/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Stream tags are protected members of gr::block: the driver blocks
// (driver_blocks.h) lend them to the drivers through this interface.
#ifndef INCLUDED_GPURX_BLOCKS_BLOCK_TAGS_H
#define INCLUDED_GPURX_BLOCKS_BLOCK_TAGS_H

#include <gnuradio/tags.h>
#include <pmt/pmt.h>
#include <vector>

namespace gr {
namespace gpurx {

class block_tags
{
public:
    virtual ~block_tags() = default;
    //! Tag output 0 at absolute item \p offset.
    virtual void add_tag(uint64_t offset, const pmt::pmt_t& key, const pmt::pmt_t& value) = 0;
    //! Tags with \p key on input 0 in [rel_start, rel_end) of this call's window.
    virtual void tags_in_window(std::vector<gr::tag_t>& tags,
                                uint64_t rel_start,
                                uint64_t rel_end,
                                const pmt::pmt_t& key) = 0;
    //! Every tag on input \p port in [rel_start, rel_end) of this call's window.
    virtual void all_tags_in_window(std::vector<gr::tag_t>& tags,
                                    unsigned port,
                                    uint64_t rel_start,
                                    uint64_t rel_end) = 0;
};

} // namespace gpurx
} // namespace gr

#endif
