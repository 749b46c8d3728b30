/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE grid kernels, one thread per output value (grid-stride loops),
// all on the batch's stream, in this order:
//   cut_windows     fft[b][a][l][t] = in[b][a][window_start[l] + t]
//   (cuFFT, by grid_gpu.cc)
//   extract         grid[..][k] = fft[..][bin[k]] factor[k]  (ofdm_demodulator)
//   least_squares   ls = y conj(r) at every CRS of every port
//   smooth          the moving average (or the LS values, linear mode) into
//                   v, and each pilot's residual (double)
//   frequency       symh: each CRS symbol at every subcarrier
//   noise           one block per subframe: the residuals summed (double),
//                   noise_var and whether the estimate succeeded
//   time            est: each symbol from the pair of CRS symbols around it
//   carry           the last element's last CRS symbol, for the next batch
// The arithmetic is pilot_interpolation.h's (the CPU estimator's), run on
// device_cf; the loops over symbols and pairs are channel_estimator.cc's.
#include "cuda/cuda_check.h"
#include "lte/grid/cuda/grid_kernels.h"
#include "lte/grid/pilot_interpolation.h"

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
constexpr int noise_threads = 256;

unsigned blocks_for(size_t n)
{
    // Grid-stride loops cover the rest beyond 2^20 blocks.
    return unsigned(std::max<size_t>(1, std::min<size_t>((n + threads - 1) / threads, size_t(1) << 20)));
}

#define GRID_STRIDE_LOOP(i, n) \
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += size_t(gridDim.x) * blockDim.x)

//! Row of the pilot and CRS-symbol buffers: ((b n_rx + a) ports + p) 4 + j.
__device__ __forceinline__ size_t crs_row(const grid_layout& L, int b, int a, int p, int j)
{
    return ((size_t(b) * L.n_rx + a) * L.ports + p) * max_crs_symbols + j;
}

//! Splits a row index into b, a, p, j.
__device__ __forceinline__ void split_row(const grid_layout& L, size_t row, int& b, int& a, int& p, int& j)
{
    j = int(row % max_crs_symbols);
    const size_t bap = row / max_crs_symbols;
    p = int(bap % L.ports);
    const size_t ba = bap / L.ports;
    a = int(ba % L.n_rx);
    b = int(ba / L.n_rx);
}

__global__ void cut_windows_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.n_sym * L.fft;
    GRID_STRIDE_LOOP(i, n)
    {
        const size_t sym = i / L.fft; // (b n_rx + a) n_sym + l
        const int t = int(i % L.fft);
        const size_t ba = sym / L.n_sym;
        const int l = int(sym % L.n_sym);
        B.fft[i] = B.in[ba * L.subframe_samples + L.window_start[l] + t];
    }
}

__global__ void extract_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.n_sym * L.n_sc;
    GRID_STRIDE_LOOP(i, n)
    {
        const size_t sym = i / L.n_sc;
        const int k = int(i % L.n_sc);
        B.grid[i] = B.fft[sym * L.fft + B.bin[k]] * B.factor[k];
    }
}

__global__ void least_squares_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.ports * max_crs_symbols * L.n_pil;
    GRID_STRIDE_LOOP(i, n)
    {
        const size_t row = i / L.n_pil;
        const int m = int(i % L.n_pil);
        int b, a, p, j;
        split_row(L, row, b, a, p, j);
        if (j >= L.n_crs[p])
            continue;
        const int l = L.crs_l[p][j];
        const int sf = (L.first_subframe + b) % 10;
        const device_cf* y = B.grid + ((size_t(b) * L.n_rx + a) * L.n_sym + l) * L.n_sc;
        const device_cf* r = B.crs + (size_t(sf) * L.n_sym + l) * L.n_pil;
        B.ls[i] = crs_least_squares_at(y, r, L.crs_offset[p][j], m);
    }
}

__global__ void smooth_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.ports * max_crs_symbols * L.n_pil;
    GRID_STRIDE_LOOP(i, n)
    {
        const size_t row = i / L.n_pil;
        const int m = int(i % L.n_pil);
        int b, a, p, j;
        split_row(L, row, b, a, p, j);
        if (j >= L.n_crs[p])
            continue;
        const device_cf* ls = B.ls + row * L.n_pil;
        const device_cf s = smoothed_pilot_at(ls, L.n_pil, L.half, m);
        B.v[i] = L.averaged ? s : ls[m];
        B.resid[i] = smoothing_residual_at(ls[m], s, L.n_pil, L.half, m);
    }
}

__global__ void frequency_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.ports * max_crs_symbols * L.n_sc;
    GRID_STRIDE_LOOP(i, n)
    {
        const size_t row = i / L.n_sc;
        const int k = int(i % L.n_sc);
        int b, a, p, j;
        split_row(L, row, b, a, p, j);
        if (j >= L.n_crs[p])
            continue;
        B.symh[i] = interpolate_frequency_at(B.v + row * L.n_pil, L.n_pil, L.crs_offset[p][j], k);
    }
}

//! One block per batch element: the channel estimator's noise variance
//! (resid / weight over the noise ports) and its finiteness test (the
//! residual of every port).
__global__ void noise_kernel(grid_layout L, grid_buffers B)
{
    __shared__ double s_resid[noise_threads], s_weight[noise_threads], s_all[noise_threads];
    const int b = blockIdx.x;
    const size_t per_b = size_t(L.n_rx) * L.ports * max_crs_symbols * L.n_pil;
    double resid = 0.0, weight = 0.0, all = 0.0;
    for (size_t e = threadIdx.x; e < per_b; e += blockDim.x) {
        const int m = int(e % L.n_pil);
        const size_t rib = e / L.n_pil; // (a ports + p) 4 + j
        const int j = int(rib % max_crs_symbols);
        const int p = int((rib / max_crs_symbols) % L.ports);
        if (j >= L.n_crs[p])
            continue;
        const double r = B.resid[size_t(b) * per_b + e];
        all += r;
        if (p < L.noise_ports) {
            resid += r;
            weight += smoothing_weight_at(L.n_pil, L.half, m);
        }
    }
    s_resid[threadIdx.x] = resid;
    s_weight[threadIdx.x] = weight;
    s_all[threadIdx.x] = all;
    __syncthreads();
    for (int w = noise_threads / 2; w > 0; w /= 2) {
        if (int(threadIdx.x) < w) {
            s_resid[threadIdx.x] += s_resid[threadIdx.x + w];
            s_weight[threadIdx.x] += s_weight[threadIdx.x + w];
            s_all[threadIdx.x] += s_all[threadIdx.x + w];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const double nv = s_weight[0] > 0.0 ? s_resid[0] / s_weight[0] : 0.0;
        const bool good = isfinite(nv) && isfinite(s_all[0]);
        B.noise[b] = good ? float(nv) : 0.0f;
        B.ok[b] = good ? 1 : 0;
    }
}

__global__ void time_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.ports * L.n_sym * L.n_sc;
    GRID_STRIDE_LOOP(i, n)
    {
        const int k = int(i % L.n_sc);
        size_t rest = i / L.n_sc;
        const int l = int(rest % L.n_sym);
        rest /= L.n_sym;
        const int p = int(rest % L.ports);
        rest /= L.ports;
        const int a = int(rest % L.n_rx);
        const int b = int(rest / L.n_rx);
        if (!B.ok[b]) { // as the CPU's failed estimate: zeros
            B.est[i] = device_cf(0.0f, 0.0f);
            continue;
        }
        // The previous subframe's last CRS symbol, n_sym symbols earlier:
        // the previous element's, or the previous batch's (the carry).
        const bool previous = b == 0 ? (L.carry_usable && *B.carry_ok) : (L.use_previous && B.ok[b - 1]);
        const int nc = L.n_crs[p];
        int sym_l[max_crs_symbols + 1];
        const device_cf* sym_h[max_crs_symbols + 1];
        int n_list = 0;
        if (previous) {
            sym_l[n_list] = L.crs_l[p][nc - 1] - L.n_sym;
            sym_h[n_list] = b == 0 ? B.carry + (size_t(a) * L.ports + p) * L.n_sc
                                   : B.symh + crs_row(L, b - 1, a, p, nc - 1) * L.n_sc;
            n_list++;
        }
        for (int j = 0; j < nc; j++) {
            sym_l[n_list] = L.crs_l[p][j];
            sym_h[n_list] = B.symh + crs_row(L, b, a, p, j) * L.n_sc;
            n_list++;
        }
        // The pair of CRS symbols around l (channel_estimator.cc's loop).
        int q = 0;
        while (q + 2 < n_list && sym_l[q + 1] < l)
            q++;
        B.est[i] = interpolate_time(sym_h[q][k], sym_h[q + 1][k], sym_l[q], sym_l[q + 1], l, L.hold != 0);
    }
}

__global__ void carry_kernel(grid_layout L, grid_buffers B)
{
    const size_t n = size_t(L.n_rx) * L.ports * L.n_sc;
    const int last = L.batch - 1;
    GRID_STRIDE_LOOP(i, n)
    {
        const int k = int(i % L.n_sc);
        const size_t ap = i / L.n_sc;
        const int p = int(ap % L.ports);
        const int a = int(ap / L.ports);
        B.carry[i] = B.symh[crs_row(L, last, a, p, L.n_crs[p] - 1) * L.n_sc + k];
        if (i == 0)
            *B.carry_ok = B.ok[last];
    }
}

} // namespace

void enqueue_cut_windows(const grid_layout& L, const grid_buffers& B, cudaStream_t s)
{
    const size_t n = size_t(L.batch) * L.n_rx * L.n_sym * L.fft;
    cut_windows_kernel<<<blocks_for(n), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid cut_windows_kernel");
}

void enqueue_grid_and_estimate(const grid_layout& L, const grid_buffers& B, cudaStream_t s)
{
    const size_t symbols = size_t(L.batch) * L.n_rx * L.n_sym;
    const size_t rows = size_t(L.batch) * L.n_rx * L.ports * max_crs_symbols;
    extract_kernel<<<blocks_for(symbols * L.n_sc), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid extract_kernel");
    least_squares_kernel<<<blocks_for(rows * L.n_pil), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid least_squares_kernel");
    smooth_kernel<<<blocks_for(rows * L.n_pil), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid smooth_kernel");
    frequency_kernel<<<blocks_for(rows * L.n_sc), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid frequency_kernel");
    noise_kernel<<<unsigned(L.batch), noise_threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid noise_kernel");
    time_kernel<<<blocks_for(symbols * L.ports * L.n_sc), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid time_kernel");
    carry_kernel<<<blocks_for(size_t(L.n_rx) * L.ports * L.n_sc), threads, 0, s>>>(L, B);
    GPURX_CUDA_CHECK_LAUNCH("lte grid carry_kernel");
}

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
