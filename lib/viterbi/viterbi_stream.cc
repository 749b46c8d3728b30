/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_stream.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

viterbi_code viterbi_stream_config::code() const
{
    return viterbi_code(K, polynomials,
                        gr_fec_order ? viterbi::polynomial_order::gr_fec : viterbi::polynomial_order::msb_current,
                        viterbi::termination::truncated, puncture);
}

void viterbi_stream_config::validate() const
{
    (void)code();
    if (traceback < 0 || traceback > max_traceback)
        throw std::invalid_argument("traceback must be in 0.." + std::to_string(max_traceback) +
                                    " trellis steps, got " + std::to_string(traceback));
    if (chunk < 1 || chunk > max_chunk)
        throw std::invalid_argument("chunk must be in 1.." + std::to_string(max_chunk) +
                                    " trellis steps, got " + std::to_string(chunk));
    if (frame_windows < 1 || frame_windows > max_frame_windows)
        throw std::invalid_argument("frame_windows must be in 1.." + std::to_string(max_frame_windows) +
                                    ", got " + std::to_string(frame_windows));
    const long steps = long(frame_windows) * chunk + 2L * traceback;
    if (steps > max_frame_steps_limit)
        throw std::invalid_argument("frame_windows x chunk + 2 x traceback must be at most " +
                                    std::to_string(max_frame_steps_limit) + " trellis steps, got " +
                                    std::to_string(frame_windows) + " x " + std::to_string(chunk) +
                                    " + 2 x " + std::to_string(traceback));
}

size_t stream_coded_items(const viterbi_code& code, int phase, long steps)
{
    const auto& pat = code.puncture();
    const int n = code.n();
    const long period = long(pat.size()) / n;
    size_t kept_per_period = 0;
    for (int v : pat)
        kept_per_period += size_t(v);
    size_t items = size_t(steps / period) * kept_per_period;
    for (long t = 0; t < steps % period; t++)
        for (int i = 0; i < n; i++)
            items += size_t(pat[size_t(((phase + t) % period) * n + i)]);
    return items;
}

std::string stream_frame_problem(const viterbi_stream_config& cfg,
                                 const viterbi_code& code,
                                 const viterbi::stream_frame_params& p,
                                 const frame_desc& fd)
{
    const int period = int(code.puncture().size()) / code.n();
    if (p.input != viterbi::INPUT_SOFT && p.input != viterbi::INPUT_HARD && p.input != viterbi::INPUT_INT8)
        return "unknown input kind " + std::to_string(p.input);
    if (p.steps < 1 || p.steps > cfg.max_frame_steps())
        return "steps " + std::to_string(p.steps) + " outside 1.." + std::to_string(cfg.max_frame_steps());
    if (p.payload < 1 || p.payload_begin < 0 || p.payload_begin > p.steps - p.payload)
        return "payload [" + std::to_string(p.payload_begin) + ", +" + std::to_string(p.payload) +
               ") outside the frame's " + std::to_string(p.steps) + " steps";
    if (viterbi::stream_windows_of(p, cfg.chunk) > cfg.frame_windows)
        return "more than frame_windows=" + std::to_string(cfg.frame_windows) + " windows";
    if (p.phase < 0 || p.phase >= period)
        return "puncture phase " + std::to_string(p.phase) + " outside 0.." + std::to_string(period - 1);
    const size_t in_bytes =
        stream_coded_items(code, p.phase, p.steps) * stream_item_bytes(viterbi::input_kind(p.input));
    if (fd.in_bytes != in_bytes)
        return "input of " + std::to_string(fd.in_bytes) + " bytes, " + std::to_string(in_bytes) + " expected";
    if (fd.out_bytes != uint32_t(p.payload))
        return "output of " + std::to_string(fd.out_bytes) + " bytes for " + std::to_string(p.payload) +
               " payload steps";
    return "";
}

} // namespace core
} // namespace gpurx
} // namespace gr
