/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_decoder (stream, tagged, PDU): the Viterbi family on the
// shared drivers.
#include "blocks/driver_blocks.h"
#include "blocks/viterbi_adapter.h"
#include <gnuradio/gpurx/viterbi_decoder.h>
#include <gnuradio/gpurx/viterbi_decoder_pdu.h>
#include <gnuradio/gpurx/viterbi_decoder_tagged.h>

namespace gr {
namespace gpurx {

viterbi_decoder::sptr viterbi_decoder::make(int frame_bits,
                                            int K,
                                            const std::vector<int>& polys,
                                            const std::string& termination,
                                            int chunk,
                                            const std::vector<int>& puncture,
                                            const std::string& input,
                                            bool gr_fec_order,
                                            const pipeline_options& options)
{
    const auto cfg = make_viterbi_config(K, polys, termination, chunk, puncture, gr_fec_order);
    cfg.code().check_frame_bits(frame_bits); // throws, naming frame_bits
    viterbi_adapter a(cfg, parse_viterbi_input(input), frame_bits);
    const size_t items = a.items_for(frame_bits);
    return gnuradio::make_block_sptr<stream_block<viterbi_decoder, viterbi_adapter>>(
        "viterbi_decoder", std::move(a), items, options);
}

viterbi_decoder_tagged::sptr viterbi_decoder_tagged::make(int K,
                                                          const std::vector<int>& polys,
                                                          const std::string& termination,
                                                          int chunk,
                                                          const std::vector<int>& puncture,
                                                          const std::string& input,
                                                          bool gr_fec_order,
                                                          int max_frame_bits,
                                                          const std::string& len_tag_key,
                                                          const pipeline_options& options)
{
    const auto cfg = make_viterbi_config(K, polys, termination, chunk, puncture, gr_fec_order);
    return gnuradio::make_block_sptr<tagged_block<viterbi_decoder_tagged, viterbi_adapter>>(
        "viterbi_decoder_tagged",
        viterbi_adapter(cfg, parse_viterbi_input(input), max_frame_bits),
        len_tag_key,
        options);
}

viterbi_decoder_pdu::sptr viterbi_decoder_pdu::make(int K,
                                                    const std::vector<int>& polys,
                                                    const std::string& termination,
                                                    int chunk,
                                                    const std::vector<int>& puncture,
                                                    const std::string& input,
                                                    bool gr_fec_order,
                                                    int max_frame_bits,
                                                    const pipeline_options& options)
{
    const auto cfg = make_viterbi_config(K, polys, termination, chunk, puncture, gr_fec_order);
    return gnuradio::make_block_sptr<pdu_block<viterbi_decoder_pdu, viterbi_adapter>>(
        "viterbi_decoder_pdu", viterbi_adapter(cfg, parse_viterbi_input(input), max_frame_bits), options);
}

} // namespace gpurx
} // namespace gr
