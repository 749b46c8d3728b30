/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_decoder_pdu: the Viterbi family on the shared PDU driver.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include <gnuradio/gpurx/viterbi_decoder_pdu.h>

namespace gr {
namespace gpurx {

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
