/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_decoder_tagged: the Viterbi family on the shared tagged driver.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include <gnuradio/gpurx/viterbi_decoder_tagged.h>

namespace gr {
namespace gpurx {

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

} // namespace gpurx
} // namespace gr
