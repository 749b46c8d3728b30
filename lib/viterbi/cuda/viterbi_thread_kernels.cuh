/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Full-frame Viterbi with one THREAD per frame, for the standard codes
// compiled in (viterbi_thread_codes.h): the whole trellis of a frame lives in
// one thread's registers, so a step needs no shuffle, no shared memory and no
// barrier, and the code's output table is folded into the instructions at
// compile time. A batch of tens of thousands of frames fills the GPU.
//
// Integer input (int8 LLRs, hard bits): two 16-bit path metrics per 32-bit
// register, updated with plain 32-bit adds (no carry can cross the halves:
// every value stays below 2^15, see renormalise()). Each butterfly costs two
// byte permutes, two adds, one packed max and one three-input add whose bits
// 15 and 31 are the two decisions. Branch metrics are the reference's
// correlation +-L/2 shifted by sum|L|/2 so that they are non-negative
// integers (sum of max(L,0) or max(-L,0) per coded bit): the same
// differences, so the same comparisons and ties, hence the same path.
//
// Float input: the same trellis in 32-bit float, summed in the reference's
// order (viterbi_warp.cu), so equal to it wherever the sums are exact.
//
// Decisions go to global scratch step-major ([step][frame]) so that a warp's
// stores and traceback loads are coalesced; the traceback loads run ahead of
// the state chain that consumes them.
//
// This header holds the arithmetic and the kernels; each compiled code is
// instantiated in a file of its own (viterbi_thread_<code>.cu, compiled in
// parallel), and viterbi_thread_dispatch.cc picks the one that matches.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_THREAD_KERNELS_CUH
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_THREAD_KERNELS_CUH

#include "cuda/launch.cuh"
#include "viterbi/cuda/viterbi_device.cuh"
#include "viterbi/cuda/viterbi_launch.h"
#include "viterbi/cuda/viterbi_thread_codes.h"
#include "viterbi/viterbi_packed.h"
#include "cuda/cuda_check.h"
#include "cuda/dpx_arch.cuh"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr int threads_per_block = 128;

struct thread_args {
    viterbi_gpu_code code;
    const frame_desc* frames;
    const viterbi::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    viterbi::frame_result* results;
    uint32_t* decisions; // [step][frame][word]
    float* tb_metrics;   // tail-biting: [frame][start state], the best path's metric from it back to it
    int max_steps;
    int nframes;
};

constexpr int parity(unsigned x) { return x == 0 ? 0 : int(x & 1u) ^ parity(x >> 1); }

// The code of template parameter C, folded at compile time.
template <class C>
struct trellis {
    static constexpr int K = C::K, N = C::N, S = 1 << (K - 1), H = S / 2;
    static constexpr int W = S >= 32 ? S / 32 : 1; // decision words per step
    //! Coded bits of input u from state s: bit i is polynomial i's.
    static constexpr unsigned out(int s, int u)
    {
        unsigned o = 0;
        for (int i = 0; i < N; i++)
            o |= unsigned(parity(((unsigned(u) << (K - 1)) | unsigned(s)) & C::poly(i))) << i;
        return o;
    }
    //! Butterfly j's decisions: word j/16, bits j%16 (new state j) and
    //! 16 + j%16 (new state j + H).
    static constexpr int word_of(int j) { return j / 16; }
};

// The n LLRs of trellis step t as integers (int8 values, or +-1 for hard bits).
template <class T, bool Punctured>
__device__ __forceinline__ void int_llrs(const viterbi_gpu_code& c, const uint8_t* in, int input, int t, int* l)
{
    constexpr int N = T::N;
    if (Punctured) {
        for (int i = 0; i < N; i++)
            l[i] = int(llr_of(c, in, input, t, i));
        return;
    }
    const int8_t* p = reinterpret_cast<const int8_t*>(in) + size_t(t) * N;
    if (N == 2) {
        const uint16_t v = *reinterpret_cast<const uint16_t*>(p);
        l[0] = int(int8_t(v & 0xff));
        l[1] = int(int8_t(v >> 8));
    } else if (N == 4) {
        const uint32_t v = *reinterpret_cast<const uint32_t*>(p);
#pragma unroll
        for (int i = 0; i < N; i++)
            l[i] = int(int8_t(v >> (8 * i)));
    } else {
#pragma unroll
        for (int i = 0; i < N; i++)
            l[i] = int(p[i]);
    }
    if (input == viterbi::INPUT_HARD)
#pragma unroll
        for (int i = 0; i < N; i++)
            l[i] = l[i] ? 1 : -1;
}

template <class T, bool Punctured>
__device__ __forceinline__ void float_llrs(const viterbi_gpu_code& c, const uint8_t* in, int t, float* l)
{
    constexpr int N = T::N;
    if (Punctured) {
        for (int i = 0; i < N; i++)
            l[i] = llr_of(c, in, viterbi::INPUT_SOFT, t, i);
        return;
    }
    const float* p = reinterpret_cast<const float*>(in) + size_t(t) * N;
    if (N == 2) {
        const float2 v = *reinterpret_cast<const float2*>(p);
        l[0] = v.x;
        l[1] = v.y;
    } else if (N == 4) {
        const float4 v = *reinterpret_cast<const float4*>(p);
        l[0] = v.x;
        l[1] = v.y;
        l[2] = v.z;
        l[3] = v.w;
    } else {
#pragma unroll
        for (int i = 0; i < N; i++)
            l[i] = p[i];
    }
}

// Renormalisation of the packed metrics: subtract the smallest from all.
// Bound: branch metrics lie in [0, B] (B = 128 n <= 512) and state 0 starts
// (K-1) B + 1 above the others. The spread of the metrics never exceeds
// that start plus (K-2) B (after K-1 steps every state is reachable from
// the best one of K-1 steps before, over non-negative branches, which
// bounds it by (K-1) B from then on); renormalising every 32 steps keeps
// every metric and candidate below (2K - 3 + 33) B + 1 <= 43 * 512 + 1
// < 2^15 for K <= 7, and 45 * 512 + 1 for K = 8.
constexpr int renormalise_every = 32;

template <int H>
__device__ __forceinline__ uint32_t renormalise(uint32_t (&P)[H])
{
    uint32_t lo = P[0];
#pragma unroll
    for (int i = 1; i < H; i++)
        lo = __vminu2(lo, P[i]);
    const uint32_t m = min(lo & 0xffffu, lo >> 16);
    const uint32_t sub = m | (m << 16);
#pragma unroll
    for (int i = 0; i < H; i++)
        P[i] -= sub; // each half is >= m: no borrow crosses the halves
    return m;
}

// Steps whose LLRs one vector load brings: 8 (8 n bytes of int8, 32 n of
// float). Per-thread loads are not coalesced across a warp (each thread
// reads its own frame), so each one should bring as much as it can.
constexpr int block_steps = 8;

// The LLRs of block_steps steps from t (a multiple of block_steps) as int
// values (int8, or hard bits as +-1), \p N per step.
template <int N>
struct int_block {
    int v[block_steps * N];
};

template <int N>
__device__ __forceinline__ int_block<N> load_int_block(const uint8_t* in, int input, int t)
{
    // 8 n bytes at an offset that is a multiple of 8 (the frame starts
    // 16-aligned): n 8-byte loads.
    const uint2* p = reinterpret_cast<const uint2*>(in + size_t(t) * N);
    uint32_t raw[2 * N];
#pragma unroll
    for (int q = 0; q < N; q++) {
        const uint2 v = __ldg(p + q);
        raw[2 * q] = v.x;
        raw[2 * q + 1] = v.y;
    }
    int_block<N> b;
#pragma unroll
    for (int k = 0; k < block_steps * N; k++) {
        const int x = int(int8_t(raw[k / 4] >> (8 * (k % 4))));
        b.v[k] = input == viterbi::INPUT_HARD ? (x ? 1 : -1) : x;
    }
    return b;
}

template <int N>
struct float_block {
    float v[block_steps * N];
};

template <int N>
__device__ __forceinline__ float_block<N> load_float_block(const uint8_t* in, int t)
{
    // 32 n bytes at a multiple of 32: 2 n 16-byte loads.
    const float4* p = reinterpret_cast<const float4*>(in + size_t(t) * N * sizeof(float));
    float_block<N> b;
#pragma unroll
    for (int q = 0; q < 2 * N; q++) {
        const float4 v = __ldg(p + q);
        b.v[4 * q] = v.x;
        b.v[4 * q + 1] = v.y;
        b.v[4 * q + 2] = v.z;
        b.v[4 * q + 3] = v.w;
    }
    return b;
}

// Stores a step's decision words.
template <int W>
__device__ __forceinline__ void store_words(uint32_t* dt, const uint32_t (&d)[W])
{
    if (W == 1)
        dt[0] = d[0];
    else if (W == 2)
        *reinterpret_cast<uint2*>(dt) = make_uint2(d[0], d[1]);
    else
#pragma unroll
        for (int w = 0; w < W; w += 4)
            *reinterpret_cast<uint4*>(dt + w) = make_uint4(d[w], d[w + 1], d[w + 2], d[w + 3]);
}

// The packed trellis of one frame: P[i] holds the metrics of states i (low
// half) and i + H (high half). DPX: the packed max is Hopper's max.u16x2
// (one VIMNMX.U16x2 per butterfly); else the portable
// viterbi_packed::max_u16x2_from_diff, equal to it bit for bit (the policy:
// cuda/cuda_dpx.h).
template <class T, bool DPX>
struct packed_trellis {
    static constexpr int K = T::K, N = T::N, S = T::S, H = T::H, W = T::W;
    // State 0 starts (K-1) B + 1 above the others, so that within the first
    // K-1 steps (after which every state has a path from state 0) a path
    // from state 0 beats any path from another start, as in the reference,
    // where those start at minus infinity.
    static constexpr int start_bonus = (K - 1) * 128 * N + 1;
    static_assert(K <= 8, "packed 16-bit metrics are bounded for K <= 8");

    uint32_t P[H];
    int64_t removed = 0; // total subtracted by renormalisation
    int abs_sum = 0;     // sum of |L| since the last fold into abs_total
    int64_t abs_total = 0;

    //! Start in state \p s0 (the others a bonus below it).
    __device__ __forceinline__ void start(int s0)
    {
        const uint32_t bonus = s0 < H ? uint32_t(start_bonus) : uint32_t(start_bonus) << 16;
#pragma unroll
        for (int i = 0; i < H; i++)
            P[i] = i == (s0 & (H - 1)) ? bonus : 0u;
    }

    // One trellis step t with LLRs l[0..N); its decisions stored when Store.
    template <bool Store>
    __device__ __forceinline__ void step(int t, const int* l, uint32_t* dt)
    {
        if (t % renormalise_every == renormalise_every - 1) {
            removed += renormalise<H>(P);
            abs_total += abs_sum; // at most 32 steps x 512: no int overflow
            abs_sum = 0;
        }
        int pos[N], neg[N];
#pragma unroll
        for (int i = 0; i < N; i++) {
            pos[i] = max(l[i], 0);
            neg[i] = max(-l[i], 0);
            abs_sum += pos[i] + neg[i];
        }
        uint32_t bm[1 << N];
#pragma unroll
        for (int o = 0; o < (1 << N); o++) {
            uint32_t b = 0;
#pragma unroll
            for (int i = 0; i < N; i++)
                b += ((o >> i) & 1) ? pos[i] : neg[i];
            bm[o] = b;
        }
        uint32_t Pn[H];
        uint32_t d[W];
#pragma unroll
        for (int w = 0; w < W; w++)
            d[w] = 0;
#pragma unroll
        for (int j = 0; j < H; j++) {
            const int p0 = 2 * j, p1 = 2 * j + 1;
            // Each predecessor's metric in both halves.
            const uint32_t A0 = __byte_perm(P[p0 % H], 0, p0 < H ? 0x1010 : 0x3232);
            const uint32_t A1 = __byte_perm(P[p1 % H], 0, p1 < H ? 0x1010 : 0x3232);
            // Low half: the edge into j (input 0); high half: into j + H (input 1).
            const uint32_t a0 = A0 + (bm[T::out(p0, 0)] | (bm[T::out(p0, 1)] << 16));
            const uint32_t a1 = A1 + (bm[T::out(p1, 0)] | (bm[T::out(p1, 1)] << 16));
            // a1 - a0 + 0x7fff per half lies in [0, 0xfffe]: no borrow crosses;
            // its bit 15 is set exactly when a1 > a0 (a tie keeps p0).
            const uint32_t diff = viterbi_packed::diff_u16x2(a0, a1);
            if constexpr (DPX)
                Pn[j] = __vmaxu2(a0, a1);
            else
                Pn[j] = viterbi_packed::max_u16x2_from_diff(a0, a1, diff);
            const int b = j % 16;
            d[j / 16] |= (diff >> (15 - b)) & ((1u << b) | (1u << (16 + b)));
        }
#pragma unroll
        for (int i = 0; i < H; i++)
            P[i] = Pn[i];
        if (Store)
            store_words<W>(dt, d);
    }

    // The end state (\p end_in, or with \p best_end the best one, the
    // lowest on ties) and its metric on the reference's scale: sum of
    // +-L/2 = sum of the shifted metrics - sum|L|/2, less the start bonus.
    __device__ float finish(bool best_end, int end_in, int& end) const
    {
        end = end_in;
        uint32_t best = 0;
#pragma unroll
        for (int s = 0; s < S; s++) {
            const uint32_t m = s < H ? (P[s] & 0xffffu) : (P[s - H] >> 16);
            if (best_end) {
                if (s == 0 || m > best) {
                    best = m;
                    end = s;
                }
            } else if (s == end_in) {
                best = m;
            }
        }
        return float(int64_t(best) + removed - start_bonus) - 0.5f * float(abs_total + abs_sum);
    }
};

// Forward pass with packed 16-bit metrics (int8 or hard input); returns
// the end state's metric on the reference's scale and sets \p end.
template <class T, bool Punctured, bool DPX, bool Store = true>
__device__ float forward_packed(const viterbi_gpu_code& c,
                                const uint8_t* in,
                                int input,
                                int steps,
                                uint32_t* dec,
                                size_t dec_stride,
                                int start,
                                bool best_end,
                                int end_in,
                                int& end)
{
    constexpr int N = T::N;
    packed_trellis<T, DPX> tr;
    tr.start(start);
    int t = 0;
    if (!Punctured)
        for (; t + block_steps <= steps; t += block_steps) {
            const int_block<N> b = load_int_block<N>(in, input, t);
#pragma unroll
            for (int k = 0; k < block_steps; k++)
                tr.template step<Store>(t + k, b.v + k * N, dec + size_t(t + k) * dec_stride);
        }
    for (; t < steps; t++) {
        int l[N];
        int_llrs<T, Punctured>(c, in, input, t, l);
        tr.template step<Store>(t, l, dec + size_t(t) * dec_stride);
    }
    return tr.finish(best_end, end_in, end);
}

// The float trellis of one frame, in the reference's arithmetic.
template <class T>
struct float_trellis {
    static constexpr int N = T::N, S = T::S, H = T::H, W = T::W;
    float M[S];

    __device__ __forceinline__ void start(int s0)
    {
#pragma unroll
        for (int s = 0; s < S; s++)
            M[s] = s == s0 ? 0.0f : -3.0e38f; // unreachable
    }

    template <bool Store>
    __device__ __forceinline__ void step(const float* l, uint32_t* dt)
    {
        float bm[1 << N];
#pragma unroll
        for (int o = 0; o < (1 << N); o++) {
            float b = 0.0f;
#pragma unroll
            for (int i = 0; i < N; i++)
                b += ((o >> i) & 1) ? 0.5f * l[i] : -0.5f * l[i];
            bm[o] = b;
        }
        float Mn[S];
        uint32_t d[W];
#pragma unroll
        for (int w = 0; w < W; w++)
            d[w] = 0;
#pragma unroll
        for (int j = 0; j < H; j++)
#pragma unroll
            for (int u = 0; u < 2; u++) {
                const int p0 = 2 * j, p1 = p0 + 1, s = j + u * H;
                const float m0 = M[p0] + bm[T::out(p0, u)];
                const float m1 = M[p1] + bm[T::out(p1, u)];
                const bool take1 = m1 > m0; // a tie keeps p0
                Mn[s] = take1 ? m1 : m0;
                d[j / 16] |= uint32_t(take1) << (j % 16 + 16 * u);
            }
#pragma unroll
        for (int s = 0; s < S; s++)
            M[s] = Mn[s];
        if (Store)
            store_words<W>(dt, d);
    }

    __device__ float finish(bool best_end, int end_in, int& end) const
    {
        end = end_in;
        float best = -3.0e38f;
#pragma unroll
        for (int s = 0; s < S; s++) {
            if (best_end) {
                if (s == 0 || M[s] > best) {
                    best = M[s];
                    end = s;
                }
            } else if (s == end_in) {
                best = M[s];
            }
        }
        return best;
    }
};

// Forward pass in float (float input).
template <class T, bool Punctured, bool Store = true>
__device__ float forward_float(const viterbi_gpu_code& c,
                               const uint8_t* in,
                               int steps,
                               uint32_t* dec,
                               size_t dec_stride,
                               int start,
                               bool best_end,
                               int end_in,
                               int& end)
{
    constexpr int N = T::N;
    float_trellis<T> tr;
    tr.start(start);
    int t = 0;
    if (!Punctured)
        for (; t + block_steps <= steps; t += block_steps) {
            const float_block<N> b = load_float_block<N>(in, t);
#pragma unroll
            for (int k = 0; k < block_steps; k++)
                tr.template step<Store>(b.v + k * N, dec + size_t(t + k) * dec_stride);
        }
    for (; t < steps; t++) {
        float l[N];
        float_llrs<T, Punctured>(c, in, t, l);
        tr.template step<Store>(l, dec + size_t(t) * dec_stride);
    }
    return tr.finish(best_end, end_in, end);
}

// A step's decision words (up to 4: K <= 8), loaded in one access.
template <int W>
__device__ __forceinline__ uint4 load_words(const uint32_t* at)
{
    static_assert(W == 1 || W == 2 || W == 4, "one, two or four decision words per step");
    if (W == 1)
        return make_uint4(__ldg(at), 0, 0, 0);
    if (W == 2) {
        const uint2 v = __ldg(reinterpret_cast<const uint2*>(at));
        return make_uint4(v.x, v.y, 0, 0);
    }
    return __ldg(reinterpret_cast<const uint4*>(at));
}

// One traceback step: the bit of step t, and the state before it.
template <class T>
__device__ __forceinline__ void traceback_step(uint4 words, int t, int frame_bits, int& s, uint8_t* bits)
{
    constexpr int K = T::K, S = T::S, H = T::H;
    const int half = s >> (K - 2), j = s & (H - 1);
    const int w = j >> 4;
    const uint32_t word = w == 0 ? words.x : w == 1 ? words.y : w == 2 ? words.z : words.w;
    const int d = int(word >> ((j & 15) + 16 * half)) & 1;
    if (t < frame_bits)
        bits[t] = uint8_t(half);
    s = ((s << 1) & (S - 1)) | d;
}

// Traceback from \p end. The decision loads of a group of steps depend on
// the step only, not on the state, so they are all issued before the state
// chain consumes them; the group's 8 output bytes go out in one store.
template <class T>
__device__ void traceback(const uint32_t* dec, size_t dec_stride, int steps, int frame_bits, int end, uint8_t* bits)
{
    constexpr int K = T::K, S = T::S, H = T::H, W = T::W;
    constexpr int ahead = 8;
    int s = end;
    int t = steps - 1;
    // Single steps down to a group boundary inside the information bits
    // (the tail steps emit nothing).
    for (; t >= 0 && (t >= frame_bits || (t + 1) % ahead != 0); t--)
        traceback_step<T>(load_words<W>(dec + size_t(t) * dec_stride), t, frame_bits, s, bits);
    for (; t >= ahead - 1; t -= ahead) {
        uint4 words[ahead];
#pragma unroll
        for (int k = 0; k < ahead; k++)
            words[k] = load_words<W>(dec + size_t(t - k) * dec_stride);
        uint32_t hi = 0, lo = 0; // bytes t-3..t and t-7..t-4
#pragma unroll
        for (int k = 0; k < ahead; k++) {
            const int half = s >> (K - 2), j = s & (H - 1);
            const int w = j >> 4;
            const uint32_t word = w == 0 ? words[k].x : w == 1 ? words[k].y : w == 2 ? words[k].z : words[k].w;
            const int d = int(word >> ((j & 15) + 16 * half)) & 1;
            if (k < 4)
                hi |= uint32_t(half) << (8 * (3 - k));
            else
                lo |= uint32_t(half) << (8 * (7 - k));
            s = ((s << 1) & (S - 1)) | d;
        }
        *reinterpret_cast<uint2*>(bits + t - (ahead - 1)) = make_uint2(lo, hi);
    }
}

// Soft: the float LLR frames of the batch; else all the others (int8,
// hard, and frames of an unknown input kind, which it rejects). A batch
// with both kinds takes both launches. DPX (integer input only): the packed
// max's variant, launched where cuda_dpx_for_device() says; where
// GPURX_DPX_ARCH is 0 its body is a trap.
// __launch_bounds__'s second argument (at least one block per SM) limits
// nothing here (the block is small); it moves ptxas from an occupancy-driven
// register target, which spilled on some architectures, to one without
// spills (docs/results/ptxas_default_architectures.md).
template <class C, bool Punctured, bool Soft, bool DPX>
__global__ void __launch_bounds__(threads_per_block, Soft ? 1 : 4) viterbi_thread(thread_args a)
{
#if !GPURX_DPX_ARCH
    if constexpr (DPX) {
        __trap(); // the host launches the DPX variant on compute capability 9.x only
        return;
    } else
#endif
    {
    using T = trellis<C>;
    const int f = blockIdx.x * threads_per_block + threadIdx.x;
    if (f >= a.nframes)
        return;
    const viterbi_gpu_code& c = a.code;
    const viterbi::frame_params p = a.params[f];
    if ((p.input == viterbi::INPUT_SOFT) != Soft)
        return;
    const frame_desc fd = a.frames[f];
    uint8_t* bits = a.out + fd.out_offset;
    const int steps = steps_of(c, p.frame_bits);
    if (!frame_input_ok(c, p, fd) || steps > a.max_steps) {
        for (uint32_t i = 0; i < fd.out_bytes; i++)
            bits[i] = 0;
        a.results[f] = { 0.0f, 0, viterbi::FRAME_REJECTED };
        return;
    }
    const uint8_t* in = a.in + fd.in_offset;
    // Step-major decisions: frame f's words of step t at (t * nframes + f) * W.
    const size_t stride = size_t(a.nframes) * T::W;
    uint32_t* dec = a.decisions + size_t(f) * T::W;
    // Terminated: from state 0 to state 0; truncated: from 0 to the best
    // end state; tail-biting: from the best start state (by the metrics of
    // viterbi_thread_tb_metrics, the lowest on ties, as the reference) back
    // to it.
    int start = 0;
    if (c.termination == 2) {
        const float* m = a.tb_metrics + size_t(f) * T::S;
        for (int s = 1; s < T::S; s++)
            if (m[s] > m[start])
                start = s;
    }
    const bool best_end = c.termination == 1;
    int end = 0;
    float metric;
    if constexpr (Soft)
        metric = forward_float<T, Punctured>(c, in, steps, dec, stride, start, best_end, start, end);
    else
        metric = forward_packed<T, Punctured, DPX>(c, in, p.input, steps, dec, stride, start, best_end, start, end);
    traceback<T>(dec, stride, steps, p.frame_bits, end, bits);
    a.results[f] = { reported_metric(c, p, metric), end, viterbi::FRAME_DECODED };
    }
}

// Tail-biting, exact as the reference: one thread per (frame, start state)
// runs the frame from that state, storing nothing, for the metric of the
// best path back to it; viterbi_thread then decodes each frame from its
// best start state. S times the forward work of a terminated frame.
template <class C, bool Punctured, bool Soft, bool DPX>
__global__ void __launch_bounds__(threads_per_block) viterbi_thread_tb_metrics(thread_args a)
{
#if !GPURX_DPX_ARCH
    if constexpr (DPX) {
        __trap(); // as viterbi_thread's DPX variant
        return;
    } else
#endif
    {
    using T = trellis<C>;
    const size_t g = size_t(blockIdx.x) * threads_per_block + threadIdx.x;
    const int f = int(g / T::S), s0 = int(g % T::S);
    if (f >= a.nframes)
        return;
    const viterbi_gpu_code& c = a.code;
    const viterbi::frame_params p = a.params[f];
    const frame_desc fd = a.frames[f];
    const int steps = steps_of(c, p.frame_bits);
    // Frames of the other kernel, and those viterbi_thread rejects, are
    // left alone.
    if ((p.input == viterbi::INPUT_SOFT) != Soft || !frame_input_ok(c, p, fd) || steps > a.max_steps)
        return;
    const uint8_t* in = a.in + fd.in_offset;
    int end = 0;
    if constexpr (Soft)
        a.tb_metrics[g] = forward_float<T, Punctured, false>(c, in, steps, nullptr, 0, s0, false, s0, end);
    else
        a.tb_metrics[g] =
            forward_packed<T, Punctured, DPX, false>(c, in, p.input, steps, nullptr, 0, s0, false, s0, end);
    }
}

template <class C, bool Punctured, bool Soft, bool DPX>
void launch_one(const thread_args& a, int blocks, cudaStream_t st)
{
    if (a.code.termination == 2) {
        const size_t threads = size_t(a.nframes) * trellis<C>::S;
        launch_checked(&viterbi_thread_tb_metrics<C, Punctured, Soft, DPX>, "viterbi_thread_tb_metrics",
                       int((threads + threads_per_block - 1) / threads_per_block), threads_per_block, 0, st, a);
    }
    launch_checked(&viterbi_thread<C, Punctured, Soft, DPX>, "viterbi_thread", blocks, threads_per_block, 0, st, a);
}

// The integer-input kernels: the DPX variant or the portable one.
template <class C, bool Punctured>
void launch_int(const thread_args& a, int blocks, cudaStream_t st, bool dpx)
{
    if (dpx)
        launch_one<C, Punctured, false, true>(a, blocks, st);
    else
        launch_one<C, Punctured, false, false>(a, blocks, st);
}

template <class C>
void launch_for(const batch_view& dev,
                const viterbi_gpu_code& code,
                int max_steps,
                cudaStream_t st,
                bool has_soft,
                bool has_other,
                bool dpx)
{
    thread_args a{ code,
                   dev.frames,
                   dev.params_as<viterbi::frame_params>(),
                   dev.in,
                   dev.out,
                   dev.results_as<viterbi::frame_result>(),
                   reinterpret_cast<uint32_t*>(dev.scratch),
                   // After the decisions of every frame (max_steps each).
                   reinterpret_cast<float*>(dev.scratch) + size_t(max_steps) * dev.nframes * trellis<C>::W,
                   max_steps,
                   int(dev.nframes) };
    const int blocks = int((dev.nframes + threads_per_block - 1) / threads_per_block);
    const bool punctured = code.period != 1 || code.kept != code.n;
    // Float input has no packed max: one variant.
    if (has_soft) {
        if (punctured)
            launch_one<C, true, true, false>(a, blocks, st);
        else
            launch_one<C, false, true, false>(a, blocks, st);
    }
    if (has_other) {
        if (punctured)
            launch_int<C, true>(a, blocks, st, dpx);
        else
            launch_int<C, false>(a, blocks, st, dpx);
    }
}

} // namespace

template <class C>
void viterbi_thread_launch(const batch_view& dev,
                           const viterbi_gpu_code& code,
                           int max_steps,
                           void* stream,
                           bool has_soft,
                           bool has_other,
                           bool dpx)
{
    launch_for<C>(dev, code, max_steps, static_cast<cudaStream_t>(stream), has_soft, has_other, dpx);
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
