/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_idd_decoder: the IDD family on the shared stream driver; its
// three inputs are the adapter's stream ports.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/idd/idd_adapter.h"
#include "sch/sch_params.h"
#include <gnuradio/gpurx/mimo_idd_decoder.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {

mimo_idd_decoder::sptr mimo_idd_decoder::make(int nt,
                                              int nr,
                                              const std::string& modulation,
                                              const std::string& algorithm,
                                              int channels,
                                              int vectors_per_channel,
                                              int tbs,
                                              int passes,
                                              int iterations,
                                              float extrinsic_scale,
                                              const std::string& channel,
                                              int rnti,
                                              int cell_id,
                                              int subframe,
                                              const std::string& implementation,
                                              const pipeline_options& options)
{
    using namespace core;
    if (channels < 1 || channels > mimo::max_channels_per_frame)
        throw std::invalid_argument("channels must be in 1.." + std::to_string(mimo::max_channels_per_frame) +
                                    ", got " + std::to_string(channels));
    if (vectors_per_channel < 1)
        throw std::invalid_argument("vectors_per_channel must be at least 1, got " +
                                    std::to_string(vectors_per_channel));
    mimo_idd_config cfg;
    cfg.detector.nt = nt;
    cfg.detector.nr = nr;
    cfg.detector.modulation = qam::parse_modulation(modulation);
    cfg.detector.algorithm = mimo::parse_algorithm(algorithm);
    cfg.detector.max_channels = channels;
    cfg.detector.validate(); // names nt or nr before they size anything
    const long long g = (long long)channels * vectors_per_channel * nt * cfg.detector.bits_per_symbol();
    if (g > (1 << 21))
        throw std::invalid_argument("channels x vectors_per_channel x nt x bits per symbol (G) must be at most "
                                    "2097152, got " + std::to_string(g));
    if (iterations < 1 || iterations > 32)
        throw std::invalid_argument("iterations must be in 1..32, got " + std::to_string(iterations));
    cfg.decoder.turbo.iterations = iterations;
    cfg.decoder.extrinsic_scale = extrinsic_scale;
    cfg.decoder.max_tbs = std::max(tbs, 16);
    cfg.decoder.max_g = std::max(int(g), 8);
    cfg.passes = passes;
    cfg.implementation = implementation;
    cfg.validate(); // names passes, extrinsic_scale, ...
    sch::tb_request req;
    req.channel = sch::parse_channel(channel);
    req.tbs = tbs;
    req.qm = cfg.detector.bits_per_symbol();
    req.g = int(g);
    req.rnti = rnti;
    req.cell_id = cell_id;
    req.subframe = subframe;
    if (req.channel == sch::ULSCH)
        req.n_symb = vectors_per_channel; // one SC-FDMA symbol per vector of a channel
    idd::frame_params p{};
    p.tb = sch::frame_params_of(req); // throws naming tbs, rnti, cell_id, subframe, ...
    p.det = { nt, nr, req.qm, vectors_per_channel, cfg.detector.noise_variance, 0, channels };
    idd_adapter a(cfg, p);
    const size_t items = a.frame_items();
    return gnuradio::make_block_sptr<stream_block<mimo_idd_decoder, idd_adapter>>("mimo_idd_decoder", std::move(a),
                                                                                  items, options);
}

} // namespace gpurx
} // namespace gr
