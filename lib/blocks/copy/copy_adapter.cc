/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/copy/copy_adapter.h"

#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {

core::copy_config make_copy_config(int vlen, float scale)
{
    if (vlen < 1)
        throw std::invalid_argument("vlen must be in 1..16777216, got " + std::to_string(vlen));
    core::copy_config c;
    c.vlen = size_t(vlen);
    c.scale = scale;
    c.validate();
    return c;
}

copy_adapter::copy_adapter(const core::copy_config& cfg) : d_cfg(cfg) { d_cfg.validate(); }

core::kernel_factories copy_adapter::kernels() const { return core::copy_kernel_factories(d_cfg); }

bool copy_adapter::shape(uint64_t n, frame_shape& out, std::string& why) const
{
    if (n != d_cfg.vlen) {
        why = "length " + std::to_string(n) + " is not vlen=" + std::to_string(d_cfg.vlen);
        return false;
    }
    out.in_items = n;
    out.out_bytes = n * sizeof(float);
    return true;
}

bool copy_adapter::stage(const frame_shape&, const uint8_t* src, size_t, size_t n, uint8_t* dst, std::string&) const
{
    std::memcpy(dst, src, n * sizeof(float));
    return true;
}

bool copy_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    if (!pmt::is_f32vector(vec)) {
        why = "not a PDU of float32";
        return false;
    }
    items = reinterpret_cast<const uint8_t*>(pmt::f32vector_elements(vec, n));
    return true;
}

pmt::pmt_t copy_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_f32vector(f.out_bytes / sizeof(float), reinterpret_cast<const float*>(f.data));
}

} // namespace gpurx
} // namespace gr
