/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The Viterbi decoder's adapter to the shared block drivers: a frame is the
// coded bits of frame_bits information bits (after puncturing, the n coded
// bits of each trellis step together, in polynomial order) as float LLRs
// (L = ln P(b=1)/P(b=0), positive for bit 1) or hard bytes; its output is
// frame_bits unpacked bits, described by "frame_bits" and "metric".
#ifndef INCLUDED_GPURX_BLOCKS_VITERBI_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_VITERBI_ADAPTER_H

#include "blocks/drivers/deployment_args.h"
#include "blocks/drivers/frame_adapter.h"
#include "viterbi/viterbi_config.h"
#include "viterbi/viterbi_implementations.h"
#include "viterbi_decoder_params.h"

#include <gnuradio/gpurx/pipeline_options.h>

namespace gr {
namespace gpurx {

//! The decoder's options from block parameters; throws naming the parameter.
core::viterbi_config make_viterbi_config(int K,
                                         const std::vector<int>& polys,
                                         const std::string& termination,
                                         int chunk,
                                         const std::vector<int>& puncture,
                                         bool gr_fec_order);
//! "soft", "int8" or "hard"; throws naming `input`.
core::viterbi::input_kind parse_viterbi_input(const std::string& input);

class viterbi_adapter final : public frame_adapter
{
public:
    //! \p max_frame_bits bounds the frames the tagged and PDU forms accept
    //! (and so the staging memory).
    viterbi_adapter(const core::viterbi_config& cfg, core::viterbi::input_kind input, int max_frame_bits);

    core::frame_types types() const override { return core::viterbi::frame_types_of(); }
    core::kernel_factories kernels() const override;
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override;
    size_t out_item_bytes() const override { return 1; }
    size_t max_in_items() const override;
    size_t max_out_bytes() const override { return size_t(d_max_frame_bits); }
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

    //! The frame of \p frame_bits information bits, in input items.
    size_t items_for(int frame_bits) const { return d_code.coded_bits(frame_bits); }
    //! The shortest frame the code takes (K-1 bits tail-biting, else 1).
    int min_frame_bits() const { return d_code.min_frame_bits(); }

private:
    core::viterbi_config d_cfg;
    core::viterbi_code d_code;
    core::viterbi::input_kind d_input;
    int d_max_frame_bits;
    core::implementation_choice d_choice;
};

//! What the decoder blocks' generated make() (viterbi_decoder.api.yml)
//! fills and builds from.
struct viterbi_decoder_args : viterbi_decoder_params, deployment_args {
    //! Validates the parameters, naming the bad one: the code, then (stream)
    //! frame_bits or (tagged, PDU) max_frame_bits.
    viterbi_adapter adapter(deployment d, const pipeline_options& options) const;
    //! The stream's input vector: one frame's coded bits; refuses
    //! (naming frame_bits) vectors whose GNU Radio buffers would not fit in
    //! this machine's memory.
    size_t stream_items(const viterbi_adapter& a) const;
};

} // namespace gpurx
} // namespace gr

#endif
