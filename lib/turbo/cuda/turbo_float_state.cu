/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-float-state, the paper's mapping of one thread per trellis state. A
// paper implementation: it runs only when named (notes below).
#include "turbo/cuda/turbo_float_device.cuh"

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

namespace {

// ---------------------------------------------------------------------------
// turbo_float_state: the paper's mapping, one thread per trellis state (8 lanes
// per window, a window per 8-lane group of a warp), with the recursions'
// exchanges done by warp shuffles instead of shared memory and barriers, and
// alpha checkpointed every C steps as in cuda-float-window (each lane keeps only its own
// state, so the segment buffer is C registers). Few registers per thread and
// 8 threads per window give many warps per SM to hide the latency of each
// step's dependency chain, which is what bounds the block and window layouts.
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
__global__ void __launch_bounds__(512) turbo_float_state(float_window_args args)
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
    const int start = wp.start, len = wp.len, gb = wp.gb, ja = wp.ja, jb = wp.jb;
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

} // namespace

void cuda_turbo_decode_float_state(const batch_view& dev,
                                   const turbo_config& cfg,
                                   float int8_scale,
                                   bool int8_input,
                                   const turbo_geometry& geo,
                                   void* stream)
{
    const float_launch l(dev, cfg, geo, stream);
    // Up to 64 windows (512 threads); the registry offers it only for
    // configurations within that (turbo_cuda_kernel.cc).
    if (l.max_windows > 64)
        throw std::logic_error("cuda-float-state: " + std::to_string(l.max_windows) +
                               " windows, at most 64");
    const int nseg = (l.W + CKPT - 1) / CKPT;
    const int threads = ((8 * l.max_windows + 31) / 32) * 32;
    const size_t smem = size_t(nseg) * threads * sizeof(float) + 3 * size_t(l.nwords) * sizeof(uint32_t);
    const float_window_args a = l.window_args(dev, cfg, 1, nseg, int8_scale);
    with_variant(l.log_map, int8_input, [&](auto log, auto tin) {
        launch_checked(&turbo_float_state<decltype(log)::value, decltype(tin), CKPT>,
                       "turbo_float_state", l.n, threads, smem, l.st, a);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
