/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/buffer_limits.h"
#include "packet_tagger_params.h"
#include <gnuradio/io_signature.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
class packet_tagger_impl final : public packet_tagger
{
    std::vector<std::pair<pmt::pmt_t, pmt::pmt_t>> d_tags;
    const pmt::pmt_t d_len_key;

    output_buffer_limits d_buffer_limits;

public:
    // Buffers set for whole packets hold them on every run, not only the
    // first (buffer_limits.h).
    bool check_topology(int, int noutputs) override
    {
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }

    packet_tagger_impl(int itemsize, const pmt::pmt_t& tags, const std::string& len_tag_key)
        : gr::sync_block("packet_tagger",
                         gr::io_signature::make(1, 1, std::max(itemsize, 1)),
                         gr::io_signature::make(1, 1, std::max(itemsize, 1))),
          d_len_key(pmt::mp(len_tag_key))
    {
        if (itemsize < 1 || itemsize > 65536)
            throw std::invalid_argument("itemsize must be in 1..65536, got " + std::to_string(itemsize));
        if (!pmt::is_dict(tags))
            throw std::invalid_argument("tags must be a dict, got " + pmt::write_string(tags));
        const pmt::pmt_t items = pmt::dict_items(tags);
        for (size_t i = 0; i < pmt::length(items); i++) {
            const pmt::pmt_t kv = pmt::nth(i, items);
            if (!pmt::is_symbol(pmt::car(kv)))
                throw std::invalid_argument("tags: every key must be a symbol (string), got " +
                                            pmt::write_string(pmt::car(kv)));
            d_tags.emplace_back(pmt::car(kv), pmt::cdr(kv));
        }
        set_tag_propagation_policy(TPP_ONE_TO_ONE);
    }

    int work(int noutput_items, gr_vector_const_void_star& input_items, gr_vector_void_star& output_items) override
    {
        const size_t bytes = size_t(noutput_items) * input_signature()->sizeof_stream_item(0);
        std::memcpy(output_items[0], input_items[0], bytes);
        const uint64_t first = nitems_read(0);
        std::vector<gr::tag_t> starts, here;
        get_tags_in_range(starts, 0, first, first + uint64_t(noutput_items), d_len_key);
        for (const auto& s : starts) {
            get_tags_in_range(here, 0, s.offset, s.offset + 1);
            for (const auto& kv : d_tags) {
                bool present = false;
                for (const auto& t : here)
                    present = present || pmt::eqv(t.key, kv.first);
                if (!present)
                    add_item_tag(0, s.offset, kv.first, kv.second);
            }
        }
        return noutput_items;
    }
};
} // namespace

packet_tagger::sptr make_packet_tagger(const packet_tagger_params& p)
{
    return gnuradio::make_block_sptr<packet_tagger_impl>(
        p.itemsize, p.tags, p.len_tag_key);
}

} // namespace gpurx
} // namespace gr
