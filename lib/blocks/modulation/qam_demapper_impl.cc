/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.qam_demapper: max-log soft demapping of the 36.211 constellations.
//
// They are product sets: the in-phase part of a point depends only on bits
// b(0), b(2), b(4), ..., the quadrature part only on b(1), b(3), .... The
// 2-D minimum over points with b(i)=x therefore splits into the axis of bit
// i (constrained) plus the other axis (unconstrained), and the latter cancels
// in the LLR: each bit needs only sqrt(Q) one-dimensional distances, not Q.
// The axis tables are derived from the shared constellation (mimo/qam.h) and
// the product structure is checked at construction, so the shortcut cannot
// silently disagree with the full 2-D max-log.
#include "mimo/mimo_config.h"
#include "mimo/qam.h"
#include <gnuradio/gpurx/qam_demapper.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
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
struct axis {
    std::vector<float> level;
    std::vector<unsigned> bits; // bit j of the axis (the symbol's bit 2j or 2j+1) at bit j
};

class qam_demapper_impl final : public qam_demapper
{
    int d_bits;
    axis d_axis[2]; // in-phase, quadrature
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
    qam_demapper_impl(core::mimo::modulation m, float n0)
        : gr::sync_interpolator("qam_demapper",
                                gr::io_signature::make(1, 1, sizeof(gr_complex)),
                                gr::io_signature::make(1, 1, sizeof(float)),
                                unsigned(core::mimo::bits_per_symbol(m))),
          d_bits(core::mimo::bits_per_symbol(m)),
          d_n0(n0)
    {
        check_noise_var(n0);
        const auto& c = core::mimo::constellation_of(m);
        std::map<double, unsigned> seen[2];
        for (size_t q = 0; q < c.points.size(); q++) {
            unsigned ab[2] = { 0, 0 };
            for (int i = 0; i < d_bits; i++) // b(0) is the index's most significant bit
                ab[i & 1] |= ((q >> (d_bits - 1 - i)) & 1u) << (i >> 1);
            const double v[2] = { c.points[q].real(), c.points[q].imag() };
            for (int a = 0; a < 2; a++) {
                const auto it = seen[a].emplace(v[a], ab[a]).first;
                if (it->second != ab[a])
                    throw std::logic_error("qam_demapper: the constellation is not a product of its axes");
            }
        }
        for (int a = 0; a < 2; a++)
            for (const auto& kv : seen[a]) {
                d_axis[a].level.push_back(float(kv.first));
                d_axis[a].bits.push_back(kv.second);
            }
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
        constexpr float inf = std::numeric_limits<float>::infinity();
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
            const float v[2] = { std::clamp(in[s].real() * inv_gain, -max_abs, max_abs),
                                 std::clamp(in[s].imag() * inv_gain, -max_abs, max_abs) };
            for (int a = 0; a < 2; a++) {
                const axis& ax = d_axis[a];
                const int axis_bits = d_bits / 2;
                float m0[4] = { inf, inf, inf, inf }, m1[4] = { inf, inf, inf, inf };
                for (size_t l = 0; l < ax.level.size(); l++) {
                    const float d = (v[a] - ax.level[l]) * (v[a] - ax.level[l]);
                    for (int j = 0; j < axis_bits; j++) {
                        float& m = ((ax.bits[l] >> j) & 1u) ? m1[j] : m0[j];
                        m = std::min(m, d);
                    }
                }
                for (int j = 0; j < axis_bits; j++)
                    out[2 * j + a] = (m0[j] - m1[j]) * inv_eff;
            }
        }
        return noutput_items;
    }
};
} // namespace

qam_demapper::sptr qam_demapper::make(const std::string& modulation, float noise_var)
{
    return gnuradio::make_block_sptr<qam_demapper_impl>(core::mimo::parse_modulation(modulation),
                                                        noise_var);
}

} // namespace gpurx
} // namespace gr
