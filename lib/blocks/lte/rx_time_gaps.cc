/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/lte/rx_time_gaps.h"

#include <cmath>
#include <cstdio>

namespace gr {
namespace gpurx {

rx_time_gaps::rx_time_gaps(double sample_rate, double max_gap_s, double tolerance)
    : d_rate(sample_rate), d_max_gap_s(max_gap_s), d_tolerance(tolerance)
{
}

bool rx_time_gaps::time_of(const pmt::pmt_t& v, double& whole, double& frac)
{
    if (pmt::is_tuple(v) && pmt::length(v) == 2) {
        const pmt::pmt_t w = pmt::tuple_ref(v, 0), f = pmt::tuple_ref(v, 1);
        if (!pmt::is_number(w) || !pmt::is_number(f))
            return false;
        whole = pmt::is_uint64(w) ? double(pmt::to_uint64(w)) : pmt::to_double(w);
        frac = pmt::to_double(f);
    } else if (pmt::is_number(v) && !pmt::is_complex(v)) {
        whole = 0.0;
        frac = pmt::to_double(v);
    } else {
        return false;
    }
    return std::isfinite(whole) && std::isfinite(frac);
}

rx_time_event rx_time_gaps::on_tag(uint64_t offset, double whole, double frac)
{
    rx_time_event e;
    if (d_have) {
        // Whole seconds and fractions apart: a double of a device time
        // since 1970 would keep only ~100 ns.
        const double expected = double(offset - d_offset) / d_rate;
        const double elapsed = (whole - d_whole) + (frac - d_frac);
        e.jump_s = elapsed - expected;
        const double samples = e.jump_s * d_rate;
        char buf[160];
        if (samples > d_tolerance && e.jump_s <= d_max_gap_s) {
            e.kind = rx_time_event::gap;
            e.lost = uint64_t(std::llround(samples));
            std::snprintf(buf, sizeof buf, "%llu samples (%.6f s) lost before stream item %llu",
                          (unsigned long long)e.lost, e.jump_s, (unsigned long long)offset);
            e.why = buf;
        } else if (samples > d_tolerance) {
            e.kind = rx_time_event::restart;
            std::snprintf(buf, sizeof buf, "the stream time jumps %.3f s ahead at stream item %llu", e.jump_s,
                          (unsigned long long)offset);
            e.why = buf;
        } else if (samples < -d_tolerance) {
            e.kind = rx_time_event::restart;
            std::snprintf(buf, sizeof buf, "the stream time goes back %.6f s at stream item %llu", -e.jump_s,
                          (unsigned long long)offset);
            e.why = buf;
        }
    }
    d_have = true;
    d_offset = offset;
    d_whole = whole;
    d_frac = frac;
    return e;
}

} // namespace gpurx
} // namespace gr
