/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device helpers shared by the turbo decoder kernels (float and fixed point):
// CRC-24 of packed hard decisions split across threads, and the per-kernel
// dynamic shared memory limit.
#ifndef INCLUDED_GPURX_CUDA_TURBO_COMMON_CUH
#define INCLUDED_GPURX_CUDA_TURBO_COMMON_CUH

#include "cuda_check.h"
#include <cuda_runtime.h>
#include <cstdint>
#include <map>
#include <mutex>

namespace gr {
namespace gpurx {
namespace core {

// Polynomial arithmetic modulo a degree-24 CRC generator (for the CRC check
// of packed hard decisions, split across threads).
__device__ inline uint32_t gf_mulmod(uint32_t a, uint32_t b, uint32_t g)
{
    uint32_t r = 0;
    for (int i = 23; i >= 0; i--) {
        r <<= 1;
        if (r & (1u << 24))
            r ^= g | (1u << 24);
        if ((b >> i) & 1u)
            r ^= a;
    }
    return r;
}

__device__ inline uint32_t gf_reduce32(uint32_t w, uint32_t g)
{
    uint32_t r = 0;
    for (int i = 31; i >= 0; i--) {
        r <<= 1;
        if (r & (1u << 24))
            r ^= g | (1u << 24);
        r ^= (w >> i) & 1u;
    }
    return r;
}

// x^(32 u) mod g
__device__ inline uint32_t gf_xpow32(int u, uint32_t g)
{
    uint32_t result = 1;
    // base = x^32 mod g, computed as (x^31 mod g) * x.
    uint32_t base = gf_reduce32(0x80000000u, g);
    base <<= 1;
    if (base & (1u << 24))
        base ^= g | (1u << 24);
    for (int e = u; e > 0; e >>= 1) {
        if (e & 1)
            result = gf_mulmod(result, base, g);
        base = gf_mulmod(base, base, g);
    }
    return result;
}

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

// Hard decision i of a codeword out of the packed words, where it is bit
// K-1-i (the order of the CRC check); threads first, first + stride, ...
// share the work.
__device__ __forceinline__ void
write_hard_decisions(const uint32_t* packed, int K, uint8_t* hard, int first, int stride)
{
    for (int i = first; i < K; i += stride) {
        const int p = K - 1 - i;
        hard[i] = uint8_t((packed[p >> 5] >> (p & 31)) & 1u);
    }
}

// Launches a kernel taking one argument struct, its shared-memory limit
// raised as needed (allow_smem), and checks the launch.
template <typename Args>
void launch_checked(void (*fn)(Args),
                    const char* name,
                    int blocks,
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
