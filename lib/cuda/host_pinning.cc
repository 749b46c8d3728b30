/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/host_pinning.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_probe.h"

#include <cstdio>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {
//! The first usable device's ordinal, -1 when none.
int first_usable_device()
{
    for (const auto& d : probe_cuda().devices)
        if (d.usable)
            return d.ordinal;
    return -1;
}
} // namespace

pinned_host_region::pinned_host_region(void* p, size_t bytes) : d_p(p)
{
    const int dev = first_usable_device();
    if (!p || bytes == 0 || dev < 0)
        return;
    // Registered with a usable device current (the current one may be
    // unusable); portable, so the pipeline's slots on any GPU see it pinned.
    int current = 0;
    GPURX_CUDA_CHECK(cudaGetDevice(&current));
    GPURX_CUDA_CHECK(cudaSetDevice(dev));
    const cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
    GPURX_CUDA_CHECK(cudaSetDevice(current));
    GPURX_CUDA_CHECK_CTX(e, "pinning " + std::to_string(bytes) + " bytes of host memory on CUDA device " +
                                std::to_string(dev));
    d_pinned = true;
}

pinned_host_region::~pinned_host_region()
{
    if (!d_pinned)
        return;
    // A destructor cannot throw: a failure is reported, not hidden.
    const cudaError_t e = cudaHostUnregister(d_p);
    if (e != cudaSuccess) {
        std::fprintf(stderr, "gr-gpurx: cudaHostUnregister failed: %s\n", cudaGetErrorString(e));
        cudaGetLastError(); // reported here: not to resurface as a later launch's error
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
