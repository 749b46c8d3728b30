/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/llr_staging.h"
#include "blocks/turbo/turbo_adapter.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_frame.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {

core::turbo_config make_turbo_config(int iterations,
                                     const std::string& algorithm,
                                     int subblocks,
                                     float scaling,
                                     const std::string& early_termination)
{
    core::turbo_config c;
    c.algorithm = core::turbo::parse_algorithm(algorithm);
    c.iterations = iterations;
    c.subblocks = subblocks;
    c.scaling = scaling;
    c.stop = core::turbo::parse_early_stop(early_termination);
    c.validate();
    return c;
}

core::turbo::input_kind parse_turbo_input(const std::string& input)
{
    if (input == "soft")
        return core::turbo::INPUT_FLOAT32;
    if (input == "int8")
        return core::turbo::INPUT_INT8;
    throw std::invalid_argument("input must be \"soft\" (float32 LLRs) or \"int8\" (LLR x 8 in a char), got \"" +
                                input + "\"");
}

turbo_adapter turbo_decoder_args::adapter(deployment d, const pipeline_options&) const
{
    if (d == deployment::stream)
        core::lte_qpp(K); // throws, naming K, for sizes outside Table 5.1.3-3
    return turbo_adapter(make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination),
                         parse_turbo_input(input));
}

turbo_adapter::turbo_adapter(const core::turbo_config& cfg, core::turbo::input_kind input)
    : d_cfg(cfg), d_input(input)
{
    d_cfg.validate();
    // The fixed-point decoders take int8 values as their own steps; the
    // float ones (log-MAP) scale them by turbo_int8_llr_unit: both then see
    // the same LLRs.
    if (d_input == core::turbo::INPUT_INT8 && d_cfg.fixed_scale * turbo_int8_llr_unit != 1.0f)
        throw std::logic_error("turbo_adapter: int8 unit and fixed-point scale disagree");
    d_choice = core::choose_turbo_implementation(d_cfg);
}

core::frame_types turbo_adapter::types() const { return core::turbo::frame_types_of(); }

core::kernel_factories turbo_adapter::kernels() const
{
    return core::turbo_kernel_factories(d_cfg, d_choice, turbo_int8_llr_unit);
}

size_t turbo_adapter::max_in_items() const { return 3 * size_t(core::lte_max_K) + 12; }
size_t turbo_adapter::max_out_bytes() const { return core::lte_max_K; }

bool turbo_adapter::shape(uint64_t n, frame_shape& out, std::string& why) const
{
    const int K = n <= max_in_items() ? core::lte_K_from_codeword_length(long(n)) : 0;
    if (K == 0) {
        why = "length " + std::to_string(n) +
              " is not 3K+12 for an LTE block size K (36.212 Table 5.1.3-3: K = 40..6144, "
              "codewords of 132..18444 LLRs)";
        return false;
    }
    out.set_params(core::turbo::frame_params_for(K, d_input));
    out.in_items = n;
    out.out_bytes = size_t(K);
    return true;
}

bool turbo_adapter::stage(const frame_shape&,
                          const uint8_t* src,
                          size_t first,
                          size_t n,
                          uint8_t* dst,
                          std::string& why) const
{
    if (d_input == core::turbo::INPUT_INT8) {
        // Every int8 value is a valid LLR (-128 saturates to -127 in the decoder).
        std::memcpy(dst, src, n);
        return true;
    }
    return stage_llrs(src, first, n, dst, why);
}

void turbo_adapter::describe(const core::completed_frame& f, frame_meta& meta) const
{
    const auto* r = f.result_as<core::turbo::frame_result>();
    meta.emplace_back(pmt::mp("K"), pmt::from_long(long(f.out_bytes)));
    meta.emplace_back(pmt::mp("iterations"), pmt::from_long(r->iterations));
    if (r->check >= 0)
        meta.emplace_back(pmt::mp("crc_ok"), pmt::from_bool(r->check == 1));
}

bool turbo_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    return pdu_llr_items(vec, d_input == core::turbo::INPUT_INT8, items, n, why);
}

pmt::pmt_t turbo_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_u8vector(f.out_bytes, f.data);
}

} // namespace gpurx
} // namespace gr
