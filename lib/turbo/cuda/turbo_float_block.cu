/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-float-block, the paper's layout made warp-friendly (Wu, Sun and
// Cavallaro): one thread block decodes one codeword; its K trellis steps are
// split into P windows of W = ceil(K/P) steps and each thread runs the BCJR
// recursion of one window with all 8 state metrics in registers (the paper
// uses 8 threads per window, one per state; one thread per window removes
// every barrier inside the recursions). Window-boundary metrics are
// exchanged between iterations (next-iteration initialisation). alpha of the
// whole codeword lives in shared memory, interleaved by thread so a warp's
// accesses fall in distinct banks; the extrinsic LLRs live in shared memory
// and are updated in place, which is safe because each position is read and
// written by exactly one thread per half-iteration. The QPP interleaver is
// computed on the fly. A paper implementation: it runs only when named.
#include "turbo/cuda/turbo_float_device.cuh"

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

namespace {

struct float_block_args {
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
#define GPURX_FLOAT_BLOCK_BOUNDS __launch_bounds__(256, 1)
#else
#define GPURX_FLOAT_BLOCK_BOUNDS __launch_bounds__(256)
#endif
__global__ void GPURX_FLOAT_BLOCK_BOUNDS turbo_float_block(float_block_args args)
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

} // namespace

void cuda_turbo_decode_float_block(const batch_view& dev,
                                   const turbo_config& cfg,
                                   float int8_scale,
                                   bool int8_input,
                                   const turbo_geometry& geo,
                                   void* stream)
{
    const float_launch l(dev, cfg, geo, stream);
    // alpha for the widest window layout of any frame in the batch; a
    // frame with a smaller K uses a prefix.
    const size_t alpha_floats = size_t(geo.max_slots) * 8;
    const size_t smem = (alpha_floats + l.max_K) * sizeof(float) + 3 * l.nwords * sizeof(uint32_t);
    const int threads = ((l.max_windows + 31) / 32) * 32;
    float_block_args a{ dev.frames,
                   l.params,
                   dev.in,
                   dev.out,
                   l.results,
                   reinterpret_cast<float*>(dev.scratch),
                   l.Pstride,
                   cfg.subblocks,
                   cfg.iterations,
                   cfg.extrinsic_scale(),
                   int8_scale,
                   int(cfg.stop),
                   cfg.soft_output };
    with_variant(l.log_map, int8_input, [&](auto log, auto tin) {
        launch_checked(&turbo_float_block<decltype(log)::value, decltype(tin)>,
                       "turbo_float_block", l.n, threads, smem, l.st, a);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
