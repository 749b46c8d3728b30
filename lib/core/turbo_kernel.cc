/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo_kernel.h"
#include "lte_qpp.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {
namespace core {

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
}

size_t turbo_batch_kernel::scratch_bytes(size_t max_frames) const
{
    return max_frames * turbo_scratch_floats(d_cfg.subblocks) * sizeof(float);
}

void turbo_batch_kernel::decode_range(const batch_view& b, size_t first, size_t step, size_t worker)
{
    for (size_t f = first; f < b.nframes; f += step) {
        const frame_desc& fd = b.frames[f];
        const int K = frame_K(fd);
        uint8_t* hard = b.out + fd.out_offset;
        float* soft = d_cfg.soft_output
                          ? reinterpret_cast<float*>(hard + turbo_soft_offset(K))
                          : nullptr;
        turbo_decoder_cpu& dec = *d_decoders[worker];
        const auto r = (fd.flags & TURBO_INPUT_INT8)
                           ? dec.decode_int8(reinterpret_cast<const int8_t*>(b.in + fd.in_offset),
                                             K, d_int8_scale, hard, soft)
                           : dec.decode(reinterpret_cast<const float*>(b.in + fd.in_offset), K,
                                        hard, soft);
        b.results[f] = { FRAME_OK, r.iterations, r.check, 0 };
    }
}

void turbo_batch_kernel::run_cpu(const batch_view& b)
{
    const size_t n = std::min(d_threads, b.nframes);
    if (n <= 1) {
        decode_range(b, 0, 1, 0);
        return;
    }
    std::vector<std::thread> workers;
    workers.reserve(n - 1);
    for (size_t t = 1; t < n; t++)
        workers.emplace_back([this, &b, t, n] { decode_range(b, t, n, t); });
    decode_range(b, 0, n, 0);
    for (auto& th : workers)
        th.join();
}

void turbo_batch_kernel::enqueue_cuda(const batch_view& dev, const frame_desc* host_frames, void* stream)
{
    int max_K = 0, max_windows = 0;
    bool int8 = false;
    for (size_t f = 0; f < dev.nframes; f++) {
        const int K = frame_K(host_frames[f]);
        max_K = std::max(max_K, K);
        max_windows = std::max(max_windows, turbo::window_count(K, d_cfg.subblocks));
        int8 = int8 || (host_frames[f].flags & TURBO_INPUT_INT8);
    }
    for (size_t f = 0; f < dev.nframes; f++)
        if (bool(host_frames[f].flags & TURBO_INPUT_INT8) != int8)
            throw std::invalid_argument("turbo batch mixes int8 and float32 input");
    cuda_turbo_decode(dev, d_cfg, d_int8_scale, int8, max_K, max_windows, stream);
}

} // namespace core
} // namespace gpurx
} // namespace gr
