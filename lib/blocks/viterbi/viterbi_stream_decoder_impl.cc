/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_stream_decoder: the Viterbi stream decoder on the shared
// continuous driver; its adapter's framer (viterbi_stream_framer.h) cuts the
// stream into frames of whole windows.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include "blocks/viterbi/viterbi_stream_adapter.h"
#include "viterbi_stream_decoder_params.h"

namespace gr {
namespace gpurx {

namespace {

class viterbi_stream_decoder_impl final
    : public continuous_block<viterbi_stream_decoder, viterbi_stream_adapter>
{
public:
    viterbi_stream_decoder_impl(viterbi_stream_adapter adapter, const pipeline_options& options)
        : gr::block("viterbi_stream_decoder", in_signature(adapter), out_signature(adapter)),
          continuous_block("viterbi_stream_decoder", std::move(adapter), options)
    {
    }
    uint64_t nonfinite_llrs() const override { return d_adapter.nonfinite_llrs(); }
};

} // namespace

viterbi_stream_decoder::sptr make_viterbi_stream_decoder(const viterbi_stream_decoder_params& p)
{
    const auto cfg = make_viterbi_stream_config(p.K, p.polys, p.traceback, p.chunk, p.gr_fec_order, p.puncture);
    return gnuradio::make_block_sptr<viterbi_stream_decoder_impl>(
        viterbi_stream_adapter(cfg, parse_viterbi_input(p.input)), p.options);
}

} // namespace gpurx
} // namespace gr
