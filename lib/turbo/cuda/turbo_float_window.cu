/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-float-window, the float decoder "auto" runs (notes below).
#include "turbo/cuda/turbo_float_device.cuh"

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

namespace {

// ---------------------------------------------------------------------------
// turbo_float_window: several codewords per thread block, one thread per window,
// and only every C-th alpha kept (in shared memory): the backward pass
// recomputes each C-step segment's alpha into registers from its checkpoint
// before walking it backwards. That costs one more alpha step per trellis step
// but cuts shared memory from 8 K floats to 8 K / C per codeword, so many
// codewords (warps) share an SM and hide each other's latency, where the block layout fits
// one codeword (3 warps at P = 96) per SM. A-priori/extrinsic LLRs live in
// global scratch, double-buffered (decoder d reads buffer d, writes 1-d), so
// the guard (training) steps that read a neighbour window's positions see a
// stable previous half-iteration.
// ---------------------------------------------------------------------------

// CODED: also the extrinsic LLRs of all 3K+12 coded bits (coded_output),
// what the CPU's decode_coded() gives with the same arithmetic: a template
// parameter, so the production kernel carries none of its work.
template <bool LOG, typename Tin, int C, bool CODED>
__global__ void __launch_bounds__(256) turbo_float_window(float_window_args args)
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
    float* coded_out =
        (CODED && have) ? reinterpret_cast<float*>(args.out + fd.out_offset + turbo_coded_offset(K, args.soft))
                        : nullptr;
    if (coded_out) // the tails are not fed back (decode_coded())
        for (int i = w; i < 12; i += nwm)
            coded_out[3 * K + i] = 0.0f;
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
                            if (CODED) {
                                // As the CPU: parity L_app - Lp from this
                                // decoder's pass; systematic L_app - Ls.
                                // Every iteration overwrites them, so an
                                // early stop leaves the last one's.
                                coded_out[3 * (start + j0 + i) + 1 + d] = parity_extrinsic<LOG>(A[i], b, LU[i]);
                                if (d == 1)
                                    coded_out[3 * IDX[i]] = La[IDX[i]] + le;
                            }
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

} // namespace

void cuda_turbo_decode_float_window(const batch_view& dev,
                                    const turbo_config& cfg,
                                    float int8_scale,
                                    bool int8_input,
                                    const turbo_geometry& geo,
                                    void* stream)
{
    const float_launch l(dev, cfg, geo, stream);
    // About 128 threads per block: many windows make one codeword's block,
    // few windows (small K) pack several codewords into one, as far as
    // shared memory allows.
    const int nseg = (l.W + CKPT - 1) / CKPT;
    const size_t per_cw = size_t(nseg) * 8 * l.max_windows * sizeof(float) +
                          2 * size_t(l.nwords) * sizeof(uint32_t) + 3 * sizeof(int);
    const size_t smem_budget = 100 * 1024; // leaves room for two blocks per SM
    int cpb = std::max(1, std::min(l.n, 128 / l.max_windows));
    cpb = std::max(1, std::min<int>(cpb, int((smem_budget - l.nwords * 4) / per_cw)));
    const size_t smem = per_cw * cpb + size_t(l.nwords) * sizeof(uint32_t);
    const int threads = ((cpb * l.max_windows + 31) / 32) * 32;
    const float_window_args a = l.window_args(dev, cfg, cpb, nseg, int8_scale);
    const int blocks = (l.n + cpb - 1) / cpb;
    with_variant(l.log_map, int8_input, [&](auto log, auto tin) {
        if (cfg.coded_output)
            launch_checked(&turbo_float_window<decltype(log)::value, decltype(tin), CKPT, true>,
                           "turbo_float_window (coded output)", blocks, threads, smem, l.st, a);
        else
            launch_checked(&turbo_float_window<decltype(log)::value, decltype(tin), CKPT, false>,
                           "turbo_float_window", blocks, threads, smem, l.st, a);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
