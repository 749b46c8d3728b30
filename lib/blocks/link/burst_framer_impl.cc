/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/buffer_limits.h"
#include "link/burst_format.h"
#include "modulation/qam.h"
#include "burst_framer_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
namespace lk = core::link;
namespace mm = core::qam;

class burst_framer_impl final : public burst_framer
{
    const mm::modulation d_mod;
    const int d_qm;
    const lk::burst_format d_fmt;
    const int d_gap;
    std::vector<lk::cfloat> d_data;
    bool d_warned_unpacked = false;

    output_buffer_limits d_buffer_limits;

public:
    // Its buffers hold whole frames on every run, not only the first
    // (buffer_limits.h).
    bool check_topology(int, int noutputs) override
    {
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }

    burst_framer_impl(const std::string& modulation, int data_symbols, int gap_symbols, const std::string& len_tag_key)
        : gr::tagged_stream_block("burst_framer",
                                  gr::io_signature::make(1, 1, sizeof(uint8_t)),
                                  gr::io_signature::make(1, 1, sizeof(gr_complex)),
                                  len_tag_key),
          d_mod(mm::parse_modulation(modulation)),
          d_qm(mm::bits_per_symbol(d_mod)),
          d_fmt(data_symbols),
          d_gap(gap_symbols),
          d_data(static_cast<size_t>(data_symbols))
    {
        if (gap_symbols < 0 || gap_symbols > (1 << 20))
            throw std::invalid_argument("gap_symbols must be in 0..1048576, got " + std::to_string(gap_symbols));
        // The input packet's tags (the TB's parameters) mean nothing to the
        // burst's symbols.
        set_tag_propagation_policy(TPP_DONT);
        // A whole burst per call: GNU Radio needs twice that in the buffer
        // (its default holds about 8192 complex items).
        set_min_output_buffer(2 * burst_symbols());
    }

    int burst_symbols() const override { return d_fmt.burst_len() + d_gap; }

    int calculate_output_stream_length(const gr_vector_int&) override { return burst_symbols(); }

    int work(int noutput_items,
             gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        const auto* bits = static_cast<const uint8_t*>(input_items[0]);
        const int g = ninput_items[0];
        if (g != d_fmt.data_symbols * d_qm) {
            d_logger->warn("packet at input item {}: {} bits, expected data_symbols x bits per symbol = {}; "
                           "dropped",
                           nitems_read(0), g, d_fmt.data_symbols * d_qm);
            return 0;
        }
        // Unpacked bits are expected; another byte is mapped by its lowest
        // bit (the mapper's rule), and said once: packed bytes here are a
        // flowgraph mistake that would otherwise only show as CRC failures.
        if (!d_warned_unpacked && std::any_of(bits, bits + g, [](uint8_t b) { return b > 1; })) {
            d_warned_unpacked = true;
            d_logger->warn("packet at input item {}: bytes other than 0 and 1: each is mapped by its "
                           "lowest bit (unpacked bits expected; said once)",
                           nitems_read(0));
        }
        for (int d = 0; d < d_fmt.data_symbols; d++) {
            const std::complex<double> s = mm::map_bits(d_mod, bits + size_t(d) * d_qm);
            d_data[d] = lk::cfloat(float(s.real()), float(s.imag()));
        }
        const auto burst = lk::build_burst(d_fmt, d_data.data());
        auto* out = static_cast<gr_complex*>(output_items[0]);
        std::copy(burst.begin(), burst.end(), out);
        std::fill(out + burst.size(), out + burst_symbols(), gr_complex(0.0f, 0.0f));
        (void)noutput_items;
        return burst_symbols();
    }
};
} // namespace

burst_framer::sptr make_burst_framer(const burst_framer_params& p)
{
    return gnuradio::make_block_sptr<burst_framer_impl>(
        p.modulation, p.data_symbols, p.gap_symbols, p.len_tag_key);
}

} // namespace gpurx
} // namespace gr
