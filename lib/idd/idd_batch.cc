/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "idd/idd_batch.h"

#include <complex>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace idd {

namespace {
// 256: every area starts where the GPU's widest loads may start.
size_t align(size_t x) { return (x + 255) & ~size_t(255); }
} // namespace

batch_layout::batch_layout(const mimo_idd_config& cfg, size_t n, size_t det_scratch_bytes,
                           size_t sch_scratch_bytes)
{
    const auto& d = cfg.detector;
    const size_t B = size_t(d.llrs_per_vector());
    const size_t max_g = size_t(cfg.decoder.max_g);
    const size_t cplx = sizeof(std::complex<float>);
    // C channels of V vectors with C V B = G: C nr nt + G / B nr complex
    // values and G priors.
    det_in_stride = align(size_t(d.max_channels) * size_t(d.nr) * size_t(d.nt) * cplx +
                          (max_g / B) * size_t(d.nr) * cplx + max_g * sizeof(float));
    det_out_stride = align(max_g * sizeof(float));
    sch_out_stride = align(sch::extrinsic_offset(cfg.decoder.max_tbs) + max_g * sizeof(float));
    size_t at = 0;
    auto take = [&](size_t bytes) {
        const size_t here = at;
        at = align(at + bytes);
        return here;
    };
    det_in = take(n * det_in_stride);
    det_out = take(n * det_out_stride);
    sch_out = take(n * sch_out_stride);
    det_desc = take(n * sizeof(frame_desc));
    det_params = take(n * sizeof(mimo::frame_params));
    det_results = take(n * sizeof(mimo::frame_result));
    sch_desc = take(n * sizeof(frame_desc));
    sch_params = take(n * sizeof(sch::frame_params));
    sch_results = take(n * sizeof(sch::frame_result));
    done = take(n * sizeof(int32_t));
    det_scratch = take(det_scratch_bytes);
    sch_scratch = take(sch_scratch_bytes);
    bytes = at;
}

std::string frame_problem(const frame_params& p, const mimo_idd_config& cfg)
{
    const auto& d = cfg.detector;
    if (p.det.apriori != 0)
        return "det.apriori must be 0 (the receiver adds the a-priori LLRs), got " + std::to_string(p.det.apriori);
    if (p.det.nt != d.nt || p.det.nr != d.nr || p.det.bits_per_symbol != d.bits_per_symbol())
        return "det: nt " + std::to_string(p.det.nt) + ", nr " + std::to_string(p.det.nr) + ", bits_per_symbol " +
               std::to_string(p.det.bits_per_symbol) + " differ from the detector's (" + std::to_string(d.nt) +
               ", " + std::to_string(d.nr) + ", " + std::to_string(d.bits_per_symbol()) + ")";
    const std::string det = mimo::frame_problem(p.det, d.algorithm, d.max_channels);
    if (!det.empty())
        return "det: " + det;
    const long long llrs = (long long)p.det.channels * p.det.vectors * p.det.nt * p.det.bits_per_symbol;
    if (llrs != p.tb.G)
        return "tb.G must equal the detector frame's LLRs (" + std::to_string(llrs) + "), got " +
               std::to_string(p.tb.G);
    if (p.tb.tbs < 1 || p.tb.tbs > cfg.decoder.max_tbs)
        return "tb.tbs must be in 1..max_tbs (" + std::to_string(cfg.decoder.max_tbs) + "), got " +
               std::to_string(p.tb.tbs);
    if (p.tb.G > cfg.decoder.max_g)
        return "tb.G must be at most max_g (" + std::to_string(cfg.decoder.max_g) + "), got " +
               std::to_string(p.tb.G);
    return "";
}

} // namespace idd
} // namespace core
} // namespace gpurx
} // namespace gr
