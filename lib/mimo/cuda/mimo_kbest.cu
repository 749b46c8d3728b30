/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-kbest: K-best (kbest_detector.h) with one warp per received vector.
// Each level the lanes evaluate the kept x Q children into shared memory,
// child c = parent * Q + symbol on lane c mod 32; then K rounds of a
// tournament: each lane holds the least of its own children, a warp argmin
// on (metric, child) picks the next survivor, and only the winning lane
// rescans. Ties go to the lower child index - the earlier parent, then the
// lower symbol - as on the CPU. K * Q is bounded by mimo_kbest_max_children.
#include "cuda/launch.cuh"
#include "mimo/cuda/mimo_detect.h"
#include "mimo/cuda/mimo_device.cuh"

#include <climits>

namespace gr {
namespace gpurx {
namespace core {

using namespace mimo_gpu;

namespace {

// The warp's minimum of an unsigned value: one redux.sync on sm_80 and
// newer, a butterfly of shuffles on Turing (sm_75), which has no redux.
// Both give the same value.
__device__ __forceinline__ unsigned warp_min_u32(unsigned v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xffffffffu, v);
#else
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        v = min(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
#endif
}

struct kbest_args {
    batch b;
    mimo_gpu_settings s;
};

template <int BITS>
constexpr size_t kbest_table_bytes()
{
    return (sizeof(qam_table<BITS>) + 15) / 16 * 16;
}

// Vectors (warps) per block. One warp per block capped an SM at 32 resident
// warps (the limit on blocks per SM), half of what it holds.
constexpr int kbest_warps = 4;

//! One warp's working memory (a multiple of 16 bytes).
__host__ __device__ inline size_t kbest_warp_bytes(int k, int bits)
{
    // parents' symbols (2 x K uint64), targets (K float2), parents' metrics
    // (2 x K float), children (K x Q float)
    return (size_t(k) * (16 + 8 + 8) + size_t(k) * (size_t(1) << bits) * 4 + 15) / 16 * 16;
}

template <int BITS>
size_t kbest_smem(int k)
{
    return kbest_table_bytes<BITS>() + kbest_warps * kbest_warp_bytes(k, BITS);
}

//! The least of this lane's children (index c = lane + 32 j), or (inf, INT_MAX).
__device__ inline void lane_least(const float* child, int nchild, int lane, float& m, int& idx)
{
    m = infinity_f();
    idx = INT_MAX;
    for (int c = lane; c < nchild; c += 32)
        if (child[c] < m) { // ascending c: the lower index wins ties
            m = child[c];
            idx = c;
        }
}

//! (m, i) < (n, j) lexicographically: the metric, then the lower child.
__device__ inline bool key_less(float m, int i, float n, int j) { return m < n || (m == n && i < j); }

//! Sorts J (metric, child) pairs held in registers ascending (bitonic network,
//! fully unrolled so the arrays stay in registers).
template <int J>
__device__ inline void sort_pairs(float (&m)[J], int (&id)[J])
{
#pragma unroll
    for (int size = 2; size <= J; size *= 2)
#pragma unroll
        for (int stride = size / 2; stride > 0; stride /= 2)
#pragma unroll
            for (int i = 0; i < J; i++) {
                const int q = i ^ stride;
                if (q > i) {
                    const bool up = (i & size) == 0;
                    const bool swap = up ? key_less(m[q], id[q], m[i], id[i]) : key_less(m[i], id[i], m[q], id[q]);
                    if (swap) {
                        const float tm = m[i]; m[i] = m[q]; m[q] = tm;
                        const int ti = id[i]; id[i] = id[q]; id[q] = ti;
                    }
                }
            }
}

// J > 0: each lane keeps its children (c = lane + 32 j, j < J) in registers,
// sorted once per level, so the tournament's winner pops its head instead of
// rescanning; J == 0: children in shared memory (K * Q above 32 * 8).
template <int BITS, int J>
// A min-blocks bound before Hopper, where ptxas's occupancy heuristic
// otherwise spilled 12 bytes (sm_75, sm_86); sm_90 and later do not spill
// without it, and keep the measured code.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GPURX_KBEST_BOUNDS __launch_bounds__(32 * kbest_warps, 1)
#else
#define GPURX_KBEST_BOUNDS __launch_bounds__(32 * kbest_warps)
#endif
__global__ void GPURX_KBEST_BOUNDS mimo_kbest(kbest_args a)
{
    constexpr int Q = 1 << BITS;
    extern __shared__ __align__(16) unsigned char smem[];
    auto& tab = *reinterpret_cast<qam_table<BITS>*>(smem);
    tab.build(); // before any warp leaves: it synchronises the block
    const int K = a.s.k, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint64_t* ph = reinterpret_cast<uint64_t*>(smem + kbest_table_bytes<BITS>() +
                                               warp * kbest_warp_bytes(K, BITS));
    uint64_t* nh = ph + K;
    float2* target = reinterpret_cast<float2*>(nh + K);
    float* pm = reinterpret_cast<float*>(target + K);
    float* nm = pm + K;
    float* child = nm + K;

    const uint32_t gv = blockIdx.x * uint32_t(kbest_warps) + warp;
    if (gv >= a.b.vector_start[a.b.nframes])
        return;
    const vector_ref v = find_vector(a.b, gv);
    const frame_prep& fp = a.b.prep[v.prep];
    const mimo::frame_params& p = a.b.params[v.frame];
    if (!fp.valid || p.bits_per_symbol != BITS) // the same for the whole warp
        return;
    const vector_io io = vector_io_of(a.b, v, a.s);
    if (!vector_finite(a.b, v, io))
        return;
    const int nt = p.nt;
    const float n0 = p.n0;
    float2 yh[max_ant];
    rotate(fp, io.y, nt, p.nr, yh);

    int kept = 1;
    if (lane == 0) {
        pm[0] = 0.0f;
        ph[0] = 0;
    }
    __syncwarp();
    for (int l = nt - 1; l >= 0; l--) {
        const float2 rll = fp.r[l * max_ant + l];
        for (int k = lane; k < kept; k += 32) {
            float2 t = yh[l];
            for (int j = l + 1; j < nt; j++)
                t = csub(t, cmul(fp.r[l * max_ant + j], tab.point[(ph[k] >> (8 * j)) & 0xffu]));
            target[k] = t;
        }
        __syncwarp();
        const int nchild = kept * Q;
        const float* la = io.la ? io.la + fp.order[l] * BITS : nullptr;
        const int keep = min(nchild, K);
        if constexpr (J > 0) {
            float cm[J];
            int ci[J];
#pragma unroll
            for (int j = 0; j < J; j++) {
                const int c = lane + 32 * j;
                cm[j] = infinity_f();
                ci[j] = INT_MAX;
                if (c < nchild) {
                    const int k = c >> BITS, q = c & (Q - 1);
                    cm[j] = pm[k] + norm2(csub(target[k], cmul(rll, tab.point[q]))) +
                            (la ? n0 * prior_cost<BITS>(la, q) : 0.0f);
                    ci[j] = c;
                }
            }
            sort_pairs<J>(cm, ci);
            for (int r = 0; r < keep; r++) {
                const unsigned wmb = warp_min_u32(__float_as_uint(cm[0]));
                const int wi = int(warp_min_u32(
                    __float_as_uint(cm[0]) == wmb ? unsigned(ci[0]) : unsigned(INT_MAX)));
                if (lane == 0) {
                    nm[r] = __uint_as_float(wmb);
                    nh[r] = ph[wi >> BITS] | (uint64_t(wi & (Q - 1)) << (8 * l));
                }
                if (lane == (wi & 31)) {
#pragma unroll
                    for (int j = 0; j + 1 < J; j++) {
                        cm[j] = cm[j + 1];
                        ci[j] = ci[j + 1];
                    }
                    cm[J - 1] = infinity_f();
                    ci[J - 1] = INT_MAX;
                }
            }
            __syncwarp();
            float* tm = pm; pm = nm; nm = tm;
            uint64_t* th = ph; ph = nh; nh = th;
            kept = keep;
            continue;
        }
        for (int c = lane; c < nchild; c += 32) {
            const int k = c >> BITS, q = c & (Q - 1);
            child[c] = pm[k] + norm2(csub(target[k], cmul(rll, tab.point[q]))) +
                       (la ? n0 * prior_cost<BITS>(la, q) : 0.0f);
        }
        __syncwarp();
        float m;
        int idx;
        lane_least(child, nchild, lane, m, idx);
        for (int r = 0; r < keep; r++) {
            // The warp's least (metric, child) in two reductions: metrics are
            // >= +0 (sums of squares and |LLR| costs), and such floats order
            // as their bit patterns; then the lowest child among the lanes
            // holding that metric (ties: the lower index, as before).
            const unsigned wmb = warp_min_u32(__float_as_uint(m));
            const int wi = int(warp_min_u32(
                __float_as_uint(m) == wmb ? unsigned(idx) : unsigned(INT_MAX)));
            const float wm = __uint_as_float(wmb);
            if (lane == 0) {
                nm[r] = wm;
                nh[r] = ph[wi >> BITS] | (uint64_t(wi & (Q - 1)) << (8 * l));
            }
            if (lane == (wi & 31)) {
                child[wi] = infinity_f();
                lane_least(child, nchild, lane, m, idx);
            }
        }
        __syncwarp();
        float* tm = pm; pm = nm; nm = tm;
        uint64_t* th = ph; ph = nh; nh = th;
        kept = keep;
    }

    const bool extrinsic = a.s.extrinsic != 0;
    const float inv_n0 = 1.0f / n0;
    for (int j = lane; j < nt * BITS; j += 32) {
        const int ant = j / BITS, i = j % BITS;
        int l = 0;
        while (fp.order[l] != ant)
            l++;
        float m0 = infinity_f(), m1 = infinity_f();
        for (int k = 0; k < kept; k++) {
            const unsigned s = unsigned(ph[k] >> (8 * l)) & 0xffu;
            if ((s >> (BITS - 1 - i)) & 1u)
                m1 = fminf(m1, pm[k]);
            else
                m0 = fminf(m0, pm[k]);
        }
        io.put_llr(j, final_llr(m0 * inv_n0, m1 * inv_n0, io.la ? io.la[j] : 0.0f, extrinsic,
                                a.s.clip));
    }
}

template <int BITS>
void launch_kbest(const kbest_args& a, size_t max_vectors, cudaStream_t st)
{
    const size_t children = size_t(a.s.k) << BITS;
    // Registers for up to 8 children per lane; beyond, shared memory.
    auto* kernel = children <= 32 * 4 ? &mimo_kbest<BITS, 4>
                   : children <= 32 * 8 ? &mimo_kbest<BITS, 8>
                                        : &mimo_kbest<BITS, 0>;
    launch_checked(kernel, "mimo_kbest",
                   dim3(unsigned((max_vectors + kbest_warps - 1) / kbest_warps)), 32 * kbest_warps,
                   kbest_smem<BITS>(a.s.k), st, a);
}

} // namespace

void cuda_mimo_detect_kbest(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                            const mimo_gpu_settings& s, void* stream)
{
    // Frames whose K * Q exceeds the bound were refused in the preparation.
    if (size_t(s.k) << bits > size_t(mimo_kbest_max_children))
        return;
    const kbest_args a{ batch_of(dev, nframes, s.max_channels), s };
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    switch (bits) {
    case 2:
        return launch_kbest<2>(a, max_vectors, st);
    case 4:
        return launch_kbest<4>(a, max_vectors, st);
    case 6:
        return launch_kbest<6>(a, max_vectors, st);
    default:
        return launch_kbest<8>(a, max_vectors, st);
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
