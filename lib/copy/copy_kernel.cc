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
    cpu.info = { "cpu-volk", backend_kind::cpu, implementation_role::reference, "float",
                 "VOLK's scaled copy, frame by frame; the reference", "", agreement_tolerance::exact(), "" };
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

registry<copy_config> copy_registry() { return registry<copy_config>("copy", copy_implementations()); }

kernel_factories copy_kernel_factories(const copy_config& cfg)
{
    cfg.validate();
    copy_config c = cfg;
    return copy_registry().factories(cfg, copy_registry().choose(c));
}

family_listing copy_listing() { return copy_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr
