/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo_kernel.h"
#include "lte_qpp.h"
#include "turbo_fixed.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {
namespace core {

turbo_geometry turbo_geometry_of(const turbo_config& cfg, int K)
{
    const int P = cfg.subblocks_for(K);
    const int W = turbo::window_length(K, P), nwin = turbo::window_count(K, P);
    return { K, nwin, W, W * nwin };
}

uint32_t turbo_frame_param(int K)
{
    const qpp_params q = lte_qpp(K);
    return uint32_t(q.K) | (uint32_t(q.f1) << 13) | (uint32_t(q.f2) << 22);
}

turbo_batch_kernel::turbo_batch_kernel(const turbo_config& cfg, int cpu_threads, float int8_scale)
    : d_cfg(cfg), d_int8_scale(int8_scale)
{
    d_cfg.validate();
    if (cpu_threads < 0)
        throw std::invalid_argument("cpu_threads must be >= 0, got " + std::to_string(cpu_threads));
    d_threads = cpu_threads ? size_t(cpu_threads)
                            : std::max<size_t>(1, std::thread::hardware_concurrency());
    for (size_t i = 0; i < d_threads; i++)
        d_decoders.push_back(std::make_unique<turbo_decoder_cpu>(d_cfg));
    d_quant.assign(d_threads, std::vector<std::vector<int>>(turbo_fx::SIMD_LANES));
}

size_t turbo_batch_kernel::scratch_bytes(size_t max_frames) const
{
    return max_frames * turbo_scratch_floats(d_cfg.max_subblocks()) * sizeof(float);
}

void turbo_batch_kernel::decode_one(const batch_view& b, size_t f, size_t worker)
{
    const frame_desc& fd = b.frames[f];
    const int K = frame_K(fd);
    uint8_t* hard = b.out + fd.out_offset;
    float* soft = d_cfg.soft_output ? reinterpret_cast<float*>(hard + turbo_soft_offset(K)) : nullptr;
    turbo_decoder_cpu& dec = *d_decoders[worker];
    const auto r = (fd.flags & TURBO_INPUT_INT8)
                       ? dec.decode_int8(reinterpret_cast<const int8_t*>(b.in + fd.in_offset), K,
                                         d_int8_scale, hard, soft)
                       : dec.decode(reinterpret_cast<const float*>(b.in + fd.in_offset), K, hard, soft);
    b.results[f] = { FRAME_OK, r.iterations, r.check, 0 };
}

void turbo_batch_kernel::decode_lanes(const batch_view& b, size_t first, size_t n, size_t worker)
{
    const int K = frame_K(b.frames[first]);
    const size_t len = 3 * size_t(K) + 12;
    const int* q[turbo_fx::SIMD_LANES];
    uint8_t* hard[turbo_fx::SIMD_LANES];
    float* soft[turbo_fx::SIMD_LANES];
    turbo_decode_result res[turbo_fx::SIMD_LANES];
    float soft_unit = 1.0f / d_cfg.fixed_scale;
    for (size_t l = 0; l < n; l++) {
        const frame_desc& fd = b.frames[first + l];
        auto& buf = d_quant[worker][l];
        buf.resize(len);
        if (fd.flags & TURBO_INPUT_INT8) {
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
    d_decoders[worker]->decode_fixed_lanes(q, int(n), K, soft_unit, hard, soft, res);
    for (size_t l = 0; l < n; l++)
        b.results[first + l] = { FRAME_OK, res[l].iterations, res[l].check, 0 };
}

void turbo_batch_kernel::run_cpu(const batch_view& b)
{
    // Work items: single frames in float; in fixed point, runs of frames with
    // one K and input type, SIMD_LANES at most, decoded as the lanes of one
    // vector. Workers (one decoder each) take items in turn.
    const bool lanes = d_cfg.uses_fixed_point();
    const size_t max_run = lanes ? size_t(turbo_fx::SIMD_LANES) : 1;
    std::vector<std::pair<size_t, size_t>> runs;
    for (size_t f = 0; f < b.nframes;) {
        size_t e = f + 1;
        while (e < b.nframes && e - f < max_run && frame_K(b.frames[e]) == frame_K(b.frames[f]) &&
               (b.frames[e].flags & TURBO_INPUT_INT8) == (b.frames[f].flags & TURBO_INPUT_INT8))
            e++;
        runs.emplace_back(f, e - f);
        f = e;
    }
    auto work = [this, &b, &runs, lanes](size_t t, size_t step) {
        for (size_t r = t; r < runs.size(); r += step) {
            if (lanes)
                decode_lanes(b, runs[r].first, runs[r].second, t);
            else
                decode_one(b, runs[r].first, t);
        }
    };
    const size_t n = std::max<size_t>(1, std::min(d_threads, runs.size()));
    std::vector<std::thread> workers;
    for (size_t t = 1; t < n; t++)
        workers.emplace_back(work, t, n);
    work(0, n);
    for (auto& th : workers)
        th.join();
}

void turbo_batch_kernel::enqueue_cuda(const batch_view& dev, const frame_desc* host_frames, void* stream)
{
    turbo_geometry geo{ 0, 0, 0, 0 };
    bool int8 = false;
    for (size_t f = 0; f < dev.nframes; f++) {
        const turbo_geometry g = turbo_geometry_of(d_cfg, frame_K(host_frames[f]));
        geo.max_K = std::max(geo.max_K, g.max_K);
        geo.max_windows = std::max(geo.max_windows, g.max_windows);
        geo.max_W = std::max(geo.max_W, g.max_W);
        geo.max_slots = std::max(geo.max_slots, g.max_slots);
        int8 = int8 || (host_frames[f].flags & TURBO_INPUT_INT8);
    }
    for (size_t f = 0; f < dev.nframes; f++)
        if (bool(host_frames[f].flags & TURBO_INPUT_INT8) != int8)
            throw std::invalid_argument("turbo batch mixes int8 and float32 input");
    cuda_turbo_decode(dev, d_cfg, d_int8_scale, int8, geo, stream);
}

} // namespace core
} // namespace gpurx
} // namespace gr
