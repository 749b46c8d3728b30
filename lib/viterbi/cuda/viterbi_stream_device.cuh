/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device helpers of the stream decoders: the frame check (the CPU's
// stream_frame_problem), finding a window's frame, and reading a window's
// depunctured LLRs step by step.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_STREAM_DEVICE_CUH
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_STREAM_DEVICE_CUH

#include "pipeline/frame.h"
#include "viterbi/cuda/viterbi_stream_launch.h"
#include "viterbi/viterbi_stream.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! Kept coded bits of step \p r of the puncture period.
__device__ __forceinline__ int stream_kept_in_step(const viterbi_gpu_code& c, int r)
{
    int k = 0;
    for (int i = 0; i < c.n; i++)
        k += c.offset[r * c.n + i] >= 0;
    return k;
}

//! Input items of \p steps steps from puncture phase \p phase.
__device__ inline size_t stream_items_of(const viterbi_gpu_code& c, int phase, int steps)
{
    size_t items = size_t(steps / c.period) * size_t(c.kept);
    for (int t = 0; t < steps % c.period; t++)
        items += size_t(stream_kept_in_step(c, (phase + t) % c.period));
    return items;
}

//! The checks stream_frame_problem() makes on the CPU.
__device__ inline bool stream_frame_ok(const viterbi_stream_gpu& g,
                                       const viterbi::stream_frame_params& p,
                                       const frame_desc& fd)
{
    const bool soft = p.input == viterbi::INPUT_SOFT;
    if (!(soft || p.input == viterbi::INPUT_HARD || p.input == viterbi::INPUT_INT8))
        return false;
    if (p.steps < 1 || p.steps > g.max_frame_steps || p.payload < 1 || p.payload_begin < 0 ||
        p.payload_begin > p.steps - p.payload)
        return false;
    if (viterbi::stream_windows_of(p, g.chunk) > g.frame_windows || p.phase < 0 || p.phase >= g.code.period)
        return false;
    return fd.in_bytes == stream_items_of(g.code, p.phase, p.steps) * (soft ? 4 : 1) &&
           fd.out_bytes == uint32_t(p.payload);
}

//! The frame holding window \p win: starts[f] <= win < starts[f + 1].
__device__ __forceinline__ int stream_frame_of_window(const int* starts, int nframes, int win)
{
    int lo = 0, hi = nframes - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (starts[mid] <= win)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/*!
 * Reads a window's depunctured LLRs one step at a time: 0 where punctured,
 * hard bits as +-1, int8 LLRs as they are. \p keep: the period's keep flags
 * (n per step), in shared memory.
 */
struct stream_llr_cursor {
    const uint8_t* in;
    const uint8_t* keep;
    int input, n, period, r;
    size_t k; // the next kept item

    __device__ stream_llr_cursor(const viterbi_gpu_code& c,
                                 const uint8_t* in_,
                                 const uint8_t* keep_,
                                 int input_,
                                 int phase,
                                 int first)
        : in(in_), keep(keep_), input(input_), n(c.n), period(c.period), r((phase + first) % c.period),
          k(stream_items_of(c, phase, first))
    {
    }

    __device__ __forceinline__ float read(size_t idx) const
    {
        if (input == viterbi::INPUT_INT8)
            return float(reinterpret_cast<const int8_t*>(in)[idx]);
        if (input == viterbi::INPUT_HARD)
            return in[idx] ? 1.0f : -1.0f;
        return reinterpret_cast<const float*>(in)[idx];
    }

    template <int N>
    __device__ __forceinline__ void next(float (&l)[N])
    {
#pragma unroll
        for (int i = 0; i < N; i++) {
            float v = 0.0f;
            if (i < n && keep[r * n + i])
                v = read(k++);
            l[i] = v;
        }
        r = r + 1 == period ? 0 : r + 1;
    }
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
