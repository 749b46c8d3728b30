/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/buffer_limits.h"
#include "ofdm/ofdm_frame.h"
#include "mimo_ofdm_framer_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {

namespace {
namespace of = core::ofdm;

class mimo_ofdm_framer_impl final : public mimo_ofdm_framer
{
    const of::ofdm_frame_format d_f;
    const int d_gap;

    output_buffer_limits d_buffer_limits;

public:
    // Its buffers hold whole frames on every run, not only the first
    // (buffer_limits.h).
    bool check_topology(int, int noutputs) override
    {
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }

    mimo_ofdm_framer_impl(int nt, int fft_len, int cp_len, int used, int repeats, int data_symbols, int gap,
                          const std::string& len_tag_key, int pilots)
        : gr::tagged_stream_block("mimo_ofdm_framer",
                                  gr::io_signature::make(1, 1, sizeof(gr_complex)),
                                  gr::io_signature::make(std::max(nt, 1), std::max(nt, 1), sizeof(gr_complex)),
                                  len_tag_key),
          d_f(nt, fft_len, cp_len, used, repeats, data_symbols, pilots),
          d_gap(gap)
    {
        if (gap < 0 || gap > (1 << 20))
            throw std::invalid_argument("gap must be in 0..1048576, got " + std::to_string(gap));
        set_tag_propagation_policy(TPP_DONT);
        // A whole burst per call: GNU Radio needs twice that in the buffer
        // (its default holds about 8192 complex items).
        set_min_output_buffer(2 * frame_samples());
    }

    int frame_samples() const override { return d_f.frame_len() + d_gap; }
    int calculate_output_stream_length(const gr_vector_int&) override { return frame_samples(); }

    int work(int, gr_vector_int& ninput_items, gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        if (ninput_items[0] != d_f.data_res()) {
            d_logger->warn("packet at input item {}: {} symbols, expected (used - pilots) x nt x data_symbols = {}; "
                           "dropped",
                           nitems_read(0), ninput_items[0], d_f.data_res());
            return 0;
        }
        const auto frame = of::build_ofdm_frame(d_f, static_cast<const gr_complex*>(input_items[0]));
        for (int j = 0; j < d_f.nt; j++) {
            auto* out = static_cast<gr_complex*>(output_items[j]);
            std::copy(frame[j].begin(), frame[j].end(), out);
            std::fill(out + frame[j].size(), out + frame_samples(), gr_complex(0, 0));
        }
        return frame_samples();
    }
};
} // namespace

mimo_ofdm_framer::sptr make_mimo_ofdm_framer(const mimo_ofdm_framer_params& p)
{
    return gnuradio::make_block_sptr<mimo_ofdm_framer_impl>(p.nt, p.fft_len, p.cp_len, p.used, p.repeats,
                                                            p.data_symbols, p.gap, p.len_tag_key, p.pilots);
}

} // namespace gpurx
} // namespace gr
