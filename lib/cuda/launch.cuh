/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Kernel launch helpers shared by every family's CUDA code: the per-kernel
// dynamic shared memory limit, and a checked launch.
#ifndef INCLUDED_GPURX_CUDA_LAUNCH_CUH
#define INCLUDED_GPURX_CUDA_LAUNCH_CUH

#include "cuda/cuda_check.h"
#include <cuda_runtime.h>
#include <map>
#include <mutex>

namespace gr {
namespace gpurx {
namespace core {

// Raises a kernel's dynamic shared memory limit on the current device when a
// launch needs more than it was last set to, instead of on every launch.
template <typename Fn>
void allow_smem(Fn* fn, size_t bytes, bool max_carveout = false)
{
    static std::mutex m;
    static std::map<std::pair<const void*, int>, size_t> allowed; // (kernel, device) -> bytes
    int dev = 0;
    GPURX_CUDA_CHECK(cudaGetDevice(&dev));
    std::lock_guard<std::mutex> lock(m);
    size_t& a = allowed[{ reinterpret_cast<const void*>(fn), dev }];
    if (bytes > a) {
        GPURX_CUDA_CHECK(cudaFuncSetAttribute(
            fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
        // The largest shared memory carveout, for kernels that keep their
        // data there (else the driver may choose one that fits fewer blocks
        // than registers allow); the others keep L1 for their global loads.
        if (max_carveout)
            GPURX_CUDA_CHECK(cudaFuncSetAttribute(fn,
                                                  cudaFuncAttributePreferredSharedMemoryCarveout,
                                                  int(cudaSharedmemCarveoutMaxShared)));
        a = bytes;
    }
}

// Launches a kernel taking one argument struct over a grid of \p blocks (a
// count or a dim3), its shared-memory limit raised as needed (allow_smem),
// and checks the launch.
template <typename Args>
void launch_checked(void (*fn)(Args),
                    const char* name,
                    dim3 blocks,
                    int threads,
                    size_t smem,
                    cudaStream_t st,
                    const Args& a,
                    bool max_carveout = false)
{
    allow_smem(fn, smem, max_carveout);
    fn<<<blocks, threads, smem, st>>>(a);
    check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__, name);
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
