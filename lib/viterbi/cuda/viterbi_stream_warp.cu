/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder with one warp per window, for any code (K up to 9, any
// polynomials): lane l updates states l, l+32, ... of each step from the
// previous step's metrics in shared memory, reading the code's output table;
// decisions are gathered by ballot into S/32 words per step; lane 0 traces
// back. Slower than the register kernel (viterbi_stream_regs.cu), which has
// only the codes compiled in. Same sums and tie rules.
#include "cuda/launch.cuh"
#include "viterbi/cuda/viterbi_stream_device.cuh"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr float unreachable = -3.0e38f;
constexpr int warps_per_block = 4;

struct warp_args {
    viterbi_stream_gpu g;
    const frame_desc* frames;
    const viterbi::stream_frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    const int* starts;
    uint32_t* decisions; // per window: (chunk + traceback) steps x words
    int nframes;
};

__global__ void __launch_bounds__(32 * warps_per_block) stream_warp(warp_args a)
{
    extern __shared__ float smem_sw[];
    __shared__ uint8_t keep[4 * viterbi_gpu_code::max_period_steps];
    const viterbi_gpu_code& c = a.g.code;
    for (int i = threadIdx.x; i < c.period * c.n; i += blockDim.x)
        keep[i] = c.offset[i] >= 0;
    __syncthreads();
    const int lane = threadIdx.x % 32;
    const int win = int(blockIdx.x) * warps_per_block + int(threadIdx.x / 32);
    if (win >= a.starts[a.nframes])
        return;
    float* M = smem_sw + size_t(threadIdx.x / 32) * 2 * c.S;
    float* Mn = M + c.S;
    const int f = stream_frame_of_window(a.starts, a.nframes, win);
    const viterbi::stream_frame_params p = a.params[f];
    const frame_desc fd = a.frames[f];
    const viterbi::stream_window w = viterbi::stream_window_of(p, a.g.chunk, a.g.traceback, win - a.starts[f]);
    stream_llr_cursor cur(c, a.in + fd.in_offset, keep, p.input, p.phase, w.first);
    const int top = c.K - 2, mask = c.S - 1, words = (c.S + 31) / 32;
    uint32_t* dec = a.decisions + size_t(win) * stream_window_decision_words(a.g);
    for (int s = lane; s < c.S; s += 32)
        M[s] = (!w.known_start || s == 0) ? 0.0f : unreachable;
    __syncwarp();
    for (int t = w.first; t < w.last; t++) {
        float l[4];
        cur.next(l);
        for (int j = 0; j < words; j++) {
            const int s = lane + 32 * j;
            bool odd = false;
            if (s < c.S) {
                const int u = s >> top;
                const int p0 = (s << 1) & mask, p1 = p0 | 1;
                const unsigned o0 = c.outputs[2 * p0 + u], o1 = c.outputs[2 * p1 + u];
                float b0 = 0.0f, b1 = 0.0f; // the CPU's order: coded bit 0 first
                for (int i = 0; i < c.n; i++) {
                    b0 += ((o0 >> i) & 1u) ? 0.5f * l[i] : -0.5f * l[i];
                    b1 += ((o1 >> i) & 1u) ? 0.5f * l[i] : -0.5f * l[i];
                }
                const float m0 = M[p0] + b0, m1 = M[p1] + b1;
                odd = m1 > m0; // a tie keeps the even predecessor
                Mn[s] = odd ? m1 : m0;
            }
            const uint32_t word = __ballot_sync(0xffffffffu, odd);
            if (lane == 0 && t >= w.begin)
                dec[size_t(t - w.begin) * words + j] = word;
        }
        __syncwarp();
        float* x = M;
        M = Mn;
        Mn = x;
    }
    if (lane != 0)
        return;
    int s = 0; // the best end state, the lowest on ties
    for (int x = 1; x < c.S; x++)
        if (M[x] > M[s])
            s = x;
    uint8_t* bits = a.out + fd.out_offset; // bit 0: the frame's step payload_begin
    for (int t = w.last - 1; t >= w.begin; t--) {
        if (t < w.end)
            bits[t - p.payload_begin] = uint8_t(s >> top);
        const uint32_t word = dec[size_t(t - w.begin) * words + (s >> 5)];
        s = ((s << 1) & mask) | int((word >> (s & 31)) & 1u);
    }
}

} // namespace

void cuda_viterbi_stream_warp(const batch_view& dev, const viterbi_stream_gpu& g, int windows, void* stream)
{
    if (dev.nframes == 0 || windows == 0)
        return;
    warp_args a{ g,
                 dev.frames,
                 dev.params_as<viterbi::stream_frame_params>(),
                 dev.in,
                 dev.out,
                 reinterpret_cast<const int*>(dev.scratch),
                 reinterpret_cast<uint32_t*>(dev.scratch + stream_decisions_offset(dev.nframes)),
                 int(dev.nframes) };
    const int blocks = (windows + warps_per_block - 1) / warps_per_block;
    const size_t smem = size_t(warps_per_block) * 2 * g.code.S * sizeof(float);
    launch_checked(&stream_warp, "viterbi stream_warp", blocks, 32 * warps_per_block, smem,
                   static_cast<cudaStream_t>(stream), a);
}

} // namespace core
} // namespace gpurx
} // namespace gr
