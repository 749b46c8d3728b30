/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder with one thread per window: the many windows of one
// long stream are the parallelism, and a thread keeps its window's 2^(K-1)
// state metrics in registers. For that the code is a template argument:
// with the loops unrolled, every predecessor and every branch output is a
// constant, so a state costs two adds, a compare and a select. The codes
// compiled in are listed in compiled_codes below; any other code runs on
// the warp-per-window kernel (viterbi_stream_warp.cu).
//
// Each thread: the acquisition steps without decisions, then the payload and
// traceback steps with their decisions packed 32 states to a word and
// stored so that the threads of a warp write consecutive words; then the
// traceback from the best end state, reading 8 steps' words ahead (their
// addresses do not depend on the path, so the loads overlap). Same sums, tie
// rules and float metrics as the family's other GPU decoders: equal to the
// CPU (double) bit for bit while the sums are exact in float.
#include "cuda/launch.cuh"
#include "viterbi/cuda/viterbi_stream_device.cuh"
#include "viterbi/viterbi_code.h"

#include <cuda_runtime.h>
#include <cstdint>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr float unreachable = -3.0e38f;
constexpr int threads_per_block = 64;
constexpr int traceback_prefetch = 8;

//! A code fixed at compile time: K, n and the polynomials (standards' order).
template <int K_, int N_, unsigned G0, unsigned G1, unsigned G2 = 0, unsigned G3 = 0>
struct fixed_code {
    static constexpr int K = K_, N = N_, S = 1 << (K - 1), W = (S + 31) / 32;
    __host__ __device__ static constexpr unsigned poly(int i)
    {
        return i == 0 ? G0 : i == 1 ? G1 : i == 2 ? G2 : G3;
    }
    __host__ __device__ static constexpr unsigned parity(unsigned v)
    {
        unsigned p = 0;
        for (; v; v &= v - 1)
            p ^= 1u;
        return p;
    }
    //! The n coded bits of input u from state s: bit i is polynomial i's.
    __host__ __device__ static constexpr unsigned out(int s, int u)
    {
        const unsigned r = (unsigned(u) << (K - 1)) | unsigned(s);
        unsigned o = 0;
        for (int i = 0; i < N; i++)
            o |= parity(r & poly(i)) << i;
        return o;
    }
};

struct regs_args {
    viterbi_stream_gpu g;
    const frame_desc* frames;
    const viterbi::stream_frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    const int* starts;
    uint32_t* decisions; // [step from begin][word][window]
    int nframes;
    int windows; // the decisions' stride
};

// One trellis step from M to Mn; with KEEP, the decisions into d.
template <class C, bool KEEP>
__device__ __forceinline__ void acs_step(const float (&M)[C::S],
                                         float (&Mn)[C::S],
                                         const float (&l)[C::N],
                                         uint32_t (&d)[C::W])
{
    float bm[1 << C::N];
#pragma unroll
    for (int o = 0; o < (1 << C::N); o++) {
        float v = 0.0f; // the CPU's order: coded bit 0 first
#pragma unroll
        for (int i = 0; i < C::N; i++)
            v += ((o >> i) & 1) ? 0.5f * l[i] : -0.5f * l[i];
        bm[o] = v;
    }
#pragma unroll
    for (int w = 0; w < C::W; w++)
        d[w] = 0;
#pragma unroll
    for (int s = 0; s < C::S; s++) {
        const int u = s >> (C::K - 2);
        const int p0 = (s << 1) & (C::S - 1), p1 = p0 | 1;
        const float m0 = M[p0] + bm[C::out(p0, u)];
        const float m1 = M[p1] + bm[C::out(p1, u)];
        const bool odd = m1 > m0; // a tie keeps the even predecessor
        Mn[s] = odd ? m1 : m0;
        if (KEEP)
            d[s >> 5] |= uint32_t(odd) << (s & 31);
    }
}

template <class C>
__global__ void __launch_bounds__(threads_per_block) stream_regs(regs_args a)
{
    static_assert(C::W <= 2, "a step's decisions are traced back as one 64-bit word");
    __shared__ uint8_t keep[4 * viterbi_gpu_code::max_period_steps];
    for (int i = threadIdx.x; i < a.g.code.period * C::N; i += blockDim.x)
        keep[i] = a.g.code.offset[i] >= 0;
    __syncthreads();
    const int win = int(blockIdx.x) * threads_per_block + int(threadIdx.x);
    if (win >= a.starts[a.nframes])
        return;
    const int f = stream_frame_of_window(a.starts, a.nframes, win);
    const viterbi::stream_frame_params p = a.params[f];
    const frame_desc fd = a.frames[f];
    const viterbi::stream_window w = viterbi::stream_window_of(p, a.g.chunk, a.g.traceback, win - a.starts[f]);
    stream_llr_cursor cur(a.g.code, a.in + fd.in_offset, keep, p.input, p.phase, w.first);

    float M[C::S], Mn[C::S], l[C::N];
    uint32_t d[C::W];
#pragma unroll
    for (int s = 0; s < C::S; s++)
        M[s] = (!w.known_start || s == 0) ? 0.0f : unreachable;

    // Acquisition: no decisions. Two steps per iteration, so that M and Mn
    // trade places without copies.
    int t = w.first;
    for (; t + 2 <= w.begin; t += 2) {
        cur.next(l);
        acs_step<C, false>(M, Mn, l, d);
        cur.next(l);
        acs_step<C, false>(Mn, M, l, d);
    }
    if (t < w.begin) {
        cur.next(l);
        acs_step<C, false>(M, Mn, l, d);
#pragma unroll
        for (int s = 0; s < C::S; s++)
            M[s] = Mn[s];
        t++;
    }
    // Payload and traceback steps: decisions kept.
    const size_t stride = size_t(a.windows);
    uint32_t* dec = a.decisions + win;
    auto store = [&](int step) {
#pragma unroll
        for (int k = 0; k < C::W; k++)
            dec[(size_t(step - w.begin) * C::W + k) * stride] = d[k];
    };
    for (; t + 2 <= w.last; t += 2) {
        cur.next(l);
        acs_step<C, true>(M, Mn, l, d);
        store(t);
        cur.next(l);
        acs_step<C, true>(Mn, M, l, d);
        store(t + 1);
    }
    if (t < w.last) {
        cur.next(l);
        acs_step<C, true>(M, Mn, l, d);
        store(t);
#pragma unroll
        for (int s = 0; s < C::S; s++)
            M[s] = Mn[s];
    }

    int s = 0; // the best end state, the lowest on ties
    float best = M[0];
#pragma unroll
    for (int x = 1; x < C::S; x++)
        if (M[x] > best) {
            best = M[x];
            s = x;
        }
    uint8_t* bits = a.out + fd.out_offset; // bit 0: the frame's step payload_begin
    for (t = w.last - 1; t >= w.begin; t -= traceback_prefetch) {
        uint32_t words[traceback_prefetch][C::W];
#pragma unroll
        for (int k = 0; k < traceback_prefetch; k++)
#pragma unroll
            for (int j = 0; j < C::W; j++)
                words[k][j] = t - k >= w.begin ? dec[(size_t(t - k - w.begin) * C::W + j) * stride] : 0u;
#pragma unroll
        for (int k = 0; k < traceback_prefetch; k++) {
            const int tt = t - k;
            if (tt >= w.begin) { // no break: the loop stays unrolled, words in registers
                if (tt < w.end)
                    bits[tt - p.payload_begin] = uint8_t(s >> (C::K - 2));
                // The state's decision as a shift of the step's S bits: a
                // register index chosen by s would put words in local memory.
                uint64_t step_bits = words[k][0];
                if (C::W == 2)
                    step_bits |= uint64_t(words[k][C::W - 1]) << 32;
                s = ((s << 1) & (C::S - 1)) | int((step_bits >> s) & 1u);
            }
        }
    }
}

using launch_fn = void (*)(const batch_view&, const viterbi_stream_gpu&, int, cudaStream_t);

template <class C>
void launch_regs(const batch_view& dev, const viterbi_stream_gpu& g, int windows, cudaStream_t st)
{
    regs_args a{ g,
                 dev.frames,
                 dev.params_as<viterbi::stream_frame_params>(),
                 dev.in,
                 dev.out,
                 reinterpret_cast<const int*>(dev.scratch),
                 reinterpret_cast<uint32_t*>(dev.scratch + stream_decisions_offset(dev.nframes)),
                 int(dev.nframes),
                 windows };
    const int blocks = (windows + threads_per_block - 1) / threads_per_block;
    launch_checked(&stream_regs<C>, "viterbi stream_regs", blocks, threads_per_block, 0, st, a);
}

struct compiled_code {
    int K, n;
    unsigned polys[4];
    launch_fn launch;
};

// The codes with a register kernel: common standards' codes with K <= 7 (a
// thread holds 2^(K-1) metrics, and a step's decisions fit 64 bits; K = 8, 9
// would spill).
const compiled_code compiled_codes[] = {
    { 7, 2, { 0133, 0171 }, &launch_regs<fixed_code<7, 2, 0133, 0171>> },            // 802.11, CCSDS, DVB
    { 7, 3, { 0133, 0171, 0165 }, &launch_regs<fixed_code<7, 3, 0133, 0171, 0165>> }, // LTE
    { 5, 2, { 023, 033 }, &launch_regs<fixed_code<5, 2, 023, 033>> },                 // GSM
    { 3, 2, { 07, 05 }, &launch_regs<fixed_code<3, 2, 07, 05>> },
};

const compiled_code* find_compiled(int K, int n, const unsigned* polys)
{
    for (const auto& e : compiled_codes) {
        bool same = e.K == K && e.n == n;
        for (int i = 0; same && i < n; i++)
            same = e.polys[i] == polys[i];
        if (same)
            return &e;
    }
    return nullptr;
}

} // namespace

bool viterbi_stream_regs_supports(const viterbi_code& code)
{
    return find_compiled(code.K(), code.n(), code.polynomials().data()) != nullptr;
}

void cuda_viterbi_stream_regs(const batch_view& dev, const viterbi_stream_gpu& g, int windows, void* stream)
{
    if (dev.nframes == 0 || windows == 0)
        return;
    const compiled_code* e = find_compiled(g.code.K, g.code.n, g.polys);
    if (!e)
        throw std::invalid_argument("cuda-stream-regs: this code is not compiled in");
    e->launch(dev, g, windows, static_cast<cudaStream_t>(stream));
}

} // namespace core
} // namespace gpurx
} // namespace gr
