/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/host_pinning.h"
#include "cuda/cuda_check.h"
#include "pipeline/cuda_probe.h"

#include <cstdio>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {
bool any_usable_device()
{
    for (const auto& d : probe_cuda().devices)
        if (d.usable)
            return true;
    return false;
}
} // namespace

pinned_host_region::pinned_host_region(void* p, size_t bytes) : d_p(p)
{
    if (!p || bytes == 0 || !any_usable_device())
        return;
    // Portable: the pipeline's slots may run on any of several GPUs.
    GPURX_CUDA_CHECK_CTX(cudaHostRegister(p, bytes, cudaHostRegisterPortable),
                         "pinning " + std::to_string(bytes) + " bytes of host memory");
    d_pinned = true;
}

pinned_host_region::~pinned_host_region()
{
    if (!d_pinned)
        return;
    // A destructor cannot throw: a failure is reported, not hidden.
    const cudaError_t e = cudaHostUnregister(d_p);
    if (e != cudaSuccess)
        std::fprintf(stderr, "gr-gpurx: cudaHostUnregister failed: %s\n", cudaGetErrorString(e));
}

} // namespace core
} // namespace gpurx
} // namespace gr
