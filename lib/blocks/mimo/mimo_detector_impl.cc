/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_detector: the MIMO family on the shared stream driver. Its
// several inputs are the adapter's stream ports.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/mimo/mimo_adapter.h"
#include <gnuradio/gpurx/mimo_detector.h>

namespace gr {
namespace gpurx {

mimo_detector::sptr mimo_detector::make(int nt,
                                        int nr,
                                        const std::string& modulation,
                                        const std::string& algorithm,
                                        int k,
                                        float clip,
                                        float noise_var,
                                        bool noise_input,
                                        int vectors_per_channel,
                                        bool sorted_qr,
                                        bool apriori,
                                        const std::string& output,
                                        const std::string& implementation,
                                        const pipeline_options& options,
                                        const std::string& llr_type,
                                        bool rank_tags)
{
    const auto cfg = make_mimo_config(nt, nr, modulation, algorithm, k, clip, noise_var, sorted_qr,
                                      apriori, output, implementation, llr_type);
    if (vectors_per_channel < 1 || vectors_per_channel > mimo_max_vectors)
        throw std::invalid_argument("vectors_per_channel must be in 1.." +
                                    std::to_string(mimo_max_vectors) + ", got " +
                                    std::to_string(vectors_per_channel));
    mimo_adapter a(cfg, vectors_per_channel, noise_input);
    a.set_full_rank_tags(rank_tags);
    const size_t items = a.items_for(vectors_per_channel);
    return gnuradio::make_block_sptr<stream_block<mimo_detector, mimo_adapter>>(
        "mimo_detector", std::move(a), items, options);
}

} // namespace gpurx
} // namespace gr
