/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The copy family's face to the shared drivers: a frame is vlen floats,
// copied out scaled; no records, nothing to describe.
#ifndef INCLUDED_GPURX_BLOCKS_COPY_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_COPY_ADAPTER_H

#include "blocks/drivers/frame_adapter.h"
#include "copy/copy_kernel.h"

namespace gr {
namespace gpurx {

//! The copy's options from block parameters; throws naming the parameter.
core::copy_config make_copy_config(int vlen, float scale);

class copy_adapter final : public frame_adapter
{
public:
    explicit copy_adapter(const core::copy_config& cfg);

    core::frame_types types() const override { return {}; }
    core::kernel_factories kernels() const override;
    size_t in_item_bytes() const override { return sizeof(float); }
    size_t out_item_bytes() const override { return sizeof(float); }
    size_t max_in_items() const override { return d_cfg.vlen; }
    size_t max_out_bytes() const override { return d_cfg.vlen * sizeof(float); }
    bool shape(uint64_t n, frame_shape& out, std::string& why) const override;
    bool stage(const frame_shape&, const uint8_t* src, size_t, size_t n, uint8_t* dst, std::string&) const override;
    void describe(const core::completed_frame&, frame_meta&) const override {}
    bool pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const override;
    pmt::pmt_t pdu_output(const core::completed_frame& f) const override;

private:
    core::copy_config d_cfg;
};

} // namespace gpurx
} // namespace gr

#endif
