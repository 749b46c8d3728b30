/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared-channel (DL-SCH / UL-SCH) decoder's adapter to the shared PDU
// and tagged drivers: a frame is one transport block, its G LLRs (L = ln
// P(b=1)/P(b=0), positive for 1; float32, or int8 with L = value / 8) in
// transmission order, still scrambled; its output the TB's tbs bits (0/1).
// The TB's parameters come from the frame's metadata (sch_metadata.h); its
// HARQ soft buffer from the block's harq_pool (sch_harq_admission.h).
// Each TB is described by "crc_ok", "cb_crc", "iterations" and
// "transmissions"; a TB that fails its CRC still leaves, flagged. A TB
// whose code blocks received fewer non-zero soft values than information
// bits (all-zero LLRs, a lone retransmission without systematic bits) is
// not decoded: crc_ok is false even when its CRC checks (an all-zero TB
// has a zero CRC), and "no_information" counts those code blocks.
#ifndef INCLUDED_GPURX_BLOCKS_SCH_SCH_DECODER_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_SCH_SCH_DECODER_ADAPTER_H

#include "blocks/drivers/frame_adapter.h"
#include "blocks/sch/sch_harq_admission.h"
#include "blocks/sch/sch_metadata.h"
#include "sch/sch_config.h"
#include "turbo/turbo_frame.h"

#include <gnuradio/gpurx/pipeline_options.h>
#include <memory>
#include <string>

namespace gr {
namespace gpurx {

//! input: "float" (or "soft", the turbo blocks' word) or "int8".
core::turbo::input_kind parse_sch_input(const std::string& input);

/*!
 * Refuses (std::invalid_argument naming devices) a CUDA backend over
 * several GPUs: the soft buffers live on each GPU, and batches alternate
 * between them, so a retransmission would not find its buffer. Refuses
 * (naming harq_buffers) soft buffers larger than half the memory they go to.
 */
void check_sch_devices(const pipeline_options& options, const core::sch_config& cfg);

//! The log line of the soft buffers' memory of \p cfg on \p backend
//! ("cuda": device memory, "cpu": host memory).
std::string soft_buffer_report(const core::sch_config& cfg, const std::string& backend);

class sch_decoder_adapter final : public frame_adapter
{
public:
    //! \p soft: the soft-buffer parameters of a TB whose metadata lacks them.
    sch_decoder_adapter(const core::sch_config& cfg,
                        core::sch::channel_kind channel,
                        core::turbo::input_kind input,
                        const soft_buffer_defaults& soft = {});

    core::frame_types types() const override;
    core::kernel_factories kernels() const override;
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override
    {
        return d_input == core::turbo::INPUT_INT8 ? sizeof(int8_t) : sizeof(float);
    }
    size_t out_item_bytes() const override { return 1; }
    size_t max_in_items() const override { return size_t(d_cfg.max_g); }
    size_t max_out_bytes() const override { return size_t(d_cfg.max_tbs); }
    bool shape(uint64_t n_items, frame_shape& out, std::string& why) const override;
    bool uses_frame_metadata() const override { return true; }
    bool shape_frame(uint64_t n_items, const pmt::pmt_t& meta, frame_shape& out, std::string& why) const override;
    frame_admission* admission() const override { return d_harq.get(); }
    bool stage(const frame_shape& shape,
               const uint8_t* src,
               size_t first,
               size_t n,
               uint8_t* dst,
               std::string& why) const override;
    void describe(const core::completed_frame& frame, frame_meta& meta) const override;
    bool pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const override;
    pmt::pmt_t pdu_output(const core::completed_frame& frame) const override;

private:
    core::sch_config d_cfg;
    core::sch::channel_kind d_channel;
    core::turbo::input_kind d_input;
    soft_buffer_defaults d_soft;
    core::implementation_choice d_choice;
    std::unique_ptr<sch_harq_admission> d_harq; // moved with the adapter: its address stays
};

} // namespace gpurx
} // namespace gr

#endif
