/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The trellis detectors on the GPU, one thread per received vector (the
// lists of mtt_detector.h / one_pass_detector.h, fp32):
//   literal  (cuda-mtt)       every edge of every reduction and extension
//            evaluated in full, |t_k - R_ll c_q|^2: the thesis' algorithm as
//            stated, the reference for the fast kernel;
//   fast     (cuda-mtt-fast)  reductions in the expanded form
//            m_k + |t_k|^2 - 2 Re(conj(t_k) R_ll c_q): two FMAs per edge, the
//            winner's metric then recomputed exactly; path extensions by
//            slicing t_k / R_ll per axis (the nearest point; with priors, the
//            least of the M levels of each axis, the cost being separable);
//   one-pass (cuda-one-pass)  the fast reductions through every stage, then
//            every stream's LLRs from the last list, clipped.
// cuda-mtt-fast at two streams takes its own kernel (mimo_trellis_lord2):
// MTT is exact max-log ML there, computed as LORD does (mimo_lord2.cuh).
// A thread's paths live in shared memory laid out [path][thread], so that
// the warp's accesses to path k, and its gathers of a winner path, never
// conflict. Paths carry their symbols as 8 bits per layer in a uint64.
//
// This header holds what the three kernels share; each kernel is a file of
// its own (mimo_trellis_thread.cu, mimo_trellis_lanes.cu,
// mimo_trellis_lord2.cu), and mimo_trellis.cu picks them per batch.
#ifndef INCLUDED_GPURX_MIMO_CUDA_MIMO_TRELLIS_COMMON_CUH
#define INCLUDED_GPURX_MIMO_CUDA_MIMO_TRELLIS_COMMON_CUH

#include "cuda/launch.cuh"
#include "mimo/cuda/mimo_device.cuh"
#include "mimo/cuda/mimo_detect.h"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_trellis_kernels {

using namespace mimo_gpu;

enum trellis_mode { MTT_LITERAL = 0, MTT_FAST = 1, ONE_PASS = 2 };

// The lane-per-vertex kernel takes the fast modes' frames of up to
// lanes_max_nt streams, every modulation; the thread-per-vector kernel the
// rest. (Beyond 4 streams the unrolled shapes cost compile time for shapes
// no bench or test weighs much, and a path's symbols no longer fit the
// lanes' 32 bits at 256-QAM; the thread kernel serves them.)
constexpr int lanes_max_nt = 4;
__host__ __device__ constexpr bool lanes_take(int bits, int nt)
{
    return bits <= 8 && nt >= 1 && nt <= lanes_max_nt;
}

struct trellis_args {
    batch b;
    mimo_gpu_settings s;
};


//! Least cost level of one axis at coordinate z: rr (z - amp_a)^2 + n0 P_axis(a).
template <int BITS>
__device__ int best_level(float n0, float z, float rr, const float* la_ant,
                          const unsigned short* level_bits, unsigned mask)
{
    constexpr int M = 1 << (BITS / 2);
    float best = infinity_f();
    int ba = 0;
    for (int a = 0; a < M; a++) {
        const float d = z - level_amplitude<BITS>(a);
        const float c = rr * d * d + n0 * prior_cost<BITS>(la_ant, level_bits[a], mask);
        if (c < best) {
            best = c;
            ba = a;
        }
    }
    return ba;
}

//! The thread-per-vector kernel (every mode, every shape), on 2^bits points.
void launch_thread(const trellis_args& a, size_t max_vectors, int bits, int mode, cudaStream_t st);
//! The lane-per-vertex kernel (the fast modes) for the numbers of streams in
//! \p nt_mask up to lanes_max_nt, on 2^bits points.
void launch_lanes(const trellis_args& a, size_t max_vectors, int bits, int mode, unsigned nt_mask,
                  cudaStream_t st);
//! The two-stream LORD kernel (cuda-mtt-fast), on 2^bits points.
void launch_lord2(const trellis_args& a, size_t max_vectors, int bits, cudaStream_t st);

} // namespace mimo_trellis_kernels
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
