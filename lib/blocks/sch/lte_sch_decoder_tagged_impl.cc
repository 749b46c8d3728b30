/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_sch_decoder_tagged: the shared-channel decoder on the shared tagged driver.
#include "blocks/sch/sch_decoder_blocks.h"
#include <gnuradio/gpurx/lte_sch_decoder_tagged.h>

namespace gr {
namespace gpurx {

lte_sch_decoder_tagged::sptr lte_sch_decoder_tagged::make(const std::string& channel,
                                                          int iterations,
                                                          const std::string& algorithm,
                                                          const std::string& input,
                                                          int harq_buffers,
                                                          bool early_termination,
                                                          int max_tbs,
                                                          int max_g,
                                                          const std::string& implementation,
                                                          const std::string& len_tag_key,
                                                          const pipeline_options& options)
{
    const sch_decoder_args a{ channel,         iterations, algorithm, input,         harq_buffers,
                              early_termination, max_tbs,  max_g,     implementation };
    auto blk = gnuradio::make_block_sptr<tagged_block<lte_sch_decoder_tagged, sch_decoder_adapter>>(
        "lte_sch_decoder_tagged", a.adapter(options), len_tag_key, options);
    log_soft_buffers(*blk, a);
    return blk;
}

} // namespace gpurx
} // namespace gr
