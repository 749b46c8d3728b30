/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/turbo_adapter.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_frame.h"

#include <algorithm>
#include <cmath>

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

turbo_adapter::turbo_adapter(const core::turbo_config& cfg) : d_cfg(cfg)
{
    d_cfg.validate();
    d_choice = core::choose_turbo_implementation(d_cfg);
}

core::frame_types turbo_adapter::types() const { return core::turbo::frame_types_of(); }

core::kernel_factories turbo_adapter::kernels() const
{
    return core::turbo_kernel_factories(d_cfg, d_choice);
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
    out.set_params(core::turbo::frame_params_for(K));
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
    if (!pmt::is_f32vector(vec)) {
        why = "not a PDU of float32 LLRs";
        return false;
    }
    items = reinterpret_cast<const uint8_t*>(pmt::f32vector_elements(vec, n));
    return true;
}

pmt::pmt_t turbo_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_u8vector(f.out_bytes, f.data);
}

} // namespace gpurx
} // namespace gr
