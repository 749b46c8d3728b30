/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_decoder_pdu: the turbo family on the shared PDU driver.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/turbo/turbo_adapter.h"
#include <gnuradio/gpurx/lte_turbo_decoder_pdu.h>

namespace gr {
namespace gpurx {

lte_turbo_decoder_pdu::sptr lte_turbo_decoder_pdu::make(int iterations,
                                                        const std::string& algorithm,
                                                        int subblocks,
                                                        float scaling,
                                                        const std::string& early_termination,
                                                        const pipeline_options& options,
                                                        const std::string& input)
{
    return gnuradio::make_block_sptr<pdu_block<lte_turbo_decoder_pdu, turbo_adapter>>(
        "lte_turbo_decoder_pdu",
        turbo_adapter(make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination),
                      parse_turbo_input(input)),
        options);
}

} // namespace gpurx
} // namespace gr
