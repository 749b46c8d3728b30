/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/idd/idd_adapter.h"
#include "blocks/mimo/bounded_copy.h"
#include "idd/idd_implementations.h"
#include "mimo/mimo_frame.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace {
using core::idd::frame_params;
} // namespace

idd_adapter::idd_adapter(const core::mimo_idd_config& cfg, const frame_params& tb) : d_cfg(cfg), d_tb(tb)
{
    d_choice = core::choose_idd_implementation(d_cfg); // throws naming implementation
    d_cfg.validate();
    const std::string why = core::idd::frame_problem(d_tb, d_cfg);
    if (!why.empty())
        throw std::invalid_argument(why);
}

core::kernel_factories idd_adapter::kernels() const { return core::idd_kernel_factories(d_cfg, d_choice); }

bool idd_adapter::shape(uint64_t n, frame_shape& out, std::string& why) const
{
    if (n != frame_items()) {
        why = "length " + std::to_string(n) + " is not a TB's " + std::to_string(frame_items()) + " complex items";
        return false;
    }
    out.set_params(d_tb);
    out.in_items = n;
    out.out_bytes = core::idd::out_bytes(d_tb);
    return true;
}

bool idd_adapter::stage(const frame_shape& shape,
                        const uint8_t* src,
                        size_t first,
                        size_t n,
                        uint8_t* dst,
                        std::string& why) const
{
    const auto p = shape.params_as<frame_params>();
    const double limit = core::mimo::max_input_component(p.det);
    const auto* s = reinterpret_cast<const float*>(src);
    auto* d = reinterpret_cast<float*>(dst) + 2 * first;
    const size_t bad = copy_bounded(s, 2 * n, limit, d);
    if (bad < 2 * n) {
        char v[200];
        std::snprintf(v, sizeof v,
                      "complex item %zu of the TB is %g: NaN, Inf, or beyond +-%.3g at N0 = %g (the LLRs "
                      "would leave float's range)",
                      first + bad / 2, double(s[bad]), limit, double(p.det.n0));
        why = v;
        return false;
    }
    return true;
}

stream_layout idd_adapter::stream_ports(const frame_shape& shape) const
{
    const auto p = shape.params_as<frame_params>();
    const size_t C = size_t(p.det.channels), V = size_t(p.det.vectors);
    stream_layout l;
    l.inputs.push_back({ size_t(p.det.nr) * 2 * sizeof(float), C * V });             // y
    l.inputs.push_back({ size_t(p.det.nr) * p.det.nt * 2 * sizeof(float), C });      // H
    l.inputs.push_back({ sizeof(float), C });                                        // N0
    l.out_items_per_frame = size_t(p.tb.tbs);
    return l;
}

bool idd_adapter::stream_frame(const uint8_t* const* ports, frame_shape& shape, std::string& why) const
{
    float n0;
    std::memcpy(&n0, ports[2], sizeof n0);
    if (!(n0 >= core::mimo::min_noise_variance && n0 <= core::mimo::max_noise_variance)) {
        char v[32];
        std::snprintf(v, sizeof v, "%g", double(n0));
        why = std::string("N0 input of the TB's first channel must be in 1e-20..1e20, got ") + v;
        return false;
    }
    auto p = shape.params_as<frame_params>();
    p.det.n0 = n0;
    shape.set_params(p);
    return true;
}

bool idd_adapter::stage_stream(const frame_shape& shape,
                               const uint8_t* const* ports,
                               uint8_t* dst,
                               std::string& why) const
{
    // Frame order: per channel its H (port 1), then its vectors (port 0).
    const auto p = shape.params_as<frame_params>();
    const size_t h = size_t(p.det.nr) * p.det.nt, y = size_t(p.det.vectors) * p.det.nr;
    const size_t per = h + y; // complex items per channel
    for (int c = 0; c < p.det.channels; c++) {
        const size_t at = size_t(c) * per;
        if (!stage(shape, ports[1] + size_t(c) * h * 8, at, h, dst, why) ||
            !stage(shape, ports[0] + size_t(c) * y * 8, at + h, y, dst, why))
            return false;
    }
    return true;
}

void idd_adapter::describe(const core::completed_frame& f, frame_meta& meta) const
{
    const auto* r = f.result_as<core::idd::frame_result>();
    if (!r)
        return;
    meta.emplace_back(pmt::mp("crc_ok"), pmt::from_bool(r->tb.crc_ok == 1));
    meta.emplace_back(pmt::mp("passes"), pmt::from_long(r->passes));
    meta.emplace_back(pmt::mp("pass_crc"), pmt::from_long(r->pass_crc));
    meta.emplace_back(pmt::mp("iterations"), pmt::from_long(r->tb.iterations));
    if (r->tb.uninformed) // the detector gave too few non-zero LLRs (H = 0, say)
        meta.emplace_back(pmt::mp("no_information"), pmt::from_long(r->tb.uninformed));
    if (r->det_status != core::mimo::STATUS_OK)
        meta.emplace_back(pmt::mp("detector_status"), pmt::from_long(r->det_status));
}

bool idd_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    if (!pmt::is_c32vector(vec)) {
        why = "not a PDU of complex float (c32vector) items: per channel H, then its vectors";
        return false;
    }
    items = reinterpret_cast<const uint8_t*>(pmt::c32vector_elements(vec, n));
    return true;
}

pmt::pmt_t idd_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_u8vector(f.out_bytes, f.data);
}

} // namespace gpurx
} // namespace gr
