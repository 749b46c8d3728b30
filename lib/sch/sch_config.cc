/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_config.h"
#include "common/llr_int8.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

void sch_config::validate() const
{
    turbo.validate();
    if (turbo.soft_output)
        throw std::invalid_argument("soft_output=true: the transport-block decoder outputs bits");
    if (turbo.fixed_scale != int8_llr_steps)
        throw std::invalid_argument("fixed_scale=" + std::to_string(turbo.fixed_scale) +
                                    ": the transport-block decoder quantises to the module's "
                                    "int8 scale, 8");
    if (extrinsic_output && turbo.uses_fixed_point())
        throw std::invalid_argument("extrinsic_output=true needs float turbo arithmetic "
                                    "(turbo fixed_point=false, or log-map), got fixed_point=true");
    if (!(extrinsic_scale > 0.0f && extrinsic_scale <= 2.0f))
        throw std::invalid_argument("extrinsic_scale=" + std::to_string(extrinsic_scale) +
                                    ": must be in (0, 2]");
    if (harq_buffers < 0 || harq_buffers > 65536)
        throw std::invalid_argument("harq_buffers=" + std::to_string(harq_buffers) +
                                    ": must be in 0..65536");
    if (max_tbs < 16 || max_tbs > sch::MAX_TBS)
        throw std::invalid_argument("max_tbs=" + std::to_string(max_tbs) + ": must be in 16.." +
                                    std::to_string(sch::MAX_TBS));
    if (max_g < 8 || max_g > (1 << 21))
        throw std::invalid_argument("max_g=" + std::to_string(max_g) + ": must be in 8..2097152");
}

turbo_config sch_config::turbo_for(bool crc24a) const
{
    turbo_config t = turbo;
    t.stop = !early_termination ? turbo::early_stop::none
             : crc24a           ? turbo::early_stop::crc24a
                                : turbo::early_stop::crc24b;
    t.soft_output = false;
    t.coded_output = extrinsic_output;
    return t;
}

} // namespace core
} // namespace gpurx
} // namespace gr
