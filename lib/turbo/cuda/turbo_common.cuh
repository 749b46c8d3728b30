/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device helpers shared by the turbo decoder kernels (float and fixed point):
// CRC-24 of packed hard decisions split across threads, and hard-decision
// unpacking.
#ifndef INCLUDED_GPURX_TURBO_CUDA_TURBO_COMMON_CUH
#define INCLUDED_GPURX_TURBO_CUDA_TURBO_COMMON_CUH

#include "cuda/launch.cuh"
#include <cuda_runtime.h>
#include <cstdint>

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

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
