/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.batch_copy: the copy family on the shared stream driver.
#include "blocks/driver_blocks.h"
#include "copy/copy_kernel.h"
#include <gnuradio/gpurx/batch_copy.h>

#include <cstring>

namespace gr {
namespace gpurx {

namespace {
// A frame is vlen floats, copied out scaled; no records, nothing to describe.
class copy_adapter final : public frame_adapter
{
public:
    explicit copy_adapter(const core::copy_config& cfg) : d_cfg(cfg) { d_cfg.validate(); }
    core::frame_types types() const override { return {}; }
    core::kernel_factories kernels() const override { return core::copy_kernel_factories(d_cfg); }
    size_t in_item_bytes() const override { return sizeof(float); }
    size_t out_item_bytes() const override { return sizeof(float); }
    size_t max_in_items() const override { return d_cfg.vlen; }
    size_t max_out_bytes() const override { return d_cfg.vlen * sizeof(float); }
    bool shape(uint64_t n, frame_shape& out, std::string& why) const override
    {
        if (n != d_cfg.vlen) {
            why = "length " + std::to_string(n) + " is not vlen=" + std::to_string(d_cfg.vlen);
            return false;
        }
        out.in_items = n;
        out.out_bytes = n * sizeof(float);
        return true;
    }
    bool stage(const frame_shape&, const uint8_t* src, size_t, size_t n, uint8_t* dst, std::string&) const override
    {
        std::memcpy(dst, src, n * sizeof(float));
        return true;
    }
    void describe(const core::completed_frame&, frame_meta&) const override {}
    bool pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const override
    {
        if (!pmt::is_f32vector(vec)) {
            why = "not a PDU of float32";
            return false;
        }
        items = reinterpret_cast<const uint8_t*>(pmt::f32vector_elements(vec, n));
        return true;
    }
    pmt::pmt_t pdu_output(const core::completed_frame& f) const override
    {
        return pmt::init_f32vector(f.out_bytes / sizeof(float), reinterpret_cast<const float*>(f.data));
    }

private:
    core::copy_config d_cfg;
};

core::copy_config copy_config_of(int vlen, float scale)
{
    if (vlen < 1)
        throw std::invalid_argument("vlen must be in 1..16777216, got " + std::to_string(vlen));
    core::copy_config c;
    c.vlen = size_t(vlen);
    c.scale = scale;
    c.validate();
    return c;
}
} // namespace

batch_copy::sptr batch_copy::make(int vlen, float scale, const pipeline_options& options)
{
    const core::copy_config cfg = copy_config_of(vlen, scale);
    return gnuradio::make_block_sptr<stream_block<batch_copy, copy_adapter>>(
        "batch_copy", copy_adapter(cfg), cfg.vlen, options);
}

} // namespace gpurx
} // namespace gr
