/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-kbest: K-best (kbest_detector.h) with one warp per received vector.
// Child c = parent * Q + symbol; the survivors of a level are its K least
// (metric, child) pairs in that order, ties to the lower child index - the
// earlier parent, then the lower symbol - as on the CPU. Metrics are sums of
// squares and |LLR| costs (>= +0), so they order as their bit patterns, and
// (bits << 32 | child) is one 64-bit key of that order.
// - At most 32 children (the first level): one per lane, each its rank among
//   the others by shuffles, and it writes itself to that place.
// - Up to 32 x 8: lane L's children c = L + 32 j in registers, sorted by a
//   network, its tail left in shared memory; then K rounds of a tournament on
//   the lanes' heads: one warp min of the metric bits, a ballot of the lanes
//   holding it (a second min on the child only when several do), and the
//   winner writes the survivor and takes its next child.
// - Beyond: the children in shared memory, each lane rescanning its own
//   after it wins. K * Q is bounded by mimo_kbest_max_children.
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

//! Children per lane held in registers for K * Q children: 4 or 8, or 0
//! (shared memory) beyond 32 x 8.
inline int kbest_lane_children(size_t children) { return children <= 32 * 4 ? 4 : children <= 32 * 8 ? 8 : 0; }

//! One warp's working memory (a multiple of 16 bytes).
__host__ __device__ inline size_t kbest_warp_bytes(int k, int bits, int j)
{
    // parents' symbols (2 x K uint64), targets (K float2), parents' metrics
    // (2 x K float), then the children: J > 0, the lanes' sorted tails (32 x
    // J keys); J == 0, K x Q floats
    const size_t children = j > 0 ? size_t(32) * j * 8 : size_t(k) * (size_t(1) << bits) * 4;
    return (size_t(k) * (16 + 8 + 8) + children + 15) / 16 * 16;
}

template <int BITS>
size_t kbest_smem(int k, int j)
{
    return kbest_table_bytes<BITS>() + kbest_warps * kbest_warp_bytes(k, BITS, j);
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

//! A child's key: its metric's bits, then its index (metrics are >= +0).
__device__ inline uint64_t child_key(float m, int c)
{
    return (uint64_t(__float_as_uint(m)) << 32) | unsigned(c);
}

//! Symbol of layer l on path k (byte l of its uint64, little-endian).
__device__ inline unsigned symbol_of(const uint64_t* paths, int k, int l)
{
    return reinterpret_cast<const uint8_t*>(paths + k)[l];
}

//! No child: above every key.
constexpr uint64_t no_child = ~uint64_t(0);

__device__ inline void key_cas(uint64_t& a, uint64_t& b)
{
    const uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    a = lo;
    b = hi;
}

//! Sorts J keys held in registers ascending (J = 4: 5 comparators; J = 8:
//! Batcher's odd-even merge sort, 19), fully unrolled so they stay in registers.
template <int J>
__device__ inline void sort_keys(uint64_t (&k)[J])
{
    static_assert(J == 4 || J == 8, "4 or 8 children per lane");
    if constexpr (J == 4) {
        key_cas(k[0], k[1]); key_cas(k[2], k[3]);
        key_cas(k[0], k[2]); key_cas(k[1], k[3]);
        key_cas(k[1], k[2]);
    } else {
        key_cas(k[0], k[2]); key_cas(k[1], k[3]); key_cas(k[4], k[6]); key_cas(k[5], k[7]);
        key_cas(k[0], k[4]); key_cas(k[1], k[5]); key_cas(k[2], k[6]); key_cas(k[3], k[7]);
        key_cas(k[0], k[1]); key_cas(k[2], k[3]); key_cas(k[4], k[5]); key_cas(k[6], k[7]);
        key_cas(k[2], k[4]); key_cas(k[3], k[5]);
        key_cas(k[1], k[4]); key_cas(k[3], k[6]);
        key_cas(k[1], k[2]); key_cas(k[3], k[4]); key_cas(k[5], k[6]);
    }
}

// J > 0: each lane keeps its children (c = lane + 32 j, j < J) sorted, the
// head in registers, the tail in shared memory; J == 0: children in shared
// memory (K * Q above 32 * 8).
// Blocks per SM the register bound aims at from Hopper on: 8 (at most 64
// registers), 9 (56) for 8 children per lane of QPSK and 16-QAM (4x4 16-QAM
// K = 16: 4.10 Gbit/s on the H100 against 3.92 with 8 blocks, 62 registers);
// without a bound ptxas's own choice spilled some instances.
#ifndef GPURX_KBEST_J8_BLOCKS
#define GPURX_KBEST_J8_BLOCKS 9
#endif
template <int BITS, int J>
// A min-blocks bound before Hopper, where ptxas's occupancy heuristic
// otherwise spilled 12 bytes (sm_75, sm_86).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GPURX_KBEST_BOUNDS __launch_bounds__(32 * kbest_warps, 1)
#else
#define GPURX_KBEST_BOUNDS __launch_bounds__(32 * kbest_warps, J == 8 && BITS <= 4 ? GPURX_KBEST_J8_BLOCKS : 8)
#endif
__global__ void GPURX_KBEST_BOUNDS mimo_kbest(kbest_args a)
{
    constexpr int Q = 1 << BITS;
    constexpr unsigned full = 0xffffffffu;
    extern __shared__ __align__(16) unsigned char smem[];
    auto& tab = *reinterpret_cast<qam_table<BITS>*>(smem);
    tab.build(); // before any warp leaves: it synchronises the block
    const int K = a.s.k, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint64_t* ph = reinterpret_cast<uint64_t*>(smem + kbest_table_bytes<BITS>() +
                                               warp * kbest_warp_bytes(K, BITS, J));
    uint64_t* nh = ph + K;
    float2* target = reinterpret_cast<float2*>(nh + K);
    float* pm = reinterpret_cast<float*>(target + K);
    float* nm = pm + K;
    float* child = nm + K;
    uint64_t* tail = reinterpret_cast<uint64_t*>(child); // J > 0: tail[j * 32 + lane]

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
    // y_hat: lane i < nt holds row i (rotate()'s arithmetic), shuffled out per level.
    float2 yh = make_float2(0.0f, 0.0f);
    if (lane < nt)
        for (int r = 0; r < p.nr; r++) {
            const float2 q = fp.qh[lane * max_ant + r], y = io.y[r];
            yh.x += q.x * y.x - q.y * y.y;
            yh.y += q.x * y.y + q.y * y.x;
        }

    int kept = 1;
    if (lane == 0) {
        pm[0] = 0.0f;
        ph[0] = 0;
    }
    __syncwarp();
    for (int l = nt - 1; l >= 0; l--) {
        const float2 rll = fp.r[l * max_ant + l];
        const float2 yl = make_float2(__shfl_sync(full, yh.x, l), __shfl_sync(full, yh.y, l));
        for (int k = lane; k < kept; k += 32) {
            float2 t = yl;
            for (int j = l + 1; j < nt; j++)
                t = csub(t, cmul(fp.r[l * max_ant + j], tab.point[symbol_of(ph, k, j)]));
            target[k] = t;
        }
        __syncwarp();
        const int nchild = kept * Q;
        const float* la = io.la ? io.la + fp.order[l] * BITS : nullptr;
        const int keep = min(nchild, K);
        if (Q <= 32 && nchild <= 32) {
            // One child per lane: its rank among the others is its place.
            const int c = lane, k = c >> BITS, q = c & (Q - 1);
            uint64_t key = no_child;
            float m = 0.0f;
            if (c < nchild) {
                m = pm[k] + norm2(csub(target[k], cmul(rll, tab.point[q]))) +
                    (la ? n0 * prior_cost<BITS>(la, q) : 0.0f);
                key = child_key(m, c);
            }
            int rank = 0;
            for (int d = 0; d < nchild; d++)
                rank += __shfl_sync(full, key, d) < key;
            if (c < nchild && rank < keep) {
                nm[rank] = m;
                nh[rank] = ph[k] | (uint64_t(q) << (8 * l));
            }
        } else if constexpr (J > 0) {
            uint64_t ck[J];
            // For Q <= 32 a lane's children share their symbol.
            const int q0 = lane & (Q - 1);
            const float2 u0 = cmul(rll, tab.point[q0]);
            const float pr0 = la ? n0 * prior_cost<BITS>(la, q0) : 0.0f;
#pragma unroll
            for (int j = 0; j < J; j++) {
                const int c = lane + 32 * j;
                ck[j] = no_child;
                if (c < nchild) {
                    const int k = c >> BITS, q = c & (Q - 1);
                    const float2 u = Q <= 32 ? u0 : cmul(rll, tab.point[q]);
                    const float pr = Q <= 32 ? pr0 : (la ? n0 * prior_cost<BITS>(la, q) : 0.0f);
                    ck[j] = child_key(pm[k] + norm2(csub(target[k], u)) + pr, c);
                }
            }
            sort_keys<J>(ck);
            // The tail: slot j - 1 holds key j, the last slot no child (a lane
            // never takes more than its real children: a real one is always least).
#pragma unroll
            for (int j = 1; j < J; j++)
                tail[(j - 1) * 32 + lane] = ck[j];
            tail[(J - 1) * 32 + lane] = no_child;
            uint64_t head = ck[0];
            const uint64_t* next = tail + lane;
            // The survivors' keys, in order, where the targets were.
            uint64_t* won = reinterpret_cast<uint64_t*>(target);
            __syncwarp(); // every lane has read the targets
            for (int r = 0; r < keep; r++) {
                // The warp's least key: the least metric bits, then (only when
                // several lanes hold them) the lowest child among those lanes.
                const unsigned hb = unsigned(head >> 32);
                const unsigned wmb = warp_min_u32(hb);
                bool win = hb == wmb;
                const unsigned holders = __ballot_sync(full, win);
                if (holders & (holders - 1)) {
                    const unsigned wi = warp_min_u32(win ? unsigned(head) : ~0u);
                    win = win && unsigned(head) == wi;
                }
                if (win) {
                    won[r] = head;
                    head = *next;
                    next += 32;
                }
            }
            __syncwarp();
            for (int r = lane; r < keep; r += 32) {
                const uint64_t key = won[r];
                const unsigned c = unsigned(key);
                nm[r] = __uint_as_float(unsigned(key >> 32));
                nh[r] = ph[c >> BITS] | (uint64_t(c & (Q - 1)) << (8 * l));
            }
        } else {
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
            const unsigned s = symbol_of(ph, k, l);
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
    const int j = kbest_lane_children(size_t(a.s.k) << BITS);
    auto* kernel = j == 4 ? &mimo_kbest<BITS, 4> : j == 8 ? &mimo_kbest<BITS, 8> : &mimo_kbest<BITS, 0>;
    launch_checked(kernel, "mimo_kbest",
                   dim3(unsigned((max_vectors + kbest_warps - 1) / kbest_warps)), 32 * kbest_warps,
                   kbest_smem<BITS>(a.s.k, j), st, a);
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
