/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The batch_copy kernel: a scaled copy, memory-bound by design. It exists to
// measure the pipeline (copy-in, kernel, copy-out overlap), so it moves 16
// bytes per thread per step and touches each byte once.
#include "copy/cuda/copy_launch.h"
#include "cuda/cuda_check.h"

#include <cuda_runtime.h>

namespace gr {
namespace gpurx {
namespace core {

namespace {

__global__ void scale_kernel(const float4* __restrict__ in,
                             float4* __restrict__ out,
                             size_t n4,
                             const float* __restrict__ in_tail,
                             float* __restrict__ out_tail,
                             size_t ntail,
                             float scale)
{
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    const size_t tid = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (size_t i = tid; i < n4; i += stride) {
        float4 v = in[i];
        v.x *= scale;
        v.y *= scale;
        v.z *= scale;
        v.w *= scale;
        out[i] = v;
    }
    if (tid < ntail)
        out_tail[tid] = in_tail[tid] * scale;
}

} // namespace

void cuda_scale_batch(const batch_view& dev, size_t nfloats, float scale, void* stream)
{
    const size_t n4 = nfloats / 4;
    const size_t ntail = nfloats % 4;
    const size_t work = n4;
    const int threads = 256;
    // Enough blocks to fill an H100 several times over; grid-stride beyond that.
    const size_t blocks_needed = (work + threads - 1) / threads;
    const int blocks = static_cast<int>(blocks_needed < 4096 ? (blocks_needed ? blocks_needed : 1) : 4096);
    const float* in = reinterpret_cast<const float*>(dev.in);
    float* out = reinterpret_cast<float*>(dev.out);
    scale_kernel<<<blocks, threads, 0, static_cast<cudaStream_t>(stream)>>>(
        reinterpret_cast<const float4*>(in),
        reinterpret_cast<float4*>(out),
        n4,
        in + 4 * n4,
        out + 4 * n4,
        ntail,
        scale);
    GPURX_CUDA_CHECK_LAUNCH("scale_kernel");
}

} // namespace core
} // namespace gpurx
} // namespace gr
