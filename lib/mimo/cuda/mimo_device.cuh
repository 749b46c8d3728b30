/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What every MIMO kernel shares on the device: the per-frame preparation
// record, the batch view, the frame checks (those of mimo_frame.cc), the
// 36.211 constellation in shared memory, a-priori costs, the vector lookup
// and the final LLR arithmetic. fp32 throughout; LLRs are stored as float or
// quantised to int8 on the way out (vector_io::put_llr).
#ifndef INCLUDED_GPURX_MIMO_CUDA_MIMO_DEVICE_CUH
#define INCLUDED_GPURX_MIMO_CUDA_MIMO_DEVICE_CUH

#include "common/llr_int8.h"
#include "mimo/cuda/mimo_launch.h"
#include "mimo/mimo_frame.h"
#include "pipeline/frame.h"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_gpu {

constexpr int max_ant = mimo::max_antennas;

//! One channel, prepared once for all its vectors (scratch): channel c of
//! frame f at prep[f * max_channels + c].
struct __align__(16) frame_prep {
    float2 qh[max_ant * max_ant]; //!< rows 0..nt-1 of Q^H (nr columns); lmmse: W / mu
    float2 r[max_ant * max_ant];  //!< R, upper triangular, r[i * 8 + j]
    float var[max_ant];           //!< lmmse: (1 - mu) / mu per stream; < 0: unseen
    int order[max_ant];           //!< layer -> antenna (sorted QR), else identity
    int valid;                    //!< 1: its vectors are detected
    int not_finite;               //!< set by a vector holding a NaN or an infinity
    int pad[2];
};

struct batch {
    const frame_desc* frames;
    const mimo::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    mimo::frame_result* results;
    frame_prep* prep;       //!< max_channels per frame
    uint32_t* vector_start; //!< nframes + 1: first vector of each frame, then the total
    uint32_t* block_sums;   //!< the index's per-block vector counts (mimo_prepare.cu)
    uint32_t nframes;
    uint32_t max_channels;  //!< mimo_gpu_settings::max_channels
};

//! \p max_channels: the settings' (the scratch's layout, mimo_cuda_scratch_bytes).
inline batch batch_of(const batch_view& dev, size_t nframes, int max_channels)
{
    batch b;
    b.frames = dev.frames;
    b.params = dev.params_as<mimo::frame_params>();
    b.in = dev.in;
    b.out = dev.out;
    b.results = dev.results_as<mimo::frame_result>();
    b.prep = reinterpret_cast<frame_prep*>(dev.scratch);
    b.vector_start =
        reinterpret_cast<uint32_t*>(dev.scratch + nframes * size_t(max_channels) * sizeof(frame_prep));
    b.block_sums = b.vector_start + nframes + 1;
    b.nframes = uint32_t(nframes);
    b.max_channels = uint32_t(max_channels);
    return b;
}

// ---- frame checks (mimo_frame.cc's frame_problem and the byte counts)

__device__ inline uint64_t channel_in_bytes_dev(const mimo::frame_params& p)
{
    return (uint64_t(p.nr) * p.nt + uint64_t(p.vectors) * p.nr) * 8u +
           (p.apriori ? uint64_t(p.vectors) * p.nt * p.bits_per_symbol * 4u : 0u);
}
__device__ inline uint64_t channel_out_bytes_dev(const mimo::frame_params& p, const mimo_gpu_settings& s)
{
    return uint64_t(p.vectors) * p.nt * p.bits_per_symbol * (s.int8_output ? 1u : 4u);
}

//! \p s: the kernel's settings (algorithm, k, the LLR type).
__device__ inline bool frame_ok(const mimo::frame_params& p, const frame_desc& d,
                                const mimo_gpu_settings& s)
{
    const int algorithm = s.algorithm, kbest_k = s.k;
    if (p.nt < 1 || p.nt > max_ant || p.nr < p.nt || p.nr > max_ant)
        return false;
    if (p.bits_per_symbol != 2 && p.bits_per_symbol != 4 && p.bits_per_symbol != 6 &&
        p.bits_per_symbol != 8)
        return false;
    if (p.vectors < 1 || !(p.n0 >= mimo::min_noise_variance && p.n0 <= mimo::max_noise_variance) ||
        (p.apriori != 0 && p.apriori != 1))
        return false;
    if (p.channels < 1 || p.channels > s.max_channels)
        return false;
    if (algorithm == int(mimo::algorithm::ml) &&
        (p.nt > mimo::ml_max_nt || p.nt * p.bits_per_symbol > mimo::ml_max_candidate_bits))
        return false;
    // cuda-kbest keeps K * Q children in shared memory (the registry states it).
    if (algorithm == int(mimo::algorithm::kbest) &&
        kbest_k * (1 << p.bits_per_symbol) > mimo_kbest_max_children)
        return false;
    return d.in_bytes == uint64_t(p.channels) * channel_in_bytes_dev(p) &&
           d.out_bytes == uint64_t(p.channels) * channel_out_bytes_dev(p, s);
}

// ---- the vector a thread (or warp) detects

struct vector_ref {
    int frame;
    int channel; //!< within its frame
    int vector;  //!< within its channel
    int prep;    //!< the channel's frame_prep: frame * max_channels + channel
};

//! The frame holding global vector \p gv: f_out with vector_start[f_out] =
//! first_out <= gv < vector_start[f_out + 1].
__device__ inline void find_frame(const batch& b, uint32_t gv, int& f_out, uint32_t& first_out)
{
    // Batches are mostly frames of one size: the frame the mean count points
    // to, or its neighbour, is a hit in two or three loads. A binary search
    // (15 dependent loads at 20000 frames) in every thread made the detectors
    // of short work (lmmse, 2x2) wait on latency.
    const uint32_t total = b.vector_start[b.nframes];
    const int guess = int(uint64_t(gv) * b.nframes / total);
    for (int f = max(guess - 1, 0); f <= min(guess + 1, int(b.nframes) - 1); f++) {
        const uint32_t first = b.vector_start[f];
        if (first <= gv && gv < b.vector_start[f + 1]) {
            f_out = f;
            first_out = first;
            return;
        }
    }
    int lo = 0, hi = int(b.nframes); // vector_start[lo] <= gv < vector_start[hi]
    while (hi - lo > 1) {
        const int mid = (lo + hi) >> 1;
        if (b.vector_start[mid] <= gv)
            lo = mid;
        else
            hi = mid;
    }
    f_out = lo;
    first_out = b.vector_start[lo];
}

//! The frame of global vector \p gv (< the batch's total): the frame f with
//! vector_start[f] <= gv < vector_start[f + 1]; its channel and vector.
__device__ inline vector_ref find_vector(const batch& b, uint32_t gv)
{
    int f;
    uint32_t first;
    find_frame(b, gv, f, first);
    const uint32_t in_frame = gv - first, per = uint32_t(b.params[f].vectors);
    // Frames of one channel (the blocks' case) skip the division: every
    // thread of the short detectors pays for it (about 2% of mtt-fast 4x4
    // 16-QAM per lane).
    const int c = b.max_channels == 1 ? 0 : int(in_frame / per);
    return { f, c, int(in_frame - uint32_t(c) * per), f * int(b.max_channels) + c };
}

//! Pointers of one vector of a valid frame.
struct vector_io {
    const float2* y;  //!< nr
    const float* la;  //!< nt * bits a-priori LLRs, or nullptr
    void* llr;        //!< nt * bits LLRs out: float, or int8 when int8
    bool int8;

    //! LLR k of the vector, as the frame's type: the float, or its int8
    //! quantisation (the CPU backend's function, so the two agree whenever
    //! their float LLRs do).
    __device__ void put_llr(int k, float l) const
    {
        if (int8)
            static_cast<int8_t*>(llr)[k] = llr_to_int8(l);
        else
            static_cast<float*>(llr)[k] = l;
    }
};

__device__ inline vector_io vector_io_of(const batch& b, const vector_ref& v,
                                         const mimo_gpu_settings& s)
{
    const mimo::frame_params& p = b.params[v.frame];
    const frame_desc& d = b.frames[v.frame];
    const float2* h = reinterpret_cast<const float2*>(b.in + d.in_offset +
                                                      size_t(v.channel) * channel_in_bytes_dev(p));
    const float2* y = h + p.nr * p.nt;
    const int per = p.nt * p.bits_per_symbol;
    vector_io io;
    io.y = y + v.vector * p.nr;
    io.la = p.apriori ? reinterpret_cast<const float*>(y + p.vectors * p.nr) + v.vector * per
                      : nullptr;
    io.int8 = s.int8_output != 0;
    io.llr = b.out + d.out_offset +
             (size_t(v.channel) * p.vectors + v.vector) * per * (io.int8 ? 1u : 4u);
    return io;
}

//! False (and the frame flagged) when the vector or its priors hold a NaN or
//! an infinity: the finish step zeroes the frame.
__device__ inline bool vector_finite(const batch& b, const vector_ref& v, const vector_io& io)
{
    const mimo::frame_params& p = b.params[v.frame];
    bool ok = true;
    for (int r = 0; r < p.nr; r++)
        ok &= isfinite(io.y[r].x) && isfinite(io.y[r].y);
    if (io.la)
        for (int k = 0; k < p.nt * p.bits_per_symbol; k++)
            ok &= isfinite(io.la[k]);
    if (!ok)
        atomicOr(&b.prep[v.prep].not_finite, 1);
    return ok;
}

// ---- the constellation (qam.h): symbol index = bits, b(0) most significant

//! Even bits b(0), b(2), ... (the in-phase axis) of an index, as a mask.
template <int BITS>
__host__ __device__ constexpr unsigned in_phase_mask()
{
    unsigned m = 0;
    for (int i = 0; i < BITS; i += 2)
        m |= 1u << (BITS - 1 - i);
    return m;
}

//! 36.211 7.1 axis amplitude of index q, unnormalised (odd integers).
template <int BITS>
__device__ inline float axis_amplitude(unsigned q, int first)
{
    constexpr int k = BITS / 2;
    auto bit = [&](int i) { return float(1 - 2 * int((q >> (BITS - 1 - i)) & 1u)); };
    float t = 1.0f;
    for (int j = k - 1; j >= 1; j--)
        t = float(1 << (k - j)) - t * bit(first + 2 * j);
    return t * bit(first);
}

template <int BITS>
__host__ __device__ constexpr float qam_scale()
{
    // 1 / sqrt(2 (4^k - 1) / 3): 1/sqrt(2), 1/sqrt(10), 1/sqrt(42), 1/sqrt(170)
    return BITS == 2 ? 0.70710678118654752f
                     : BITS == 4 ? 0.31622776601683794f
                                 : BITS == 6 ? 0.15430334996209191f : 0.07669649888473704f;
}

//! The constellation in shared memory, built by the block.
template <int BITS>
struct qam_table {
    static constexpr int Q = 1 << BITS;
    static constexpr int M = 1 << (BITS / 2); //!< levels per axis
    float2 point[Q];
    //! Index bits of each axis level (level a: amplitude (2a - (M-1)) scale):
    //! a symbol is level_bits_i[a] | level_bits_q[b].
    unsigned short level_bits_i[M], level_bits_q[M];

    __device__ void build()
    {
        for (int q = threadIdx.x; q < Q; q += blockDim.x) {
            const float ai = axis_amplitude<BITS>(q, 0), aq = axis_amplitude<BITS>(q, 1);
            point[q] = make_float2(ai * qam_scale<BITS>(), aq * qam_scale<BITS>());
            // Several q share a level; they write the same bits.
            level_bits_i[int(ai + float(M - 1)) >> 1] = q & in_phase_mask<BITS>();
            level_bits_q[int(aq + float(M - 1)) >> 1] = q & ~in_phase_mask<BITS>() & (Q - 1);
        }
        __syncthreads();
    }
};

//! Nearest level (0..M-1) of coordinate x on an axis (NaN-safe: clamped).
template <int BITS>
__device__ inline int slice_level(float x)
{
    constexpr int M = 1 << (BITS / 2);
    const float l = rintf(0.5f * (x * (1.0f / qam_scale<BITS>()) + float(M - 1)));
    return int(fminf(fmaxf(l, 0.0f), float(M - 1)));
}

template <int BITS>
__device__ inline float level_amplitude(int a)
{
    constexpr int M = 1 << (BITS / 2);
    return float(2 * a - (M - 1)) * qam_scale<BITS>();
}

// ---- a-priori costs (mimo_detector.h): P(q) = sum over q's bits that
// disagree with sign(La) of |La|, in LLR units

template <int BITS>
__device__ inline float prior_cost(const float* la, unsigned q, unsigned mask = ~0u)
{
    float p = 0.0f;
#pragma unroll
    for (int i = 0; i < BITS; i++) {
        const unsigned pos = BITS - 1 - i;
        if (!((mask >> pos) & 1u))
            continue;
        const float l = la[i];
        const bool bit = (q >> pos) & 1u;
        if (bit != (l > 0.0f))
            p += fabsf(l);
    }
    return p;
}

// ---- LLRs

//! One LLR from the least metrics (LLR units) of the two hypotheses; a bit
//! with no candidate on one side gets +-clip; bounded by clip.
__device__ inline float final_llr(float min0, float min1, float la, bool extrinsic, float clip)
{
    const float inf = __int_as_float(0x7f800000);
    if (min0 == inf && min1 == inf)
        return 0.0f;
    if (min0 == inf)
        return clip;
    if (min1 == inf)
        return -clip;
    const float l = (min0 - min1) - (extrinsic ? la : 0.0f);
    return fminf(clip, fmaxf(-clip, l));
}

//! 1 / x for the slicers' z = t conj(r) / |r|^2, multiplied rather than
//! divided per path; 0 where |r|^2 is 0. (A denormal |r|^2 gives inf, and z
//! inf or NaN, which slice_level clamps to an edge level: that layer carries
//! no information, so any symbol is as good. Guarding it too, x >= FLT_MIN,
//! cost the 4x4 16-QAM lane kernel 7 registers and 5% on the H100.)
__device__ inline float reciprocal_or_zero(float x) { return x > 0.0f ? 1.0f / x : 0.0f; }

__device__ inline float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ inline float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ inline float norm2(float2 a) { return a.x * a.x + a.y * a.y; }

//! y_hat = rows 0..nt-1 of (Q^H y) (or W y for lmmse), into yh[i * stride].
__device__ inline void rotate(const frame_prep& fp, const float2* y, int nt, int nr, float2* yh,
                              int stride = 1)
{
    for (int i = 0; i < nt; i++) {
        float2 s = make_float2(0.0f, 0.0f);
        for (int r = 0; r < nr; r++) {
            const float2 q = fp.qh[i * max_ant + r], v = y[r];
            s.x += q.x * v.x - q.y * v.y;
            s.y += q.x * v.y + q.y * v.x;
        }
        yh[i * stride] = s;
    }
}

constexpr float infinity_f() { return __builtin_huge_valf(); }

} // namespace mimo_gpu
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
