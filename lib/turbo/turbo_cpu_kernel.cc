/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/turbo_cpu_kernel.h"
#include "pipeline/worker_pool.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_fixed.h"
#include "turbo/turbo_geometry.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

turbo_geometry turbo_geometry_of(const turbo_config& cfg, int K)
{
    const int P = cfg.subblocks_for(K);
    const int W = turbo::window_length(K, P), nwin = turbo::window_count(K, P);
    return { K, nwin, W, W * nwin };
}

namespace turbo {
frame_params frame_params_for(int K, input_kind input)
{
    const qpp_params q = lte_qpp(K);
    return { q.K, q.f1, q.f2, input };
}
} // namespace turbo

turbo_cpu_kernel::turbo_cpu_kernel(const turbo_config& cfg, float int8_scale)
    : d_cfg(cfg), d_int8_scale(int8_scale)
{
    d_cfg.validate();
}

const char* turbo_cpu_kernel::name() const
{
    return d_cfg.uses_fixed_point() ? "cpu-fixed16-simd" : "cpu-float";
}

size_t turbo_cpu_kernel::scratch_bytes(size_t) const { return 0; }

turbo_cpu_kernel::worker_state& turbo_cpu_kernel::state(size_t worker)
{
    auto& w = d_workers[worker];
    if (!w.decoder) {
        w.decoder = std::make_unique<turbo_decoder_cpu>(d_cfg);
        w.quant.resize(turbo_fx::SIMD_LANES);
    }
    return w;
}

void turbo_cpu_kernel::decode_one(const batch_view& b, size_t f, worker_state& w)
{
    const frame_desc& fd = b.frames[f];
    const turbo::frame_params& p = b.params_as<turbo::frame_params>()[f];
    uint8_t* hard = b.out + fd.out_offset;
    float* soft = d_cfg.soft_output ? reinterpret_cast<float*>(hard + turbo_soft_offset(p.K)) : nullptr;
    const auto r = p.input == turbo::INPUT_INT8
                       ? w.decoder->decode_int8(reinterpret_cast<const int8_t*>(b.in + fd.in_offset),
                                                p.K, d_int8_scale, hard, soft)
                       : w.decoder->decode(reinterpret_cast<const float*>(b.in + fd.in_offset), p.K,
                                           hard, soft);
    b.results_as<turbo::frame_result>()[f] = { r.iterations, r.check };
}

void turbo_cpu_kernel::decode_lanes(const batch_view& b, size_t first, size_t n, worker_state& w)
{
    const auto* params = b.params_as<turbo::frame_params>();
    const int K = params[first].K;
    const size_t len = 3 * size_t(K) + 12;
    const int* q[turbo_fx::SIMD_LANES];
    uint8_t* hard[turbo_fx::SIMD_LANES];
    float* soft[turbo_fx::SIMD_LANES];
    turbo_decode_result res[turbo_fx::SIMD_LANES];
    float soft_unit = 1.0f / d_cfg.fixed_scale;
    for (size_t l = 0; l < n; l++) {
        const frame_desc& fd = b.frames[first + l];
        auto& buf = w.quant[l];
        buf.resize(len);
        if (params[first + l].input == turbo::INPUT_INT8) {
            turbo_fx::quantize_llrs(reinterpret_cast<const int8_t*>(b.in + fd.in_offset), len, buf.data());
            soft_unit = d_int8_scale;
        } else {
            turbo_fx::quantize_llrs(reinterpret_cast<const float*>(b.in + fd.in_offset), len,
                                    d_cfg.fixed_scale, buf.data());
        }
        q[l] = buf.data();
        hard[l] = b.out + fd.out_offset;
        soft[l] = d_cfg.soft_output ? reinterpret_cast<float*>(hard[l] + turbo_soft_offset(K)) : nullptr;
    }
    w.decoder->decode_fixed_lanes(q, int(n), K, soft_unit, hard, soft, res);
    auto* results = b.results_as<turbo::frame_result>();
    for (size_t l = 0; l < n; l++)
        results[first + l] = { res[l].iterations, res[l].check };
}

void turbo_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    // Work items: single frames in float; in fixed point, runs of frames with
    // one K and input type, SIMD_LANES at most, decoded as the lanes of one
    // vector. The pool's workers take items in turn, each with its decoder.
    const bool lanes = d_cfg.uses_fixed_point();
    const size_t max_run = lanes ? size_t(turbo_fx::SIMD_LANES) : 1;
    const auto* params = b.params_as<turbo::frame_params>();
    d_runs.clear();
    for (size_t f = 0; f < b.nframes;) {
        size_t e = f + 1;
        while (e < b.nframes && e - f < max_run && params[e].K == params[f].K &&
               params[e].input == params[f].input)
            e++;
        d_runs.emplace_back(f, e - f);
        f = e;
    }
    if (d_workers.size() < pool.size())
        d_workers.resize(pool.size());
    pool.parallel_for(d_runs.size(), [&](size_t r, size_t worker) {
        worker_state& w = state(worker);
        if (lanes)
            decode_lanes(b, d_runs[r].first, d_runs[r].second, w);
        else
            decode_one(b, d_runs[r].first, w);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
