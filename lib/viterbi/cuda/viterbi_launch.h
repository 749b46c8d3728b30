/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry point of the CUDA tiled Viterbi decoder (viterbi_tiled.cu),
// called only by the family's CUDA implementation (viterbi_cuda_kernel.cc).
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_LAUNCH_H
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_LAUNCH_H

#include "pipeline/batch_kernel.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! The code as the kernels read it (passed by value: no table lookups in
//! global memory).
struct viterbi_gpu_code {
    static constexpr int max_states = 256;
    static constexpr int max_period_steps = 64;
    int K, n, S;
    int termination;  //!< viterbi::termination
    int chunk;        //!< trellis steps per tile
    int period;       //!< puncture period in trellis steps
    int kept;         //!< coded bits kept per period
    int min_frame_bits;
    uint8_t outputs[2 * max_states]; //!< [state * 2 + input]: the n coded bits, bit i = polynomial i
    int16_t offset[4 * max_period_steps]; //!< [step in period * n + i]: index in the period's kept bits, or -1
};

class viterbi_code;
//! The code as the kernels read it (\p chunk: the tiled decoder's tile length).
viterbi_gpu_code make_viterbi_gpu_code(const viterbi_code& code, int chunk);

//! Per-frame working memory of a frame of \p steps trellis steps.
size_t viterbi_tiled_scratch_bytes(const viterbi_gpu_code& code, int steps);

/*!
 * Enqueue the tiled decoding of a batch: (1) every tile of every frame from
 * every start state at once, (2) per frame, the tiles merged into the
 * globally best path's state at each tile boundary, (3) every tile traced
 * back between its known boundary states, at once. \p max_steps bounds the
 * frames' trellis steps (sizes the grid and the scratch stride).
 */
void cuda_viterbi_tiled(const batch_view& dev, const viterbi_gpu_code& code, int max_steps, void* stream);

//! Per-frame working memory of the warp-per-frame decoder (its decisions).
size_t viterbi_warp_scratch_bytes(const viterbi_gpu_code& code, int max_steps);

/*!
 * Enqueue the full-frame decoding of a batch, one warp per frame
 * (viterbi_warp.cu): terminated and truncated frames.
 */
void cuda_viterbi_warp(const batch_view& dev, const viterbi_gpu_code& code, int max_steps, void* stream);

//! Whether the thread-per-frame decoder is compiled for this code
//! (viterbi_thread_codes.h); \p polys in the standards' order.
bool viterbi_thread_compiled(int K, int n, const unsigned* polys);

//! Per-frame working memory of the thread-per-frame decoder (its decisions).
size_t viterbi_thread_scratch_bytes(const viterbi_gpu_code& code, int max_steps);

/*!
 * Enqueue the full-frame decoding of a batch, one thread per frame
 * (viterbi_thread_kernels.cuh): every termination, for a compiled code.
 * \p host: the batch's host-side copy (its parameters say which kernels
 * it needs). \p dpx: the integer kernels' DPX variant, else the portable
 * one, bit-exact with it (cuda_dpx_for_device()). Returns false, launching
 * nothing, when the code is not compiled in.
 */
bool cuda_viterbi_thread(const batch_view& dev,
                         const batch_view& host,
                         const viterbi_gpu_code& code,
                         const unsigned* polys,
                         int max_steps,
                         bool dpx,
                         void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
