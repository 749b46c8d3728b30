/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.qam_mapper: a table lookup into the modulation family's 36.211
// constellation (modulation/qam.h), the one the detectors and demapper use,
// so transmitter and receiver cannot disagree on it.
#include "blocks/drivers/bit_bytes.h"
#include "modulation/qam.h"
#include "qam_mapper_params.h"
#include <gnuradio/io_signature.h>

#include <complex>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
class qam_mapper_impl final : public qam_mapper
{
    int d_bits;
    std::vector<gr_complex> d_points; // by index: b(0) the most significant bit
    non_bit_log d_non_bits{ "symbols", "each run of such symbols tagged gpurx_error on its first" };
    bool d_in_run = false; // the last symbol had non-bit bytes: one tag per run
    const pmt::pmt_t d_error_key = pmt::mp("gpurx_error");

public:
    explicit qam_mapper_impl(core::qam::modulation m)
        : gr::sync_decimator("qam_mapper",
                             gr::io_signature::make(1, 1, sizeof(uint8_t)),
                             gr::io_signature::make(1, 1, sizeof(gr_complex)),
                             unsigned(core::qam::bits_per_symbol(m))),
          d_bits(core::qam::bits_per_symbol(m))
    {
        for (const auto& p : core::qam::constellation_of(m).points)
            d_points.emplace_back(float(p.real()), float(p.imag()));
    }

    int bits_per_symbol() const override { return d_bits; }

    int work(int noutput_items, gr_vector_const_void_star& input_items, gr_vector_void_star& output_items) override
    {
        const auto* in = static_cast<const uint8_t*>(input_items[0]);
        auto* out = static_cast<gr_complex*>(output_items[0]);
        for (int s = 0; s < noutput_items; s++) {
            // The low bit of each byte, as the turbo encoders take it.
            unsigned idx = 0;
            for (int b = 0; b < d_bits; b++)
                idx = (idx << 1) | (in[b] & 1u);
            out[s] = d_points[idx];
            const size_t bad = non_bit_bytes(in, size_t(d_bits));
            d_non_bits.frame(nitems_read(0) + uint64_t(s) * d_bits, bad, d_logger);
            if (bad && !d_in_run) // one tag per run of such symbols, on its first
                add_item_tag(0, nitems_written(0) + uint64_t(s), d_error_key,
                             pmt::mp("input bytes that are not 0 or 1 from this symbol on: each "
                                     "byte's low bit was taken as its bit"));
            d_in_run = bad > 0;
            in += d_bits;
        }
        return noutput_items;
    }
    bool stop() override
    {
        d_non_bits.end(d_logger);
        return gr::sync_decimator::stop();
    }
};
} // namespace

qam_mapper::sptr make_qam_mapper(const qam_mapper_params& p)
{
    return gnuradio::make_block_sptr<qam_mapper_impl>(core::qam::parse_modulation(p.modulation));
}

} // namespace gpurx
} // namespace gr
