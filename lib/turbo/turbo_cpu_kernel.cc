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

turbo_cpu_kernel::turbo_cpu_kernel(const turbo_config& cfg, kind k, float int8_scale)
    : d_cfg(cfg), d_kind(k), d_int8_scale(int8_scale)
{
    d_cfg.validate();
    if (k != kind::float_one && !d_cfg.uses_fixed_point())
        throw std::invalid_argument("turbo_cpu_kernel: the fixed-point kinds need a fixed-point configuration");
    // The name says which build runs (the blocks log it once).
    switch (k) {
    case kind::float_one:
        d_name = "cpu-float";
        break;
    case kind::fixed_lanes:
        d_name = std::string("cpu-fixed16-simd [") + turbo_decoder_cpu::simd_isa() + "]";
        break;
    default:
        d_name = std::string("cpu-window16-simd [") +
                 turbo_win::simd_isa_name(turbo_win::default_simd_isa()) + "]";
    }
}

const char* turbo_cpu_kernel::name() const { return d_name.c_str(); }

size_t turbo_cpu_kernel::scratch_bytes(size_t) const { return 0; }

turbo_cpu_kernel::worker_state& turbo_cpu_kernel::state(size_t worker)
{
    auto& w = d_workers[worker];
    if (d_kind == kind::window) {
        if (!w.window)
            w.window = std::make_unique<turbo_window_decoder>(d_cfg);
    } else if (!w.decoder) {
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
    if (d_cfg.coded_output) {
        // Float only (validate()); int8 input converted as decode_int8 does.
        float* coded = reinterpret_cast<float*>(hard + turbo_coded_offset(p.K, d_cfg.soft_output));
        const float* llr = reinterpret_cast<const float*>(b.in + fd.in_offset);
        if (p.input == turbo::INPUT_INT8) {
            const auto* q = reinterpret_cast<const int8_t*>(b.in + fd.in_offset);
            w.convert.resize(3 * size_t(p.K) + 12);
            for (size_t i = 0; i < w.convert.size(); i++)
                w.convert[i] = float(q[i]) * d_int8_scale;
            llr = w.convert.data();
        }
        const auto r = w.decoder->decode_coded(llr, p.K, hard, coded, soft);
        b.results_as<turbo::frame_result>()[f] = { r.iterations, r.check };
        return;
    }
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

void turbo_cpu_kernel::decode_window(const batch_view& b, size_t first, size_t n, worker_state& w)
{
    const auto* params = b.params_as<turbo::frame_params>();
    const int K = params[first].K;
    const void* in[turbo_win::LANES];
    uint8_t* hard[turbo_win::LANES];
    float* soft[turbo_win::LANES];
    turbo_decode_result res[turbo_win::LANES];
    for (size_t l = 0; l < n; l++) {
        const frame_desc& fd = b.frames[first + l];
        in[l] = b.in + fd.in_offset;
        hard[l] = b.out + fd.out_offset;
        soft[l] = d_cfg.soft_output ? reinterpret_cast<float*>(hard[l] + turbo_soft_offset(K)) : nullptr;
    }
    if (params[first].input == turbo::INPUT_INT8)
        w.window->decode_int8(reinterpret_cast<const int8_t* const*>(in), int(n), K, d_int8_scale, hard, soft, res);
    else
        w.window->decode(reinterpret_cast<const float* const*>(in), int(n), K, hard, soft, res);
    auto* results = b.results_as<turbo::frame_result>();
    for (size_t l = 0; l < n; l++)
        results[first + l] = { res[l].iterations, res[l].check };
}

void turbo_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    // Work items: single frames in float; in fixed point, runs of frames with
    // one K and input type, as many as one vector takes (SIMD_LANES
    // codewords for cpu-fixed16-simd, 16 / windows for cpu-window16-simd),
    // decoded together. The pool's workers take items in turn, each with its
    // decoder.
    const auto* params = b.params_as<turbo::frame_params>();
    auto max_run = [&](int K) -> size_t {
        switch (d_kind) {
        case kind::fixed_lanes:
            return turbo_fx::SIMD_LANES;
        case kind::window:
            return size_t(turbo_window_decoder::codewords_per_call(K));
        default:
            return 1;
        }
    };
    d_runs.clear();
    for (size_t f = 0; f < b.nframes;) {
        size_t e = f + 1;
        const size_t most = max_run(params[f].K);
        while (e < b.nframes && e - f < most && params[e].K == params[f].K &&
               params[e].input == params[f].input)
            e++;
        d_runs.emplace_back(f, e - f);
        f = e;
    }
    if (d_workers.size() < pool.size())
        d_workers.resize(pool.size());
    pool.parallel_for(d_runs.size(), [&](size_t r, size_t worker) {
        worker_state& w = state(worker);
        if (d_kind == kind::fixed_lanes)
            decode_lanes(b, d_runs[r].first, d_runs[r].second, w);
        else if (d_kind == kind::window)
            decode_window(b, d_runs[r].first, d_runs[r].second, w);
        else
            decode_one(b, d_runs[r].first, w);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
