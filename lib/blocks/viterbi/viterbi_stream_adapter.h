/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder's face to the continuous driver: its records, kernels,
// implementation note and frame bounds (so that backend selection, its log
// line, the memory check and stop() are the other blocks'), and the framer
// (viterbi_stream_framer.h) that cuts the stream into frames of whole
// windows. The per-frame hooks of the framed drivers (shape, stage, PDUs)
// refuse.
#ifndef INCLUDED_GPURX_BLOCKS_VITERBI_STREAM_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_VITERBI_STREAM_ADAPTER_H

#include "blocks/drivers/continuous_driver.h"
#include "viterbi/viterbi_stream.h"
#include "viterbi/viterbi_stream_framer.h"
#include "viterbi/viterbi_stream_implementations.h"

#include <vector>

namespace gr {
namespace gpurx {

//! The decoder's options from block parameters; throws naming the parameter.
core::viterbi_stream_config make_viterbi_stream_config(int K,
                                                       const std::vector<int>& polys,
                                                       int traceback,
                                                       int chunk,
                                                       bool gr_fec_order,
                                                       const std::vector<int>& puncture);

class viterbi_stream_adapter final : public continuous_adapter
{
public:
    viterbi_stream_adapter(const core::viterbi_stream_config& cfg, core::viterbi::input_kind input);

    const core::viterbi_stream_config& config() const { return d_cfg; }
    core::viterbi::input_kind input() const { return d_input; }

    core::frame_types types() const override { return core::viterbi::stream_frame_types_of(); }
    core::kernel_factories kernels() const override;
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override { return core::stream_item_bytes(d_input); }
    size_t out_item_bytes() const override { return 1; }
    size_t max_in_items() const override;
    size_t max_out_bytes() const override { return size_t(d_cfg.frame_windows) * size_t(d_cfg.chunk); }
    bool shape(uint64_t, frame_shape&, std::string& why) const override;
    bool stage(const frame_shape&, const uint8_t*, size_t, size_t, uint8_t*, std::string& why) const override;
    void describe(const core::completed_frame&, frame_meta&) const override {}
    bool pdu_items(const pmt::pmt_t&, const uint8_t*&, size_t&, std::string& why) const override;
    pmt::pmt_t pdu_output(const core::completed_frame&) const override { return pmt::PMT_NIL; }

    // continuous_adapter: the framer's stream.
    void relative_rate(uint64_t& num, uint64_t& den) const override;
    //! Soft LLRs are checked and clamped on arrival, once: the windows'
    //! overlap is then copied without a second look. A NaN or Inf LLR is
    //! decoded as 0 (no information): the first is logged, all are counted.
    void append(const uint8_t* items, size_t n, const gr::logger_ptr& logger) override;
    size_t items_held() const override { return d_framer.items_held(); }
    bool next(bool at_end, frame& f) override;
    void advance() override { d_framer.advance(); }
    bool more_at_end() const override { return d_framer.steps_complete() > d_framer.steps_emitted(); }
    size_t items_cut_at_end() const override { return size_t(d_framer.partial_step_items()); }
    std::string cut_at_end_reason(size_t items) const override;
    uint64_t items_received() const override { return d_framer.items_received(); }
    bool decoded(const core::completed_frame& f) const override;

    //! NaN or Inf LLRs received so far.
    uint64_t nonfinite_llrs() const { return d_nonfinite; }

private:
    core::viterbi_stream_config d_cfg;
    core::viterbi_code d_code;
    core::viterbi::input_kind d_input;
    core::implementation_choice d_choice;
    core::viterbi_stream_framer d_framer;
    core::viterbi_stream_framer::frame d_frame; // what next() returned
    std::vector<float> d_clean;                 // soft LLRs, checked (scratch)
    uint64_t d_nonfinite = 0;
};

} // namespace gpurx
} // namespace gr

#endif
