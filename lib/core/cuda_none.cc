/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CUDA entry points of the core, for builds without CUDA.
#include "batch_engine.h"
#include "cuda_launchers.h"
#include "turbo_launch.h"
#include "cuda_probe.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

const cuda_probe_result& probe_cuda()
{
    static const cuda_probe_result r = [] {
        cuda_probe_result p;
        p.compiled_in = false;
        p.problem = "gr-gpurx was built without CUDA";
        return p;
    }();
    return r;
}

std::unique_ptr<batch_engine> make_cuda_engine(batch_kernel&, size_t, const slot_geometry&, int)
{
    throw std::runtime_error("gr-gpurx was built without CUDA: no CUDA engine");
}

void cuda_scale_batch(const batch_view&, size_t, float, void*)
{
    throw std::runtime_error("gr-gpurx was built without CUDA: cuda_scale_batch");
}

void cuda_turbo_decode(const batch_view&, const turbo_config&, float, bool, const turbo_geometry&, void*)
{
    throw std::runtime_error("gr-gpurx was built without CUDA: cuda_turbo_decode");
}

} // namespace core
} // namespace gpurx
} // namespace gr
