/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "idd/idd_config.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

mimo_idd_config::mimo_idd_config() { decoder.turbo.fixed_point = false; }

void mimo_idd_config::validate() const
{
    if (passes < 1 || passes > idd_max_passes)
        throw std::invalid_argument("passes must be in 1.." + std::to_string(idd_max_passes) + ", got " +
                                    std::to_string(passes));
    detector_config().validate();
    decoder_config().validate();
}

mimo_config mimo_idd_config::detector_config() const
{
    mimo_config c = detector;
    c.apriori = true;
    c.output = mimo::llr_output::extrinsic;
    c.llr_type = mimo::llr_format::float32;
    return c;
}

sch_config mimo_idd_config::decoder_config() const
{
    sch_config c = decoder;
    c.extrinsic_output = true;
    c.harq_buffers = 0;
    return c;
}

} // namespace core
} // namespace gpurx
} // namespace gr
