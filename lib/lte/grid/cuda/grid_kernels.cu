/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE grid kernels: grid-stride loops over grid_elements.h's functions,
// one thread per output value, all on the batch's stream, in this order:
//   cut_windows     the FFT windows
//   (cuFFT, by grid_gpu.cc)
//   extract         the grids
//   least_squares   LS at every CRS of every port
//   smooth          the moving average (or the LS values), each pilot's residual
//   frequency       each CRS symbol at every subcarrier
//   noise           one block per subframe: the residuals summed (double) by
//                   a tree in shared memory, noise_var and success
//   time            the estimates
//   carry           the last element's last CRS symbol, for the next batch
// Each kernel reads only what the kernels before it wrote (stream order).
#include "cuda/cuda_check.h"
#include "lte/grid/cuda/grid_kernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

namespace {

constexpr int threads = 256;
constexpr int noise_threads = 256; // a power of two: the tree below halves it

unsigned blocks_for(size_t n)
{
    // Grid-stride loops cover the rest beyond 2^20 blocks.
    return unsigned(std::max<size_t>(1, std::min<size_t>((n + threads - 1) / threads, size_t(1) << 20)));
}

#define GRID_STRIDE_LOOP(i, n) \
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += size_t(gridDim.x) * blockDim.x)

__global__ void cut_windows_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = cut_windows_count(L);
    GRID_STRIDE_LOOP(i, n) cut_window_at(L, B, i);
}

__global__ void extract_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = extract_count(L);
    GRID_STRIDE_LOOP(i, n) extract_at(L, B, i);
}

__global__ void least_squares_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = pilot_count(L);
    GRID_STRIDE_LOOP(i, n) least_squares_at(L, B, i);
}

__global__ void smooth_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = pilot_count(L);
    GRID_STRIDE_LOOP(i, n) smooth_at(L, B, i);
}

__global__ void frequency_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = frequency_count(L);
    GRID_STRIDE_LOOP(i, n) frequency_at(L, B, i);
}

//! Block b: subframe b's terms, each thread a strided share, then a tree.
__global__ void noise_kernel(grid_layout L, grid_buffers B)
{
    __shared__ double s_resid[noise_threads], s_weight[noise_threads], s_all[noise_threads];
    __shared__ double s_resid_n[noise_threads], s_weight_n[noise_threads];
    const int b = int(blockIdx.x);
    const size_t n = noise_terms_per_subframe(L);
    double resid = 0.0, weight = 0.0, resid_n = 0.0, weight_n = 0.0, all = 0.0;
    for (size_t e = threadIdx.x; e < n; e += blockDim.x)
        add_noise_term(L, B, b, e, resid, weight, resid_n, weight_n, all);
    s_resid[threadIdx.x] = resid;
    s_weight[threadIdx.x] = weight;
    s_resid_n[threadIdx.x] = resid_n;
    s_weight_n[threadIdx.x] = weight_n;
    s_all[threadIdx.x] = all;
    __syncthreads();
    for (int w = noise_threads / 2; w > 0; w /= 2) {
        if (int(threadIdx.x) < w) {
            s_resid[threadIdx.x] += s_resid[threadIdx.x + w];
            s_weight[threadIdx.x] += s_weight[threadIdx.x + w];
            s_resid_n[threadIdx.x] += s_resid_n[threadIdx.x + w];
            s_weight_n[threadIdx.x] += s_weight_n[threadIdx.x + w];
            s_all[threadIdx.x] += s_all[threadIdx.x + w];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        finish_noise(L, B, b, s_resid[0], s_weight[0], s_resid_n[0], s_weight_n[0], s_all[0]);
}

__global__ void time_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = time_count(L);
    GRID_STRIDE_LOOP(i, n) time_at(L, B, i);
}

__global__ void carry_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = carry_count(L);
    GRID_STRIDE_LOOP(i, n) carry_at(L, B, i);
}

} // namespace

void enqueue_cut_windows(const grid_layout& L, const grid_buffers& B, cudaStream_t s)
{
    cut_windows_kernel<<<blocks_for(cut_windows_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid cut_windows_kernel");
}

void enqueue_grid_and_estimate(const grid_layout& L, const grid_buffers& B, cudaStream_t s)
{
    extract_kernel<<<blocks_for(extract_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid extract_kernel");
    least_squares_kernel<<<blocks_for(pilot_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid least_squares_kernel");
    smooth_kernel<<<blocks_for(pilot_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid smooth_kernel");
    // The noise first: it chooses each subframe's average, which the
    // frequency interpolation reads.
    noise_kernel<<<unsigned(L.batch), noise_threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid noise_kernel");
    frequency_kernel<<<blocks_for(frequency_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid frequency_kernel");
    time_kernel<<<blocks_for(time_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid time_kernel");
    carry_kernel<<<blocks_for(carry_count(L)), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid carry_kernel");
}

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
