/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_sch_encoder_pdu: the shared-channel encoder on the shared PDU driver (CPU).
#include "blocks/drivers/driver_blocks.h"
#include "blocks/sch/sch_encoder_adapter.h"
#include "sch/sch_params.h"
#include <gnuradio/gpurx/lte_sch_encoder_pdu.h>

namespace gr {
namespace gpurx {

lte_sch_encoder_pdu::sptr lte_sch_encoder_pdu::make(const std::string& channel, int max_tbs, int max_g)
{
    return gnuradio::make_block_sptr<pdu_block<lte_sch_encoder_pdu, sch_encoder_adapter>>(
        "lte_sch_encoder_pdu",
        sch_encoder_adapter(core::sch::parse_channel(channel), max_tbs, max_g),
        sch_encoder_adapter::options());
}

} // namespace gpurx
} // namespace gr
