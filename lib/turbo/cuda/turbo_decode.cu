/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The parallel-window LTE turbo decoder of Wu, Sun and Cavallaro, on CUDA.
// Two kernels decode identically (and identically to the CPU decoder):
//
// turbo_decode_v1, the paper's layout made warp-friendly:
// One thread block decodes one codeword; its K trellis steps are split into
// P windows of W = ceil(K/P) steps and each thread runs the BCJR recursion of
// one window with all 8 state metrics in registers (the paper uses 8 threads
// per window, one per state; one thread per window removes every barrier
// inside the recursions). Window-boundary metrics are exchanged between
// iterations (next-iteration initialisation). alpha of the whole codeword
// lives in shared memory, interleaved by thread so a warp's accesses fall in
// distinct banks; the extrinsic LLRs live in shared memory and are updated in
// place, which is safe because each position is read and written by exactly
// one thread per half-iteration. The QPP interleaver is computed on the fly.
//
// turbo_decode_v2, the default, is below with its own notes.
//
// Per-step arithmetic comes from core/turbo_trellis.h, shared with the CPU
// decoder; built with --fmad=false, max-log-MAP results match the CPU
// backend bit for bit.
#include "turbo/cuda/turbo_launch.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_trellis.h"
#include "common/lte_crc.h"
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

// Window-boundary metrics in global scratch, shared by all three kernels:
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

struct kernel_args {
    const frame_desc* frames;
    const turbo::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    turbo::frame_result* results;
    float* scratch;
    int P;    // windows' stride in scratch: the most any frame gets
    int Pcfg; // turbo_config::subblocks (0: automatic)
    int iterations;
    float scale;
    float in_scale;
    int stop; // early_stop
    bool soft;
};

template <bool LOG, typename Tin>
// At most 256 threads: one per window, P <= 256 (turbo_config). A bound of
// 1024 capped registers at 64 and spilled.
// Before Hopper also a min-blocks bound: without it ptxas's occupancy
// heuristic kept 64 registers and spilled (sm_75-sm_86, int8 input).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GPURX_V1_BOUNDS __launch_bounds__(256, 1)
#else
#define GPURX_V1_BOUNDS __launch_bounds__(256)
#endif
__global__ void GPURX_V1_BOUNDS turbo_decode_v1(kernel_args args)
{
    extern __shared__ float smem[];
    __shared__ int s_flag;
    __shared__ uint32_t s_crc;

    const frame_desc fd = args.frames[blockIdx.x];
    const turbo::frame_params fp = args.params[blockIdx.x];
    const int K = fp.K;
    const uint32_t f1 = uint32_t(fp.f1), f2 = uint32_t(fp.f2);
    const Tin* c = reinterpret_cast<const Tin*>(args.in + fd.in_offset);
    const int W = window_length(K, subblocks_for(args.Pcfg, K));
    const int nwin = window_count(K, subblocks_for(args.Pcfg, K));
    const int nwords = (K + 31) / 32;
    const int w = threadIdx.x;
    const bool active = w < nwin;

    float* alpha = smem;                       // [j][state][window]
    float* ext = alpha + size_t(W) * nwin * 8; // K a-priori / extrinsic LLRs
    uint32_t* packed = reinterpret_cast<uint32_t*>(ext + K);
    uint32_t* prev = packed + nwords;
    uint32_t* crc_tab = prev + nwords;
    // Window-boundary metrics in global scratch: [decoder][alpha|beta][window][state].
    float* bnd = args.scratch + size_t(blockIdx.x) * 32 * args.P;
    auto abound = [&](int d, int win) { return bound_ptr(bnd, args.P, d, 0, win); };
    auto bbound = [&](int d, int win) { return bound_ptr(bnd, args.P, d, 1, win); };

    const uint32_t crc_g = args.stop == int(turbo::early_stop::crc24a) ? crc24a_poly : crc24b_poly;
    const bool crc_stop = args.stop == int(turbo::early_stop::crc24a) || args.stop == int(turbo::early_stop::crc24b);

    for (int i = w; i < K; i += blockDim.x)
        ext[i] = 0.0f;
    for (int i = w; i < nwords; i += blockDim.x) {
        prev[i] = 0;
        if (crc_stop)
            crc_tab[i] = gf_xpow32(i, crc_g);
    }
    if (active)
        init_window_bounds<LOG>(bnd, args.P, w, nwin, c, K, args.in_scale);
    __syncthreads();

    float* soft_out =
        args.soft ? reinterpret_cast<float*>(args.out + fd.out_offset + turbo_soft_offset(K)) : nullptr;
    const int start = w * W;
    const int len = active ? min(W, K - start) : 0;
    int it_used = 0;
    int check = -1;

    for (int it = 1; it <= args.iterations; it++) {
        for (int d = 0; d < 2; d++) {
            float a[8], b[8];
            if (active) {
#pragma unroll
                for (int s = 0; s < 8; s++) {
                    a[s] = abound(d, w)[s];
                    b[s] = bbound(d, w)[s];
                }
            }
            if (d == 1)
                for (int i = w; i < nwords; i += blockDim.x)
                    packed[i] = 0;
            if (w == 0) {
                s_flag = 0;
                s_crc = 0;
            }
            __syncthreads(); // every window has its boundaries before any is rewritten

            for (int j = 0; j < len; j++) {
                const int k = start + j;
                const int idx = d ? int(((f1 + f2 * uint32_t(k)) % uint32_t(K)) * uint32_t(k) % uint32_t(K)) : k;
                const float Lu = load_llr(c, 3 * idx, args.in_scale) + ext[idx];
                const float Lp = load_llr(c, 3 * k + 1 + d, args.in_scale);
#pragma unroll
                for (int s = 0; s < 8; s++)
                    alpha[(size_t(j) * 8 + s) * nwin + w] = a[s];
                float na[8];
                alpha_step<LOG>(a, Lu, Lp, na);
#pragma unroll
                for (int s = 0; s < 8; s++)
                    a[s] = na[s];
            }
            if (active && w + 1 < nwin) {
#pragma unroll
                for (int s = 0; s < 8; s++)
                    abound(d, w + 1)[s] = a[s];
            }
            for (int j = len - 1; j >= 0; j--) {
                const int k = start + j;
                const int idx = d ? int(((f1 + f2 * uint32_t(k)) % uint32_t(K)) * uint32_t(k) % uint32_t(K)) : k;
                const float Lu = load_llr(c, 3 * idx, args.in_scale) + ext[idx];
                const float Lp = load_llr(c, 3 * k + 1 + d, args.in_scale);
                float al[8];
#pragma unroll
                for (int s = 0; s < 8; s++)
                    al[s] = alpha[(size_t(j) * 8 + s) * nwin + w];
                const float le = extrinsic<LOG>(al, b, Lp);
                if (d == 1) {
                    const float app = Lu + le;
                    if (app > 0.0f) {
                        const int p = K - 1 - idx;
                        atomicOr(&packed[p >> 5], 1u << (p & 31));
                    }
                    if (soft_out)
                        soft_out[idx] = app;
                }
                float nb[8];
                beta_step<LOG>(b, Lu, Lp, nb);
#pragma unroll
                for (int s = 0; s < 8; s++)
                    b[s] = nb[s];
                ext[idx] = args.scale * le;
            }
            if (active && w > 0) {
#pragma unroll
                for (int s = 0; s < 8; s++)
                    bbound(d, w - 1)[s] = b[s];
            }
            __syncthreads();
        }
        it_used = it;

        // Early termination: one decision for the whole block.
        if (crc_stop) {
            uint32_t r = 0;
            for (int i = w; i < nwords; i += blockDim.x)
                r ^= gf_mulmod(gf_reduce32(packed[i], crc_g), crc_tab[i], crc_g);
            if (r)
                atomicXor(&s_crc, r);
            __syncthreads();
            check = s_crc == 0 ? 1 : 0;
            if (check)
                break;
        } else if (args.stop == int(turbo::early_stop::hard_decision)) {
            for (int i = w; i < nwords; i += blockDim.x) {
                if (packed[i] != prev[i])
                    atomicOr(&s_flag, 1);
                prev[i] = packed[i];
            }
            __syncthreads();
            if (it > 1 && s_flag == 0)
                break;
        }
        __syncthreads(); // s_flag / s_crc are reset at the next half-iteration
    }

    write_hard_decisions(packed, K, args.out + fd.out_offset, w, blockDim.x);
    if (w == 0)
        args.results[blockIdx.x] = turbo::frame_result{ it_used, check };
}


// ---------------------------------------------------------------------------
// turbo_decode_v2: several codewords per thread block, one thread per window,
// and only every C-th alpha kept (in shared memory): the backward pass
// recomputes each C-step segment's alpha into registers from its checkpoint
// before walking it backwards. That costs one more alpha step per trellis step
// but cuts shared memory from 8 K floats to 8 K / C per codeword, so many
// codewords (warps) share an SM and hide each other's latency, where v1 fits
// one codeword (3 warps at P = 96) per SM. A-priori/extrinsic LLRs live in
// global scratch, double-buffered (decoder d reads buffer d, writes 1-d), so
// the guard (training) steps that read a neighbour window's positions see a
// stable previous half-iteration.
// ---------------------------------------------------------------------------

// alpha checkpoint spacing of kernels 2 and 3, in trellis steps. 4 was
// measured too (docs/benchmarks.md): fewer registers, but slower.
constexpr int CKPT = 8;

struct v2_args {
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

template <bool LOG, typename Tin, int C>
__global__ void __launch_bounds__(256) turbo_decode_v2(v2_args args)
{
    extern __shared__ float smem[];
    const int cw = threadIdx.x / args.nwin_max;
    const int w = threadIdx.x % args.nwin_max;
    const int f = blockIdx.x * args.cpb + cw;
    const bool have = cw < args.cpb && f < args.nframes;

    // Shared layout: checkpoints [seg][state][codeword][window] (consecutive
    // threads hit consecutive words), then per codeword: packed hard
    // decisions, previous decisions, and one CRC table for the block.
    const int cpb = args.cpb, nwm = args.nwin_max;
    const int cwi = cw < cpb ? cw : 0;
    float* ckpt = smem;
    uint32_t* packed_all = reinterpret_cast<uint32_t*>(ckpt + size_t(args.nseg_max) * 8 * cpb * nwm);
    uint32_t* prev_all = packed_all + size_t(cpb) * args.nwords_max;
    uint32_t* crc_tab = prev_all + size_t(cpb) * args.nwords_max;
    int* s_flag = reinterpret_cast<int*>(crc_tab + args.nwords_max);
    uint32_t* s_crc = reinterpret_cast<uint32_t*>(s_flag + cpb);
    int* s_done = reinterpret_cast<int*>(s_crc + cpb);

    frame_desc fd{};
    turbo::frame_params fp{ 1, 0, 0, 0 };
    if (have) {
        fd = args.frames[f];
        fp = args.params[f];
    }
    const int K = fp.K;
    const uint32_t f1 = uint32_t(fp.f1), f2 = uint32_t(fp.f2);
    const uint32_t f2x2 = (2 * f2) % uint32_t(K);
    const Tin* c = reinterpret_cast<const Tin*>(args.in + fd.in_offset);
    const int W = have ? window_length(K, subblocks_for(args.Pcfg, K)) : 1;
    const int nwin = have ? window_count(K, subblocks_for(args.Pcfg, K)) : 0;
    const int nwords = have ? (K + 31) / 32 : 0;
    const bool active = w < nwin;
    uint32_t* packed = packed_all + size_t(cwi) * args.nwords_max;
    uint32_t* prev = prev_all + size_t(cwi) * args.nwords_max;
    auto ck = [&](int seg, int s) -> float& {
        return ckpt[((size_t(seg) * 8 + s) * cpb + cwi) * nwm + w];
    };

    float* scr = args.scratch + size_t(have ? f : 0) * args.scratch_floats;
    auto abound = [&](int d, int win) { return bound_ptr(scr, args.P, d, 0, win); };
    auto bbound = [&](int d, int win) { return bound_ptr(scr, args.P, d, 1, win); };
    float* const ext0 = scr + 32 * args.P;
    float* const ext1 = ext0 + 6144;

    const bool crc_stop = args.stop == int(turbo::early_stop::crc24a) || args.stop == int(turbo::early_stop::crc24b);
    const uint32_t crc_g = args.stop == int(turbo::early_stop::crc24a) ? crc24a_poly : crc24b_poly;

    if (crc_stop)
        for (int i = threadIdx.x; i < args.nwords_max; i += blockDim.x)
            crc_tab[i] = gf_xpow32(i, crc_g);
    if (w == 0 && cw < cpb)
        s_done[cw] = have ? 0 : 1;
    if (have) {
        for (int i = w; i < K; i += nwm)
            ext0[i] = 0.0f;
        for (int i = w; i < nwords; i += nwm)
            prev[i] = 0;
    }
    if (active)
        init_window_bounds<LOG>(scr, args.P, w, nwin, c, K, args.in_scale);
    __syncthreads();

    float* soft_out =
        (have && args.soft) ? reinterpret_cast<float*>(args.out + fd.out_offset + turbo_soft_offset(K)) : nullptr;
    const window_plan wp = plan_window(w, nwin, W, K, args.guard);
    const int start = wp.start, len = wp.len, gf = wp.gf, gb = wp.gb, ja = wp.ja, jb = wp.jb;
    int it_used = 0, check = -1;
    bool finished = !have; // this thread's codeword needs no more iterations

    for (int it = 1; it <= args.iterations; it++) {
        const bool run = have && !s_done[cwi];
        for (int d = 0; d < 2; d++) {
            const float* La = d ? ext1 : ext0;
            float* Le = d ? ext0 : ext1;
            float a[8], b[8], t[8];
            if (run && active) {
#pragma unroll
                for (int s = 0; s < 8; s++) {
                    a[s] = abound(d, w)[s];
                    b[s] = bbound(d, w)[s];
                }
            }
            if (run && d == 1)
                for (int i = w; i < nwords; i += nwm)
                    packed[i] = 0;
            if (w == 0 && cw < cpb) {
                s_flag[cw] = 0;
                s_crc[cw] = 0;
            }
            __syncthreads(); // boundaries read before any is rewritten

            if (run && active) {
                float LU[C], LP[C];
                int IDX[C];
                // Forward: guard steps, then the window, checkpointing alpha.
                for (int k0 = start - gf; k0 < start; k0 += C) {
                    const int n = min(C, start - k0);
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, k0, n, LU, LP, IDX);
#pragma unroll
                    for (int i = 0; i < C; i++)
                        if (i < n) {
                            alpha_step<LOG>(a, LU[i], LP[i], t);
#pragma unroll
                            for (int s = 0; s < 8; s++)
                                a[s] = t[s];
                        }
                }
                // The next chunk's loads are issued before this chunk's
                // recursion, so their latency hides behind C steps of it.
                float LUn[C], LPn[C];
                int IDXn[C];
                if (len > 0)
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, start, min(C, len), LUn, LPn, IDXn);
                for (int j0 = 0; j0 < len; j0 += C) {
                    const int n = min(C, len - j0);
#pragma unroll
                    for (int i = 0; i < C; i++) {
                        LU[i] = LUn[i];
                        LP[i] = LPn[i];
                        IDX[i] = IDXn[i];
                    }
                    if (j0 + C < len)
                        load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, start + j0 + C,
                                      min(C, len - j0 - C), LUn, LPn, IDXn);
#pragma unroll
                    for (int s = 0; s < 8; s++)
                        ck(j0 / C, s) = a[s];
#pragma unroll
                    for (int i = 0; i < C; i++)
                        if (i < n) {
                            if (j0 + i == ja && w + 1 < nwin) {
#pragma unroll
                                for (int s = 0; s < 8; s++)
                                    abound(d, w + 1)[s] = a[s];
                            }
                            alpha_step<LOG>(a, LU[i], LP[i], t);
#pragma unroll
                            for (int s = 0; s < 8; s++)
                                a[s] = t[s];
                        }
                }
                if (ja == len && w + 1 < nwin) {
#pragma unroll
                    for (int s = 0; s < 8; s++)
                        abound(d, w + 1)[s] = a[s];
                }
                // Backward: guard steps into the next window.
                const int e = start + len;
                for (int hi = e + gb; hi > e; hi -= C) {
                    const int k0 = max(e, hi - C), n = hi - k0;
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, k0, n, LU, LP, IDX);
#pragma unroll
                    for (int i = C - 1; i >= 0; i--)
                        if (i < n) {
                            beta_step<LOG>(b, LU[i], LP[i], t);
#pragma unroll
                            for (int s = 0; s < 8; s++)
                                b[s] = t[s];
                        }
                }
                if (jb == len && w > 0) {
#pragma unroll
                    for (int s = 0; s < 8; s++)
                        bbound(d, w - 1)[s] = b[s];
                }
                // The window, one checkpoint segment at a time: recompute its
                // alpha into registers, then walk it backwards.
                const int nseg = (len + C - 1) / C;
                if (nseg > 0)
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, start + (nseg - 1) * C,
                                  len - (nseg - 1) * C, LUn, LPn, IDXn);
                for (int seg = nseg - 1; seg >= 0; seg--) {
                    const int j0 = seg * C;
                    const int n = min(C, len - j0);
                    float A[C][8], r[8];
#pragma unroll
                    for (int i = 0; i < C; i++) {
                        LU[i] = LUn[i];
                        LP[i] = LPn[i];
                        IDX[i] = IDXn[i];
                    }
                    if (seg > 0) // extrinsics go to the other buffer: no hazard
                        load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, start + j0 - C, C,
                                      LUn, LPn, IDXn);
#pragma unroll
                    for (int s = 0; s < 8; s++)
                        r[s] = ck(seg, s);
#pragma unroll
                    for (int i = 0; i < C; i++) {
                        if (i < n) {
#pragma unroll
                            for (int s = 0; s < 8; s++)
                                A[i][s] = r[s];
                            alpha_step<LOG>(r, LU[i], LP[i], t);
#pragma unroll
                            for (int s = 0; s < 8; s++)
                                r[s] = t[s];
                        }
                    }
#pragma unroll
                    for (int i = C - 1; i >= 0; i--) {
                        if (i < n) {
                            const float le = extrinsic<LOG>(A[i], b, LP[i]);
                            if (d == 1) {
                                const float app = LU[i] + le;
                                if (app > 0.0f) {
                                    const int p = K - 1 - IDX[i];
                                    atomicOr(&packed[p >> 5], 1u << (p & 31));
                                }
                                if (soft_out)
                                    soft_out[IDX[i]] = app;
                            }
                            beta_step<LOG>(b, LU[i], LP[i], t);
#pragma unroll
                            for (int s = 0; s < 8; s++)
                                b[s] = t[s];
                            Le[IDX[i]] = args.scale * le;
                            if (j0 + i == jb && w > 0) {
#pragma unroll
                                for (int s = 0; s < 8; s++)
                                    bbound(d, w - 1)[s] = b[s];
                            }
                        }
                    }
                }
            }
            __syncthreads();
        }

        // Early termination, per codeword.
        if (run) {
            if (crc_stop) {
                uint32_t r = 0;
                for (int i = w; i < nwords; i += nwm)
                    r ^= gf_mulmod(gf_reduce32(packed[i], crc_g), crc_tab[i], crc_g);
                if (r)
                    atomicXor(&s_crc[cw], r);
            } else if (args.stop == int(turbo::early_stop::hard_decision)) {
                for (int i = w; i < nwords; i += nwm) {
                    if (packed[i] != prev[i])
                        atomicOr(&s_flag[cw], 1);
                    prev[i] = packed[i];
                }
            }
        }
        __syncthreads();
        if (run) {
            it_used = it;
            bool stop_now = false;
            if (crc_stop) {
                check = s_crc[cw] == 0 ? 1 : 0;
                stop_now = check == 1;
            } else if (args.stop == int(turbo::early_stop::hard_decision)) {
                stop_now = it > 1 && s_flag[cw] == 0;
            }
            if (stop_now) {
                finished = true; // every thread of the codeword decides alike
                if (w == 0)
                    s_done[cw] = 1; // read after the barrier below
            }
        }
        // Every codeword finished: leave together.
        if (__syncthreads_and(finished))
            break;
    }

    if (have) {
        write_hard_decisions(packed, K, args.out + fd.out_offset, w, nwm);
        if (w == 0)
            args.results[f] = turbo::frame_result{ it_used, check };
    }
}


// ---------------------------------------------------------------------------
// turbo_decode_v3: the paper's mapping, one thread per trellis state (8 lanes
// per window, a window per 8-lane group of a warp), with the recursions'
// exchanges done by warp shuffles instead of shared memory and barriers, and
// alpha checkpointed every C steps as in v2 (each lane keeps only its own
// state, so the segment buffer is C registers). Few registers per thread and
// 8 threads per window give many warps per SM to hide the latency of each
// step's dependency chain, which is what bounds v1 and v2.
// The extrinsic LLR's max over 8 states is a butterfly across the group:
// exact for max-log-MAP (max is associative), and a different summation
// order for log-MAP, which therefore agrees with the CPU to rounding.
// ---------------------------------------------------------------------------
template <bool LOG>
__device__ __forceinline__ float group_max_star(float v)
{
#pragma unroll
    for (int m = 4; m >= 1; m >>= 1)
        v = max_star<LOG>(v, __shfl_xor_sync(0xffffffffu, v, m, 8));
    return v;
}

template <bool LOG, typename Tin, int C>
// At most 64 windows (512 threads), for 128 registers per thread: with 96
// windows (768 threads, 80 registers) it spilled on every architecture.
__global__ void __launch_bounds__(512) turbo_decode_v3(v2_args args)
{
    extern __shared__ float smem[];
    const unsigned FULL = 0xffffffffu;
    const int s = threadIdx.x & 7;   // trellis state of this lane
    const int w = threadIdx.x >> 3;  // window
    const int f = blockIdx.x;
    const frame_desc fd = args.frames[f];
    const turbo::frame_params fp = args.params[f];
    const int K = fp.K;
    const uint32_t f1 = uint32_t(fp.f1), f2 = uint32_t(fp.f2);
    const uint32_t f2x2 = (2 * f2) % uint32_t(K);
    const Tin* c = reinterpret_cast<const Tin*>(args.in + fd.in_offset);
    const int W = window_length(K, subblocks_for(args.Pcfg, K));
    const int nwin = window_count(K, subblocks_for(args.Pcfg, K));
    const int nwords = (K + 31) / 32;
    const bool active = w < nwin;
    const int nthreads = blockDim.x;

    float* ckpt = smem; // [seg][thread]
    uint32_t* packed = reinterpret_cast<uint32_t*>(ckpt + size_t(args.nseg_max) * nthreads);
    uint32_t* prev = packed + nwords;
    uint32_t* crc_tab = prev + nwords;
    __shared__ int s_flag;
    __shared__ uint32_t s_crc;

    float* scr = args.scratch + size_t(f) * args.scratch_floats;
    auto abound = [&](int d, int win) { return bound_ptr(scr, args.P, d, 0, win); };
    auto bbound = [&](int d, int win) { return bound_ptr(scr, args.P, d, 1, win); };
    float* const ext0 = scr + 32 * args.P;
    float* const ext1 = ext0 + 6144;

    const bool crc_stop = args.stop == int(turbo::early_stop::crc24a) || args.stop == int(turbo::early_stop::crc24b);
    const uint32_t crc_g = args.stop == int(turbo::early_stop::crc24a) ? crc24a_poly : crc24b_poly;

    // This lane's trellis connections (constant for the whole decode).
    const int a_bit = s >> 2;
    const int p0 = (((s >> 1) & 1) << 2) | ((s & 1) << 1), p1 = p0 | 1; // predecessors
    const int pu0 = a_bit ^ rsc_feedback(p0), pu1 = a_bit ^ rsc_feedback(p1);
    const int pz0 = rsc_parity(p0, pu0), pz1 = rsc_parity(p1, pu1);
    const int n0 = rsc_next(s, 0), n1 = rsc_next(s, 1);                 // successors
    const int z0 = rsc_parity(s, 0), z1 = rsc_parity(s, 1);

    for (int i = threadIdx.x; i < K; i += nthreads)
        ext0[i] = 0.0f;
    for (int i = threadIdx.x; i < nwords; i += nthreads) {
        prev[i] = 0;
        if (crc_stop)
            crc_tab[i] = gf_xpow32(i, crc_g);
    }
    if (active && s == 0)
        init_window_bounds<LOG>(scr, args.P, w, nwin, c, K, args.in_scale);
    __syncthreads();

    float* soft_out = args.soft ? reinterpret_cast<float*>(args.out + fd.out_offset + turbo_soft_offset(K)) : nullptr;
    const window_plan wp = plan_window(w, nwin, W, K, args.guard);
    const int start = wp.start, len = wp.len, gf = wp.gf, gb = wp.gb, ja = wp.ja, jb = wp.jb;
    int it_used = 0, check = -1;

    // One alpha / beta step of this lane's state; all 8 lanes of the group
    // take part (the shuffles need them), inactive groups compute garbage
    // that is never stored.
    auto alpha = [&](float a, float Lu, float Lp) {
        const float a0 = __shfl_sync(FULL, a, p0, 8), a1 = __shfl_sync(FULL, a, p1, 8);
        const float na = max_star<LOG>(a0 + branch(pu0, pz0, Lu, Lp), a1 + branch(pu1, pz1, Lu, Lp));
        return na - __shfl_sync(FULL, na, 0, 8);
    };
    auto beta = [&](float b, float Lu, float Lp) {
        const float b0 = __shfl_sync(FULL, b, n0, 8), b1 = __shfl_sync(FULL, b, n1, 8);
        const float nb = max_star<LOG>(branch(0, z0, Lu, Lp) + b0, branch(1, z1, Lu, Lp) + b1);
        return nb - __shfl_sync(FULL, nb, 0, 8);
    };

    for (int it = 1; it <= args.iterations; it++) {
        for (int d = 0; d < 2; d++) {
            const float* La = d ? ext1 : ext0;
            float* Le = d ? ext0 : ext1;
            float a = 0.0f, b = 0.0f;
            if (active) {
                a = abound(d, w)[s];
                b = bbound(d, w)[s];
            }
            if (d == 1)
                for (int i = threadIdx.x; i < nwords; i += nthreads)
                    packed[i] = 0;
            if (threadIdx.x == 0) {
                s_flag = 0;
                s_crc = 0;
            }
            __syncthreads(); // boundaries read before any is rewritten

            // Every group of a warp runs the same trip counts (shuffles need
            // all 32 lanes); a step outside a group's range leaves its
            // metric unchanged.
            float LU[C], LP[C];
            int IDX[C];
            const int gmax = min(args.guard, W);
            const bool train_fwd = active && w > 0;
            for (int t0 = 0; t0 < gmax; t0 += C) {
                const int k0 = start - gmax + t0, n = min(C, gmax - t0);
                if (train_fwd)
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, k0, n, LU, LP, IDX);
#pragma unroll
                for (int i = 0; i < C; i++) {
                    const bool ok = train_fwd && i < n;
                    const float na = alpha(a, ok ? LU[i] : 0.0f, ok ? LP[i] : 0.0f);
                    if (ok)
                        a = na;
                }
            }
            for (int j0 = 0; j0 < W; j0 += C) {
                const int n = min(C, len - j0);
                if (n > 0) {
                    ckpt[size_t(j0 / C) * nthreads + threadIdx.x] = a;
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, start + j0, n, LU, LP, IDX);
                }
#pragma unroll
                for (int i = 0; i < C; i++) {
                    if (active && j0 + i == ja && w + 1 < nwin)
                        abound(d, w + 1)[s] = a;
                    const float na = alpha(a, i < n ? LU[i] : 0.0f, i < n ? LP[i] : 0.0f);
                    if (i < n)
                        a = na;
                }
            }
            // A full-length window saves after its last step.
            if (active && ja == len && len == W && w + 1 < nwin)
                abound(d, w + 1)[s] = a;

            const int e = start + len;
            for (int hi = e + gmax; hi > e; hi -= C) {
                const int k0 = max(e, hi - C);
                const int nv = max(0, min(hi - k0, e + gb - k0)); // steps inside the guard
                if (nv > 0)
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, k0, nv, LU, LP, IDX);
#pragma unroll
                for (int i = C - 1; i >= 0; i--) {
                    const float nb = beta(b, i < nv ? LU[i] : 0.0f, i < nv ? LP[i] : 0.0f);
                    if (i < nv)
                        b = nb;
                }
            }
            if (active && jb == len && w > 0)
                bbound(d, w - 1)[s] = b;
            const int nseg = (W + C - 1) / C;
            for (int seg = nseg - 1; seg >= 0; seg--) {
                const int j0 = seg * C;
                const int n = active ? min(C, len - j0) : 0;
                float A[C];
                float r = n > 0 ? ckpt[size_t(seg) * nthreads + threadIdx.x] : 0.0f;
                if (n > 0)
                    load_chunk<C>(c, La, args.in_scale, d, K, f1, f2, f2x2, start + j0, n, LU, LP, IDX);
#pragma unroll
                for (int i = 0; i < C; i++) {
                    A[i] = r;
                    r = alpha(r, i < n ? LU[i] : 0.0f, i < n ? LP[i] : 0.0f);
                }
#pragma unroll
                for (int i = C - 1; i >= 0; i--) {
                    const float lu = i < n ? LU[i] : 0.0f, lp = i < n ? LP[i] : 0.0f;
                    // Extrinsic: max over states of alpha + parity part + beta.
                    const float bn0 = __shfl_sync(FULL, b, n0, 8), bn1 = __shfl_sync(FULL, b, n1, 8);
                    const float t0 = A[i] + branch(0, z0, 0.0f, lp) + bn0;
                    const float t1 = A[i] + branch(0, z1, 0.0f, lp) + bn1;
                    const float le = group_max_star<LOG>(t1) - group_max_star<LOG>(t0);
                    const float nb = beta(b, lu, lp);
                    if (i < n) {
                        b = nb;
                        if (s == 0) {
                            if (d == 1) {
                                const float app = lu + le;
                                if (app > 0.0f) {
                                    const int p = K - 1 - IDX[i];
                                    atomicOr(&packed[p >> 5], 1u << (p & 31));
                                }
                                if (soft_out)
                                    soft_out[IDX[i]] = app;
                            }
                            Le[IDX[i]] = args.scale * le;
                        }
                        if (j0 + i == jb && w > 0)
                            bbound(d, w - 1)[s] = b;
                    }
                }
            }
            __syncthreads();
        }

        if (crc_stop) {
            uint32_t r = 0;
            for (int i = threadIdx.x; i < nwords; i += nthreads)
                r ^= gf_mulmod(gf_reduce32(packed[i], crc_g), crc_tab[i], crc_g);
            if (r)
                atomicXor(&s_crc, r);
        } else if (args.stop == int(turbo::early_stop::hard_decision)) {
            for (int i = threadIdx.x; i < nwords; i += nthreads) {
                if (packed[i] != prev[i])
                    atomicOr(&s_flag, 1);
                prev[i] = packed[i];
            }
        }
        __syncthreads();
        it_used = it;
        bool stop_now = false;
        if (crc_stop) {
            check = s_crc == 0 ? 1 : 0;
            stop_now = check == 1;
        } else if (args.stop == int(turbo::early_stop::hard_decision)) {
            stop_now = it > 1 && s_flag == 0;
        }
        if (stop_now)
            break;
        __syncthreads(); // s_flag / s_crc are reset at the next half-iteration
    }

    write_hard_decisions(packed, K, args.out + fd.out_offset, threadIdx.x, nthreads);
    if (threadIdx.x == 0)
        args.results[f] = turbo::frame_result{ it_used, check };
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

void cuda_turbo_decode(const batch_view& dev,
                       const turbo_config& cfg,
                       turbo_float_layout layout,
                       float int8_scale,
                       bool int8_input,
                       const turbo_geometry& geo,
                       void* stream)
{
    const auto* params = dev.params_as<turbo::frame_params>();
    auto* results = dev.results_as<turbo::frame_result>();
    const int max_K = geo.max_K, max_windows = geo.max_windows;
    const int Pstride = cfg.max_subblocks();
    auto st = static_cast<cudaStream_t>(stream);
    const int n = static_cast<int>(dev.nframes);
    const bool log_map = cfg.algorithm == LOG_MAP;
    const int W = geo.max_W;
    const int nwords = (max_K + 31) / 32;
    if (layout == turbo_float_layout::block) {
        // alpha for the widest window layout of any frame in the batch; a
        // frame with a smaller K uses a prefix.
        const size_t alpha_floats = size_t(geo.max_slots) * 8;
        const size_t smem = (alpha_floats + max_K) * sizeof(float) + 3 * nwords * sizeof(uint32_t);
        const int threads = ((max_windows + 31) / 32) * 32;
        kernel_args a{ dev.frames,
                       params,
                       dev.in,
                       dev.out,
                       results,
                       reinterpret_cast<float*>(dev.scratch),
                       Pstride,
                       cfg.subblocks,
                       cfg.iterations,
                       cfg.extrinsic_scale(),
                       int8_scale,
                       int(cfg.stop),
                       cfg.soft_output };
        with_variant(log_map, int8_input, [&](auto log, auto tin) {
            launch_checked(&turbo_decode_v1<decltype(log)::value, decltype(tin)>,
                           "turbo_decode_v1", n, threads, smem, st, a);
        });
        return;
    }
    // The state layout runs up to 64 windows (512 threads); the registry
    // offers it only for configurations within that (turbo_cuda_kernel.cc).
    if (layout == turbo_float_layout::state) {
        if (max_windows > 64)
            throw std::logic_error("cuda-float-state: " + std::to_string(max_windows) +
                                   " windows, at most 64");
        const int nseg = (W + CKPT - 1) / CKPT;
        const int threads = ((8 * max_windows + 31) / 32) * 32;
        const size_t smem = size_t(nseg) * threads * sizeof(float) + 3 * size_t(nwords) * sizeof(uint32_t);
        v2_args a{ dev.frames, params, dev.in, dev.out, results,
                   reinterpret_cast<float*>(dev.scratch), turbo_scratch_floats(Pstride),
                   n, 1, max_windows, nseg, nwords, Pstride, cfg.subblocks, cfg.iterations, cfg.guard,
                   cfg.extrinsic_scale(), int8_scale, int(cfg.stop), cfg.soft_output };
        with_variant(log_map, int8_input, [&](auto log, auto tin) {
            launch_checked(&turbo_decode_v3<decltype(log)::value, decltype(tin), CKPT>,
                           "turbo_decode_v3", n, threads, smem, st, a);
        });
        return;
    }
    // About 128 threads per block: many windows make one codeword's block,
    // few windows (small K) pack several codewords into one, as far as
    // shared memory allows.
    const int nseg = (W + CKPT - 1) / CKPT;
    const size_t per_cw = size_t(nseg) * 8 * max_windows * sizeof(float) +
                          2 * size_t(nwords) * sizeof(uint32_t) + 3 * sizeof(int);
    const size_t smem_budget = 100 * 1024; // leaves room for two blocks per SM
    int cpb = std::max(1, std::min(n, 128 / max_windows));
    cpb = std::max(1, std::min<int>(cpb, int((smem_budget - nwords * 4) / per_cw)));
    const size_t smem = per_cw * cpb + size_t(nwords) * sizeof(uint32_t);
    const int threads = ((cpb * max_windows + 31) / 32) * 32;
    v2_args a{ dev.frames,
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
               cfg.soft_output };
    const int blocks = (n + cpb - 1) / cpb;
    with_variant(log_map, int8_input, [&](auto log, auto tin) {
        launch_checked(&turbo_decode_v2<decltype(log)::value, decltype(tin), CKPT>,
                       "turbo_decode_v2", blocks, threads, smem, st, a);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
