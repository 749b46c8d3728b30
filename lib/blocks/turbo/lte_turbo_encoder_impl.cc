/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/bit_bytes.h"
#include "turbo/lte_qpp.h"
#include "turbo/lte_turbo_encoder.h"
#include "lte_turbo_encoder_params.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpurx {

class lte_turbo_encoder_impl : public lte_turbo_encoder
{
    core::lte_turbo_encoder d_enc;
    non_bit_log d_non_bits{ "input vectors", "their codewords tagged gpurx_error" };
    const pmt::pmt_t d_error_key = pmt::mp("gpurx_error");

public:
    explicit lte_turbo_encoder_impl(int K)
        : gr::sync_block("lte_turbo_encoder",
                         gr::io_signature::make(1, 1, core::lte_valid_K(K) ? K : 1),
                         gr::io_signature::make(1, 1, core::lte_valid_K(K) ? 3 * K + 12 : 1)),
          d_enc(K)
    {
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        const auto* in = static_cast<const uint8_t*>(input_items[0]);
        auto* out = static_cast<uint8_t*>(output_items[0]);
        const int K = d_enc.K();
        for (int i = 0; i < noutput_items; i++) {
            const uint8_t* bits = in + size_t(i) * K;
            const size_t bad = non_bit_bytes(bits, size_t(K));
            d_non_bits.frame(nitems_read(0) + uint64_t(i), bad, d_logger);
            if (bad)
                add_item_tag(0, nitems_written(0) + uint64_t(i), d_error_key,
                             pmt::mp(non_bit_reason(bad, size_t(K))));
            d_enc.encode(bits, out + size_t(i) * (3 * K + 12));
        }
        return noutput_items;
    }
    bool stop() override
    {
        d_non_bits.end(d_logger);
        return gr::sync_block::stop();
    }
};

lte_turbo_encoder::sptr make_lte_turbo_encoder(const lte_turbo_encoder_params& p)
{
    return gnuradio::make_block_sptr<lte_turbo_encoder_impl>(p.K);
}

std::vector<int> lte_turbo_block_sizes()
{
    std::vector<int> k;
    for (const auto& p : core::lte_qpp_table())
        k.push_back(p.K);
    return k;
}

} // namespace gpurx
} // namespace gr
