/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_decoder: the turbo family on the shared stream driver.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/turbo/turbo_adapter.h"
#include "turbo/lte_qpp.h"
#include <gnuradio/gpurx/lte_turbo_decoder.h>

namespace gr {
namespace gpurx {

lte_turbo_decoder::sptr lte_turbo_decoder::make(int K,
                                                int iterations,
                                                const std::string& algorithm,
                                                int subblocks,
                                                float scaling,
                                                const std::string& early_termination,
                                                const pipeline_options& options,
                                                const std::string& input)
{
    core::lte_qpp(K); // throws, naming K, for sizes outside Table 5.1.3-3
    return gnuradio::make_block_sptr<stream_block<lte_turbo_decoder, turbo_adapter>>(
        "lte_turbo_decoder",
        turbo_adapter(make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination),
                      parse_turbo_input(input)),
        3 * size_t(K) + 12,
        options);
}

} // namespace gpurx
} // namespace gr
