/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM channel estimator on a GPU (cuda-ls), a batch of frames per
// launch, on the engine's stream and scratch:
//   ls_kernel      one thread per (frame, subcarrier, receive antenna): the
//                  least-squares H^[r][j] for every j, then the residual of
//                  the T training symbols (float); H^ and the residual go to
//                  the frame's scratch
//   group_kernel   one thread per (frame, group, entry of H): the group's
//                  average, in subcarrier order, into the frame's output
//   y_kernel       one thread per (frame, output value): the data symbols'
//                  y vectors in the detector's order
//   n0_kernel      one block per frame: the residual's sum in double, N0
//                  into the result record (bad frames: output zeroed)
// The training sequence (Zadoff-Chu) is computed in double and rounded to
// float, as mimo_training does, and the Hadamard cover from its parity
// rule: no table to copy. Float arithmetic against cpu-ls's double: the two
// agree to float rounding (the registry's tolerance, test_mimo_chanest).
#include "cuda/cuda_check.h"
#include "ofdm/chanest_frame.h"
#include "ofdm/cuda/chanest_launch.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
constexpr int max_nt = 8;
constexpr int threads = 128;
constexpr int n0_threads = 256;
constexpr size_t max_grid_y = 65535;

__device__ __forceinline__ float2 zadoff_chu(int k, int used)
{
    // As mimo_training's constructor: double phase, float value.
    const int n = used % 2 ? used : used + 1;
    const double pi = 3.141592653589793238462643383279502884;
    const double ph = -pi * double(k) * double(k + 1) / n;
    return make_float2(float(cos(ph)), float(sin(ph)));
}

__device__ __forceinline__ float cover(int j, int c) { return (__popc(unsigned(j & c)) & 1) ? -1.0f : 1.0f; }

struct batch_args {
    const frame_desc* frames;
    const chanest_frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    uint8_t* scratch;
    chanest_frame_result* results;
    size_t stride;   // scratch bytes per frame
    size_t max_work; // estimates per frame the scratch holds
};

__device__ __forceinline__ float2* work_h(const batch_args& a, size_t f)
{
    return reinterpret_cast<float2*>(a.scratch + f * a.stride); // (k * nr + r) * nt + j
}
__device__ __forceinline__ float* work_resid(const batch_args& a, size_t f)
{
    return reinterpret_cast<float*>(a.scratch + f * a.stride + a.max_work * sizeof(float2)); // k * nr + r
}

__global__ void ls_kernel(batch_args a, size_t first)
{
    const size_t f = first + blockIdx.y;
    const chanest_frame_params p = a.params[f];
    if (!chanest_frame_ok(p, a.frames[f], a.max_work))
        return;
    const int nt = p.nt, nr = p.nr, K = p.used, T = chanest_training_symbols(p);
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= K * nr)
        return;
    const int k = idx / nr, r = idx % nr;
    const float2* y = reinterpret_cast<const float2*>(a.in + a.frames[f].in_offset);
    float2 acc[max_nt];
    for (int j = 0; j < nt; j++)
        acc[j] = make_float2(0.0f, 0.0f);
    for (int t = 0; t < T; t++) {
        const float2 v = y[(size_t(t) * nr + r) * K + k];
        for (int j = 0; j < nt; j++) {
            const float c = cover(j, t % nt);
            acc[j].x += c * v.x;
            acc[j].y += c * v.y;
        }
    }
    const float2 lk = zadoff_chu(k, K);
    float2* h = work_h(a, f);
    for (int j = 0; j < nt; j++) {
        // acc conj(L) / T
        const float re = (acc[j].x * lk.x + acc[j].y * lk.y) / float(T);
        const float im = (acc[j].y * lk.x - acc[j].x * lk.y) / float(T);
        acc[j] = make_float2(re, im);
        h[(size_t(k) * nr + r) * nt + j] = acc[j];
    }
    float e = 0.0f;
    for (int t = 0; t < T; t++) {
        float2 m = make_float2(0.0f, 0.0f);
        for (int j = 0; j < nt; j++) {
            const float c = cover(j, t % nt);
            m.x += c * acc[j].x;
            m.y += c * acc[j].y;
        }
        const float2 v = y[(size_t(t) * nr + r) * K + k];
        const float dx = v.x - (m.x * lk.x - m.y * lk.y);
        const float dy = v.y - (m.x * lk.y + m.y * lk.x);
        e += dx * dx + dy * dy;
    }
    work_resid(a, f)[idx] = e;
}

__global__ void group_kernel(batch_args a, size_t first)
{
    const size_t f = first + blockIdx.y;
    const chanest_frame_params p = a.params[f];
    if (!chanest_frame_ok(p, a.frames[f], a.max_work))
        return;
    const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t per = size_t(p.nr) * p.nt;
    if (idx >= chanest_h_values(p))
        return;
    const size_t g = idx / per, i = idx % per;
    const float2* h = work_h(a, f);
    float2 acc = make_float2(0.0f, 0.0f);
    for (int k = int(g) * p.group; k < int(g + 1) * p.group; k++) {
        const float2 v = h[size_t(k) * per + i];
        acc.x += v.x / float(p.group);
        acc.y += v.y / float(p.group);
    }
    float2* out = reinterpret_cast<float2*>(a.out + a.frames[f].out_offset) + chanest_y_values(p);
    out[idx] = acc;
}

__global__ void y_kernel(batch_args a, size_t first)
{
    const size_t f = first + blockIdx.y;
    const chanest_frame_params p = a.params[f];
    if (!chanest_frame_ok(p, a.frames[f], a.max_work))
        return;
    const size_t e = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e >= chanest_y_values(p))
        return;
    const size_t nr = size_t(p.nr), per_k = size_t(p.data_symbols) * nr;
    const size_t k = e / per_k, s = (e % per_k) / nr, r = e % nr;
    const size_t T = size_t(chanest_training_symbols(p));
    const float2* y = reinterpret_cast<const float2*>(a.in + a.frames[f].in_offset);
    float2* out = reinterpret_cast<float2*>(a.out + a.frames[f].out_offset);
    out[e] = y[((T + s) * nr + r) * size_t(p.used) + k];
}

__global__ void n0_kernel(batch_args a, size_t first)
{
    const size_t f = first + blockIdx.x;
    const chanest_frame_params p = a.params[f];
    const frame_desc d = a.frames[f];
    if (!chanest_frame_ok(p, d, a.max_work)) {
        // Zeros for a frame not estimated (its byte count is a multiple of 8
        // only when the record is right: zero byte by byte).
        uint8_t* out = a.out + d.out_offset;
        for (size_t i = threadIdx.x; i < d.out_bytes; i += blockDim.x)
            out[i] = 0;
        if (threadIdx.x == 0)
            a.results[f] = { 0.0, CHANEST_BAD_FRAME, 0 };
        return;
    }
    __shared__ double part[n0_threads];
    const float* resid = work_resid(a, f);
    const size_t n = size_t(p.used) * p.nr;
    double s = 0.0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        s += double(resid[i]);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = n0_threads / 2; w > 0; w /= 2) {
        if (int(threadIdx.x) < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const int T = chanest_training_symbols(p);
        const double n0 = T > p.nt ? part[0] / (double(p.nr) * p.used * (T - p.nt)) : 0.0;
        a.results[f] = { n0, CHANEST_OK, 0 };
    }
}

unsigned blocks_for(size_t n) { return unsigned((n + threads - 1) / threads); }

} // namespace

size_t chanest_cuda_scratch_stride(size_t max_work)
{
    const size_t bytes = max_work * (sizeof(float2) + sizeof(float));
    return (bytes + 255) / 256 * 256;
}

void cuda_chanest_batch(const batch_view& dev, const batch_view& host, size_t max_work, void* stream)
{
    if (host.nframes == 0)
        return;
    // Grid sizes from the frames that will run (a bad record launches nothing).
    const auto* params = host.params_as<chanest_frame_params>();
    size_t max_kr = 0, max_y = 0, max_h = 0;
    for (size_t f = 0; f < host.nframes; f++)
        if (chanest_frame_ok(params[f], host.frames[f], max_work)) {
            max_kr = std::max(max_kr, size_t(params[f].used) * params[f].nr);
            max_y = std::max(max_y, chanest_y_values(params[f]));
            max_h = std::max(max_h, chanest_h_values(params[f]));
        }
    batch_args a;
    a.frames = dev.frames;
    a.params = dev.params_as<chanest_frame_params>();
    a.in = dev.in;
    a.out = dev.out;
    a.scratch = dev.scratch;
    a.results = dev.results_as<chanest_frame_result>();
    a.stride = chanest_cuda_scratch_stride(max_work);
    a.max_work = max_work;
    const cudaStream_t s = static_cast<cudaStream_t>(stream);
    for (size_t first = 0; first < host.nframes; first += max_grid_y) {
        const unsigned n = unsigned(std::min(max_grid_y, host.nframes - first));
        if (max_kr > 0) {
            ls_kernel<<<dim3(blocks_for(max_kr), n), threads, 0, s>>>(a, first);
            GPURX_CUDA_CHECK_LAUNCH("chanest ls_kernel");
        }
        if (max_h > 0) {
            group_kernel<<<dim3(blocks_for(max_h), n), threads, 0, s>>>(a, first);
            GPURX_CUDA_CHECK_LAUNCH("chanest group_kernel");
        }
        if (max_y > 0) {
            y_kernel<<<dim3(blocks_for(max_y), n), threads, 0, s>>>(a, first);
            GPURX_CUDA_CHECK_LAUNCH("chanest y_kernel");
        }
    }
    n0_kernel<<<unsigned(host.nframes), n0_threads, 0, s>>>(a, 0);
    GPURX_CUDA_CHECK_LAUNCH("chanest n0_kernel");
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
