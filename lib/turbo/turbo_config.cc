/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/turbo_config.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

void turbo_config::validate() const
{
    if (iterations < 1 || iterations > 16)
        throw std::invalid_argument("iterations must be in 1..16, got " +
                                    std::to_string(iterations));
    if (subblocks < 0 || subblocks > 256)
        throw std::invalid_argument("subblocks must be in 1..256, or 0 for automatic, got " +
                                    std::to_string(subblocks));
    if (guard < 0 || guard > 256)
        throw std::invalid_argument("guard must be in 0..256, got " + std::to_string(guard));
    if (!(fixed_scale > 0.0f && fixed_scale <= 1.0e6f))
        throw std::invalid_argument("fixed_scale must be in (0, 1e6], got " +
                                    std::to_string(fixed_scale));
    if (!(scaling > 0.0f && scaling <= 1.0f))
        throw std::invalid_argument("scaling must be in (0, 1], got " + std::to_string(scaling));
    if (coded_output && uses_fixed_point())
        throw std::invalid_argument("coded_output=true needs float arithmetic (fixed_point=false, or "
                                    "log-map), got fixed_point=true with " +
                                    std::string(turbo::algorithm_name(algorithm)));
}

namespace turbo {

algorithm parse_algorithm(const std::string& name)
{
    if (name == "log-map")
        return LOG_MAP;
    if (name == "max-log-map")
        return MAX_LOG_MAP;
    if (name == "scaled-max-log-map")
        return SCALED_MAX_LOG_MAP;
    throw std::invalid_argument(
        "algorithm must be \"log-map\", \"max-log-map\" or \"scaled-max-log-map\", got \"" +
        name + "\"");
}

early_stop parse_early_stop(const std::string& name)
{
    if (name == "none")
        return early_stop::none;
    if (name == "crc24a")
        return early_stop::crc24a;
    if (name == "crc24b")
        return early_stop::crc24b;
    if (name == "hard-decision")
        return early_stop::hard_decision;
    throw std::invalid_argument("early_termination must be \"none\", \"crc24a\", \"crc24b\" "
                                "or \"hard-decision\", got \"" +
                                name + "\"");
}

const char* algorithm_name(algorithm a)
{
    switch (a) {
    case LOG_MAP:
        return "log-map";
    case MAX_LOG_MAP:
        return "max-log-map";
    default:
        return "scaled-max-log-map";
    }
}

} // namespace turbo
} // namespace core
} // namespace gpurx
} // namespace gr
