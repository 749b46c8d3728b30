/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuda-mtt-fast at two streams: exact max-log ML as LORD computes it.
#include "mimo/cuda/mimo_trellis_common.cuh"
#include "mimo/cuda/mimo_lord2.cuh"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo_trellis_kernels {

using namespace mimo_gpu;

namespace {

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

} // namespace

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

} // namespace mimo_trellis_kernels
} // namespace core
} // namespace gpurx
} // namespace gr
