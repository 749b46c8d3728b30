/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/mimo_frame.h"

#include <algorithm>
#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

frame_params frame_params_for(const mimo_config& cfg, int vectors, float n0, int channels)
{
    return { int32_t(cfg.nt),
             int32_t(cfg.nr),
             int32_t(cfg.bits_per_symbol()),
             int32_t(vectors),
             n0 < 0.0f ? cfg.noise_variance : n0,
             int32_t(cfg.apriori ? 1 : 0),
             int32_t(channels) };
}

double max_input_component(const frame_params& p)
{
    // |y - H s| <= |y| + sum_t |H_rt| |s_t| <= A (1 + nt smax) per antenna
    // when every |entry| <= A; the metric is then at most nr A^2 (1 + nt
    // smax)^2, which must not pass max_metric x min(1, N0). A component
    // bound of A / sqrt(2) keeps |entry| <= A.
    double smax = 0.0;
    for (const auto& q : constellation_of(modulation(p.bits_per_symbol)).points)
        smax = std::max(smax, std::abs(q));
    const double budget = max_metric * std::min(1.0, double(p.n0));
    const double a = std::sqrt(budget / p.nr) / (1.0 + p.nt * smax);
    return a / std::sqrt(2.0);
}

std::string frame_problem(const frame_params& p, algorithm a, int max_channels)
{
    if (p.nt < 1 || p.nt > max_antennas)
        return "nt must be in 1..8, got " + std::to_string(p.nt);
    if (p.nr < p.nt || p.nr > max_antennas)
        return "nr must be in nt..8, got " + std::to_string(p.nr);
    if (p.bits_per_symbol != 2 && p.bits_per_symbol != 4 && p.bits_per_symbol != 6 &&
        p.bits_per_symbol != 8)
        return "bits_per_symbol must be 2, 4, 6 or 8, got " +
               std::to_string(p.bits_per_symbol);
    if (p.vectors < 1)
        return "vectors must be at least 1, got " + std::to_string(p.vectors);
    if (!(p.n0 >= min_noise_variance && p.n0 <= max_noise_variance))
        return "n0 must be in 1e-20..1e20, got " + std::to_string(p.n0);
    if (p.apriori != 0 && p.apriori != 1)
        return "apriori must be 0 or 1, got " + std::to_string(p.apriori);
    if (p.channels < 1 || p.channels > max_channels)
        return "channels must be in 1.." + std::to_string(max_channels) + " (max_channels), got " +
               std::to_string(p.channels);
    const std::string shape = unsupported_shape(a, p.nt, modulation(p.bits_per_symbol));
    return shape.empty() ? "" : "nt: " + shape;
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
