/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cuda_dpx.h"
#include "cuda/cuda_check.h"

#include <cuda_runtime_api.h>

#include <cstdlib>

namespace gr {
namespace gpurx {
namespace core {

bool cuda_dpx_for_device(int device)
{
    int major = 0;
    GPURX_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    return cuda_dpx_policy(major, std::getenv("GPURX_CUDA_PORTABLE"));
}

} // namespace core
} // namespace gpurx
} // namespace gr
