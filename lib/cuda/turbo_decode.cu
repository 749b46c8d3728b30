/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The parallel-window LTE turbo decoder of Wu, Sun and Cavallaro, on CUDA.
//
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
// Per-step arithmetic comes from core/turbo_trellis.h, shared with the CPU
// decoder; built with --fmad=false, max-log-MAP results match the CPU
// backend bit for bit.
#include "../core/turbo_launch.h"
#include "../core/turbo_trellis.h"
#include "../core/lte_crc.h"
#include "cuda_check.h"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

namespace {

// Polynomial arithmetic modulo a degree-24 CRC generator (for the CRC check
// of packed hard decisions, split across threads).
__device__ uint32_t gf_mulmod(uint32_t a, uint32_t b, uint32_t g)
{
    uint32_t r = 0;
    for (int i = 23; i >= 0; i--) {
        r <<= 1;
        if (r & (1u << 24))
            r ^= g | (1u << 24);
        if ((b >> i) & 1u)
            r ^= a;
    }
    return r;
}

__device__ uint32_t gf_reduce32(uint32_t w, uint32_t g)
{
    uint32_t r = 0;
    for (int i = 31; i >= 0; i--) {
        r <<= 1;
        if (r & (1u << 24))
            r ^= g | (1u << 24);
        r ^= (w >> i) & 1u;
    }
    return r;
}

// x^(32 u) mod g
__device__ uint32_t gf_xpow32(int u, uint32_t g)
{
    uint32_t result = 1;
    // base = x^32 mod g, computed as (x^31 mod g) * x.
    uint32_t base = gf_reduce32(0x80000000u, g);
    base <<= 1;
    if (base & (1u << 24))
        base ^= g | (1u << 24);
    for (int e = u; e > 0; e >>= 1) {
        if (e & 1)
            result = gf_mulmod(result, base, g);
        base = gf_mulmod(base, base, g);
    }
    return result;
}

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

struct kernel_args {
    const frame_desc* frames;
    const uint8_t* in;
    uint8_t* out;
    frame_result* results;
    float* scratch;
    int P;
    int iterations;
    float scale;
    float in_scale;
    int stop; // early_stop
    bool soft;
};

template <bool LOG, typename Tin>
__global__ void __launch_bounds__(1024) turbo_decode_kernel(kernel_args args)
{
    extern __shared__ float smem[];
    __shared__ int s_flag;
    __shared__ uint32_t s_crc;

    const frame_desc fd = args.frames[blockIdx.x];
    const int K = int(fd.param & 0x1FFFu);
    const uint32_t f1 = (fd.param >> 13) & 0x1FFu, f2 = fd.param >> 22;
    const Tin* c = reinterpret_cast<const Tin*>(args.in + fd.in_offset);
    const int W = window_length(K, args.P);
    const int nwin = window_count(K, args.P);
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
    auto abound = [&](int d, int win) { return bnd + ((d * 2 + 0) * args.P + win) * 8; };
    auto bbound = [&](int d, int win) { return bnd + ((d * 2 + 1) * args.P + win) * 8; };

    const uint32_t crc_g = args.stop == int(early_stop::crc24a) ? crc24a_poly : crc24b_poly;
    const bool crc_stop = args.stop == int(early_stop::crc24a) || args.stop == int(early_stop::crc24b);

    for (int i = w; i < K; i += blockDim.x)
        ext[i] = 0.0f;
    for (int i = w; i < nwords; i += blockDim.x) {
        prev[i] = 0;
        if (crc_stop)
            crc_tab[i] = gf_xpow32(i, crc_g);
    }
    if (active) {
        for (int d = 0; d < 2; d++) {
            float* a = abound(d, w);
#pragma unroll
            for (int s = 0; s < 8; s++)
                a[s] = (w == 0 && s != 0) ? NEG : 0.0f;
            float* b = bbound(d, w);
            if (w == nwin - 1) {
                float tail[6];
                for (int t = 0; t < 6; t++)
                    tail[t] = load_llr(c, 3 * K + 6 * d + t, args.in_scale);
                tail_beta<LOG>(tail, b);
            } else {
#pragma unroll
                for (int s = 0; s < 8; s++)
                    b[s] = 0.0f;
            }
        }
    }
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
        } else if (args.stop == int(early_stop::hard_decision)) {
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

    uint8_t* hard = args.out + fd.out_offset;
    for (int i = w; i < K; i += blockDim.x) {
        const int p = K - 1 - i;
        hard[i] = uint8_t((packed[p >> 5] >> (p & 31)) & 1u);
    }
    if (w == 0)
        args.results[blockIdx.x] = frame_result{ FRAME_OK, it_used, check, 0 };
}

template <bool LOG, typename Tin>
void launch(const kernel_args& a, int nframes, int threads, size_t smem, cudaStream_t st)
{
    auto* fn = &turbo_decode_kernel<LOG, Tin>;
    GPURX_CUDA_CHECK(cudaFuncSetAttribute(
        fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    fn<<<nframes, threads, smem, st>>>(a);
    GPURX_CUDA_CHECK_LAUNCH("turbo_decode_kernel");
}

} // namespace

void cuda_turbo_decode(const batch_view& dev,
                       const turbo_config& cfg,
                       float int8_scale,
                       bool int8_input,
                       int max_K,
                       int max_windows,
                       void* stream)
{
    const int W = window_length(max_K, cfg.subblocks);
    const int nwords = (max_K + 31) / 32;
    // alpha for the widest window layout of any frame in the batch; a frame
    // with a smaller K uses a prefix.
    const size_t alpha_floats = size_t(W) * max_windows * 8;
    const size_t smem = (alpha_floats + max_K) * sizeof(float) + 3 * nwords * sizeof(uint32_t);
    const int threads = ((max_windows + 31) / 32) * 32;
    kernel_args a{ dev.frames,
                   dev.in,
                   dev.out,
                   dev.results,
                   reinterpret_cast<float*>(dev.scratch),
                   cfg.subblocks,
                   cfg.iterations,
                   cfg.extrinsic_scale(),
                   int8_scale,
                   int(cfg.stop),
                   cfg.soft_output };
    auto st = static_cast<cudaStream_t>(stream);
    const int n = static_cast<int>(dev.nframes);
    const bool log_map = cfg.algorithm == LOG_MAP;
    if (log_map && int8_input)
        launch<true, int8_t>(a, n, threads, smem, st);
    else if (log_map)
        launch<true, float>(a, n, threads, smem, st);
    else if (int8_input)
        launch<false, int8_t>(a, n, threads, smem, st);
    else
        launch<false, float>(a, n, threads, smem, st);
}

} // namespace core
} // namespace gpurx
} // namespace gr
