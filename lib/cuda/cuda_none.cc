/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CUDA runtime's entry points, for builds without CUDA: the probe says
// so, and pinning does nothing. Families need nothing here: their CUDA
// implementations are simply not registered.
#include "cuda/cuda_probe.h"
#include "cuda/host_pinning.h"

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

// Nothing to pin for: the memory is used as it is.
pinned_host_region::pinned_host_region(void* p, size_t) : d_p(p) {}
pinned_host_region::~pinned_host_region() = default;

} // namespace core
} // namespace gpurx
} // namespace gr
