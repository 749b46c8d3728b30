/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The trellis detectors' lane-per-vertex kernel (cuda-mtt-fast and
// cuda-one-pass, up to 4 streams).
#include "mimo/cuda/mimo_trellis_common.cuh"
#include <type_traits>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_trellis_kernels {

using namespace mimo_gpu;

namespace {

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

} // namespace

void launch_lanes(const trellis_args& a, size_t max_vectors, int bits, int mode, unsigned nt_mask,
                  cudaStream_t st)
{
    auto with_mode = [&](auto bits_c) {
        constexpr int B = decltype(bits_c)::value;
        if (mode == ONE_PASS)
            launch_lanes_nt<B, ONE_PASS, 1>(a, max_vectors, nt_mask, st);
        else
            launch_lanes_nt<B, MTT_FAST, 1>(a, max_vectors, nt_mask, st);
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
