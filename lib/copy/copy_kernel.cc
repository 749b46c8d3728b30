/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "copy/copy_kernel.h"
#include "pipeline/worker_pool.h"

#include <volk/volk.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

void copy_config::validate() const
{
    if (vlen < 1 || vlen > (size_t(1) << 24))
        throw std::invalid_argument("vlen must be in 1..16777216, got " + std::to_string(vlen));
    if (!std::isfinite(scale))
        throw std::invalid_argument("scale must be finite, got " + std::to_string(scale));
}

copy_cpu_kernel::copy_cpu_kernel(const copy_config& cfg) : d_cfg(cfg) { d_cfg.validate(); }

void copy_cpu_kernel::run(const batch_view& b, worker_pool&)
{
    // A memory-bound copy: one thread already saturates what a copy can gain.
    for (size_t f = 0; f < b.nframes; f++) {
        const frame_desc& fd = b.frames[f];
        volk_32f_s32f_multiply_32f(reinterpret_cast<float*>(b.out + fd.out_offset),
                                   reinterpret_cast<const float*>(b.in + fd.in_offset),
                                   d_cfg.scale,
                                   fd.in_bytes / sizeof(float));
    }
}

std::vector<implementation<copy_config>> copy_implementations()
{
    implementation<copy_config> cpu;
    cpu.info = { "cpu-volk", backend_kind::cpu, "VOLK's scaled copy, frame by frame; the reference",
                 "", true };
    cpu.unsupported = [](const copy_config&) { return std::string(); };
    cpu.make_cpu = [](const copy_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<copy_cpu_kernel>(c);
    };
    std::vector<implementation<copy_config>> all{ cpu };
#ifdef GPURX_HAVE_CUDA
    all.push_back(copy_cuda_implementation());
#endif
    return all;
}

kernel_factories copy_kernel_factories(const copy_config& cfg)
{
    cfg.validate();
    kernel_factories k;
    for (const auto& e : copy_implementations()) {
        if (e.make_cpu)
            k.cpu = [cfg, f = e.make_cpu] { return f(cfg); };
        if (e.make_cuda)
            k.cuda = [cfg, f = e.make_cuda](int device) { return f(cfg, device); };
    }
    return k;
}

family_listing copy_listing()
{
    implementation_choice defaults{ "cpu-volk", "", "" };
#ifdef GPURX_HAVE_CUDA
    defaults.cuda = "cuda-scale";
#endif
    return listing_of("copy", copy_implementations(), defaults);
}

} // namespace core
} // namespace gpurx
} // namespace gr
