/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The trellis detectors on the GPU, one thread per received vector (the
// lists of mtt_detector.h / one_pass_detector.h, fp32):
//   literal  (cuda-mtt)       every edge of every reduction and extension
//            evaluated in full, |t_k - R_ll c_q|^2: the thesis' algorithm as
//            stated, the reference for the fast kernel;
//   fast     (cuda-mtt-fast)  reductions in the expanded form
//            m_k + |t_k|^2 - 2 Re(conj(t_k) R_ll c_q): two FMAs per edge, the
//            winner's metric then recomputed exactly; path extensions by
//            slicing t_k / R_ll per axis (the nearest point; with priors, the
//            least of the M levels of each axis, the cost being separable);
//   one-pass (cuda-one-pass)  the fast reductions through every stage, then
//            every stream's LLRs from the last list, clipped.
// cuda-mtt-fast at two streams takes its own kernel (mimo_trellis_lord2):
// MTT is exact max-log ML there, computed as LORD does (mimo_lord2.cuh).
// A thread's paths live in shared memory laid out [path][thread], so that
// the warp's accesses to path k, and its gathers of a winner path, never
// conflict. Paths carry their symbols as 8 bits per layer in a uint64.
#include "cuda/launch.cuh"
#include "mimo/cuda/mimo_device.cuh"
#include "mimo/cuda/mimo_lord2.cuh"
#include "mimo/cuda/mimo_detect.h"

namespace gr {
namespace gpurx {
namespace core {

using namespace mimo_gpu;

namespace {

enum trellis_mode { MTT_LITERAL = 0, MTT_FAST = 1, ONE_PASS = 2 };

// The lane-per-vertex kernel (below) takes the fast modes' frames of up to
// lanes_max_nt streams, every modulation; the thread-per-vector kernel the
// rest. (Beyond 4 streams the unrolled shapes cost compile time for shapes
// no bench or test weighs much, and a path's symbols no longer fit the
// lanes' 32 bits at 256-QAM; the thread kernel serves them.)
constexpr int lanes_max_nt = 4;
__host__ __device__ constexpr bool lanes_take(int bits, int nt)
{
    return bits <= 8 && nt >= 1 && nt <= lanes_max_nt;
}

struct trellis_args {
    batch b;
    mimo_gpu_settings s;
};

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

//! Least cost level of one axis at coordinate z: rr (z - amp_a)^2 + n0 P_axis(a).
template <int BITS>
__device__ int best_level(float n0, float z, float rr, const float* la_ant,
                          const unsigned short* level_bits, unsigned mask)
{
    constexpr int M = 1 << (BITS / 2);
    float best = infinity_f();
    int ba = 0;
    for (int a = 0; a < M; a++) {
        const float d = z - level_amplitude<BITS>(a);
        const float c = rr * d * d + n0 * prior_cost<BITS>(la_ant, level_bits[a], mask);
        if (c < best) {
            best = c;
            ba = a;
        }
    }
    return ba;
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

// ---- lane per vertex (mtt-fast and one-pass, up to 4 streams)
//
// The thread-per-vector kernel above keeps 3 x Q paths and Q targets per
// thread in shared memory: 832 B per thread at 16-QAM, four 64-thread blocks
// per SM, 8 warps; its loops over Q then wait on shared memory with little
// to hide the latency (at 64-QAM, 3.4 KB per thread: two warps per SM). Here
// a group of min(Q, 32) lanes detects one vector, lane q owning vertex q
// (its path's metric and symbols in registers); above 32 points a warp owns
// the vector and each lane Q / 32 vertices, lane + 32 j for j < Q / 32:
//   reduction   each lane writes its path's target once to shared memory;
//               lane q then sweeps the Q targets (broadcast reads) for its
//               vertex's best incoming edge (one read serves its Q / 32
//               vertices) and takes that path's symbols with one shuffle
//               (from shared memory above 32 points);
//   extension   each lane extends its own path (the per-axis slicing);
//   LLRs        MTT's stage lists up to 32 points: butterfly shuffles over
//               the group (lane q holds symbol q); otherwise the Q (metric,
//               symbol) pairs go through shared memory and BITS lanes take
//               the per-bit minima.
// The shape is a template parameter (one launch per number of streams
// present), so that R, y_hat and the loops over layers are registers and
// unrolled code. The arithmetic is that of the thread kernel's fast mode,
// edge for edge, with the same tie rules (the lowest incoming path, the
// first minimum), so the two give the same lists.
constexpr int lanes_block = 128;

//! Lanes per vector and vertices per lane of the lane kernel at 2^BITS points.
template <int BITS>
struct lanes_shape {
    static constexpr int Q = 1 << BITS;
    static constexpr int L = Q < 32 ? Q : 32; //!< lanes per vector (a group)
    static constexpr int V = Q / L;           //!< vertices per lane
};

template <int BITS, int NT, int MODE>
__device__ void lanes_detect(const qam_table<BITS>& tab, float4* aux, uint32_t* hs, float2* ems,
                             unsigned gmask, int lane, const frame_prep& fp,
                             const mimo::frame_params& p, const vector_io& io,
                             const mimo_gpu_settings& s)
{
    constexpr int Q = 1 << BITS;
    constexpr int L = lanes_shape<BITS>::L, V = lanes_shape<BITS>::V;
    constexpr int last = NT - 1;
    static_assert(BITS * NT <= 32, "a path's symbols are BITS bits per layer in 32 bits");
    const float n0 = p.n0;
    auto sym = [](uint32_t h, int l) { return int((h >> (BITS * l)) & unsigned(Q - 1)); };
    float2 R[NT][NT];
#pragma unroll
    for (int i = 0; i < NT; i++)
#pragma unroll
        for (int j = i; j < NT; j++)
            R[i][j] = fp.r[i * max_ant + j];
    // y_hat: lane i < NT computes row i (the others a row again, which they
    // drop) and the group takes the rows by shuffles, instead of every lane
    // computing all NT rows (L >= 4 >= NT lanes per group).
    float2 yh[NT];
    {
        const int row = lane % NT;
        float2 acc = make_float2(0.0f, 0.0f);
        for (int r = 0; r < p.nr; r++) {
            const float2 q = fp.qh[row * max_ant + r], v = io.y[r];
            acc.x += q.x * v.x - q.y * v.y;
            acc.y += q.x * v.y + q.y * v.x;
        }
#pragma unroll
        for (int i = 0; i < NT; i++)
            yh[i] = make_float2(__shfl_sync(gmask, acc.x, i, L), __shfl_sync(gmask, acc.y, i, L));
    }
    // 1 / |R_ll|^2 of each layer, once per vector: the extensions slice
    // t / R_ll with a multiplication instead of two IEEE divisions each.
    // Above 32 points (V > 1) the NT registers they would hold made ptxas
    // spill at 256-QAM; there each extension takes its own reciprocal.
    float inv_rr[NT];
#pragma unroll
    for (int i = 0; i < NT; i++)
        inv_rr[i] = V == 1 ? reciprocal_or_zero(norm2(R[i][i])) : 0.0f;
    auto pen = [&](int l, unsigned q) {
        return io.la ? n0 * prior_cost<BITS>(io.la + fp.order[l] * BITS, q) : 0.0f;
    };
    auto target = [&](uint32_t h, int l) {
        float2 t = yh[l];
#pragma unroll
        for (int j = l + 1; j < NT; j++)
            t = csub(t, cmul(R[l][j], tab.point[sym(h, j)]));
        return t;
    };
    // Path (m, h) through layer l by the nearest point (thread kernel's extend).
    auto extend_one = [&](int l, float& m, uint32_t& h) {
        const float2 rll = R[l][l];
        const float rr = norm2(rll);
        const float2 t = target(h, l);
        const float inv = V == 1 ? inv_rr[l] : reciprocal_or_zero(rr);
        const float2 z = make_float2((t.x * rll.x + t.y * rll.y) * inv, (t.y * rll.x - t.x * rll.y) * inv);
        int bq = 0;
        if (io.la) {
            const float* la_ant = io.la + fp.order[l] * BITS;
            const int a = best_level<BITS>(n0, z.x, rr, la_ant, tab.level_bits_i,
                                           in_phase_mask<BITS>());
            const int b = best_level<BITS>(n0, z.y, rr, la_ant, tab.level_bits_q,
                                           ~in_phase_mask<BITS>());
            bq = tab.level_bits_i[a] | tab.level_bits_q[b];
        } else if (rr > 0.0f) {
            bq = tab.level_bits_i[slice_level<BITS>(z.x)] | tab.level_bits_q[slice_level<BITS>(z.y)];
        }
        m += norm2(csub(t, cmul(rll, tab.point[bq]))) + pen(l, bq);
        h |= uint32_t(bq) << (BITS * l);
    };
    // The best path into each of this lane's vertices at layer l, from the
    // group's paths.
    auto reduce_all = [&](int l, float (&m)[V], uint32_t (&h)[V]) {
        __syncwarp(gmask); // the previous readers of aux are done
#pragma unroll
        for (int j = 0; j < V; j++) {
            const float2 t = target(h[j], l);
            aux[j * L + lane] = make_float4(t.x, t.y, m[j] + norm2(t), m[j]);
            if (V > 1)
                hs[j * L + lane] = h[j];
        }
        __syncwarp(gmask);
        float2 rc2[V];
        float best[V];
        int bk[V];
#pragma unroll
        for (int j = 0; j < V; j++) {
            const float2 rc = cmul(R[l][l], tab.point[j * L + lane]);
            rc2[j] = make_float2(-2.0f * rc.x, -2.0f * rc.y);
            best[j] = infinity_f();
            bk[j] = 0;
        }
#pragma unroll(V > 1 ? 4 : Q)
        for (int k = 0; k < Q; k++) {
            const float4 x = aux[k];
#pragma unroll
            for (int j = 0; j < V; j++) {
                const float e = __fmaf_rn(x.x, rc2[j].x, __fmaf_rn(x.y, rc2[j].y, x.z));
                if (e < best[j]) {
                    best[j] = e;
                    bk[j] = k;
                }
            }
        }
        // The expanded form cancels |t|^2 against the cross term: the kept
        // path's metric is recomputed in the direct form.
#pragma unroll
        for (int j = 0; j < V; j++) {
            const int q = j * L + lane;
            const float4 x = aux[bk[j]];
            const float2 rc = make_float2(-0.5f * rc2[j].x, -0.5f * rc2[j].y);
            m[j] = x.w + norm2(csub(make_float2(x.x, x.y), rc)) + pen(l, q);
            const uint32_t from = V > 1 ? hs[bk[j]] : __shfl_sync(gmask, h[0], bk[j], L);
            h[j] = (from & ~(uint32_t(Q - 1) << (BITS * l))) | (uint32_t(q) << (BITS * l));
        }
    };
    const bool extrinsic = s.extrinsic != 0;
    const float inv_n0 = 1.0f / n0;
    const float clip = MODE == ONE_PASS ? s.clip : infinity_f();
    // Layer l's stream's LLRs from the group's Q paths. (Per-bit warp
    // reductions, __reduce_min_sync over the group, measured slower: 7.9
    // against 9.3 Gbit/s at 4x4 16-QAM.)
    auto emit = [&](int l, const float (&m)[V], const uint32_t (&h)[V]) {
#pragma unroll
        for (int j = 0; j < V; j++)
            ems[j * L + lane] = make_float2(m[j], __int_as_float(sym(h[j], l)));
        __syncwarp(gmask);
        if (lane < BITS) {
            const int i = lane;
            float m0 = infinity_f(), m1 = infinity_f();
#pragma unroll(V > 1 ? 8 : Q)
            for (int k = 0; k < Q; k++) {
                const float2 e = ems[k];
                if ((__float_as_int(e.y) >> (BITS - 1 - i)) & 1)
                    m1 = fminf(m1, e.x);
                else
                    m0 = fminf(m0, e.x);
            }
            const int ant = fp.order[l];
            io.put_llr(ant * BITS + i, final_llr(m0 * inv_n0, m1 * inv_n0,
                                                 io.la ? io.la[ant * BITS + i] : 0.0f, extrinsic,
                                                 clip));
        }
        __syncwarp(gmask); // ems is written again by the next emit
    };

    // MTT's stage lists at up to 32 points: lane q's path goes through vertex
    // q of the stage, so its symbol there is the lane, and each bit's two
    // minima are butterfly reductions over the lanes that agree in that bit
    // (BITS - 1 exchanges, then one with the lanes that differ). All lanes
    // work and nothing goes through shared memory, where emit() keeps BITS
    // of the L lanes busy with Q reads each. fminf is exact and commutative:
    // the minima, and so the LLRs, are emit()'s bit for bit.
    auto emit_own_vertex = [&](int l, float m_own) {
        float m0 = infinity_f(), m1 = infinity_f();
#pragma unroll
        for (int j = 0; j < BITS; j++) { // bit j of the symbol: LLR BITS - 1 - j
            float v = m_own;
#pragma unroll
            for (int k = 0; k < BITS; k++)
                if (k != j)
                    v = fminf(v, __shfl_xor_sync(gmask, v, 1 << k, L));
            const float other = __shfl_xor_sync(gmask, v, 1 << j, L);
            if (lane == BITS - 1 - j) {
                const bool one = (lane >> j) & 1;
                m1 = one ? v : other;
                m0 = one ? other : v;
            }
        }
        if (lane < BITS) {
            const int ant = fp.order[l];
            io.put_llr(ant * BITS + lane, final_llr(m0 * inv_n0, m1 * inv_n0,
                                                    io.la ? io.la[ant * BITS + lane] : 0.0f,
                                                    extrinsic, clip));
        }
    };

    // Stage 0 (the last layer): one edge from the root into each vertex.
    float m[V];
    uint32_t h[V];
#pragma unroll
    for (int j = 0; j < V; j++) {
        const int q = j * L + lane;
        m[j] = norm2(csub(yh[last], cmul(R[last][last], tab.point[q]))) + pen(last, q);
        h[j] = uint32_t(q) << (BITS * last);
    }
    if constexpr (MODE == ONE_PASS) {
#pragma unroll
        for (int l = last - 1; l >= 0; l--)
            reduce_all(l, m, h);
#pragma unroll
        for (int l = 0; l < NT; l++)
            emit(l, m, h);
    } else {
#pragma unroll
        for (int t = 0; t < NT; t++) {
            const int layer = last - t;
            if (t > 0)
                reduce_all(layer, m, h);
            float lm[V];
            uint32_t lh[V];
#pragma unroll
            for (int j = 0; j < V; j++) {
                lm[j] = m[j];
                lh[j] = h[j];
#pragma unroll
                for (int st = t + 1; st < NT; st++)
                    extend_one(last - st, lm[j], lh[j]);
            }
            if constexpr (V == 1)
                emit_own_vertex(layer, lm[0]);
            else
                emit(layer, lm, lh);
        }
    }
}

template <int BITS, int NT, int MODE>
// Second launch bound (see mimo_trellis) on Turing only, where ptxas
// otherwise spilled 8/28 bytes: elsewhere it costs occupancy (80 registers
// against 68 on sm_90, mtt-fast 4x4 16-QAM 9.9 against 10.6 Gbit/s on the
// H100) and nothing spills without it.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GPURX_LANES_BOUNDS __launch_bounds__(lanes_block, 1)
#else
#define GPURX_LANES_BOUNDS __launch_bounds__(lanes_block)
#endif
__global__ void GPURX_LANES_BOUNDS mimo_trellis_lanes(trellis_args a)
{
    constexpr int Q = 1 << BITS;
    constexpr int L = lanes_shape<BITS>::L;
    constexpr int G = lanes_block / L; // vectors per block
    constexpr int V = lanes_shape<BITS>::V;
    __shared__ qam_table<BITS> tab;
    __shared__ float4 aux[G * Q];
    __shared__ float2 ems[G * Q];
    __shared__ uint32_t hs[V > 1 ? G * Q : 1]; // the paths' symbols, above 32 points
    tab.build(); // before any thread leaves: it synchronises the block
    const int lane = threadIdx.x & (L - 1), grp = threadIdx.x / L;
    // The group's lanes within the warp: a group never spans two warps.
    const unsigned gmask = L == 32 ? 0xffffffffu
                                   : ((1u << L) - 1u) << ((threadIdx.x & 31) & ~(L - 1));
    const uint32_t gv = blockIdx.x * uint32_t(G) + grp;
    // Every exit below is taken by the whole group (they depend on the vector only).
    if (gv >= a.b.vector_start[a.b.nframes])
        return;
    const vector_ref v = find_vector(a.b, gv);
    const frame_prep& fp = a.b.prep[v.prep];
    const mimo::frame_params& p = a.b.params[v.frame];
    if (!fp.valid || p.bits_per_symbol != BITS || p.nt != NT)
        return;
    const vector_io io = vector_io_of(a.b, v, a.s);
    if (!vector_finite(a.b, v, io))
        return;
    lanes_detect<BITS, NT, MODE>(tab, aux + grp * Q, V > 1 ? hs + grp * Q : hs, ems + grp * Q, gmask,
                                 lane, fp, p, io, a.s);
}

template <int BITS, int MODE, int NT>
void launch_lanes_nt(const trellis_args& a, size_t max_vectors, unsigned nt_mask, cudaStream_t st)
{
    if constexpr (NT <= lanes_max_nt) {
        constexpr int G = lanes_block / lanes_shape<BITS>::L;
        if (nt_mask & (1u << NT))
            launch_checked(&mimo_trellis_lanes<BITS, NT, MODE>, "mimo_trellis_lanes",
                           dim3(unsigned((max_vectors + G - 1) / G)), lanes_block, 0, st, a);
        launch_lanes_nt<BITS, MODE, NT + 1>(a, max_vectors, nt_mask, st);
    }
}

// ---- two streams, cuda-mtt-fast: exact max-log ML as LORD computes it
// (mimo_lord2.cuh), one thread per vector: 2 Q candidates, each a few adds
// and FMAs, against the Q^2 edges of the trellis' reduction (the lane kernel
// above: 13.4 Gbit/s at 2x2 16-QAM on the H100).
constexpr int lord2_block = 128;

//! Stores one antenna's BITS LLRs of the vector: 16- or 8-byte stores where
//! aligned (a warp's vectors are adjacent), else put_llr.
template <int BITS>
struct lord2_store {
    const vector_io& io;
    __device__ void operator()(int ant, const float (&l)[BITS]) const
    {
        if (!io.int8) {
            float* o = static_cast<float*>(io.llr) + ant * BITS;
            if constexpr (BITS % 4 == 0) {
                if ((reinterpret_cast<uintptr_t>(o) & 15u) == 0) {
#pragma unroll
                    for (int i = 0; i < BITS; i += 4)
                        *reinterpret_cast<float4*>(o + i) = make_float4(l[i], l[i + 1], l[i + 2], l[i + 3]);
                    return;
                }
            }
            if ((reinterpret_cast<uintptr_t>(o) & 7u) == 0) {
#pragma unroll
                for (int i = 0; i < BITS; i += 2)
                    *reinterpret_cast<float2*>(o + i) = make_float2(l[i], l[i + 1]);
                return;
            }
        }
#pragma unroll
        for (int i = 0; i < BITS; i++)
            io.put_llr(ant * BITS + i, l[i]);
    }
};

template <int BITS>
__device__ void lord2_vector(const frame_prep& fp, const mimo::frame_params& p, const vector_io& io,
                             const mimo_gpu_settings& s)
{
    float2 yh[2];
    rotate(fp, io.y, 2, p.nr, yh);
    lord2::lord2_detect<BITS>(lord2::lord2_of(fp), yh[0], yh[1], fp.order[0], fp.order[1], io.la, p.n0,
                              s.extrinsic != 0, lord2_store<BITS>{ io });
}

template <int BITS>
__global__ void __launch_bounds__(lord2_block) mimo_trellis_lord2(trellis_args a)
{
    const uint32_t gv = blockIdx.x * uint32_t(blockDim.x) + threadIdx.x;
    if (gv >= a.b.vector_start[a.b.nframes])
        return;
    const vector_ref v = find_vector(a.b, gv);
    const frame_prep& fp = a.b.prep[v.prep];
    const mimo::frame_params& p = a.b.params[v.frame];
    if (!fp.valid || p.bits_per_symbol != BITS || p.nt != 2)
        return;
    const vector_io io = vector_io_of(a.b, v, a.s);
    if (!vector_finite(a.b, v, io))
        return;
    lord2_vector<BITS>(fp, p, io, a.s);
}

void launch_lord2(const trellis_args& a, size_t max_vectors, int bits, cudaStream_t st)
{
    const dim3 grid(unsigned((max_vectors + lord2_block - 1) / lord2_block));
    switch (bits) {
    case 2:
        return launch_checked(&mimo_trellis_lord2<2>, "mimo_trellis_lord2", grid, lord2_block, 0, st, a);
    case 4:
        return launch_checked(&mimo_trellis_lord2<4>, "mimo_trellis_lord2", grid, lord2_block, 0, st, a);
    case 6:
        return launch_checked(&mimo_trellis_lord2<6>, "mimo_trellis_lord2", grid, lord2_block, 0, st, a);
    default:
        return launch_checked(&mimo_trellis_lord2<8>, "mimo_trellis_lord2", grid, lord2_block, 0, st, a);
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

template <int MODE>
void launch_trellis_bits(const trellis_args& a, size_t max_vectors, int bits, unsigned nt_mask,
                         cudaStream_t st)
{
    if constexpr (MODE == MTT_FAST) {
        if (nt_mask & (1u << 2)) { // two streams: the LORD kernel
            launch_lord2(a, max_vectors, bits, st);
            nt_mask &= ~(1u << 2);
            if (!nt_mask)
                return;
        }
    }
    if constexpr (MODE != MTT_LITERAL) {
        unsigned rest = 0; // numbers of streams the lane kernel does not take
        for (int nt = 1; nt <= max_ant; nt++)
            if ((nt_mask >> nt) & 1u && !lanes_take(bits, nt))
                rest |= 1u << nt;
        switch (bits) {
        case 2:
            launch_lanes_nt<2, MODE, 1>(a, max_vectors, nt_mask, st);
            break;
        case 4:
            launch_lanes_nt<4, MODE, 1>(a, max_vectors, nt_mask, st);
            break;
        case 6:
            launch_lanes_nt<6, MODE, 1>(a, max_vectors, nt_mask, st);
            break;
        default:
            launch_lanes_nt<8, MODE, 1>(a, max_vectors, nt_mask, st);
            break;
        }
        if (!rest)
            return;
    }
    switch (bits) {
    case 2:
        return launch_trellis<2, MODE>(a, max_vectors, st);
    case 4:
        return launch_trellis<4, MODE>(a, max_vectors, st);
    case 6:
        return launch_trellis<6, MODE>(a, max_vectors, st);
    default:
        return launch_trellis<8, MODE>(a, max_vectors, st);
    }
}

} // namespace

void cuda_mimo_detect_trellis(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                              const mimo_gpu_settings& s, unsigned nt_mask, void* stream)
{
    const trellis_args a{ batch_of(dev, nframes, s.max_channels), s };
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    if (s.algorithm == int(mimo::algorithm::one_pass))
        launch_trellis_bits<ONE_PASS>(a, max_vectors, bits, nt_mask, st);
    else if (s.variant == MIMO_GPU_MTT_FAST)
        launch_trellis_bits<MTT_FAST>(a, max_vectors, bits, nt_mask, st);
    else
        launch_trellis_bits<MTT_LITERAL>(a, max_vectors, bits, nt_mask, st);
}

} // namespace core
} // namespace gpurx
} // namespace gr
