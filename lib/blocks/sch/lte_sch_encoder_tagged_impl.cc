/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_sch_encoder_tagged: the shared-channel encoder on the shared tagged driver (CPU).
#include "blocks/drivers/driver_blocks.h"
#include "blocks/sch/sch_encoder_adapter.h"
#include "sch/sch_params.h"
#include <gnuradio/gpurx/lte_sch_encoder_tagged.h>

namespace gr {
namespace gpurx {

lte_sch_encoder_tagged::sptr lte_sch_encoder_tagged::make(const std::string& channel,
                                                          const std::string& len_tag_key,
                                                          int max_tbs,
                                                          int max_g)
{
    return gnuradio::make_block_sptr<tagged_block<lte_sch_encoder_tagged, sch_encoder_adapter>>(
        "lte_sch_encoder_tagged",
        sch_encoder_adapter(core::sch::parse_channel(channel), max_tbs, max_g),
        len_tag_key,
        sch_encoder_adapter::options());
}

} // namespace gpurx
} // namespace gr
