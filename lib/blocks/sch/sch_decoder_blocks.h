/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the two decoder blocks' make() share: validate the parameters (each
// error names its parameter), build the block on its driver, and log once
// the HARQ soft buffers' memory and where it lives.
#ifndef INCLUDED_GPURX_BLOCKS_SCH_SCH_DECODER_BLOCKS_H
#define INCLUDED_GPURX_BLOCKS_SCH_SCH_DECODER_BLOCKS_H

#include "blocks/drivers/driver_blocks.h"
#include "blocks/sch/sch_decoder_adapter.h"
#include "sch/sch_params.h"

#include <gnuradio/logger.h>

namespace gr {
namespace gpurx {

struct sch_decoder_args {
    std::string channel;
    int iterations;
    std::string algorithm;
    std::string input;
    int harq_buffers;
    bool early_termination;
    int max_tbs;
    int max_g;
    std::string implementation;

    sch_decoder_adapter adapter(const pipeline_options& options) const
    {
        check_sch_devices(options, config());
        return sch_decoder_adapter(config(), core::sch::parse_channel(channel), parse_sch_input(input));
    }
    core::sch_config config() const
    {
        return make_sch_config(iterations, algorithm, harq_buffers, early_termination, max_tbs, max_g,
                               implementation);
    }
};

//! Logs \p blk's soft buffers (its own logger's name, info).
template <typename Block>
void log_soft_buffers(const Block& blk, const sch_decoder_args& a)
{
    gr::logger(blk.name()).info("{}", soft_buffer_report(a.config(), blk.backend()));
}

} // namespace gpurx
} // namespace gr

#endif
