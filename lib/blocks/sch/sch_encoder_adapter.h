/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared-channel encoder's adapter to the shared PDU and tagged
// drivers, on the CPU (core::sch::sch_encoder as a pipeline kernel): a
// frame is one transport block's tbs bits (0/1) with its metadata
// (sch_metadata.h, "g" included); its output the G scrambled codeword bits
// (0/1) in transmission order. Nothing is added to the metadata: it passes
// through (the tagged form: the packet's tags go on with its output).
#ifndef INCLUDED_GPURX_BLOCKS_SCH_SCH_ENCODER_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_SCH_SCH_ENCODER_ADAPTER_H

#include "blocks/drivers/deployment_args.h"
#include "blocks/drivers/frame_adapter.h"
#include "lte_sch_encoder_params.h"
#include "sch/sch_frame.h"

#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

class sch_encoder_adapter final : public frame_adapter
{
public:
    //! Throws std::invalid_argument naming max_tbs or max_g when out of range.
    sch_encoder_adapter(core::sch::channel_kind channel, int max_tbs, int max_g);

    //! The pipeline every encoder block runs: the CPU, one TB per batch,
    //! launched at once (an encoder has nothing to wait for).
    static pipeline_options options();

    core::frame_types types() const override;
    core::kernel_factories kernels() const override;
    size_t in_item_bytes() const override { return 1; }
    size_t out_item_bytes() const override { return 1; }
    size_t max_in_items() const override { return size_t(d_max_tbs); }
    size_t max_out_bytes() const override { return size_t(d_max_g); }
    bool shape(uint64_t n_items, frame_shape& out, std::string& why) const override;
    bool uses_frame_metadata() const override { return true; }
    bool shape_frame(uint64_t n_items, const pmt::pmt_t& meta, frame_shape& out, std::string& why) const override;
    bool stage(const frame_shape& shape,
               const uint8_t* src,
               size_t first,
               size_t n,
               uint8_t* dst,
               std::string& why) const override;
    void describe(const core::completed_frame&, frame_meta&) const override {}
    bool pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const override;
    pmt::pmt_t pdu_output(const core::completed_frame& frame) const override;

private:
    core::sch::channel_kind d_channel;
    int d_max_tbs, d_max_g;
};

//! What the encoder blocks' generated make() (lte_sch_encoder.api.yml) fills
//! and builds from.
struct sch_encoder_args : lte_sch_encoder_params, deployment_args {
    //! Validates the parameters, naming the bad one.
    sch_encoder_adapter adapter(deployment d, const pipeline_options& options) const;
    //! The encoder has no options parameter: it runs on these.
    pipeline_options fixed_options() const { return sch_encoder_adapter::options(); }
};

} // namespace gpurx
} // namespace gr

#endif
