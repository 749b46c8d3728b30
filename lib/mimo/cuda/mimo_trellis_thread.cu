/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The trellis detectors' thread-per-vector kernel: every mode (cuda-mtt,
// and cuda-mtt-fast / cuda-one-pass for the shapes the lane kernel does not
// take), a thread's paths in shared memory laid out [path][thread].
#include "mimo/cuda/mimo_trellis_common.cuh"
#include <type_traits>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_trellis_kernels {

using namespace mimo_gpu;

namespace {

template <int BITS>
constexpr size_t table_bytes()
{
    return (sizeof(qam_table<BITS>) + 15) / 16 * 16;
}
// Per thread: aux float4, then three path sets of uint64 symbols and float
// metrics, then y_hat.
template <int BITS>
constexpr size_t trellis_bytes_per_thread()
{
    return size_t(1 << BITS) * (16 + 3 * 8 + 3 * 4) + max_ant * sizeof(float2);
}
template <int BITS>
constexpr int trellis_threads()
{
    return BITS == 2 ? 128 : BITS == 4 ? 64 : BITS == 6 ? 32 : 16;
}

// One thread's view of its vector and paths.
template <int BITS>
struct trellis_thread {
    const qam_table<BITS>& tab;
    const frame_prep& fp;
    int nt, T, tid;
    float n0;
    const float* la; // priors of the vector, or nullptr
    // y_hat of layer l at yh[l * T], in shared memory: a per-thread array
    // indexed by layer would live in local memory, and its stack frame made
    // ptxas spill registers too (docs/results/ptxas_*).
    float2* yh;

    __device__ float2 R(int i, int j) const { return fp.r[i * max_ant + j]; }
    __device__ static int symbol(uint64_t h, int layer) { return int((h >> (8 * layer)) & 0xffu); }
    //! Prior cost of symbol q at layer l, in distance units.
    __device__ float pen(int l, unsigned q) const
    {
        return la ? n0 * prior_cost<BITS>(la + fp.order[l] * BITS, q) : 0.0f;
    }
    //! y_hat[l] minus the interference of the path's symbols below layer l (eq. 4.2).
    __device__ float2 target(uint64_t h, int l) const
    {
        float2 t = yh[l * T];
        for (int j = l + 1; j < nt; j++)
            t = csub(t, cmul(R(l, j), tab.point[symbol(h, j)]));
        return t;
    }
};

template <int BITS, int MODE>
__device__ void reduce(const trellis_thread<BITS>& th, int l, float4* aux, const float* m_in,
                       const uint64_t* h_in, float* m_out, uint64_t* h_out)
{
    constexpr int Q = 1 << BITS;
    const int T = th.T, tid = th.tid;
    const float2 rll = th.R(l, l);
    for (int k = 0; k < Q; k++) {
        const float2 t = th.target(h_in[k * T + tid], l);
        const float m = m_in[k * T + tid];
        aux[k * T + tid] = make_float4(t.x, t.y, m + norm2(t), m);
    }
    if constexpr (MODE == MTT_LITERAL) {
        for (int q = 0; q < Q; q++) {
            const float2 rc = cmul(rll, th.tab.point[q]);
            float best = infinity_f();
            int bk = 0;
            for (int k = 0; k < Q; k++) {
                const float4 x = aux[k * T + tid];
                const float mm = x.w + norm2(csub(make_float2(x.x, x.y), rc));
                if (mm < best) {
                    best = mm;
                    bk = k;
                }
            }
            m_out[q * T + tid] = best + th.pen(l, q);
            h_out[q * T + tid] = h_in[bk * T + tid] | (uint64_t(q) << (8 * l));
        }
    } else {
        // Four vertices per sweep over the incoming paths: one shared-memory load
        // serves four edges of two FMAs each.
        for (int q0 = 0; q0 < Q; q0 += 4) {
            float2 rc2[4];
            float best[4];
            int bk[4];
    #pragma unroll
            for (int j = 0; j < 4; j++) {
                const float2 rc = cmul(rll, th.tab.point[q0 + j]);
                rc2[j] = make_float2(-2.0f * rc.x, -2.0f * rc.y);
                best[j] = infinity_f();
                bk[j] = 0;
            }
    #pragma unroll 4
            for (int k = 0; k < Q; k++) {
                const float4 x = aux[k * T + tid];
    #pragma unroll
                for (int j = 0; j < 4; j++) {
                    const float e = __fmaf_rn(x.x, rc2[j].x, __fmaf_rn(x.y, rc2[j].y, x.z));
                    if (e < best[j]) {
                        best[j] = e;
                        bk[j] = k;
                    }
                }
            }
    #pragma unroll
            for (int j = 0; j < 4; j++) {
                const int q = q0 + j;
                // The expanded form cancels |t|^2 against the cross term: the kept
                // path's metric is recomputed in the direct form.
                const float4 x = aux[bk[j] * T + tid];
                const float2 rc = make_float2(-0.5f * rc2[j].x, -0.5f * rc2[j].y);
                m_out[q * T + tid] = x.w + norm2(csub(make_float2(x.x, x.y), rc)) + th.pen(l, q);
                h_out[q * T + tid] = h_in[bk[j] * T + tid] | (uint64_t(q) << (8 * l));
            }
        }
    }
}


template <int BITS, int MODE>
__device__ void extend(const trellis_thread<BITS>& th, int l, float* m, uint64_t* h)
{
    constexpr int Q = 1 << BITS;
    const int T = th.T, tid = th.tid;
    const float2 rll = th.R(l, l);
    const float rr = norm2(rll);
    const float inv_rr = reciprocal_or_zero(rr);
    for (int k = 0; k < Q; k++) {
        const uint64_t hk = h[k * T + tid];
        const float2 t = th.target(hk, l);
        int bq = 0;
        float bw;
        if constexpr (MODE == MTT_LITERAL) {
            bw = infinity_f();
            for (int q = 0; q < Q; q++) {
                const float w = norm2(csub(t, cmul(rll, th.tab.point[q]))) + th.pen(l, q);
                if (w < bw) {
                    bw = w;
                    bq = q;
                }
            }
        } else {
            // |t - r c|^2 = |r|^2 |t/r - c|^2: the nearest point to z = t/r, per axis
            // (t conj(r) times 1/|r|^2, as the lane kernel computes it).
            const float2 z = make_float2((t.x * rll.x + t.y * rll.y) * inv_rr,
                                         (t.y * rll.x - t.x * rll.y) * inv_rr);
            if (th.la) {
                const float* la_ant = th.la + th.fp.order[l] * BITS;
                const int a = best_level<BITS>(th.n0, z.x, rr, la_ant, th.tab.level_bits_i,
                                               in_phase_mask<BITS>());
                const int b = best_level<BITS>(th.n0, z.y, rr, la_ant, th.tab.level_bits_q,
                                               ~in_phase_mask<BITS>());
                bq = th.tab.level_bits_i[a] | th.tab.level_bits_q[b];
            } else if (rr > 0.0f) {
                bq = th.tab.level_bits_i[slice_level<BITS>(z.x)] |
                     th.tab.level_bits_q[slice_level<BITS>(z.y)];
            } // else: every point ties; symbol 0, as the CPU's first minimum
            bw = norm2(csub(t, cmul(rll, th.tab.point[bq]))) + th.pen(l, bq);
        }
        m[k * T + tid] += bw;
        h[k * T + tid] = hk | (uint64_t(bq) << (8 * l));
    }
}

//! Layer l's stream's LLRs from the Q paths (m, h).
template <int BITS>
__device__ void emit(const trellis_thread<BITS>& th, int l, const float* m, const uint64_t* h,
                     const vector_io& io, bool extrinsic, float clip)
{
    constexpr int Q = 1 << BITS;
    float m0[BITS], m1[BITS];
#pragma unroll
    for (int i = 0; i < BITS; i++)
        m0[i] = m1[i] = infinity_f();
    for (int k = 0; k < Q; k++) {
        const int s = trellis_thread<BITS>::symbol(h[k * th.T + th.tid], l);
        const float mk = m[k * th.T + th.tid];
#pragma unroll
        for (int i = 0; i < BITS; i++) {
            if ((s >> (BITS - 1 - i)) & 1)
                m1[i] = fminf(m1[i], mk);
            else
                m0[i] = fminf(m0[i], mk);
        }
    }
    const int a = th.fp.order[l];
    const float inv_n0 = 1.0f / th.n0;
#pragma unroll
    for (int i = 0; i < BITS; i++)
        io.put_llr(a * BITS + i, final_llr(m0[i] * inv_n0, m1[i] * inv_n0,
                                           io.la ? io.la[a * BITS + i] : 0.0f, extrinsic, clip));
}

// __launch_bounds__'s second argument (at least one block per SM) limits
// nothing here (the block is small); it moves ptxas from an occupancy-driven
// register target, which spilled on some architectures, to one without
// spills (docs/results/ptxas_default_architectures.md).
template <int BITS, int MODE>
__global__ void __launch_bounds__(trellis_threads<BITS>(), 1) mimo_trellis(trellis_args a)
{
    constexpr int Q = 1 << BITS;
    extern __shared__ __align__(16) unsigned char smem[];
    auto& tab = *reinterpret_cast<qam_table<BITS>*>(smem);
    tab.build(); // before any thread leaves: it synchronises the block
    const int T = blockDim.x, tid = threadIdx.x;
    float4* aux = reinterpret_cast<float4*>(smem + table_bytes<BITS>());
    uint64_t* hbuf = reinterpret_cast<uint64_t*>(aux + Q * T);
    float* mbuf = reinterpret_cast<float*>(hbuf + 3 * Q * T);

    const uint32_t gv = blockIdx.x * uint32_t(T) + tid;
    if (gv >= a.b.vector_start[a.b.nframes])
        return;
    const vector_ref v = find_vector(a.b, gv);
    const frame_prep& fp = a.b.prep[v.prep];
    const mimo::frame_params& p = a.b.params[v.frame];
    if (!fp.valid || p.bits_per_symbol != BITS || (MODE != MTT_LITERAL && lanes_take(BITS, p.nt)) ||
        (MODE == MTT_FAST && p.nt == 2))
        return;
    const vector_io io = vector_io_of(a.b, v, a.s);
    if (!vector_finite(a.b, v, io))
        return;

    trellis_thread<BITS> th{ tab, fp, p.nt, T, tid, p.n0, io.la,
                             reinterpret_cast<float2*>(mbuf + 3 * Q * T) + tid };
    rotate(fp, io.y, p.nt, p.nr, th.yh, T);
    const bool extrinsic = a.s.extrinsic != 0;
    const float clip = MODE == ONE_PASS ? a.s.clip : infinity_f();

    float* cur_m = mbuf;
    float* nxt_m = mbuf + Q * T;
    float* lst_m = mbuf + 2 * Q * T;
    uint64_t* cur_h = hbuf;
    uint64_t* nxt_h = hbuf + Q * T;
    uint64_t* lst_h = hbuf + 2 * Q * T;

    // Stage 0 (the last layer): one edge from the root into each vertex.
    const int last = p.nt - 1;
    for (int q = 0; q < Q; q++) {
        cur_m[q * T + tid] = norm2(csub(th.yh[last * T], cmul(th.R(last, last), tab.point[q]))) +
                             th.pen(last, q);
        cur_h[q * T + tid] = uint64_t(q) << (8 * last);
    }
    if constexpr (MODE == ONE_PASS) {
        for (int l = last - 1; l >= 0; l--) {
            reduce<BITS, MTT_FAST>(th, l, aux, cur_m, cur_h, nxt_m, nxt_h);
            float* tm = cur_m; cur_m = nxt_m; nxt_m = tm;
            uint64_t* thh = cur_h; cur_h = nxt_h; nxt_h = thh;
        }
        for (int l = 0; l < p.nt; l++)
            emit<BITS>(th, l, cur_m, cur_h, io, extrinsic, clip);
    } else {
        for (int t = 0; t < p.nt; t++) {
            const int layer = last - t;
            if (t > 0) {
                reduce<BITS, MODE>(th, layer, aux, cur_m, cur_h, nxt_m, nxt_h);
                float* tm = cur_m; cur_m = nxt_m; nxt_m = tm;
                uint64_t* thh = cur_h; cur_h = nxt_h; nxt_h = thh;
            }
            // cur: path q ends in vertex q of stage t; extend copies to the end.
            for (int k = 0; k < Q; k++) {
                lst_m[k * T + tid] = cur_m[k * T + tid];
                lst_h[k * T + tid] = cur_h[k * T + tid];
            }
            for (int s = t + 1; s < p.nt; s++)
                extend<BITS, MODE>(th, last - s, lst_m, lst_h);
            emit<BITS>(th, layer, lst_m, lst_h, io, extrinsic, clip);
        }
    }
}


template <int BITS, int MODE>
void launch_trellis(const trellis_args& a, size_t max_vectors, cudaStream_t st)
{
    constexpr int T = trellis_threads<BITS>();
    const size_t smem = table_bytes<BITS>() + size_t(T) * trellis_bytes_per_thread<BITS>();
    const size_t blocks = (max_vectors + T - 1) / T;
    launch_checked(&mimo_trellis<BITS, MODE>, "mimo_trellis", dim3(unsigned(blocks)), T, smem, st,
                   a, true);
}

} // namespace

void launch_thread(const trellis_args& a, size_t max_vectors, int bits, int mode, cudaStream_t st)
{
    auto with_mode = [&](auto bits_c) {
        constexpr int B = decltype(bits_c)::value;
        if (mode == ONE_PASS)
            launch_trellis<B, ONE_PASS>(a, max_vectors, st);
        else if (mode == MTT_FAST)
            launch_trellis<B, MTT_FAST>(a, max_vectors, st);
        else
            launch_trellis<B, MTT_LITERAL>(a, max_vectors, st);
    };
    switch (bits) {
    case 2:
        return with_mode(std::integral_constant<int, 2>{});
    case 4:
        return with_mode(std::integral_constant<int, 4>{});
    case 6:
        return with_mode(std::integral_constant<int, 6>{});
    default:
        return with_mode(std::integral_constant<int, 8>{});
    }
}

} // namespace mimo_trellis_kernels
} // namespace core
} // namespace gpurx
} // namespace gr
