/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/viterbi/viterbi_stream_adapter.h"
#include "blocks/drivers/llr_staging.h"

#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace {
// A frame carries up to this many payload steps: large enough that the
// per-frame costs vanish, small enough for modest staging at max_batch=64.
constexpr int frame_payload_steps = 65536;
const char* not_framed = "the stream decoder cuts its own frames";
} // namespace

core::viterbi_stream_config make_viterbi_stream_config(int K,
                                                       const std::vector<int>& polys,
                                                       int traceback,
                                                       int chunk,
                                                       bool gr_fec_order,
                                                       const std::vector<int>& puncture)
{
    core::viterbi_stream_config c;
    c.K = K;
    c.polynomials.clear();
    for (int p : polys) {
        if (p < 0)
            throw std::invalid_argument("polys must be non-negative, got " + std::to_string(p));
        c.polynomials.push_back(unsigned(p));
    }
    c.traceback = traceback;
    c.chunk = chunk;
    c.gr_fec_order = gr_fec_order;
    c.puncture = puncture;
    c.frame_windows = chunk >= 1 ? std::max(1, frame_payload_steps / chunk) : 1;
    try {
        c.validate();
    } catch (const std::invalid_argument& e) {
        // The core says "polynomials"; the block's parameter is "polys".
        std::string m = e.what();
        for (size_t p = m.find("polynomials"); p != std::string::npos; p = m.find("polynomials", p))
            m.replace(p, 11, "polys");
        throw std::invalid_argument(m);
    }
    // A bit's coded bits span its own step and the K-1 after it: a window
    // that looks fewer steps beyond its last decision decides that bit
    // without all of them (traceback 0 at chunk 1: a BER of 0.5). The core
    // takes any depth (its tests compare every one with a reference); the
    // block refuses what cannot decode well. 5 (K-1) reaches full-frame BER.
    if (traceback < K - 1)
        throw std::invalid_argument("traceback must be at least K-1 = " + std::to_string(K - 1) +
                                    " trellis steps (a bit's coded bits span K steps; 5 (K-1) = " +
                                    std::to_string(5 * (K - 1)) +
                                    " decodes as well as a whole frame), got " + std::to_string(traceback));
    return c;
}

viterbi_stream_adapter::viterbi_stream_adapter(const core::viterbi_stream_config& cfg,
                                               core::viterbi::input_kind input)
    : d_cfg(cfg),
      d_code(cfg.code()),
      d_input(input),
      d_choice(core::choose_viterbi_stream_implementation(cfg)),
      d_framer(cfg, input)
{
}

core::kernel_factories viterbi_stream_adapter::kernels() const
{
    return core::viterbi_stream_kernel_factories(d_cfg, d_choice);
}

size_t viterbi_stream_adapter::max_in_items() const
{
    return size_t(d_code.n()) * size_t(d_cfg.max_frame_steps());
}

bool viterbi_stream_adapter::shape(uint64_t, frame_shape&, std::string& why) const
{
    why = not_framed;
    return false;
}

bool viterbi_stream_adapter::stage(const frame_shape&, const uint8_t*, size_t, size_t, uint8_t*, std::string& why) const
{
    why = not_framed;
    return false;
}

bool viterbi_stream_adapter::pdu_items(const pmt::pmt_t&, const uint8_t*&, size_t&, std::string& why) const
{
    why = not_framed;
    return false;
}

void viterbi_stream_adapter::relative_rate(uint64_t& num, uint64_t& den) const
{
    // Output bits per input item: steps per period / kept items per period.
    const size_t period = d_code.puncture().size() / size_t(d_code.n());
    num = uint64_t(period);
    den = uint64_t(core::stream_coded_items(d_code, 0, long(period)));
}

void viterbi_stream_adapter::append(const uint8_t* items, size_t n, const gr::logger_ptr& logger)
{
    if (d_input != core::viterbi::INPUT_SOFT) {
        d_framer.append(items, n);
        return;
    }
    const auto* x = reinterpret_cast<const float*>(items);
    d_clean.resize(n);
    if (!stage_finite_llrs(x, n, d_clean.data())) {
        for (size_t i = 0; i < n; i++)
            if (!std::isfinite(x[i])) {
                if (d_nonfinite == 0)
                    logger->warn("LLR {} of the stream is NaN or Inf: such LLRs are decoded as 0 "
                                 "(no information); later ones are counted (nonfinite_llrs()), "
                                 "not logged",
                                 d_framer.items_received() + i);
                d_clean[i] = 0.0f;
                d_nonfinite++;
            }
    }
    d_framer.append(reinterpret_cast<const uint8_t*>(d_clean.data()), n);
}

bool viterbi_stream_adapter::next(bool at_end, frame& f)
{
    if (!d_framer.next(at_end, d_frame))
        return false;
    f.data = d_frame.data;
    f.bytes = d_frame.bytes;
    f.out_bytes = size_t(d_frame.params.payload);
    f.params = &d_frame.params;
    return true;
}

std::string viterbi_stream_adapter::cut_at_end_reason(size_t items) const
{
    return "the stream ended " + std::to_string(items) +
           " item(s) into a trellis step: those items are dropped, not decoded";
}

bool viterbi_stream_adapter::decoded(const core::completed_frame& f) const
{
    return f.result_as<core::viterbi::stream_frame_result>()->status == core::viterbi::FRAME_DECODED;
}

} // namespace gpurx
} // namespace gr
