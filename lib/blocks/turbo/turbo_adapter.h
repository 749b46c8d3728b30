/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo decoder's adapter to the shared block drivers: a frame is a
// codeword of 3K+12 LLRs (L = ln P(b=1)/P(b=0), positive for bit 1), float
// or int8 (input "int8": L = value / 8), its output K unpacked bits; each
// decoded codeword is described by "K", "iterations" and, when early
// termination ran a CRC, "crc_ok".
#ifndef INCLUDED_GPURX_BLOCKS_TURBO_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_TURBO_ADAPTER_H

#include "blocks/drivers/deployment_args.h"
#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/llr_staging.h"
#include "common/llr_int8.h"
#include "turbo/turbo_config.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"
#include "lte_turbo_decoder_params.h"

#include <gnuradio/gpurx/pipeline_options.h>

namespace gr {
namespace gpurx {

//! Validated decoder options; throws std::invalid_argument naming the parameter.
core::turbo_config make_turbo_config(int iterations,
                                     const std::string& algorithm,
                                     int subblocks,
                                     float scaling,
                                     const std::string& early_termination);

//! The blocks' input parameter: "soft" (float32 LLRs) or "int8" (one
//! GNU Radio char per LLR, in steps of 1/8); throws std::invalid_argument
//! naming input otherwise.
core::turbo::input_kind parse_turbo_input(const std::string& input);

//! int8 input is in the fixed-point decoders' own unit, 1/8 (turbo_config::
//! fixed_scale): an int8 value v decodes exactly as the float LLR v / 8.
constexpr float turbo_int8_llr_unit = 1.0f / core::int8_llr_steps;

class turbo_adapter final : public frame_adapter
{
public:
    explicit turbo_adapter(const core::turbo_config& cfg,
                           core::turbo::input_kind input = core::turbo::INPUT_FLOAT32);

    core::frame_types types() const override;
    core::kernel_factories kernels() const override;
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override
    {
        return d_input == core::turbo::INPUT_INT8 ? sizeof(int8_t) : sizeof(float);
    }
    size_t out_item_bytes() const override { return 1; }
    size_t max_in_items() const override;
    size_t max_out_bytes() const override;
    bool shape(uint64_t n_items, frame_shape& out, std::string& why) const override;
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
    core::turbo_config d_cfg;
    core::turbo::input_kind d_input;
    core::implementation_choice d_choice;
};

//! What the decoder blocks' generated make() (lte_turbo_decoder.api.yml)
//! fills and builds from.
struct turbo_decoder_args : lte_turbo_decoder_params, deployment_args {
    //! Validates the parameters (the stream's K first), naming the bad one.
    turbo_adapter adapter(deployment d, const pipeline_options& options) const;
    //! The stream's input vector: a codeword of 3K+12 LLRs.
    size_t stream_items(const turbo_adapter&) const { return 3 * size_t(K) + 12; }
};

} // namespace gpurx
} // namespace gr

#endif
