/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/chanest_config.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
std::string problem_text(const chanest_frame_params& p, int code, size_t max_work)
{
    switch (code) {
    case 0:
        return "";
    case 1:
        return "nt must be 1, 2, 4 or 8 (a Hadamard order), got " + std::to_string(p.nt);
    case 2:
        return "nr must be in 1..8, got " + std::to_string(p.nr);
    case 3:
        return "used subcarriers must be in 1..65536, got " + std::to_string(p.used);
    case 4:
        return "training repeats must be in 1..16, got " + std::to_string(p.repeats);
    case 5:
        return "data_symbols must be in 0..4096, got " + std::to_string(p.data_symbols);
    case 6:
        return "group must divide the used subcarriers (" + std::to_string(p.used) + "), got " +
               std::to_string(p.group);
    case 7:
        return "a frame of " + std::to_string(chanest_in_bytes(p)) + " input bytes and " +
               std::to_string(chanest_out_bytes(p)) + " output bytes: at most 2^32 - 1 each "
               "(fewer data_symbols or used subcarriers)";
    default:
        return "a frame of used * nr * nt = " + std::to_string(chanest_work_values(p)) +
               " estimates, more than the kernel's configuration holds (" + std::to_string(max_work) + ")";
    }
}
} // namespace

chanest_frame_params chanest_config::frame_params() const
{
    return { nt, nr, used, repeats, data_symbols, group };
}

void chanest_config::validate() const
{
    const chanest_frame_params p = frame_params();
    const int code = chanest_problem_code(p, 0);
    if (code != 0)
        throw std::invalid_argument(problem_text(p, code, 0));
}

std::string chanest_frame_problem(const chanest_frame_params& p, const chanest_config& cfg)
{
    const size_t max_work = cfg.max_work();
    return problem_text(p, chanest_problem_code(p, max_work), max_work);
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
