/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_encoder_tagged: one packet of K bits in, its 3K+12 coded
// bits out; a packet whose length is no LTE K is dropped and reported.
#include "blocks/drivers/bit_bytes.h"
#include "blocks/turbo/lte_turbo_encoders_by_K.h"
#include "lte_turbo_encoder_tagged_params.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpurx {

class lte_turbo_encoder_tagged_impl : public lte_turbo_encoder_tagged
{
    lte_turbo_encoders_by_K d_enc;

public:
    explicit lte_turbo_encoder_tagged_impl(const std::string& key)
        : gr::tagged_stream_block("lte_turbo_encoder_tagged",
                                  gr::io_signature::make(1, 1, 1),
                                  gr::io_signature::make(1, 1, 1),
                                  key)
    {
        message_port_register_out(pmt::mp("errors"));
    }

    int calculate_output_stream_length(const gr_vector_int& ninput_items) override
    {
        const int K = ninput_items[0];
        return core::lte_valid_K(K) ? 3 * K + 12 : 0;
    }

    int work(int noutput_items,
             gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        const int K = ninput_items[0];
        if (!core::lte_valid_K(K)) {
            d_logger->warn("packet of {} bits dropped: not an LTE block size K", K);
            message_port_pub(pmt::mp("errors"),
                             pmt::dict_add(pmt::make_dict(),
                                           pmt::mp("reason"),
                                           pmt::mp("packet length " + std::to_string(K) +
                                                   " is not an LTE block size K")));
            return 0;
        }
        const auto* bits = static_cast<const uint8_t*>(input_items[0]);
        if (const size_t bad = non_bit_bytes(bits, size_t(K))) {
            const std::string why = non_bit_reason(bad, size_t(K));
            d_logger->warn("packet at input item {}: {}", nitems_read(0), why);
            pmt::pmt_t d = pmt::dict_add(pmt::make_dict(), pmt::mp("reason"), pmt::mp(why));
            d = pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(nitems_read(0)));
            message_port_pub(pmt::mp("errors"), d);
        }
        d_enc[K].encode(bits, static_cast<uint8_t*>(output_items[0]));
        return 3 * K + 12;
    }
};

lte_turbo_encoder_tagged::sptr make_lte_turbo_encoder_tagged(const lte_turbo_encoder_tagged_params& p)
{
    return gnuradio::make_block_sptr<lte_turbo_encoder_tagged_impl>(p.len_tag_key);
}

} // namespace gpurx
} // namespace gr
