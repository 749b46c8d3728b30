/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.qam_demapper: max-log soft demapping of the 36.211 constellations,
// with the modulation family's per-axis demapper (modulation/qam_demap.h,
// tested against the full 2-D max-log there). The block adds what a stream
// needs: per-burst gain and N0 from tags, and NaN/Inf symbols reported.
#include "mimo/mimo_config.h"
#include "modulation/qam_demap.h"
#include "qam_demapper_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {

namespace {

constexpr float max_abs = 1.0e6f;

// The detectors' range (mimo_config.h): with y clamped to +-max_abs, every
// LLR then stays within float's range (at most (2 max_abs)^2 / 1e-20).
void check_noise_var(float n0)
{
    if (!(n0 >= core::mimo::min_noise_variance && n0 <= core::mimo::max_noise_variance)) {
        char v[32];
        std::snprintf(v, sizeof v, "%g", double(n0));
        throw std::invalid_argument(std::string("noise_var must be in 1e-20..1e20 (SNRs within "
                                                "+-200 dB; beyond, the LLRs would leave float's "
                                                "range), got ") + v);
    }
}

//! One axis: its levels and, per level, the values of that axis's bits.
class qam_demapper_impl final : public qam_demapper
{
    int d_bits;
    core::qam::axis_demapper d_demap; // the module's demapper arithmetic
    float d_n0;
    float d_gain = 1.0f; // y = gain s + n, from "gain" tags
    uint64_t d_burst = 0;       // NaN/Inf symbols in the current burst
    uint64_t d_burst_start = 0; // its first symbol
    const pmt::pmt_t d_error_key = pmt::mp("gpurx_error");
    const pmt::pmt_t d_n0_key = pmt::mp("n0"), d_gain_key = pmt::mp("gain");

    //! A "n0" or "gain" tag's value, or false (with a warning) when it is
    //! not a number in range: the current value then stays.
    bool tag_value(const gr::tag_t& t, float lo, float hi, float& v)
    {
        const double x = pmt::is_number(t.value) ? pmt::to_double(t.value) : std::nan("");
        if (!(x >= lo && x <= hi)) {
            d_logger->warn("tag {} = {} at symbol {} is not a number in {}..{}: ignored",
                           pmt::symbol_to_string(t.key), pmt::write_string(t.value), t.offset, lo, hi);
            return false;
        }
        v = float(x);
        return true;
    }

    void end_burst()
    {
        if (d_burst == 0)
            return;
        d_logger->warn("{} NaN/Inf input symbol(s) from symbol {} on: their LLRs are 0",
                       d_burst, d_burst_start);
        d_burst = 0;
    }
    mutable std::mutex d_mutex; // set_noise_var() from another thread

public:
    qam_demapper_impl(core::qam::modulation m, float n0)
        : gr::sync_interpolator("qam_demapper",
                                gr::io_signature::make(1, 1, sizeof(gr_complex)),
                                gr::io_signature::make(1, 1, sizeof(float)),
                                unsigned(core::qam::bits_per_symbol(m))),
          d_bits(core::qam::bits_per_symbol(m)),
          d_demap(m),
          d_n0(n0)
    {
        check_noise_var(n0);
    }

    int bits_per_symbol() const override { return d_bits; }
    float noise_var() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_n0;
    }
    void set_noise_var(float n0) override
    {
        check_noise_var(n0);
        std::lock_guard<std::mutex> l(d_mutex);
        d_n0 = n0;
    }

    bool stop() override
    {
        end_burst();
        return gr::sync_interpolator::stop();
    }

    int work(int noutput_items, gr_vector_const_void_star& input_items, gr_vector_void_star& output_items) override
    {
        const auto* in = static_cast<const gr_complex*>(input_items[0]);
        auto* out = static_cast<float*>(output_items[0]);
        const int symbols = noutput_items / d_bits;
        const uint64_t first = nitems_read(0);
        std::vector<gr::tag_t> tags;
        get_tags_in_range(tags, 0, first, first + uint64_t(symbols));
        std::sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
        size_t next_tag = 0;
        float n0 = noise_var(), gain = d_gain;
        // The LLR scale 1 / (n0 / gain^2), kept inside the detectors' range
        // so that every LLR stays finite.
        auto scale_of = [](float n0v, float g) {
            const double eff = std::clamp(double(n0v) / (double(g) * g), double(core::mimo::min_noise_variance),
                                          double(core::mimo::max_noise_variance));
            return float(1.0 / eff);
        };
        float inv_eff = scale_of(n0, gain), inv_gain = 1.0f / gain;
        for (int s = 0; s < symbols; s++, out += d_bits) {
            // Per-burst gain and N0 from the receiver front end (burst_sync):
            // from the tagged symbol on, y = gain s + n with E|n|^2 = n0,
            // demapped as y/gain against n0/gain^2.
            for (; next_tag < tags.size() && tags[next_tag].offset == first + uint64_t(s); next_tag++) {
                const gr::tag_t& t = tags[next_tag];
                if (pmt::eqv(t.key, d_n0_key) &&
                    tag_value(t, core::mimo::min_noise_variance, core::mimo::max_noise_variance, n0)) {
                    set_noise_var(n0);
                    inv_eff = scale_of(n0, gain);
                } else if (pmt::eqv(t.key, d_gain_key) && tag_value(t, 1e-10f, 1e10f, gain)) {
                    d_gain = gain;
                    inv_gain = 1.0f / gain;
                    inv_eff = scale_of(n0, gain);
                }
            }
            if (!std::isfinite(in[s].real()) || !std::isfinite(in[s].imag())) {
                // No information: LLRs 0. Reported once per burst of such
                // symbols: a tag on its first LLR, a log line at its start
                // and one with its length at its end.
                std::fill(out, out + d_bits, 0.0f);
                if (d_burst == 0) {
                    d_burst_start = first + uint64_t(s);
                    d_logger->warn("input symbol {} is NaN or Inf: its LLRs, and those of the NaN/Inf "
                                   "symbols right after it, are 0 (tagged gpurx_error)",
                                   d_burst_start);
                    add_item_tag(0, nitems_written(0) + uint64_t(s) * d_bits, d_error_key,
                                 pmt::mp("input symbol is NaN or Inf: its LLRs (and those of the "
                                         "NaN/Inf symbols right after it) are 0"));
                }
                d_burst++;
                continue;
            }
            end_burst();
            // Far beyond the constellation every distance would overflow to
            // Inf and the LLR be Inf - Inf; clamping leaves the sign and
            // ranks of the distances, so the hard decision, unchanged.
            const std::complex<float> v(std::clamp(in[s].real() * inv_gain, -max_abs, max_abs),
                                        std::clamp(in[s].imag() * inv_gain, -max_abs, max_abs));
            d_demap.demap_scaled(v, inv_eff, out);
        }
        return noutput_items;
    }
};
} // namespace

qam_demapper::sptr make_qam_demapper(const qam_demapper_params& p)
{
    return gnuradio::make_block_sptr<qam_demapper_impl>(core::qam::parse_modulation(p.modulation),
                                                        p.noise_var);
}

} // namespace gpurx
} // namespace gr
