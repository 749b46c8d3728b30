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
#include "mimo_idd_decoder_params.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {

mimo_idd_decoder::sptr make_mimo_idd_decoder(const mimo_idd_decoder_params& p)
{
    using namespace core;
    if (p.channels < 1 || p.channels > mimo::max_channels_per_frame)
        throw std::invalid_argument("channels must be in 1.." + std::to_string(mimo::max_channels_per_frame) +
                                    ", got " + std::to_string(p.channels));
    if (p.vectors_per_channel < 1)
        throw std::invalid_argument("vectors_per_channel must be at least 1, got " +
                                    std::to_string(p.vectors_per_channel));
    mimo_idd_config cfg;
    cfg.detector.nt = p.nt;
    cfg.detector.nr = p.nr;
    cfg.detector.modulation = qam::parse_modulation(p.modulation);
    cfg.detector.algorithm = mimo::parse_algorithm(p.algorithm);
    cfg.detector.max_channels = p.channels;
    cfg.detector.validate(); // names nt or nr before they size anything
    const long long g =
        (long long)p.channels * p.vectors_per_channel * p.nt * cfg.detector.bits_per_symbol();
    if (g > (1 << 21))
        throw std::invalid_argument("channels x vectors_per_channel x nt x bits per symbol (G) must be at most "
                                    "2097152, got " + std::to_string(g));
    if (p.iterations < 1 || p.iterations > 32)
        throw std::invalid_argument("iterations must be in 1..32, got " + std::to_string(p.iterations));
    cfg.decoder.turbo.iterations = p.iterations;
    cfg.decoder.extrinsic_scale = p.extrinsic_scale;
    cfg.decoder.max_tbs = std::max(p.tbs, 16);
    cfg.decoder.max_g = std::max(int(g), 8);
    cfg.passes = p.passes;
    cfg.implementation = p.implementation;
    cfg.validate(); // names passes, extrinsic_scale, ...
    sch::tb_request req;
    req.channel = sch::parse_channel(p.channel);
    req.tbs = p.tbs;
    req.qm = cfg.detector.bits_per_symbol();
    req.g = int(g);
    req.rnti = p.rnti;
    req.cell_id = p.cell_id;
    req.subframe = p.subframe;
    if (req.channel == sch::ULSCH)
        req.n_symb = p.vectors_per_channel; // one SC-FDMA symbol per vector of a channel
    idd::frame_params fp{};
    fp.tb = sch::frame_params_of(req); // throws naming tbs, rnti, cell_id, subframe, ...
    fp.det = { p.nt, p.nr, req.qm, p.vectors_per_channel, cfg.detector.noise_variance, 0, p.channels };
    idd_adapter a(cfg, fp);
    const size_t items = a.frame_items();
    return gnuradio::make_block_sptr<stream_block<mimo_idd_decoder, idd_adapter>>("mimo_idd_decoder", std::move(a),
                                                                                  items, p.options);
}

} // namespace gpurx
} // namespace gr
