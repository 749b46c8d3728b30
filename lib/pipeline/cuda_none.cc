/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The pipeline's CUDA entry points, for builds without CUDA. Families need
// nothing here: their CUDA implementations are simply not registered.
#include "pipeline/batch_engine.h"
#include "pipeline/cuda_probe.h"
#include "pipeline/host_pinning.h"

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

// Nothing to pin for: the memory is used as it is.
pinned_host_region::pinned_host_region(void* p, size_t) : d_p(p) {}
pinned_host_region::~pinned_host_region() = default;

std::unique_ptr<batch_engine>
make_cuda_engine(const cuda_kernel_factory&, size_t, const slot_geometry&, const std::vector<int>&)
{
    throw std::runtime_error("gr-gpurx was built without CUDA: no CUDA engine");
}

} // namespace core
} // namespace gpurx
} // namespace gr
