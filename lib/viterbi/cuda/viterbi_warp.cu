/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Full-frame Viterbi with one warp per frame: the frame parallelism a batch
// gives, instead of the tiled decoder's 2^(K-1)-fold extra work. Lane l
// updates states l, l+32, ... of each step from the previous step's metrics
// in shared memory; the step's decisions (1: the odd predecessor won) are
// gathered with a ballot into S/32 words and kept in global scratch; lane 0
// traces back from the end state. Same metric, sums and tie rules as the CPU
// reference (viterbi_decoder.h): with LLRs exact in float, the same path.
#include "cuda/launch.cuh"
#include "viterbi/cuda/viterbi_device.cuh"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr float unreachable = -3.0e38f;
constexpr int warps_per_block = 4;

struct warp_args {
    viterbi_gpu_code code;
    const frame_desc* frames;
    const viterbi::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    viterbi::frame_result* results;
    uint32_t* decisions; // per frame: max_steps x words
    size_t decision_words_per_frame;
    int nframes;
};

__global__ void __launch_bounds__(32 * warps_per_block) viterbi_warp(warp_args a)
{
    extern __shared__ float smem_w[];
    const viterbi_gpu_code& c = a.code;
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int f = blockIdx.x * warps_per_block + w;
    if (f >= a.nframes)
        return;
    float* M = smem_w + size_t(w) * 2 * c.S;
    float* Mn = M + c.S;
    const viterbi::frame_params p = a.params[f];
    const frame_desc fd = a.frames[f];
    uint8_t* bits = a.out + fd.out_offset;
    const int steps = steps_of(c, p.frame_bits);
    // Also: its decisions must fit the scratch (frames up to max_frame_bits).
    const bool ok = frame_input_ok(c, p, fd) && size_t(steps) * ((c.S + 31) / 32) <= a.decision_words_per_frame;
    if (!ok) {
        for (uint32_t i = lane; i < fd.out_bytes; i += 32)
            bits[i] = 0;
        if (lane == 0)
            a.results[f] = { 0.0f, 0, viterbi::FRAME_REJECTED };
        return;
    }
    const uint8_t* in = a.in + fd.in_offset;
    const int top = c.K - 2, mask = c.S - 1, words = (c.S + 31) / 32;
    uint32_t* dec = a.decisions + size_t(f) * a.decision_words_per_frame;
    for (int s = lane; s < c.S; s += 32)
        M[s] = s == 0 ? 0.0f : unreachable;
    __syncwarp();
    for (int t = 0; t < steps; t++) {
        // The step's 2^n branch metrics, in the CPU's summation order.
        float l[4];
        for (int i = 0; i < c.n; i++)
            l[i] = llr_of(c, in, p.input, t, i);
        for (int j = 0; j < words; j++) {
            const int s = lane + 32 * j;
            bool d = false;
            if (s < c.S) {
                const int u = s >> top;
                const int p0 = (s << 1) & mask, p1 = p0 | 1;
                const unsigned o0 = c.outputs[2 * p0 + u], o1 = c.outputs[2 * p1 + u];
                float b0 = 0.0f, b1 = 0.0f;
                for (int i = 0; i < c.n; i++) {
                    b0 += ((o0 >> i) & 1u) ? 0.5f * l[i] : -0.5f * l[i];
                    b1 += ((o1 >> i) & 1u) ? 0.5f * l[i] : -0.5f * l[i];
                }
                const float m0 = M[p0] + b0, m1 = M[p1] + b1;
                d = m1 > m0; // a tie keeps the lower predecessor
                Mn[s] = d ? m1 : m0;
            }
            const uint32_t word = __ballot_sync(0xffffffffu, d);
            if (lane == 0)
                dec[size_t(t) * words + j] = word;
        }
        __syncwarp();
        float* x = M;
        M = Mn;
        Mn = x;
    }
    __syncwarp();
    if (lane != 0)
        return;
    int end = 0;
    if (c.termination == 1) // truncated: the best end state, lower wins ties
        for (int s = 1; s < c.S; s++)
            if (M[s] > M[end])
                end = s;
    float metric = M[end];
    int s = end;
    for (int t = steps - 1; t >= 0; t--) {
        if (t < p.frame_bits)
            bits[t] = uint8_t(s >> top);
        const uint32_t word = dec[size_t(t) * words + (s >> 5)];
        s = ((s << 1) & mask) | int((word >> (s & 31)) & 1u);
    }
    a.results[f] = { reported_metric(c, p, metric), end, viterbi::FRAME_DECODED };
}

} // namespace

size_t viterbi_warp_scratch_bytes(const viterbi_gpu_code& code, int max_steps)
{
    return size_t(max_steps) * size_t((code.S + 31) / 32) * sizeof(uint32_t);
}

void cuda_viterbi_warp(const batch_view& dev, const viterbi_gpu_code& code, int max_steps, void* stream)
{
    if (dev.nframes == 0)
        return;
    warp_args a{ code,
                 dev.frames,
                 dev.params_as<viterbi::frame_params>(),
                 dev.in,
                 dev.out,
                 dev.results_as<viterbi::frame_result>(),
                 reinterpret_cast<uint32_t*>(dev.scratch),
                 viterbi_warp_scratch_bytes(code, max_steps) / sizeof(uint32_t),
                 int(dev.nframes) };
    const int blocks = int((dev.nframes + warps_per_block - 1) / warps_per_block);
    const size_t smem = size_t(warps_per_block) * 2 * code.S * sizeof(float);
    launch_checked(&viterbi_warp, "viterbi_warp", blocks, 32 * warps_per_block, smem,
                   static_cast<cudaStream_t>(stream), a);
}

} // namespace core
} // namespace gpurx
} // namespace gr
