/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device helpers shared by the Viterbi kernels (viterbi_tiled.cu,
// viterbi_warp.cu): trellis steps, depunctured LLRs, coded lengths and the
// per-frame input check, all from the code as the kernels receive it.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_DEVICE_CUH
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_DEVICE_CUH

#include "pipeline/frame.h"
#include "viterbi/cuda/viterbi_launch.h"
#include "viterbi/viterbi_frame.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! Trellis steps of a frame: + K-1 tail steps when terminated (termination 0).
__device__ __forceinline__ int steps_of(const viterbi_gpu_code& c, int frame_bits)
{
    return frame_bits + (c.termination == 0 ? c.K - 1 : 0);
}

//! Depunctured LLR i of trellis step t (0 where punctured); hard bits as +-1,
//! int8 LLRs as they are (the path does not depend on their scale).
__device__ __forceinline__ float llr_of(const viterbi_gpu_code& c, const uint8_t* in, int input, int t, int i)
{
    const int off = c.offset[(t % c.period) * c.n + i];
    if (off < 0)
        return 0.0f;
    const size_t idx = size_t(t / c.period) * c.kept + off;
    if (input == viterbi::INPUT_HARD)
        return in[idx] ? 1.0f : -1.0f;
    if (input == viterbi::INPUT_INT8)
        return float(reinterpret_cast<const int8_t*>(in)[idx]);
    return reinterpret_cast<const float*>(in)[idx];
}

//! Coded bits kept (after puncturing) over \p steps trellis steps.
__device__ inline size_t coded_bits_of(const viterbi_gpu_code& c, int steps)
{
    size_t coded = size_t(steps / c.period) * c.kept;
    for (int t = 0; t < steps % c.period; t++)
        for (int i = 0; i < c.n; i++)
            coded += c.offset[t * c.n + i] >= 0;
    return coded;
}

//! The frame's sizes agree with its parameters (else it is rejected, never
//! read out of bounds): the checks the CPU kernel makes.
__device__ inline bool frame_input_ok(const viterbi_gpu_code& c, const viterbi::frame_params& p, const frame_desc& fd)
{
    const bool soft = p.input == viterbi::INPUT_SOFT;
    if (p.frame_bits < c.min_frame_bits || !(soft || p.input == viterbi::INPUT_HARD || p.input == viterbi::INPUT_INT8))
        return false;
    return fd.in_bytes == coded_bits_of(c, steps_of(c, p.frame_bits)) * (soft ? 4 : 1) &&
           fd.out_bytes >= uint32_t(p.frame_bits);
}

//! The metric a frame reports: hard bits entered as +-1, so their
//! correlation is kept/2 - the Hamming distance, which is what is reported.
__device__ inline float reported_metric(const viterbi_gpu_code& c, const viterbi::frame_params& p, float correlation)
{
    if (p.input != viterbi::INPUT_HARD)
        return correlation;
    return rintf(0.5f * float(coded_bits_of(c, steps_of(c, p.frame_bits))) - correlation);
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
