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
// This file picks the kernels for a batch; the kernels are in
// mimo_trellis_thread.cu, mimo_trellis_lanes.cu and mimo_trellis_lord2.cu.
#include "mimo/cuda/mimo_trellis_common.cuh"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_trellis_kernels {

using namespace mimo_gpu;

namespace {

template <int MODE>
void launch_trellis_bits(const trellis_args& a, size_t max_vectors, int bits, unsigned nt_mask,
                         cudaStream_t st)
{
    if constexpr (MODE == MTT_FAST) {
        if (nt_mask & (1u << 2)) { // two streams: the LORD kernel
            launch_lord2(a, max_vectors, bits, st);
            nt_mask &= ~(1u << 2);
            if (!nt_mask)
                return;
        }
    }
    if constexpr (MODE != MTT_LITERAL) {
        unsigned rest = 0; // numbers of streams the lane kernel does not take
        for (int nt = 1; nt <= max_ant; nt++)
            if ((nt_mask >> nt) & 1u && !lanes_take(bits, nt))
                rest |= 1u << nt;
        launch_lanes(a, max_vectors, bits, MODE, nt_mask, st);
        if (!rest)
            return;
    }
    launch_thread(a, max_vectors, bits, MODE, st);
}

} // namespace
} // namespace mimo_trellis_kernels

void cuda_mimo_detect_trellis(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                              const mimo_gpu_settings& s, unsigned nt_mask, void* stream)
{
    const mimo_trellis_kernels::trellis_args a{ mimo_gpu::batch_of(dev, nframes, s.max_channels), s };
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    if (s.algorithm == int(mimo::algorithm::one_pass))
        mimo_trellis_kernels::launch_trellis_bits<mimo_trellis_kernels::ONE_PASS>(a, max_vectors, bits, nt_mask, st);
    else if (s.variant == MIMO_GPU_MTT_FAST)
        mimo_trellis_kernels::launch_trellis_bits<mimo_trellis_kernels::MTT_FAST>(a, max_vectors, bits, nt_mask, st);
    else
        mimo_trellis_kernels::launch_trellis_bits<mimo_trellis_kernels::MTT_LITERAL>(a, max_vectors, bits, nt_mask, st);
}

} // namespace core
} // namespace gpurx
} // namespace gr
