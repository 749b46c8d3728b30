/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device helpers shared by the float turbo kernels (turbo_float_window.cu,
// and the paper's layouts turbo_float_block.cu and turbo_float_state.cu):
// LLR loads, window-boundary metrics in scratch, the checkpointed-alpha
// arguments and their chunked loads, and the host-side dispatch over the
// kernels' instantiations. Per-step arithmetic comes from turbo_trellis.h,
// shared with the CPU decoder; built with --fmad=false, max-log-MAP results
// match the CPU backend bit for bit.
#ifndef INCLUDED_GPURX_TURBO_CUDA_TURBO_FLOAT_DEVICE_CUH
#define INCLUDED_GPURX_TURBO_CUDA_TURBO_FLOAT_DEVICE_CUH

#include "turbo/cuda/turbo_launch.h"
#include "turbo/turbo_geometry.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_trellis.h"
#include "turbo/lte_crc.h"
#include "cuda/cuda_check.h"
#include "turbo/cuda/turbo_common.cuh"

#include <cuda_runtime.h>
#include <type_traits>
#include <algorithm>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

namespace {

template <typename Tin>
__device__ __forceinline__ float load_llr(const Tin* c, int i, float in_scale);
template <>
__device__ __forceinline__ float load_llr<float>(const float* c, int i, float)
{
    return c[i];
}
template <>
__device__ __forceinline__ float load_llr<int8_t>(const int8_t* c, int i, float in_scale)
{
    return float(c[i]) * in_scale;
}

// Window-boundary metrics in global scratch, shared by the three float kernels:
// [decoder][alpha | beta][window][state], P windows per row.
__device__ __forceinline__ float* bound_ptr(float* scr, int P, int d, int beta, int win)
{
    return scr + ((d * 2 + beta) * P + win) * 8;
}

// First-iteration boundaries of window w: the trellis starts in state 0, ends
// in the state the tail bits drive it to, and is uniform in between.
template <bool LOG, typename Tin>
__device__ void init_window_bounds(
    float* scr, int P, int w, int nwin, const Tin* c, int K, float in_scale)
{
    for (int d = 0; d < 2; d++) {
        float* a = bound_ptr(scr, P, d, 0, w);
#pragma unroll
        for (int s = 0; s < 8; s++)
            a[s] = (w == 0 && s != 0) ? NEG : 0.0f;
        float* b = bound_ptr(scr, P, d, 1, w);
        if (w == nwin - 1) {
            float tail[6];
            for (int t = 0; t < 6; t++)
                tail[t] = load_llr(c, 3 * K + 6 * d + t, in_scale);
            tail_beta<LOG>(tail, b);
        } else {
#pragma unroll
            for (int s = 0; s < 8; s++)
                b[s] = 0.0f;
        }
    }
}

// alpha checkpoint spacing of cuda-float-window and cuda-float-state, in trellis steps. 4 was
// measured too (docs/benchmarks.md): fewer registers, but slower.
constexpr int CKPT = 8;

struct float_window_args {
    const frame_desc* frames;
    const turbo::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    turbo::frame_result* results;
    float* scratch;
    size_t scratch_floats; // per frame
    int nframes;
    int cpb;      // codewords per block
    int nwin_max; // threads per codeword
    int nseg_max; // checkpoints per window
    int nwords_max;
    int P;    // windows' stride in scratch: the most any frame gets
    int Pcfg; // turbo_config::subblocks (0: automatic)
    int iterations;
    int guard;
    float scale;
    float in_scale;
    int stop;
    bool soft;
    bool coded; //!< also the coded bits' extrinsic LLRs (turbo_config::coded_output)
};

// What every float launcher derives from a batch, its configuration and the
// geometry that bounds its frames.
struct float_launch {
    const turbo::frame_params* params;
    turbo::frame_result* results;
    int max_K, max_windows, W, nwords;
    int Pstride; // windows' stride in scratch: the most any frame gets
    int n;       // frames
    bool log_map;
    cudaStream_t st;

    float_launch(const batch_view& dev, const turbo_config& cfg, const turbo_geometry& geo, void* stream)
        : params(dev.params_as<turbo::frame_params>()),
          results(dev.results_as<turbo::frame_result>()),
          max_K(geo.max_K),
          max_windows(geo.max_windows),
          W(geo.max_W),
          nwords((geo.max_K + 31) / 32),
          Pstride(cfg.max_subblocks()),
          n(static_cast<int>(dev.nframes)),
          log_map(cfg.algorithm == LOG_MAP),
          st(static_cast<cudaStream_t>(stream))
    {
    }

    //! The arguments of the checkpointed-alpha kernels (window and state
    //! layouts): \p cpb codewords per block, \p nseg checkpoints per window.
    float_window_args window_args(const batch_view& dev, const turbo_config& cfg, int cpb, int nseg,
                                  float int8_scale) const
    {
        return { dev.frames,
                 params,
                 dev.in,
                 dev.out,
                 results,
                 reinterpret_cast<float*>(dev.scratch),
                 turbo_scratch_floats(Pstride),
                 n,
                 cpb,
                 max_windows,
                 nseg,
                 nwords,
                 Pstride,
                 cfg.subblocks,
                 cfg.iterations,
                 cfg.guard,
                 cfg.extrinsic_scale(),
                 int8_scale,
                 int(cfg.stop),
                 cfg.soft_output,
                 cfg.coded_output };
    }
};

// Inputs of up to C consecutive trellis steps k0..k0+n-1 of decoder d, loaded
// together so their (scattered, for d = 1) loads are in flight at once. The
// interleaver advances incrementally: Pi(k+1) = Pi(k) + delta(k), delta(k+1)
// = delta(k) + 2 f2, all mod K, which needs no division per step.
template <int C, typename Tin>
__device__ __forceinline__ void load_chunk(const Tin* c, const float* La, float in_scale, int d,
                                           int K, uint32_t f1, uint32_t f2, uint32_t f2x2,
                                           int k0, int n, float (&LU)[C], float (&LP)[C],
                                           int (&IDX)[C])
{
    int pi = k0, delta = 1, step = 0;
    if (d) {
        pi = int(((f1 + f2 * uint32_t(k0)) % uint32_t(K)) * uint32_t(k0) % uint32_t(K));
        delta = int((f1 + f2 * uint32_t(2 * k0 + 1)) % uint32_t(K));
        step = int(f2x2);
    }
#pragma unroll
    for (int i = 0; i < C; i++) {
        if (i < n) {
            const int k = k0 + i;
            IDX[i] = pi;
            LU[i] = load_llr(c, 3 * pi, in_scale) + La[pi];
            LP[i] = load_llr(c, 3 * k + 1 + d, in_scale);
            pi += delta;
            if (pi >= K)
                pi -= K;
            delta += step;
            if (delta >= K)
                delta -= K;
        }
    }
}

// Calls f(log-MAP as std::bool_constant, a value of the input LLR type), so
// that one generic lambda picks the kernel instantiation.
template <typename F>
void with_variant(bool log_map, bool int8_input, F&& f)
{
    if (log_map && int8_input)
        f(std::true_type{}, int8_t{});
    else if (log_map)
        f(std::true_type{}, float{});
    else if (int8_input)
        f(std::false_type{}, int8_t{});
    else
        f(std::false_type{}, float{});
}

} // namespace

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
