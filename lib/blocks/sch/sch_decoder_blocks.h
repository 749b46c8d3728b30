/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the decoder blocks' generated make() (lte_sch_decoder.api.yml) fills
// and builds from: the parameters, validated (each error names its
// parameter) into the adapter; once made, the HARQ soft buffers' memory and
// where it lives are logged.
#ifndef INCLUDED_GPURX_BLOCKS_SCH_SCH_DECODER_BLOCKS_H
#define INCLUDED_GPURX_BLOCKS_SCH_SCH_DECODER_BLOCKS_H

#include "blocks/drivers/deployment_args.h"
#include "blocks/sch/sch_decoder_adapter.h"
#include "blocks/sch/sch_metadata.h"
#include "lte_sch_decoder_params.h"

#include <gnuradio/logger.h>

namespace gr {
namespace gpurx {

struct sch_decoder_args : lte_sch_decoder_params, deployment_args {
    //! Validates the parameters (and the devices for the soft buffers).
    sch_decoder_adapter adapter(deployment d, const pipeline_options& options) const;
    //! The decoder's options; throws std::invalid_argument naming the bad
    //! parameter and its value.
    core::sch_config config() const;
    //! What ue_category and tm give a TB whose metadata has no "n_soft"
    //! (no limit for category 0); throws std::invalid_argument naming
    //! ue_category or tm when out of range, or ue_category when non-zero on
    //! the uplink, which has no soft-buffer limit.
    soft_buffer_defaults soft_defaults() const;

    //! Logs \p blk's soft buffers (its own logger's name, info).
    template <typename Block>
    void made(const Block& blk) const
    {
        gr::logger(blk.name()).info("{}", soft_buffer_report(config(), blk.backend()));
    }
};

} // namespace gpurx
} // namespace gr

#endif
