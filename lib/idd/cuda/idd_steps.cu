/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cuda_check.h"
#include "idd/cuda/idd_launch.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace idd {

namespace {

constexpr int THREADS = 256;
// Blocks per TB along x: enough for a TB of 2^21 LLRs in a few sweeps.
constexpr size_t MAX_X_BLOCKS = 256;

unsigned x_blocks(size_t work)
{
    return unsigned(std::max<size_t>(1, std::min(MAX_X_BLOCKS, (work + THREADS - 1) / THREADS)));
}

__global__ void setup_kernel(device_batch b)
{
    const int f = int(blockIdx.y);
    const batch_layout& L = b.layout;
    uint8_t* s = b.scratch;
    const frame_params& p = b.params[f];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        auto* det_desc = reinterpret_cast<frame_desc*>(s + L.det_desc);
        auto* det = reinterpret_cast<mimo::frame_params*>(s + L.det_params);
        auto* sch_desc = reinterpret_cast<frame_desc*>(s + L.sch_desc);
        auto* tb = reinterpret_cast<sch::frame_params*>(s + L.sch_params);
        tb_records(L, p, size_t(f), det_desc[f], det[f], sch_desc[f], tb[f]);
        reinterpret_cast<int32_t*>(s + L.done)[f] = 0;
    }
    // The detector input: each channel's H and vectors, then zero priors.
    mimo::frame_params d = p.det;
    d.apriori = 1;
    const size_t hy = channel_hy_bytes(d) / 4, full = channel_full_bytes(d) / 4;
    const size_t words = size_t(d.channels) * full;
    const float* src = reinterpret_cast<const float*>(b.in + b.frames[f].in_offset);
    float* dst = reinterpret_cast<float*>(s + L.det_in + size_t(f) * L.det_in_stride);
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x) {
        const size_t c = i / full, k = i % full;
        dst[i] = k < hy ? src[c * hy + k] : 0.0f;
    }
}

__global__ void commit_kernel(device_batch b, int pass)
{
    const int f = int(blockIdx.x);
    const batch_layout& L = b.layout;
    uint8_t* s = b.scratch;
    auto* done = reinterpret_cast<int32_t*>(s + L.done);
    __shared__ int32_t was_done;
    if (threadIdx.x == 0)
        was_done = done[f];
    __syncthreads();
    if (was_done)
        return;
    const auto& tb = reinterpret_cast<const sch::frame_params*>(s + L.sch_params)[f];
    const uint8_t* bits = s + L.sch_out + size_t(f) * L.sch_out_stride;
    uint8_t* out = b.out + b.frames[f].out_offset;
    for (int i = int(threadIdx.x); i < tb.tbs; i += blockDim.x)
        out[i] = bits[i];
    if (threadIdx.x != 0)
        return;
    const auto& dr = reinterpret_cast<const mimo::frame_result*>(s + L.det_results)[f];
    const auto& tr = reinterpret_cast<const sch::frame_result*>(s + L.sch_results)[f];
    frame_result& r = b.results[f];
    if (pass == 1) {
        r.pass_crc = 0;
        r.det_status = dr.status;
        r.det_rank = dr.rank;
    } else {
        r.det_status = max(r.det_status, dr.status);
    }
    r.tb = tr;
    r.passes = pass;
    if (tr.crc_ok) {
        r.pass_crc |= 1 << (pass - 1);
        done[f] = 1;
    }
}

__global__ void feedback_kernel(device_batch b)
{
    const int f = int(blockIdx.y);
    const batch_layout& L = b.layout;
    uint8_t* s = b.scratch;
    if (reinterpret_cast<const int32_t*>(s + L.done)[f])
        return;
    const auto& d = reinterpret_cast<const mimo::frame_params*>(s + L.det_params)[f];
    const auto& tb = reinterpret_cast<const sch::frame_params*>(s + L.sch_params)[f];
    const size_t hy = channel_hy_bytes(d) / 4, full = channel_full_bytes(d) / 4;
    const size_t per = size_t(d.vectors) * d.nt * d.bits_per_symbol;
    const float* ext = reinterpret_cast<const float*>(s + L.sch_out + size_t(f) * L.sch_out_stride +
                                                      sch::extrinsic_offset(tb.tbs));
    float* dst = reinterpret_cast<float*>(s + L.det_in + size_t(f) * L.det_in_stride);
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size_t(tb.G);
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t c = i / per, k = i % per;
        dst[c * full + hy + k] = ext[i];
    }
}

} // namespace

void launch_setup(const device_batch& b, size_t max_words, void* stream)
{
    if (b.nframes <= 0)
        return;
    if (b.nframes > 65535) // TBs run along the grid's y
        throw std::invalid_argument("cuda-idd: a batch of " + std::to_string(b.nframes) +
                                    " TBs; at most 65535 (lower max_batch)");
    const dim3 grid(x_blocks(max_words), unsigned(b.nframes));
    setup_kernel<<<grid, THREADS, 0, static_cast<cudaStream_t>(stream)>>>(b);
    GPURX_CUDA_CHECK_LAUNCH("idd setup");
}

void launch_commit(const device_batch& b, int pass, int max_tbs, void* stream)
{
    if (b.nframes <= 0)
        return;
    const int threads = std::min(THREADS, std::max(32, (max_tbs + 31) / 32 * 32));
    commit_kernel<<<unsigned(b.nframes), unsigned(threads), 0, static_cast<cudaStream_t>(stream)>>>(b, pass);
    GPURX_CUDA_CHECK_LAUNCH("idd commit");
}

void launch_feedback(const device_batch& b, int max_g, void* stream)
{
    if (b.nframes <= 0)
        return;
    const dim3 grid(x_blocks(size_t(max_g)), unsigned(b.nframes));
    feedback_kernel<<<grid, THREADS, 0, static_cast<cudaStream_t>(stream)>>>(b);
    GPURX_CUDA_CHECK_LAUNCH("idd feedback");
}

} // namespace idd
} // namespace core
} // namespace gpurx
} // namespace gr
