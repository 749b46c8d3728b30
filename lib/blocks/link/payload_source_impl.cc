/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "payload_source_params.h"
#include <gnuradio/io_signature.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {

namespace {
class payload_source_impl final : public payload_source
{
    const int d_bytes;
    const uint64_t d_packets;
    std::mt19937_64 d_rng;
    std::atomic<uint64_t> d_sent{ 0 }; // read by other threads
    const pmt::pmt_t d_len_key;

public:
    payload_source_impl(int bytes, uint64_t packets, uint64_t seed, const std::string& len_tag_key)
        : gr::sync_block("payload_source",
                         gr::io_signature::make(0, 0, 0),
                         gr::io_signature::make(1, 1, sizeof(uint8_t))),
          d_bytes(bytes),
          d_packets(packets),
          d_rng(seed),
          d_len_key(pmt::mp(len_tag_key))
    {
        if (bytes < 4 || bytes > (1 << 20))
            throw std::invalid_argument("payload_bytes must be in 4..1048576, got " + std::to_string(bytes));
        // Whole packets only: a packet never straddles two calls.
        set_output_multiple(bytes);
    }

    uint64_t sent() const override { return d_sent.load(std::memory_order_relaxed); }

    int work(int noutput_items, gr_vector_const_void_star&, gr_vector_void_star& output_items) override
    {
        auto* out = static_cast<uint8_t*>(output_items[0]);
        int produced = 0;
        while (produced + d_bytes <= noutput_items) {
            const uint64_t sent = d_sent.load(std::memory_order_relaxed);
            if (d_packets != 0 && sent == d_packets)
                return produced > 0 ? produced : WORK_DONE;
            uint8_t* p = out + produced;
            for (int i = 0; i < 4; i++)
                p[i] = uint8_t(sent >> (8 * (3 - i)));
            for (int i = 4; i < d_bytes; i++)
                p[i] = uint8_t(d_rng() >> 56);
            add_item_tag(0, nitems_written(0) + uint64_t(produced), d_len_key, pmt::from_long(d_bytes));
            produced += d_bytes;
            d_sent++;
        }
        return produced;
    }
};
} // namespace

payload_source::sptr make_payload_source(const payload_source_params& p)
{
    return gnuradio::make_block_sptr<payload_source_impl>(
        p.payload_bytes, p.packets, p.seed, p.len_tag_key);
}

} // namespace gpurx
} // namespace gr
