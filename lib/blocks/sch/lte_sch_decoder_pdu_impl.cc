/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_sch_decoder_pdu: the shared-channel decoder on the shared PDU driver.
#include "blocks/sch/sch_decoder_blocks.h"
#include <gnuradio/gpurx/lte_sch_decoder_pdu.h>

namespace gr {
namespace gpurx {

lte_sch_decoder_pdu::sptr lte_sch_decoder_pdu::make(const std::string& channel,
                                                    int iterations,
                                                    const std::string& algorithm,
                                                    const std::string& input,
                                                    int harq_buffers,
                                                    bool early_termination,
                                                    int max_tbs,
                                                    int max_g,
                                                    const std::string& implementation,
                                                    const pipeline_options& options)
{
    const sch_decoder_args a{ channel,         iterations, algorithm, input,         harq_buffers,
                              early_termination, max_tbs,  max_g,     implementation };
    auto blk = gnuradio::make_block_sptr<pdu_block<lte_sch_decoder_pdu, sch_decoder_adapter>>(
        "lte_sch_decoder_pdu", a.adapter(options), options);
    log_soft_buffers(*blk, a);
    return blk;
}

} // namespace gpurx
} // namespace gr
