/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_detector_tagged: the MIMO family on the shared tagged driver.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/mimo/mimo_adapter.h"
#include <gnuradio/gpurx/mimo_detector_tagged.h>

namespace gr {
namespace gpurx {

mimo_detector_tagged::sptr mimo_detector_tagged::make(int nt,
                                                      int nr,
                                                      const std::string& modulation,
                                                      const std::string& algorithm,
                                                      int k,
                                                      float clip,
                                                      float noise_var,
                                                      bool sorted_qr,
                                                      bool apriori,
                                                      const std::string& output,
                                                      const std::string& implementation,
                                                      int max_vectors,
                                                      const std::string& len_tag_key,
                                                      const pipeline_options& options,
                                                      const std::string& llr_type)
{
    const auto cfg = make_mimo_config(nt, nr, modulation, algorithm, k, clip, noise_var, sorted_qr,
                                      apriori, output, implementation, llr_type);
    return gnuradio::make_block_sptr<tagged_block<mimo_detector_tagged, mimo_adapter>>(
        "mimo_detector_tagged", mimo_adapter(cfg, max_vectors), len_tag_key, options);
}

} // namespace gpurx
} // namespace gr
