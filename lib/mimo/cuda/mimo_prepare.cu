/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Steps 1 and 3 of a batch (mimo_launch.h): the vector index, the per-frame
// channel preparation, and the frames found not finite.
//
// The preparation is one thread per channel: a channel's QR (Householder, as
// channel_qr.cc, with the same column pivoting when sorted) or its LMMSE
// filter is a few hundred to a few thousand flops, run once for all the
// frame's vectors; the vectors' threads then read R and Q^H from L1/L2.
#include "cuda/launch.cuh"
#include "mimo/cuda/mimo_device.cuh"
#include "mimo/cuda/mimo_lord2.cuh"

namespace gr {
namespace gpurx {
namespace core {

using namespace mimo_gpu;

namespace {

constexpr int index_threads = 1024;
constexpr int prep_threads = 64;

struct prep_args {
    batch b;
    mimo_gpu_settings s;
};

// The vector index: the exclusive prefix sum of the detectable frames'
// vector counts, in three steps that each take one pass (a single block
// walking 20000 frames took ~40 us, as long as the QR of all of them):
//   mimo_index_blocks  per block of index_threads frames, the scan within the
//                      block into vector_start and the block's sum;
//   mimo_index_carry   one block: the exclusive scan of the block sums, and
//                      the total into vector_start[nframes];
//   mimo_prepare_channels adds its block's carry to vector_start[f].

//! Inclusive scan of x over the block (index_threads); *total: the block's sum.
__device__ uint32_t block_inclusive_scan(uint32_t x, uint32_t* warp_sums, uint32_t* total)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 1; o < 32; o <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o)
            x += t;
    }
    if (lane == 31)
        warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        uint32_t w = warp_sums[lane];
        for (int o = 1; o < 32; o <<= 1) {
            const uint32_t t = __shfl_up_sync(0xffffffffu, w, o);
            if (lane >= o)
                w += t;
        }
        warp_sums[lane] = w; // inclusive over warps
    }
    __syncthreads();
    const uint32_t r = (warp > 0 ? warp_sums[warp - 1] : 0u) + x;
    *total = warp_sums[index_threads / 32 - 1];
    __syncthreads(); // warp_sums is reused by the caller's next scan
    return r;
}

// Byte by byte: float and int8 zeros are both all-zero bytes, and an int8
// frame's length need not be a multiple of 4.
__device__ void zero_bytes(uint8_t* out, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        out[i] = 0;
}
__device__ void zero_output(const batch& b, uint32_t f)
{
    zero_bytes(b.out + b.frames[f].out_offset, b.frames[f].out_bytes);
}
//! Channel \p c of a valid frame \p f: its output zeroed, the frame's
//! result marked (mimo_frame.h: the worst of its channels').
__device__ void channel_not_finite(const batch& b, uint32_t f, int c, const mimo_gpu_settings& s)
{
    const uint64_t n = channel_out_bytes_dev(b.params[f], s);
    zero_bytes(b.out + b.frames[f].out_offset + uint64_t(c) * n, n);
    atomicMax(&b.results[f].status, int32_t(mimo::STATUS_NOT_FINITE));
    atomicMin(&b.results[f].rank, 0);
}

__global__ void __launch_bounds__(index_threads) mimo_index_blocks(prep_args a)
{
    __shared__ uint32_t warp_sums[index_threads / 32];
    const uint32_t f = blockIdx.x * index_threads + threadIdx.x;
    uint32_t n = 0;
    if (f < a.b.nframes) {
        // The frame's result starts as the best one; its channels lower it
        // (mimo_prepare_channels, mimo_finish_channels).
        if (frame_ok(a.b.params[f], a.b.frames[f], a.s)) {
            n = uint32_t(a.b.params[f].vectors) * uint32_t(a.b.params[f].channels);
            a.b.results[f] = { mimo::STATUS_OK, a.b.params[f].nt };
        } else {
            zero_output(a.b, f);
            a.b.results[f] = { mimo::STATUS_BAD_FRAME, 0 };
        }
    }
    uint32_t total;
    const uint32_t incl = block_inclusive_scan(n, warp_sums, &total);
    if (f < a.b.nframes)
        a.b.vector_start[f] = incl - n;
    if (threadIdx.x == 0)
        a.b.block_sums[blockIdx.x] = total;
}

__global__ void __launch_bounds__(index_threads) mimo_index_carry(prep_args a)
{
    __shared__ uint32_t warp_sums[index_threads / 32];
    const uint32_t nblocks = (a.b.nframes + index_threads - 1) / index_threads;
    uint32_t carry = 0;
    for (uint32_t base = 0; base < nblocks; base += index_threads) {
        const uint32_t i = base + threadIdx.x;
        const uint32_t n = i < nblocks ? a.b.block_sums[i] : 0u;
        uint32_t total;
        const uint32_t incl = block_inclusive_scan(n, warp_sums, &total);
        if (i < nblocks)
            a.b.block_sums[i] = carry + incl - n; // now the block's carry
        carry += total;
    }
    if (threadIdx.x == 0)
        a.b.vector_start[a.b.nframes] = carry;
}


// Householder QR of H (nr x nt) into fp: R, rows 0..nt-1 of Q^H, the order.
// Returns the numerical rank.
//
// NRT x NTT > 0 fixes the shape at compile time: every loop then unrolls and
// the working matrices live in registers. With runtime bounds they cannot
// (a register cannot be indexed), and the local-memory traffic made the QR
// of a 4x4 channel cost as much as detecting several of its vectors. 0 x 0
// is the generic form for the other shapes. The column swap of the sorted QR
// is done by predicated moves over the candidates, not by an indexed access,
// for the same reason.
template <int NRT, int NTT>
__device__ int householder_qr(const float2* h, int nr_rt, int nt_rt, bool sorted, frame_prep& fp)
{
    constexpr int LD = NRT ? NRT : max_ant;  // leading dimension of a and v
    constexpr int NC = NTT ? NTT : max_ant;  // columns held
    const int nr = NRT ? NRT : nr_rt, nt = NTT ? NTT : nt_rt;
    float2 a[NC * LD]; // column-major: a[col * LD + row]
    float2 v[NC * LD]; // reflector i: v[i * LD + row], zero above row i
    int ord[NC];
    float frob = 0.0f;
#pragma unroll
    for (int r = 0; r < nr; r++)
#pragma unroll
        for (int t = 0; t < nt; t++) {
            a[t * LD + r] = h[r * nt + t];
            frob += norm2(h[r * nt + t]);
        }
#pragma unroll
    for (int t = 0; t < nt; t++)
        ord[t] = t;
#pragma unroll
    for (int i = 0; i < nt; i++) {
        if (sorted) { // the column of least remaining norm first (channel_qr.h)
            int best = i;
            float best_norm = infinity_f();
#pragma unroll
            for (int j = i; j < nt; j++) {
                float n = 0.0f;
#pragma unroll
                for (int r = i; r < nr; r++)
                    n += norm2(a[j * LD + r]);
                if (n < best_norm) {
                    best_norm = n;
                    best = j;
                }
            }
#pragma unroll
            for (int j = i + 1; j < nt; j++)
                if (j == best) {
#pragma unroll
                    for (int r = 0; r < nr; r++) {
                        const float2 t = a[i * LD + r];
                        a[i * LD + r] = a[j * LD + r];
                        a[j * LD + r] = t;
                    }
                    const int o = ord[i];
                    ord[i] = ord[j];
                    ord[j] = o;
                }
        }
        float2* x = &a[i * LD];
        float2* vi = &v[i * LD];
#pragma unroll
        for (int r = 0; r < nr; r++)
            vi[r] = make_float2(0.0f, 0.0f);
        float xn2 = 0.0f;
#pragma unroll
        for (int r = i; r < nr; r++)
            xn2 += norm2(x[r]);
        const float xnorm = sqrtf(xn2);
        if (xnorm == 0.0f)
            continue; // nothing to reflect: R(i, i) = 0, the reflector stays zero
        // alpha = -e^{j arg x_i} ||x||: v = x - alpha e_i never cancels.
        const float ax = sqrtf(norm2(x[i]));
        const float2 phase = ax > 0.0f ? make_float2(x[i].x / ax, x[i].y / ax)
                                       : make_float2(1.0f, 0.0f);
        const float2 alpha = make_float2(-phase.x * xnorm, -phase.y * xnorm);
#pragma unroll
        for (int r = i; r < nr; r++)
            vi[r] = x[r];
        vi[i] = csub(vi[i], alpha);
        float vn2 = 0.0f;
#pragma unroll
        for (int r = i; r < nr; r++)
            vn2 += norm2(vi[r]);
        const float vs = rsqrtf(vn2);
#pragma unroll
        for (int r = i; r < nr; r++)
            vi[r] = make_float2(vi[r].x * vs, vi[r].y * vs);
#pragma unroll
        for (int j = i + 1; j < nt; j++) {
            float2* c = &a[j * LD];
            float2 dot = make_float2(0.0f, 0.0f); // v^H c
#pragma unroll
            for (int r = i; r < nr; r++) {
                dot.x += vi[r].x * c[r].x + vi[r].y * c[r].y;
                dot.y += vi[r].x * c[r].y - vi[r].y * c[r].x;
            }
            dot = make_float2(2.0f * dot.x, 2.0f * dot.y);
#pragma unroll
            for (int r = i; r < nr; r++)
                c[r] = csub(c[r], cmul(vi[r], dot));
        }
        x[i] = alpha;
#pragma unroll
        for (int r = i + 1; r < nr; r++)
            x[r] = make_float2(0.0f, 0.0f);
    }
    // Below 1e-5 ||H||_F a diagonal entry is rounding (fp32; the CPU's
    // double-precision threshold is 1e-9): the column adds nothing new.
    const float tol = 1e-5f * sqrtf(frob);
    int rank = 0;
    // The detectors read R only at i <= j < nt: the rest is left as it is.
#pragma unroll
    for (int i = 0; i < nt; i++) {
#pragma unroll
        for (int j = i; j < nt; j++)
            fp.r[i * max_ant + j] = a[j * LD + i];
        rank += sqrtf(norm2(a[i * LD + i])) > tol;
        fp.order[i] = ord[i];
    }
    // Q^H e_r for every receive antenna r: column r of Q^H.
#pragma unroll
    for (int r = 0; r < nr; r++) {
        float2 w[LD];
#pragma unroll
        for (int k = 0; k < nr; k++)
            w[k] = make_float2(k == r ? 1.0f : 0.0f, 0.0f);
#pragma unroll
        for (int i = 0; i < nt; i++) {
            const float2* vi = &v[i * LD];
            float2 dot = make_float2(0.0f, 0.0f);
#pragma unroll
            for (int k = i; k < nr; k++) {
                dot.x += vi[k].x * w[k].x + vi[k].y * w[k].y;
                dot.y += vi[k].x * w[k].y - vi[k].y * w[k].x;
            }
            dot = make_float2(2.0f * dot.x, 2.0f * dot.y);
#pragma unroll
            for (int k = i; k < nr; k++)
                w[k] = csub(w[k], cmul(vi[k], dot));
        }
#pragma unroll
        for (int i = 0; i < nt; i++)
            fp.qh[i * max_ant + r] = w[i];
    }
    return rank;
}

// LMMSE filter (lmmse_detector.cc) into fp: rows of W / mu in qh, (1-mu)/mu in
// var. NTT > 0 fixes nt (registers, as householder_qr); nr stays at runtime
// (it only bounds the sums over receive antennas, not an array).
template <int NTT>
__device__ void lmmse_filter(const float2* h, int nr, int nt_rt, float n0, frame_prep& fp)
{
    constexpr int NC = NTT ? NTT : max_ant;
    const int nt = NTT ? NTT : nt_rt;
    float2 l[NC * NC], inv[NC * NC], z[NC];
    // A = H^H H + N0 I, then its Cholesky factor L (lower), in l.
#pragma unroll
    for (int i = 0; i < nt; i++)
#pragma unroll
        for (int j = 0; j <= i; j++) {
            float2 s = make_float2(i == j ? n0 : 0.0f, 0.0f);
            for (int r = 0; r < nr; r++) { // conj(h[r][i]) h[r][j]
                const float2 a = h[r * nt + i], b = h[r * nt + j];
                s.x += a.x * b.x + a.y * b.y;
                s.y += a.x * b.y - a.y * b.x;
            }
            l[i * NC + j] = s;
        }
#pragma unroll
    for (int j = 0; j < nt; j++) {
        float d = l[j * NC + j].x;
#pragma unroll
        for (int k = 0; k < j; k++)
            d -= norm2(l[j * NC + k]);
        // N0 I alone keeps A at least that definite (lmmse_detector.cc).
        const float ljj = sqrtf(d > 0.0f ? d : n0);
        l[j * NC + j] = make_float2(ljj, 0.0f);
#pragma unroll
        for (int i = j + 1; i < nt; i++) {
            float2 s = l[i * NC + j];
#pragma unroll
            for (int k = 0; k < j; k++) { // - l[i][k] conj(l[j][k])
                const float2 a = l[i * NC + k], b = l[j * NC + k];
                s.x -= a.x * b.x + a.y * b.y;
                s.y -= a.y * b.x - a.x * b.y;
            }
            l[i * NC + j] = make_float2(s.x / ljj, s.y / ljj);
        }
    }
#pragma unroll
    for (int c = 0; c < nt; c++) { // A^-1 column c: L z = e_c, L^H x = z
#pragma unroll
        for (int i = 0; i < nt; i++) {
            float2 s = make_float2(i == c ? 1.0f : 0.0f, 0.0f);
#pragma unroll
            for (int k = 0; k < i; k++)
                s = csub(s, cmul(l[i * NC + k], z[k]));
            const float d = l[i * NC + i].x;
            z[i] = make_float2(s.x / d, s.y / d);
        }
#pragma unroll
        for (int i = nt - 1; i >= 0; i--) {
            float2 s = z[i];
#pragma unroll
            for (int k = i + 1; k < nt; k++) { // - conj(l[k][i]) inv[k][c]
                const float2 a = l[k * NC + i], b = inv[k * NC + c];
                s.x -= a.x * b.x + a.y * b.y;
                s.y -= a.x * b.y - a.y * b.x;
            }
            const float d = l[i * NC + i].x;
            inv[i * NC + c] = make_float2(s.x / d, s.y / d);
        }
    }
#pragma unroll
    for (int k = 0; k < nt; k++) {
        const float one_minus_mu = n0 * inv[k * NC + k].x;
        const float mu = 1.0f - one_minus_mu;
        // mu ~ 0: a stream the channel does not carry (fp32 rounding leaves
        // it within ~1e-7 of 0): only its priors are known.
        const bool seen = mu > 1e-6f;
        fp.var[k] = seen ? one_minus_mu / mu : -1.0f;
        const float inv_mu = seen ? 1.0f / mu : 0.0f;
        for (int r = 0; r < max_ant; r++) {
            float2 s = make_float2(0.0f, 0.0f);
            if (r < nr)
#pragma unroll
                for (int j = 0; j < nt; j++) { // inv[k][j] conj(h[r][j])
                    const float2 a = inv[k * NC + j], b = h[r * nt + j];
                    s.x += a.x * b.x + a.y * b.y;
                    s.y += a.y * b.x - a.x * b.y;
                }
            fp.qh[k * max_ant + r] = make_float2(s.x * inv_mu, s.y * inv_mu);
        }
        fp.order[k] = k;
    }
}

//! The QR (and for lmmse the filter) of one frame, at the shape's compile-time
//! specialisation when it has one (the common square shapes).
__device__ int prepare_channel(const float2* h, const mimo::frame_params& p, const prep_args& a,
                               frame_prep& fp)
{
    const bool sorted = a.s.sorted_qr != 0;
    const bool lmmse = a.s.algorithm == int(mimo::algorithm::lmmse);
    int rank;
    if (p.nr == 4 && p.nt == 4) {
        rank = householder_qr<4, 4>(h, 4, 4, sorted, fp);
        if (lmmse)
            lmmse_filter<4>(h, 4, 4, p.n0, fp);
    } else if (p.nr == 2 && p.nt == 2) {
        rank = householder_qr<2, 2>(h, 2, 2, sorted, fp);
        if (lmmse)
            lmmse_filter<2>(h, 2, 2, p.n0, fp);
    } else {
        rank = householder_qr<0, 0>(h, p.nr, p.nt, sorted, fp);
        if (lmmse)
            lmmse_filter<0>(h, p.nr, p.nt, p.n0, fp);
    }
    // cuda-mtt-fast at two streams: the second orientation (mimo_lord2.cuh).
    if (p.nt == 2 && a.s.algorithm == int(mimo::algorithm::mtt) && a.s.variant == MIMO_GPU_MTT_FAST)
        lord2::lord2_prepare(fp.r[0], fp.r[1], fp.r[max_ant + 1], p.bits_per_symbol,
                              lord2::lord2_of(fp));
    return rank;
}

// __launch_bounds__'s second argument (at least one block per SM) limits
// nothing here (the block is small); it moves ptxas from an occupancy-driven
// register target, which spilled on some architectures, to one without
// spills (docs/results/ptxas_default_architectures.md).
// One thread per channel slot of every frame (max_channels per frame; the
// slots beyond a frame's channels only clear their record).
__global__ void __launch_bounds__(prep_threads, 1) mimo_prepare_channels(prep_args a)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t f = t / a.b.max_channels;
    const int c = int(t - f * a.b.max_channels);
    if (f >= a.b.nframes)
        return;
    if (c == 0)
        a.b.vector_start[f] += a.b.block_sums[f / index_threads];
    frame_prep& fp = a.b.prep[t];
    fp.not_finite = 0;
    fp.valid = 0;
    const mimo::frame_params p = a.b.params[f];
    if (!frame_ok(p, a.b.frames[f], a.s) || c >= p.channels)
        return; // a bad frame: zeroed and marked by mimo_index_blocks
    const float2* h = reinterpret_cast<const float2*>(a.b.in + a.b.frames[f].in_offset +
                                                      uint64_t(c) * channel_in_bytes_dev(p));
    bool finite = true;
    for (int i = 0; i < p.nr * p.nt; i++)
        finite &= isfinite(h[i].x) && isfinite(h[i].y);
    if (!finite) {
        channel_not_finite(a.b, f, c, a.s);
        return;
    }
    // The rank comes from the QR for every algorithm (as on the CPU); lmmse
    // then overwrites qh with its filter.
    const int rank = prepare_channel(h, p, a, fp);
    fp.valid = 1;
    atomicMin(&a.b.results[f].rank, rank);
    if (rank < p.nt)
        atomicMax(&a.b.results[f].status, int32_t(mimo::STATUS_RANK_DEFICIENT));
}

// A channel whose vectors or priors held a NaN or an infinity (flagged by
// its vectors' threads): zeros, as on the CPU.
__global__ void __launch_bounds__(prep_threads) mimo_finish_channels(prep_args a)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t f = t / a.b.max_channels;
    if (f >= a.b.nframes || !a.b.prep[t].valid || !a.b.prep[t].not_finite)
        return;
    channel_not_finite(a.b, f, int(t - f * a.b.max_channels), a.s);
}

} // namespace

size_t mimo_cuda_scratch_bytes(size_t max_frames, int max_channels)
{
    // frame_prep per channel slot, vector_start (+1), the index's block sums
    return max_frames * size_t(max_channels) * sizeof(frame_prep) + (max_frames + 1) * sizeof(uint32_t) +
           (max_frames + index_threads - 1) / index_threads * sizeof(uint32_t);
}

void cuda_mimo_prepare(const batch_view& dev, size_t nframes, const mimo_gpu_settings& s,
                       void* stream)
{
    if (nframes == 0)
        return;
    const prep_args a{ batch_of(dev, nframes, s.max_channels), s };
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    const size_t slots = nframes * size_t(s.max_channels);
    const uint32_t nblocks = uint32_t((nframes + index_threads - 1) / index_threads);
    launch_checked(&mimo_index_blocks, "mimo_index_blocks", dim3(nblocks), index_threads, 0, st, a);
    launch_checked(&mimo_index_carry, "mimo_index_carry", dim3(1), index_threads, 0, st, a);
    launch_checked(&mimo_prepare_channels, "mimo_prepare_channels",
                   dim3(unsigned((slots + prep_threads - 1) / prep_threads)), prep_threads, 0, st, a);
}

void cuda_mimo_finish(const batch_view& dev, size_t nframes, const mimo_gpu_settings& s,
                      void* stream)
{
    if (nframes == 0)
        return;
    const prep_args a{ batch_of(dev, nframes, s.max_channels), s };
    const size_t slots = nframes * size_t(s.max_channels);
    launch_checked(&mimo_finish_channels, "mimo_finish_channels",
                   dim3(unsigned((slots + prep_threads - 1) / prep_threads)), prep_threads, 0,
                   static_cast<cudaStream_t>(stream), a);
}

} // namespace core
} // namespace gpurx
} // namespace gr
