/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The IDD receiver's adapter to the shared stream driver: a frame is one TB
// of fixed parameters (mimo_idd_decoder.api.yml says what
// the ports carry); its input area is lib/idd/idd_frame.h's (per channel H,
// then its vectors), its output the TB's bits.
#ifndef INCLUDED_GPURX_BLOCKS_IDD_IDD_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_IDD_IDD_ADAPTER_H

#include "blocks/drivers/frame_adapter.h"
#include "idd/idd_config.h"
#include "idd/idd_frame.h"

namespace gr {
namespace gpurx {

class idd_adapter final : public frame_adapter
{
public:
    //! \p tb: the TB every frame carries (det.n0 is each frame's own).
    idd_adapter(const core::mimo_idd_config& cfg, const core::idd::frame_params& tb);

    core::frame_types types() const override { return core::idd::frame_types_of(); }
    core::kernel_factories kernels() const override;
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override { return 2 * sizeof(float); }
    size_t out_item_bytes() const override { return 1; }
    size_t max_in_items() const override { return frame_items(); }
    size_t max_out_bytes() const override { return core::idd::out_bytes(d_tb); }
    bool shape(uint64_t n_items, frame_shape& out, std::string& why) const override;
    bool stage(const frame_shape& shape,
               const uint8_t* src,
               size_t first,
               size_t n,
               uint8_t* dst,
               std::string& why) const override;
    stream_layout stream_ports(const frame_shape& shape) const override;
    bool stream_frame(const uint8_t* const* ports, frame_shape& shape, std::string& why) const override;
    bool stage_stream(const frame_shape& shape,
                      const uint8_t* const* ports,
                      uint8_t* dst,
                      std::string& why) const override;
    void describe(const core::completed_frame& frame, frame_meta& meta) const override;
    bool pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const override;
    pmt::pmt_t pdu_output(const core::completed_frame& frame) const override;

    //! Complex items of a frame's input area.
    size_t frame_items() const { return core::idd::in_bytes(d_tb) / (2 * sizeof(float)); }

private:
    core::mimo_idd_config d_cfg;
    core::idd::frame_params d_tb;
    core::implementation_choice d_choice;
};

} // namespace gpurx
} // namespace gr

#endif
