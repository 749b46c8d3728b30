/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO detector's adapter to the shared block drivers.
//
// A frame is one channel matrix H and the `vectors` received vectors y seen
// through it (lib/mimo/mimo_frame.h); its output is vectors * nt *
// bits_per_symbol LLRs (L = ln P(b=1)/P(b=0), positive for bit 1): per
// vector antenna 0's bits first, each antenna's b(0), b(1), ...; float, or
// with llr_type "int8" one int8 (GNU Radio char) each, v = rint(8 L)
// saturated to +-127 (common/llr_int8.h), the turbo decoders' int8 input.
//
// Tagged and PDU forms: a packet (PDU) of complex items is
//   H (nr * nt, row-major H[r][t] at r * nt + t), then the y vectors (nr each),
//   then, with apriori, the a-priori LLRs in the output's order, two per
//   complex item (real part first);
// its length gives `vectors`. This is the frame's input area byte for byte.
//
// Stream form: port 0 the y vectors (nr complex), port 1 H (nr * nt complex,
// one per frame), then with apriori the a-priori vectors (nt * bps float,
// one per y), then with noise_input N0 (one float per frame); the output is
// one LLR vector (nt * bps float or int8) per y vector. PDU output: an
// f32vector, or an s8vector with int8.
//
// Every completed frame is described by "rank" (the numerical rank of H);
// a rank-deficient H (rank < nt) also gets "rank_deficient" = True, its
// LLRs finite (0 for the bits it cannot separate).
#ifndef INCLUDED_GPURX_BLOCKS_MIMO_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_MIMO_ADAPTER_H

#include "blocks/drivers/deployment_args.h"
#include "blocks/drivers/frame_adapter.h"
#include "mimo/mimo_config.h"
#include "mimo/mimo_frame.h"
#include "mimo/mimo_implementations.h"
#include "mimo_detector_params.h"

#include <gnuradio/gpurx/pipeline_options.h>

namespace gr {
namespace gpurx {

//! The most vectors one frame may hold (vectors_per_channel, max_vectors).
constexpr int mimo_max_vectors = 65536;

class mimo_adapter final : public frame_adapter
{
public:
    //! \p max_vectors bounds a frame (and so the staging memory);
    //! \p noise_input: the stream form takes N0 per frame on its own port.
    mimo_adapter(const core::mimo_config& cfg, int max_vectors, bool noise_input = false);

    core::frame_types types() const override { return core::mimo::frame_types_of(); }
    core::kernel_factories kernels() const override;
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override { return 2 * sizeof(float); }
    size_t out_item_bytes() const override { return core::mimo::llr_bytes(d_cfg.llr_type); }
    size_t max_in_items() const override { return items_for(d_max_vectors); }
    size_t max_out_bytes() const override;
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
    //! false: describe only what is wrong ("rank" and "rank_deficient"
    //! below full rank, "gpurx_error"), not every channel's full rank.
    void set_full_rank_tags(bool on) { d_full_rank_tags = on; }
    bool pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const override;
    pmt::pmt_t pdu_output(const core::completed_frame& frame) const override;

    //! Complex items of a frame of \p vectors vectors (tagged / PDU length).
    size_t items_for(int vectors) const;

private:
    bool d_full_rank_tags = true;
    size_t h_items() const { return size_t(d_cfg.nr) * d_cfg.nt; }
    size_t apriori_items_per_vector() const; // complex items (two LLRs each)

    core::mimo_config d_cfg;
    int d_max_vectors;
    bool d_noise_input;
    core::implementation_choice d_choice;
};

//! What the detector blocks' generated make() (mimo_detector.api.yml) fills
//! and builds from.
struct mimo_detector_args : mimo_detector_params, deployment_args {
    //! The detector's options; throws std::invalid_argument naming the
    //! block's parameter and its value.
    core::mimo_config config() const;
    //! Validates the parameters, naming the bad one: the detector's, then
    //! (stream) vectors_per_channel or (tagged, PDU) max_vectors.
    mimo_adapter adapter(deployment d, const pipeline_options& options) const;
    //! The stream's frame: one H and its vectors_per_channel y vectors.
    size_t stream_items(const mimo_adapter& a) const { return a.items_for(vectors_per_channel); }
};

} // namespace gpurx
} // namespace gr

#endif
