/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The fixed-point decoder: 16-bit max-log-MAP, two codewords per thread.
//
// A thread block decodes a pair of codewords of the same K; thread w runs
// window w of both, one codeword in each 16-bit half of every register, so
// each add.s16x2 / max.s16x2 / VIADDMNMX (Hopper's DPX add-max) advances two
// trellises. The per-step arithmetic is turbo_fixed.h's, shared with the CPU
// twin (turbo_decoder_cpu::decode_fixed), and exact, so the two agree bit for
// bit.
//
// Where the float kernels read LLRs from global memory with a stride of one
// window per thread, this one first loads the pair into shared memory, once:
// quantised to int8 (the two codewords side by side in 16 bits) and laid out
// window-transposed, position k = w W + j at j N + w (N windows), so the
// threads of a warp, all at step j of their windows, read consecutive
// half-words (the row stride is a compile-time 96 or 128 for those block
// sizes). The interleaved half-iteration reads position Pi(k) through a
// table of slots built once per pair: the QPP is contention-free for windows
// dividing K, so those reads also fall in one row. A-priori/extrinsic LLRs
// (int16 x 2) stay in shared memory too, updated in place: each
// half-iteration first runs everything that reads other windows' positions
// (training steps) and the forward recursion, then, after a barrier, the
// backward recursion that rewrites the window's own positions. alpha is
// checkpointed every C steps (global scratch, cached) and each segment
// recomputed before its backward walk, as in cuda-float-window. What a half-iteration
// starts with from global memory (boundary metrics, the last checkpoint) is
// loaded before the barrier that precedes it.
#include "turbo/lte_crc.h"
#include "turbo/turbo_fixed.h"
#include "turbo/cuda/turbo_launch.h"
#include "turbo/turbo_frame.h"
#include "cuda/cuda_check.h"
#include "cuda/dpx_arch.cuh"
#include "turbo/cuda/turbo_common.cuh"

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gr {
namespace gpurx {
namespace core {

namespace {

using turbo_fx::NEG;

// Two int16 lanes per 32-bit register, with Hopper's DPX add-max (one
// VIADDMNMX.S16x2). Compiled only where GPURX_DPX_ARCH (cuda/dpx_arch.cuh):
// other targets would emulate it, and run turbo_fx::s16x2_portable_ops.
// There the DPX kernel's body is a trap, so these go unreferenced: no
// warning for that (nvcc's 177).
#pragma nv_diag_suppress 177
struct s16x2_ops {
    using V = uint32_t;
    static __device__ __forceinline__ V add(V a, V b) { return __vadd2(a, b); }
    static __device__ __forceinline__ V sub(V a, V b) { return __vsub2(a, b); }
    static __device__ __forceinline__ V addmax(V a, V b, V c) { return __viaddmax_s16x2(a, b, c); }
    static __device__ __forceinline__ V zero() { return 0u; }
};
#pragma nv_diag_default 177
using s16x2_portable_ops = turbo_fx::s16x2_portable_ops;


__device__ __forceinline__ uint32_t pack2(int lo, int hi)
{
    return (uint32_t(lo) & 0xFFFFu) | (uint32_t(hi) << 16);
}
__device__ __forceinline__ int lane_lo(uint32_t v) { return int(int16_t(v & 0xFFFFu)); }
__device__ __forceinline__ int lane_hi(uint32_t v) { return int(v) >> 16; }

// Two int8 (low byte: codeword A) sign-extended to two int16.
__device__ __forceinline__ uint32_t sext8x2(uint32_t v)
{
    uint32_t r;
    asm("prmt.b32 %0, %1, 0, 0x9180;" : "=r"(r) : "r"(v));
    return r;
}

template <typename Tin>
__device__ __forceinline__ int quant(const Tin* c, int i, float scale);
template <>
__device__ __forceinline__ int quant<float>(const float* c, int i, float scale)
{
    return turbo_fx::quantize(c[i], scale);
}
template <>
__device__ __forceinline__ int quant<int8_t>(const int8_t* c, int i, float)
{
    return turbo_fx::quantize(c[i]);
}

// LLRs 4v .. 4v+3 of a codeword (16-byte aligned), quantised.
__device__ __forceinline__ void quant4(const float* c, int v, float scale, int (&q)[4])
{
    const float4 x = reinterpret_cast<const float4*>(c)[v];
    q[0] = turbo_fx::quantize(x.x, scale);
    q[1] = turbo_fx::quantize(x.y, scale);
    q[2] = turbo_fx::quantize(x.z, scale);
    q[3] = turbo_fx::quantize(x.w, scale);
}
__device__ __forceinline__ void quant4(const int8_t* c, int v, float, int (&q)[4])
{
    const uint32_t x = reinterpret_cast<const uint32_t*>(c)[v];
#pragma unroll
    for (int e = 0; e < 4; e++)
        q[e] = turbo_fx::quantize(int8_t(x >> (8 * e)));
}

// alpha checkpoint spacing and load chunk, in steps. 4 was measured too:
// fewer registers, but slower (docs/benchmarks.md).
constexpr int FX_CKPT = 8;
// Registers per thread: at most 168 lets three 3-warp blocks (P = 96) share
// an SM sub-partition's 16K registers; more limits the SM to two blocks.
constexpr int FX_MAX_REGS = 168;
// The general-stride variant (NW = 0: blocks of 32-64 or 160-256 threads)
// computes its row addresses at run time and needs a few more; with at most
// 256 threads per block any count up to 255 still launches.
constexpr int FX_MAX_REGS_GENERAL = 192;

// Offset in a frame's scratch of the alpha checkpoints (16-byte aligned),
// after 32 words of boundary metrics per window and 3 x nwords_max words of
// decisions and CRC table.
__host__ __device__ inline size_t fx_ckpt_offset(int nwin, int nwords_max)
{
    return (size_t(32) * nwin + 3 * size_t(nwords_max) + 3) & ~size_t(3);
}

struct fx_args {
    const frame_desc* frames;
    const turbo::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    turbo::frame_result* results;
    uint32_t* scratch;
    size_t scratch_words; // per frame
    int nframes;
    int P;     // turbo_config::subblocks (0: automatic)
    int slots; // shared positions per stream: max W x windows
    int nwords_max;
    int iterations;
    int guard;
    int sq; // extrinsic scale, 1/256
    uint32_t ext_lo2, ext_hi2; // turbo_fx::ext_clamp_of(sq), both lanes
    float in_scale;
    float soft_unit;
    int stop;
    bool soft;
};

// Shared memory of one block. Slots are the window-transposed positions
// (module comment); pslot is the interleaver as a table of slots, which
// replaces the per-step QPP and slot arithmetic of the interleaved decoder.
// What is touched once per iteration (previous decisions, CRC table) lives in
// global scratch, so that three blocks of K = 6144 fit an SM with the table.
struct fx_smem {
    uint32_t* ext;      // [slots] int16 x 2 a-priori/extrinsic, natural positions
    uint32_t* packed;   // [2][nwords_max] hard decisions, bit K-1-i
    int* tailq;         // [2][12]
    uint32_t* s_crc;    // [2]
    int* s_flag;        // [2]
    uint16_t* sys;      // [slots] int8 x 2
    uint16_t* par;      // [2][slots]
    uint16_t* pslot;    // [slots] at the slot of step k: the slot of Pi(k)

    __device__ fx_smem(uint32_t* base, const fx_args& a)
    {
        ext = base;
        packed = ext + a.slots;
        tailq = reinterpret_cast<int*>(packed + 2 * a.nwords_max);
        s_crc = reinterpret_cast<uint32_t*>(tailq + 24);
        s_flag = reinterpret_cast<int*>(s_crc + 2);
        sys = reinterpret_cast<uint16_t*>(s_flag + 2);
        par = sys + a.slots;
        pslot = par + 2 * a.slots;
    }
    static size_t bytes(int slots, int nwords_max)
    {
        return (size_t(slots) + 2 * size_t(nwords_max) + 24 + 4) * 4 + 4 * size_t(slots) * 2;
    }
};

// Geometry and interleaver of the codeword pair being decoded. Offset j of
// window w lives at slot j * stride() + w: the row stride is the block's
// thread count NW when it is a template constant (the addresses of a chunk's
// steps are then one register plus immediates), else the window count.
template <int NW>
struct fx_code {
    int K, W, nwin;
    uint32_t f1, f2, f2x2, wdiv; // wdiv: ceil(2^32 / W), for W >= 2

    __device__ __forceinline__ int stride() const { return NW ? NW : nwin; }
    // Shared slot of natural position k (window k / W, offset k % W).
    __device__ __forceinline__ int slot(int k) const
    {
        const int q = W == 1 ? k : int(__umulhi(uint32_t(k), wdiv));
        return (k - q * W) * stride() + q;
    }
    __device__ __forceinline__ int qpp(int k) const
    {
        return int(((f1 + f2 * uint32_t(k)) % uint32_t(K)) * uint32_t(k) % uint32_t(K));
    }
};

// Inputs of n <= C consecutive steps k0.. of decoder d, all in window wk
// starting at offset j0: packed Lu = Ls + La, Lp, and each step's systematic
// slot (that of Pi(k) for d = 1, from the table), whose extrinsic the
// backward pass rewrites. With IDX, also each step's systematic position
// (Pi(k) for d = 1, advanced incrementally as in cuda-float-window), which only the
// pass that writes decisions needs.
template <class O, int C, int d, bool IDX, int NW>
__device__ __forceinline__ void load_steps(const fx_smem& sm, const fx_code<NW>& cd, int wk,
                                           int j0, int n, uint32_t (&LU)[C], uint32_t (&LP)[C],
                                           int (&SLOT)[C], int (&IX)[C])
{
    const int k0 = wk * cd.W + j0;
    const int str = cd.stride();
    const uint16_t* par = sm.par + (d ? str * cd.W : 0);
    int pi = 0, delta = 0;
    if constexpr (d == 1 && IDX) {
        pi = cd.qpp(k0);
        delta = int((cd.f1 + cd.f2 * uint32_t(2 * k0 + 1)) % uint32_t(cd.K));
    }
#pragma unroll
    for (int i = 0; i < C; i++) {
        if (i < n) {
            const int own = (j0 + i) * str + wk;
            const int s = d ? int(sm.pslot[own]) : own;
            SLOT[i] = s;
            LU[i] = O::add(sext8x2(sm.sys[s]), sm.ext[s]);
            LP[i] = sext8x2(par[own]);
            if constexpr (IDX) {
                IX[i] = d ? pi : k0 + i;
                if constexpr (d == 1) {
                    pi += delta;
                    if (pi >= cd.K)
                        pi -= cd.K;
                    delta += int(cd.f2x2);
                    if (delta >= cd.K)
                        delta -= cd.K;
                }
            }
        }
    }
}

// turbo_fx::scale_extrinsic of both lanes: clamped packed first
// (turbo_fx::ext_clamp_of), then each lane times sq, and bits 8..23 of the
// two products (floor(p / 256) in 16 bits) packed by one byte permute.
__device__ __forceinline__ uint32_t scale_ext2(uint32_t le, const fx_args& a)
{
    const uint32_t c = __vmins2(__vmaxs2(le, a.ext_lo2), a.ext_hi2);
    const int p0 = lane_lo(c) * a.sq, p1 = lane_hi(c) * a.sq;
    return __byte_perm(uint32_t(p0), uint32_t(p1), 0x6521);
}

// Chunk length known at compile time: a full chunk; and a chunk's parity.
template <int C>
using full_chunk = std::integral_constant<int, C>;
template <int P>
using parity = std::integral_constant<int, P>;

__device__ __forceinline__ void copy8(uint32_t* dst, const uint32_t* src)
{
#pragma unroll
    for (int s = 0; s < 8; s++)
        dst[s] = src[s];
}

// A thread's 8 state metrics to and from global scratch, 32 contiguous bytes
// (two 16-byte accesses, 16-byte aligned).
__device__ __forceinline__ void store8(uint32_t* dst, const uint32_t (&m)[8])
{
    reinterpret_cast<uint4*>(dst)[0] = make_uint4(m[0], m[1], m[2], m[3]);
    reinterpret_cast<uint4*>(dst)[1] = make_uint4(m[4], m[5], m[6], m[7]);
}
__device__ __forceinline__ void load8(uint32_t (&m)[8], const uint32_t* src)
{
    const uint4 lo = reinterpret_cast<const uint4*>(src)[0];
    const uint4 hi = reinterpret_cast<const uint4*>(src)[1];
    m[0] = lo.x, m[1] = lo.y, m[2] = lo.z, m[3] = lo.w;
    m[4] = hi.x, m[5] = hi.y, m[6] = hi.z, m[7] = hi.w;
}

// Decode frames fa (low lanes) and fb (high lanes) of equal K; with
// !b_real, fb == fa and the high lanes' results are dropped. Inlined (a call
// costs spills) at the kernel's one call site, which keeps one copy of it in
// the instruction cache.
template <class O, typename Tin, int C, int NW>
__device__ __forceinline__ void decode_pair(const fx_args& a, const fx_smem& sm, int fa, int fb, bool b_real)
{
    const int tid = threadIdx.x;
    const frame_desc fdA = a.frames[fa], fdB = a.frames[fb];
    fx_code<NW> cd;
    const turbo::frame_params fp = a.params[fa];
    // The masks state what 36.212 guarantees (K <= 6144 < 2^13, f1 < 2^9,
    // f2 < 2^10): with the ranges known, nvcc keeps the index arithmetic of
    // the inner loops unsigned and narrow (measured: 5% of the kernel).
    cd.K = fp.K & 0x1FFF;
    cd.f1 = uint32_t(fp.f1) & 0x1FFu;
    cd.f2 = uint32_t(fp.f2) & 0x3FFu;
    cd.f2x2 = (2 * cd.f2) % uint32_t(cd.K);
    cd.W = turbo::window_length(cd.K, turbo::subblocks_for(a.P, cd.K));
    cd.nwin = turbo::window_count(cd.K, turbo::subblocks_for(a.P, cd.K));
    cd.wdiv = cd.W >= 2 ? 0xFFFFFFFFu / uint32_t(cd.W) + 1u : 0u;
    const int K = cd.K, W = cd.W, nwin = cd.nwin;
    const int nwords = (K + 31) / 32;
    const Tin* cA = reinterpret_cast<const Tin*>(a.in + fdA.in_offset);
    const Tin* cB = reinterpret_cast<const Tin*>(a.in + fdB.in_offset);
    const int str = cd.stride();
    const int w = tid; // this thread's window
    uint32_t* scr = a.scratch + size_t(fa) * a.scratch_words;
    // Window-boundary metrics [decoder][alpha|beta][window][state], previous
    // decisions [2][nwords_max], the CRC table [nwords_max], then (16-byte
    // aligned) alpha checkpoints [segment][window][state].
    auto bound = [&](int d, int beta, int win) { return scr + ((d * 2 + beta) * nwin + win) * 8; };
    uint32_t* prev = scr + 32 * nwin;
    uint32_t* crc_tab = prev + 2 * a.nwords_max;
    uint32_t* ckpt = scr + fx_ckpt_offset(nwin, a.nwords_max);
    auto ckpt_at = [&](int seg) { return ckpt + (seg * nwin + w) * 8; };
    const bool crc_stop = a.stop == int(turbo::early_stop::crc24a) || a.stop == int(turbo::early_stop::crc24b);
    const uint32_t crc_g = a.stop == int(turbo::early_stop::crc24a) ? crc24a_poly : crc24b_poly;

    // Load and quantise both codewords into the transposed layout. Four
    // consecutive LLRs per load where the frames allow (the pipeline aligns
    // them to 16 bytes): one LLR per load left the block waiting on global
    // memory for a sixth of its run.
    const int nllr = 3 * K + 12; // a multiple of 4
    auto put = [&](int i, int qa, int qb) {
        if (i < 3 * K) {
            const int k = i / 3, st = i - 3 * k;
            uint16_t* dst = st == 0 ? sm.sys : sm.par + (st - 1) * str * W;
            dst[cd.slot(k)] = uint16_t((qa & 0xFF) | ((qb & 0xFF) << 8));
        } else {
            sm.tailq[i - 3 * K] = qa;
            sm.tailq[12 + i - 3 * K] = qb;
        }
    };
    if (((fdA.in_offset | fdB.in_offset | reinterpret_cast<uintptr_t>(a.in)) & 15) == 0) {
        for (int v = tid; v < nllr / 4; v += blockDim.x) {
            int qa[4], qb[4];
            quant4(cA, v, a.in_scale, qa);
            quant4(cB, v, a.in_scale, qb);
#pragma unroll
            for (int e = 0; e < 4; e++)
                put(4 * v + e, qa[e], qb[e]);
        }
    } else {
        for (int i = tid; i < nllr; i += blockDim.x)
            put(i, quant(cA, i, a.in_scale), quant(cB, i, a.in_scale));
    }
    for (int i = tid; i < str * W; i += blockDim.x)
        sm.ext[i] = 0u;
    for (int k = tid; k < K; k += blockDim.x)
        sm.pslot[cd.slot(k)] = uint16_t(cd.slot(cd.qpp(k)));
    for (int i = tid; i < nwords; i += blockDim.x) {
        prev[i] = prev[a.nwords_max + i] = 0u;
        sm.packed[i] = sm.packed[a.nwords_max + i] = 0u;
        if (crc_stop)
            crc_tab[i] = gf_xpow32(i, crc_g);
    }
    if (tid < 2) {
        sm.s_crc[tid] = 0u;
        sm.s_flag[tid] = 0;
    }
    __syncthreads();
    if (w < nwin) {
        for (int d = 0; d < 2; d++) {
            uint32_t* ab = bound(d, 0, w);
            ab[0] = 0u;
            for (int s = 1; s < 8; s++)
                ab[s] = w == 0 ? pack2(NEG, NEG) : 0u;
            uint32_t* bb = bound(d, 1, w);
            if (w == nwin - 1) {
                int tl[2][6], bl[2][8];
                for (int l = 0; l < 2; l++) {
                    for (int t = 0; t < 6; t++)
                        tl[l][t] = sm.tailq[12 * l + 6 * d + t];
                    turbo_fx::tail_beta<turbo_fx::int_ops>(tl[l], bl[l]);
                }
                for (int s = 0; s < 8; s++)
                    bb[s] = pack2(bl[0][s], bl[1][s]);
            } else {
                for (int s = 0; s < 8; s++)
                    bb[s] = 0u;
            }
        }
    }
    __syncthreads();

    const bool active = w < nwin;
    const turbo::window_plan wp = turbo::plan_window(w, nwin, W, K, a.guard);
    const int len = wp.len, gf = wp.gf, gb = wp.gb, ja = wp.ja, jb = wp.jb;
    const int nseg = (len + C - 1) / C;
    bool done[2] = { false, false };
    int it_used[2] = { 0, 0 }, check[2] = { -1, -1 };
    float* soft_out[2] = { nullptr, nullptr };
    if (a.soft) {
        soft_out[0] = reinterpret_cast<float*>(a.out + fdA.out_offset + turbo_soft_offset(K));
        if (b_real)
            soft_out[1] = reinterpret_cast<float*>(a.out + fdB.out_offset + turbo_soft_offset(K));
    }

    // Boundary metrics at the start of a half-iteration: alpha entering and
    // beta leaving window w (each half-iteration loads the next one's).
    uint32_t A[8], B[8];
    if (active) {
        load8(A, bound(0, 0, w));
        load8(B, bound(0, 1, w));
    }
    // The first half-iteration stores its neighbours' boundaries while it
    // runs (below); every window must have read its own first.
    __syncthreads();
    for (int it = 1; it <= a.iterations; it++) {
        // One half-iteration, compiled per decoder (d = 1 reads through the
        // interleaver) so that neither pays for the other's addressing.
        // Hard decisions (and soft output) are needed after every iteration
        // only for early termination; else after the last one.
        const bool want_out = a.stop != int(turbo::early_stop::none) || it == a.iterations;
        auto half = [&](auto dc) {
            constexpr int d = decltype(dc)::value;
            uint32_t t[8], ckn[8];
            // The boundaries this half-iteration hands to its neighbours (alpha
            // at offset ja for window w+1, beta at jb for w-1) go straight to
            // global scratch when the recursion reaches them: kept in
            // registers, they were 16 live values across both phases, the
            // difference between spilling and not (docs/results/ptxas_*).
            // Safe to store at once: the neighbours read them at the end of
            // the other decoder's half-iteration, behind a barrier.
            auto save_alpha = [&]() {
                if (w + 1 < nwin)
                    store8(bound(d, 0, w + 1), A);
            };
            auto save_beta = [&]() {
                if (w > 0)
                    store8(bound(d, 1, w - 1), B);
            };
            uint32_t LU[C], LP[C];
            int SL[C], IX[C];
            if (d == 1 && want_out)
                for (int l = 0; l < 2; l++)
                    if (!done[l])
                        for (int i = tid; i < nwords; i += blockDim.x)
                            sm.packed[l * a.nwords_max + i] = 0u;
            // Phase 1: every read of other windows' positions, and alpha.
            // Chunk bodies are instantiated for a full chunk (n = C, no save
            // point inside, parity of j0 known) without per-step tests, and
            // generic. Normalisation runs on odd offsets j0 + i.
            // alpha over a chunk of window wk: the window's own (checkpoints
            // and the boundary saved for window w+1) or training (in w-1).
            auto alpha_chunk = [&](int wk, int j0, auto nc, auto pc, bool train) {
                const int n = nc;
                const int par0 = pc;
                constexpr bool full = std::is_same<decltype(nc), full_chunk<C>>::value;
                load_steps<O, C, d, false>(sm, cd, wk, j0, n, LU, LP, SL, IX);
                if (!train) {
                    store8(ckpt_at(j0 / C), A);
                    if (full && j0 == ja)
                        save_alpha();
                }
#pragma unroll
                for (int i = 0; i < C; i++)
                    if (i < n) {
                        if (!full && !train && j0 + i == ja)
                            save_alpha();
                        turbo_fx::alpha_step<O>(A, LU[i], LP[i], t, (par0 + i) & 1);
                        copy8(A, t);
                    }
            };
            auto alpha_run = [&](int wk, int j0, int n, bool train) {
                const bool save_inside = !train && ja > j0 && ja < j0 + C;
                if (n == C && !save_inside && !(j0 & 1))
                    alpha_chunk(wk, j0, full_chunk<C>{}, parity<0>{}, train);
                else
                    alpha_chunk(wk, j0, n, j0 & 1, train);
            };
            auto beta_train = [&](int j0, auto nc, auto pc) { // training in window w+1
                const int n = nc;
                const int par0 = pc;
                load_steps<O, C, d, false>(sm, cd, w + 1, j0, n, LU, LP, SL, IX);
#pragma unroll
                for (int i = C - 1; i >= 0; i--)
                    if (i < n) {
                        turbo_fx::beta_step<O>(B, LU[i], LP[i], t, (par0 + i) & 1);
                        copy8(B, t);
                    }
            };
            if (active) {
                for (int j0 = W - gf; j0 < W; j0 += C)
                    alpha_run(w - 1, j0, min(C, W - j0), true);
                for (int j0 = 0; j0 < len; j0 += C)
                    alpha_run(w, j0, min(C, len - j0), false);
                if (ja == len)
                    save_alpha();
                for (int hi = gb; hi > 0; hi -= C) {
                    const int j0 = max(0, hi - C), n = hi - j0;
                    if (n == C && !(j0 & 1))
                        beta_train(j0, full_chunk<C>{}, parity<0>{});
                    else
                        beta_train(j0, n, j0 & 1);
                }
                if (jb == len)
                    save_beta();
                // Phase 2 starts with the last segment's checkpoint.
                if (nseg > 0)
                    load8(ckn, ckpt_at(nseg - 1));
            }
            __syncthreads();
            if (d == 0 && tid < 2) { // read after the previous iteration's last barrier
                sm.s_crc[tid] = 0u;
                sm.s_flag[tid] = 0;
            }
            // Phase 2: the backward walk, rewriting this window's extrinsics:
            // each segment's alpha recomputed from its checkpoint (the next
            // segment's checkpoint load is issued before this one's work, to
            // hide its latency), then beta. OUT: decisions wanted.
            auto backward = [&](int j0, auto nc, auto outc) {
                const int n = nc;
                constexpr bool full = std::is_same<decltype(nc), full_chunk<C>>::value;
                constexpr bool out = decltype(outc)::value;
                load_steps<O, C, d, d == 1 && out>(sm, cd, w, j0, n, LU, LP, SL, IX);
                uint32_t R[C][8], r[8];
                copy8(r, ckn);
                if (j0 >= C)
                    load8(ckn, ckpt_at(j0 / C - 1));
#pragma unroll
                for (int i = 0; i < C; i++)
                    if (i < n) {
                        copy8(R[i], r);
                        turbo_fx::alpha_step<O>(r, LU[i], LP[i], t, i & 1); // j0 % C == 0
                        copy8(r, t);
                    }
#pragma unroll
                for (int i = C - 1; i >= 0; i--) {
                    if (i < n) {
                        const uint32_t le = turbo_fx::extrinsic<O>(R[i], B, LP[i]);
                        const int le0 = lane_lo(le), le1 = lane_hi(le);
                        if (d == 1 && out) {
                            const int idx = IX[i];
                            const int app[2] = { lane_lo(LU[i]) + le0, lane_hi(LU[i]) + le1 };
                            const int p = K - 1 - idx;
#pragma unroll
                            for (int l = 0; l < 2; l++) {
                                if (done[l])
                                    continue;
                                if (app[l] > 0)
                                    atomicOr(&sm.packed[l * a.nwords_max + (p >> 5)], 1u << (p & 31));
                                if (soft_out[l])
                                    soft_out[l][idx] = float(app[l]) * a.soft_unit;
                            }
                        }
                        turbo_fx::beta_step<O>(B, LU[i], LP[i], t, i & 1);
                        copy8(B, t);
                        sm.ext[SL[i]] = scale_ext2(le, a);
                        if (!full && j0 + i == jb)
                            save_beta();
                    }
                }
                if (full && j0 == jb)
                    save_beta();
            };
            auto backward_out = [&](int j0, int n, auto outc) {
                if (n == C && !(jb > j0 && jb < j0 + C))
                    backward(j0, full_chunk<C>{}, outc);
                else
                    backward(j0, n, outc);
            };
            if (active) {
                for (int seg = nseg - 1; seg >= 0; seg--) {
                    const int j0 = seg * C, n = min(C, len - j0);
                    if (d == 1 && want_out)
                        backward_out(j0, n, std::true_type{});
                    else
                        backward_out(j0, n, std::false_type{});
                }
                // The other decoder's boundary metrics, for its next
                // half-iteration, before the barrier hides their latency: its
                // neighbours wrote them before the last barrier but one.
                load8(A, bound(1 - d, 0, w));
                load8(B, bound(1 - d, 1, w));
            }
            __syncthreads();
        };
        half(std::integral_constant<int, 0>{});
        half(std::integral_constant<int, 1>{});

        // Early termination, per codeword.
#pragma unroll
        for (int l = 0; l < 2; l++) {
            if (done[l])
                continue;
            const uint32_t* pk = sm.packed + l * a.nwords_max;
            uint32_t* pv = prev + l * a.nwords_max;
            if (crc_stop) {
                uint32_t r = 0;
                for (int i = tid; i < nwords; i += blockDim.x)
                    r ^= gf_mulmod(gf_reduce32(pk[i], crc_g), crc_tab[i], crc_g);
                if (r)
                    atomicXor(&sm.s_crc[l], r);
            } else if (a.stop == int(turbo::early_stop::hard_decision)) {
                for (int i = tid; i < nwords; i += blockDim.x) {
                    if (pk[i] != pv[i])
                        atomicOr(&sm.s_flag[l], 1);
                    pv[i] = pk[i];
                }
            }
        }
        __syncthreads();
#pragma unroll
        for (int l = 0; l < 2; l++) {
            if (done[l])
                continue;
            it_used[l] = it;
            if (crc_stop) {
                check[l] = sm.s_crc[l] == 0u ? 1 : 0;
                done[l] = check[l] == 1;
            } else if (a.stop == int(turbo::early_stop::hard_decision)) {
                done[l] = it > 1 && sm.s_flag[l] == 0;
            }
        }
        if (done[0] && (done[1] || !b_real))
            break;
    }

    // Hard decisions out of the packed bits.
    for (int l = 0; l < (b_real ? 2 : 1); l++) {
        const frame_desc& fd = l ? fdB : fdA;
        write_hard_decisions(sm.packed + l * a.nwords_max, K, a.out + fd.out_offset, tid, blockDim.x);
        if (tid == 0)
            a.results[l ? fb : fa] = turbo::frame_result{ it_used[l], check[l] };
    }
    __syncthreads(); // shared memory is reused by the block's next pair
}

// Block b decodes frames 2b and 2b+1 together when their K match (the usual
// case: a batch of one K), else one after the other.
// DPX: s16x2_ops, launched where cuda_dpx_for_device() says (elsewhere the
// body is a trap: compiled only where GPURX_DPX_ARCH);
// else s16x2_portable_ops, bit-exact with it.
template <bool DPX, typename Tin, int C, int NW>
__global__ void __maxnreg__(NW ? FX_MAX_REGS : FX_MAX_REGS_GENERAL) turbo_decode_fx(fx_args a)
{
#if !GPURX_DPX_ARCH
    if constexpr (DPX) {
        __trap(); // the host launches the DPX kernel on compute capability 9.x only
        return;
    } else
#endif
    {
    using O = std::conditional_t<DPX, s16x2_ops, s16x2_portable_ops>;
    extern __shared__ uint32_t smem_fx[];
    const fx_smem sm(smem_fx, a);
    const int f0 = 2 * blockIdx.x, f1 = f0 + 1;
    const bool pair = f1 < a.nframes && a.params[f1].K == a.params[f0].K;
    const int reps = pair || f1 >= a.nframes ? 1 : 2;
    for (int r = 0; r < reps; r++) {
        const int fa = f0 + r;
        decode_pair<O, Tin, C, NW>(a, sm, fa, pair ? f1 : fa, pair);
    }
    }
}

} // namespace

void cuda_turbo_decode_fixed(const batch_view& dev,
                             const turbo_config& cfg,
                             float int8_scale,
                             bool int8_input,
                             const turbo_geometry& geo,
                             bool dpx,
                             void* stream)
{
    const int max_K = geo.max_K, max_windows = geo.max_windows;
    auto st = static_cast<cudaStream_t>(stream);
    const int n = static_cast<int>(dev.nframes);
    if (n == 0)
        return;
    const int T = ((max_windows + 31) / 32) * 32;
    const int W = geo.max_W;
    const int nwords = (max_K + 31) / 32;
    fx_args a{};
    a.frames = dev.frames;
    a.params = dev.params_as<turbo::frame_params>();
    a.in = dev.in;
    a.out = dev.out;
    a.results = dev.results_as<turbo::frame_result>();
    a.scratch = reinterpret_cast<uint32_t*>(dev.scratch);
    // Per frame: 32 words of boundaries per window, 3 x nwords of decisions
    // and CRC table, then alpha checkpoints, 8 words per window and C-step
    // segment: at most 32 P + 579 + P (W + 8) <= 41 P + 6723 words, under 32
    // P + 12288 (turbo_scratch_floats) for every P <= 256; checked here.
    a.scratch_words = turbo_scratch_floats(cfg.max_subblocks());
    const size_t need = fx_ckpt_offset(max_windows, nwords) +
                        8 * size_t(max_windows) * size_t((W + FX_CKPT - 1) / FX_CKPT);
    if (need > a.scratch_words || a.scratch_words % 4 != 0)
        throw std::logic_error("turbo_decode_fx: scratch of " + std::to_string(a.scratch_words) +
                               " words per frame, " + std::to_string(need) + " needed");
    a.nframes = n;
    a.P = cfg.subblocks;
    // A constant row stride for the usual block sizes (see fx_code).
    const int NW = T == 128 || T == 96 ? T : 0;
    a.slots = NW ? geo.max_W * NW : geo.max_slots;
    a.nwords_max = nwords;
    a.iterations = cfg.iterations;
    a.guard = cfg.guard;
    a.sq = turbo_fx::scale_q(cfg.extrinsic_scale());
    const turbo_fx::ext_clamp ec = turbo_fx::ext_clamp_of(a.sq);
    auto both = [](int v) { return (uint32_t(v) & 0xFFFFu) | (uint32_t(v) << 16); };
    a.ext_lo2 = both(ec.lo);
    a.ext_hi2 = both(ec.hi);
    a.in_scale = cfg.fixed_scale;
    a.soft_unit = int8_input ? int8_scale : 1.0f / cfg.fixed_scale;
    a.stop = int(cfg.stop);
    a.soft = cfg.soft_output;
    const size_t smem = fx_smem::bytes(a.slots, nwords);
    const int blocks = (n + 1) / 2;
    using kernel_fn = void (*)(fx_args);
    auto pick = [&](auto dpx) -> kernel_fn {
        constexpr bool D = decltype(dpx)::value;
        return NW == 128 ? (int8_input ? &turbo_decode_fx<D, int8_t, FX_CKPT, 128> : &turbo_decode_fx<D, float, FX_CKPT, 128>)
               : NW == 96 ? (int8_input ? &turbo_decode_fx<D, int8_t, FX_CKPT, 96> : &turbo_decode_fx<D, float, FX_CKPT, 96>)
                          : (int8_input ? &turbo_decode_fx<D, int8_t, FX_CKPT, 0> : &turbo_decode_fx<D, float, FX_CKPT, 0>);
    };
    // DPX on Hopper; the portable arithmetic elsewhere or when forced
    // (cuda_dpx_for_device: the policy of cuda/cuda_dpx.h), bit-exact with it.
    const kernel_fn fn = dpx ? pick(std::true_type{}) : pick(std::false_type{});
    launch_checked(fn, "turbo_decode_fx", blocks, T, smem, st, a, true);
}

} // namespace core
} // namespace gpurx
} // namespace gr
