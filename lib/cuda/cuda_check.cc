/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cuda_check.h"

#include <cstdlib>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

void throw_cuda_error(cudaError_t err,
                      const char* call,
                      const char* file,
                      int line,
                      const std::string& context)
{
    std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                      cudaGetErrorString(err) + ") in " + call + " at " + file + ":" +
                      std::to_string(line);
    if (!context.empty())
        msg += " [" + context + "]";
    throw cuda_error(err, msg);
}

bool cuda_portable_forced()
{
    // Read at every launch (tests switch it; getenv costs nanoseconds).
    const char* e = std::getenv("GPURX_CUDA_PORTABLE");
    return e != nullptr && *e != '\0' && std::strcmp(e, "0") != 0;
}

bool cuda_dpx_enabled()
{
    if (cuda_portable_forced())
        return false;
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return major == 9;
}

} // namespace core
} // namespace gpurx
} // namespace gr
