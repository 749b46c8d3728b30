/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Two detectors of one thread per received vector:
//   cuda-ml     exhaustive max-log on R (unsorted QR): the Q^nt candidates
//               depth first, the partial distance kept per level, the leaf
//               level's Q symbols in one sweep; each symbol's least metric
//               gathered as the search returns up the tree.
//   cuda-lmmse  x = (W / mu) y per stream (prepared per frame), then max-log
//               per axis: the metric |z - c|^2 / var + P(c) splits into an
//               in-phase and a quadrature part, so each axis' bits need only
//               its M levels (the other axis' least cost cancels in the LLR).
#include "cuda/launch.cuh"
#include "mimo/cuda/mimo_detect.h"
#include "mimo/cuda/mimo_device.cuh"

namespace gr {
namespace gpurx {
namespace core {

using namespace mimo_gpu;

namespace {

struct detect_args {
    batch b;
    mimo_gpu_settings s;
};

constexpr int ml_threads = 64;
constexpr int lmmse_threads = 128;

// The common start of a thread-per-vector kernel: false when the thread has
// nothing to detect (past the batch, another modulation, a frame not
// prepared, a vector not finite).
template <int BITS>
__device__ bool take_vector(const detect_args& a, uint32_t gv, vector_ref& v, vector_io& io)
{
    if (gv >= a.b.vector_start[a.b.nframes])
        return false;
    v = find_vector(a.b, gv);
    if (!a.b.prep[v.prep].valid || a.b.params[v.frame].bits_per_symbol != BITS)
        return false;
    io = vector_io_of(a.b, v, a.s);
    return vector_finite(a.b, v, io);
}

template <int BITS>
__global__ void __launch_bounds__(ml_threads) mimo_ml(detect_args a)
{
    constexpr int Q = 1 << BITS;
    __shared__ qam_table<BITS> tab;
    tab.build();
    vector_ref v;
    vector_io io;
    if (!take_vector<BITS>(a, blockIdx.x * blockDim.x + threadIdx.x, v, io))
        return;
    const frame_prep& fp = a.b.prep[v.prep];
    const mimo::frame_params& p = a.b.params[v.frame];
    const int nt = p.nt;
    const float n0 = p.n0;
    float2 yh[max_ant];
    rotate(fp, io.y, nt, p.nr, yh);
    auto R = [&](int i, int j) { return fp.r[i * max_ant + j]; };
    auto pen = [&](int l, unsigned q) {
        return io.la ? n0 * prior_cost<BITS>(io.la + fp.order[l] * BITS, q) : 0.0f;
    };

    float sym_min[mimo::ml_max_nt][Q]; // [layer][symbol]
    for (int l = 0; l < nt; l++)
        for (int q = 0; q < Q; q++)
            sym_min[l][q] = infinity_f();
    // Depth d fixes layer nt-1-d; b[d]: that layer's target after the
    // symbols above it; next[d]: the next symbol to try there.
    float partial[mimo::ml_max_nt + 1], sub_min[mimo::ml_max_nt];
    float2 b[mimo::ml_max_nt];
    int next[mimo::ml_max_nt], sym[mimo::ml_max_nt];
    int d = 0;
    partial[0] = 0.0f;
    b[0] = yh[nt - 1];
    next[0] = 0;
    sub_min[0] = infinity_f();
    for (bool done = false; !done;) {
        const int l = nt - 1 - d;
        const float2 rll = R(l, l);
        if (d == nt - 1) {
            float m = infinity_f();
            for (int q = 0; q < Q; q++) {
                const float c = partial[d] + norm2(csub(b[d], cmul(rll, tab.point[q]))) + pen(l, q);
                sym_min[l][q] = fminf(sym_min[l][q], c);
                m = fminf(m, c);
            }
            // Up the tree with the subtree's least metric.
            for (;;) {
                if (d == 0) {
                    done = true;
                    break;
                }
                d--;
                const int ll = nt - 1 - d;
                sym_min[ll][next[d] - 1] = fminf(sym_min[ll][next[d] - 1], m);
                sub_min[d] = fminf(sub_min[d], m);
                if (next[d] < Q)
                    break;
                m = sub_min[d];
            }
            continue;
        }
        const int q = next[d]++;
        sym[l] = q;
        partial[d + 1] = partial[d] + norm2(csub(b[d], cmul(rll, tab.point[q]))) + pen(l, q);
        float2 t = yh[l - 1];
        for (int j = l; j < nt; j++)
            t = csub(t, cmul(R(l - 1, j), tab.point[sym[j]]));
        d++;
        b[d] = t;
        next[d] = 0;
        sub_min[d] = infinity_f();
    }
    const bool extrinsic = a.s.extrinsic != 0;
    const float inv_n0 = 1.0f / n0;
    for (int l = 0; l < nt; l++) {
        const int ant = fp.order[l];
        for (int i = 0; i < BITS; i++) {
            float m0 = infinity_f(), m1 = infinity_f();
            for (int q = 0; q < Q; q++) {
                if ((q >> (BITS - 1 - i)) & 1)
                    m1 = fminf(m1, sym_min[l][q]);
                else
                    m0 = fminf(m0, sym_min[l][q]);
            }
            io.put_llr(ant * BITS + i, final_llr(m0 * inv_n0, m1 * inv_n0,
                                                 io.la ? io.la[ant * BITS + i] : 0.0f, extrinsic,
                                                 infinity_f()));
        }
    }
}

//! LLRs of one axis' bits (first = 0: in-phase, even bits; 1: quadrature)
//! into io's LLRs base + i: level a costs w (z - amp_a)^2 + P_axis(a), LLR units.
template <int BITS>
__device__ void axis_llrs(const qam_table<BITS>& tab, float z, float w, const float* la,
                          int first, bool extrinsic, const vector_io& io, int base)
{
    constexpr int M = 1 << (BITS / 2);
    const unsigned short* bits_of = first == 0 ? tab.level_bits_i : tab.level_bits_q;
    const unsigned mask = first == 0 ? in_phase_mask<BITS>() : ~in_phase_mask<BITS>();
    float cost[M];
#pragma unroll
    for (int a = 0; a < M; a++) {
        const float d = z - level_amplitude<BITS>(a);
        cost[a] = w * d * d + (la ? prior_cost<BITS>(la, bits_of[a], mask) : 0.0f);
    }
#pragma unroll
    for (int i = first; i < BITS; i += 2) {
        float m0 = infinity_f(), m1 = infinity_f();
#pragma unroll
        for (int a = 0; a < M; a++) {
            if ((bits_of[a] >> (BITS - 1 - i)) & 1)
                m1 = fminf(m1, cost[a]);
            else
                m0 = fminf(m0, cost[a]);
        }
        io.put_llr(base + i, final_llr(m0, m1, la ? la[i] : 0.0f, extrinsic, infinity_f()));
    }
}

template <int BITS>
__global__ void __launch_bounds__(lmmse_threads) mimo_lmmse(detect_args a)
{
    __shared__ qam_table<BITS> tab;
    tab.build();
    vector_ref v;
    vector_io io;
    if (!take_vector<BITS>(a, blockIdx.x * blockDim.x + threadIdx.x, v, io))
        return;
    const frame_prep& fp = a.b.prep[v.prep];
    const mimo::frame_params& p = a.b.params[v.frame];
    const bool extrinsic = a.s.extrinsic != 0;
    for (int k = 0; k < p.nt; k++) {
        const float* la = io.la ? io.la + k * BITS : nullptr;
        const float var = fp.var[k];
        float2 z = make_float2(0.0f, 0.0f);
        float w = 0.0f; // a stream the channel does not carry: its priors only
        if (var >= 0.0f) {
            for (int r = 0; r < p.nr; r++) {
                const float2 c = fp.qh[k * max_ant + r], y = io.y[r];
                z.x += c.x * y.x - c.y * y.y;
                z.y += c.x * y.y + c.y * y.x;
            }
            w = 1.0f / var;
        }
        axis_llrs<BITS>(tab, z.x, w, la, 0, extrinsic, io, k * BITS);
        axis_llrs<BITS>(tab, z.y, w, la, 1, extrinsic, io, k * BITS);
    }
}


template <int BITS>
void launch_ml(const detect_args& a, size_t max_vectors, cudaStream_t st)
{
    launch_checked(&mimo_ml<BITS>, "mimo_ml",
                   dim3(unsigned((max_vectors + ml_threads - 1) / ml_threads)), ml_threads, 0, st, a);
}

template <int BITS>
void launch_lmmse(const detect_args& a, size_t max_vectors, cudaStream_t st)
{
    launch_checked(&mimo_lmmse<BITS>, "mimo_lmmse",
                   dim3(unsigned((max_vectors + lmmse_threads - 1) / lmmse_threads)),
                   lmmse_threads, 0, st, a);
}

} // namespace

void cuda_mimo_detect_ml(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                         const mimo_gpu_settings& s, void* stream)
{
    const detect_args a{ batch_of(dev, nframes, s.max_channels), s };
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    switch (bits) {
    case 2:
        return launch_ml<2>(a, max_vectors, st);
    case 4:
        return launch_ml<4>(a, max_vectors, st);
    case 6:
        return launch_ml<6>(a, max_vectors, st);
    default:
        return launch_ml<8>(a, max_vectors, st);
    }
}

void cuda_mimo_detect_lmmse(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                            const mimo_gpu_settings& s, void* stream)
{
    const detect_args a{ batch_of(dev, nframes, s.max_channels), s };
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    switch (bits) {
    case 2:
        return launch_lmmse<2>(a, max_vectors, st);
    case 4:
        return launch_lmmse<4>(a, max_vectors, st);
    case 6:
        return launch_lmmse<6>(a, max_vectors, st);
    default:
        return launch_lmmse<8>(a, max_vectors, st);
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
