/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Lin et al.'s tiled Viterbi decoder on the GPU, as the paper lays it out:
//   1. tile_tables: one thread block per (tile, frame), one thread per
//      trellis state; the tile is decoded from every start state in turn,
//      giving the table m[a][b] of best metrics from start a to end b;
//   2. merge: one block per frame folds the tiles' tables left to right
//      (D'[b] = max_s D[s] + m[s][b], remembering the best middle state s),
//      picks the end state, and walks the middle states back to the path's
//      state at every tile boundary;
//   3. traceback: one block per (tile, frame) decodes its tile again from the
//      known start state, keeping decisions, and traces back from the known
//      end state.
// Metrics are correlations (sum of +-L/2, larger is better), in float; ties
// keep the lower predecessor / middle / end / start state, as the CPU
// decoders do (viterbi_decoder.h). This is the faithful version, the
// reference for faster GPU layouts: it favours clarity over speed.
#include "cuda/launch.cuh"
#include "viterbi/cuda/viterbi_device.cuh"

#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr float unreachable = -3.0e38f;

struct frame_geometry {
    int steps, tiles;
};

__device__ __forceinline__ frame_geometry geometry_of(const viterbi_gpu_code& c, int frame_bits)
{
    const int steps = steps_of(c, frame_bits);
    return { steps, (steps + c.chunk - 1) / c.chunk };
}

struct scratch_layout {
    size_t tables, middles, boundaries, decisions, stride;
};

__host__ __device__ inline scratch_layout layout_of(const viterbi_gpu_code& c, int max_steps)
{
    const size_t tiles = size_t((max_steps + c.chunk - 1) / c.chunk);
    const size_t S = size_t(c.S);
    const bool tb = c.termination == 2;
    scratch_layout l;
    l.tables = 0;
    l.middles = l.tables + tiles * S * S * sizeof(float);
    l.boundaries = l.middles + tiles * S * (tb ? S : 1) * sizeof(uint16_t);
    l.decisions = (l.boundaries + (tiles + 1) * sizeof(int) + 15) & ~size_t(15);
    l.stride = (l.decisions + tiles * size_t(c.chunk) * S + 15) & ~size_t(15);
    return l;
}

struct tiled_args {
    viterbi_gpu_code code;
    const frame_desc* frames;
    const viterbi::frame_params* params;
    const uint8_t* in;
    uint8_t* out;
    viterbi::frame_result* results;
    uint8_t* scratch;
    scratch_layout lay;
    int nframes;
};

__device__ __forceinline__ bool frame_ok(const tiled_args& a, int f)
{
    return frame_input_ok(a.code, a.params[f], a.frames[f]);
}

// Runs the tile [t0, t1) from state `start`; leaves the end metrics in M and,
// with dec, each step's decisions (1: the odd predecessor won).
__device__ void tile_forward(const tiled_args& a, const uint8_t* in, int input, int t0, int t1, int start,
                             float* M, float* Mn, float* bm, uint8_t* dec)
{
    const viterbi_gpu_code& c = a.code;
    // Threads beyond the states (small K, large n) only help with the
    // branch metrics.
    const int s = threadIdx.x, top = c.K - 2, mask = c.S - 1;
    const bool state = s < c.S;
    if (state)
        M[s] = s == start ? 0.0f : unreachable;
    __syncthreads();
    for (int t = t0; t < t1; t++) {
        for (int o = s; o < (1 << c.n); o += blockDim.x) {
            float v = 0.0f; // the same order as the CPU: coded bit 0 first
            for (int i = 0; i < c.n; i++) {
                const float l = llr_of(c, in, input, t, i);
                v += ((o >> i) & 1) ? 0.5f * l : -0.5f * l;
            }
            bm[o] = v;
        }
        __syncthreads();
        if (state) {
            const int u = s >> top;
            const int p0 = (s << 1) & mask, p1 = p0 | 1;
            const float m0 = M[p0] + bm[c.outputs[2 * p0 + u]];
            const float m1 = M[p1] + bm[c.outputs[2 * p1 + u]];
            Mn[s] = m1 > m0 ? m1 : m0; // a tie keeps the lower predecessor
            if (dec)
                dec[size_t(t - t0) * c.S + s] = m1 > m0;
        }
        __syncthreads();
        float* x = M;
        M = Mn;
        Mn = x;
    }
    // The caller reads M: after an even or odd number of steps the result is
    // in one buffer or the other; copy it to the first.
    if (((t1 - t0) & 1) && state)
        Mn[s] = M[s];
    __syncthreads();
}

__global__ void tile_tables(tiled_args a)
{
    extern __shared__ float sm[];
    const int f = blockIdx.y, tile = blockIdx.x;
    if (!frame_ok(a, f))
        return;
    const viterbi::frame_params p = a.params[f];
    const frame_geometry g = geometry_of(a.code, p.frame_bits);
    if (tile >= g.tiles)
        return;
    const int S = a.code.S;
    float *M = sm, *Mn = sm + S, *bm = sm + 2 * S;
    const bool tb = a.code.termination == 2;
    const int t0 = tile * a.code.chunk, t1 = min(g.steps, t0 + a.code.chunk);
    const uint8_t* in = a.in + a.frames[f].in_offset;
    float* table = reinterpret_cast<float*>(a.scratch + size_t(f) * a.lay.stride + a.lay.tables) +
                   size_t(tile) * S * S;
    // The first tile of a frame that starts in state 0 needs that start only.
    const int starts = (tile == 0 && !tb) ? 1 : S;
    for (int start = 0; start < starts; start++) {
        tile_forward(a, in, p.input, t0, t1, start, M, Mn, bm, nullptr);
        if (int(threadIdx.x) < S)
            table[size_t(start) * S + threadIdx.x] = M[threadIdx.x];
        __syncthreads();
    }
}

__global__ void merge(tiled_args a)
{
    extern __shared__ float sm[];
    const int f = blockIdx.x, S = a.code.S, b = threadIdx.x;
    viterbi::frame_result* res = a.results + f;
    if (!frame_ok(a, f)) {
        for (uint32_t i = b; i < a.frames[f].out_bytes; i += blockDim.x)
            a.out[a.frames[f].out_offset + i] = 0;
        if (b == 0)
            *res = { 0.0f, 0, viterbi::FRAME_REJECTED };
        return;
    }
    const viterbi::frame_params p = a.params[f];
    const frame_geometry g = geometry_of(a.code, p.frame_bits);
    const bool tb = a.code.termination == 2;
    const int rows = tb ? S : 1;
    const bool state = b < S;
    uint8_t* base = a.scratch + size_t(f) * a.lay.stride;
    const float* tables = reinterpret_cast<const float*>(base + a.lay.tables);
    uint16_t* middles = reinterpret_cast<uint16_t*>(base + a.lay.middles);
    int* boundary = reinterpret_cast<int*>(base + a.lay.boundaries);
    // D: rows x S metrics in shared memory (rows = S when tail-biting).
    float* D = sm;
    float* Dn = sm + size_t(rows) * S;
    for (int r = 0; r < rows && state; r++)
        D[size_t(r) * S + b] = tables[size_t(r) * S + b];
    __syncthreads();
    for (int tile = 1; tile < g.tiles; tile++) {
        const float* m = tables + size_t(tile) * S * S;
        for (int r = 0; r < rows && state; r++) {
            float best = unreachable;
            int arg = 0;
            for (int s = 0; s < S; s++) {
                const float v = D[size_t(r) * S + s] + m[size_t(s) * S + b];
                if (v > best) { // a tie keeps the lower middle state
                    best = v;
                    arg = s;
                }
            }
            Dn[size_t(r) * S + b] = best;
            middles[(size_t(tile) * rows + r) * S + b] = uint16_t(arg);
        }
        __syncthreads();
        float* x = D;
        D = Dn;
        Dn = x;
    }
    if (b != 0)
        return;
    // End (and start) state, lower states winning ties; then the boundaries.
    int start = 0, end = 0;
    if (a.code.termination == 1) { // truncated
        for (int s = 1; s < S; s++)
            if (D[s] > D[end])
                end = s;
    } else if (tb) {
        for (int s = 1; s < S; s++)
            if (D[size_t(s) * S + s] > D[size_t(start) * S + start])
                start = s;
        end = start;
    }
    const int row = tb ? start : 0;
    boundary[g.tiles] = end;
    for (int tile = g.tiles - 1; tile >= 1; tile--)
        boundary[tile] = middles[(size_t(tile) * rows + row) * S + boundary[tile + 1]];
    boundary[0] = start;
    *res = { reported_metric(a.code, p, D[size_t(row) * S + end]), end, viterbi::FRAME_DECODED };
}

__global__ void traceback(tiled_args a)
{
    extern __shared__ float sm[];
    const int f = blockIdx.y, tile = blockIdx.x;
    if (!frame_ok(a, f))
        return;
    const viterbi::frame_params p = a.params[f];
    const frame_geometry g = geometry_of(a.code, p.frame_bits);
    if (tile >= g.tiles)
        return;
    const int S = a.code.S, top = a.code.K - 2, mask = S - 1;
    uint8_t* base = a.scratch + size_t(f) * a.lay.stride;
    const int* boundary = reinterpret_cast<const int*>(base + a.lay.boundaries);
    uint8_t* dec = base + a.lay.decisions + size_t(tile) * a.code.chunk * S;
    const int t0 = tile * a.code.chunk, t1 = min(g.steps, t0 + a.code.chunk);
    tile_forward(a, a.in + a.frames[f].in_offset, p.input, t0, t1,
                 boundary[tile], sm, sm + S, sm + 2 * S, dec);
    if (threadIdx.x != 0)
        return;
    uint8_t* bits = a.out + a.frames[f].out_offset;
    int s = boundary[tile + 1];
    for (int t = t1 - 1; t >= t0; t--) {
        if (t < p.frame_bits)
            bits[t] = uint8_t(s >> top);
        s = ((s << 1) & mask) | dec[size_t(t - t0) * S + s];
    }
}

} // namespace

size_t viterbi_tiled_scratch_bytes(const viterbi_gpu_code& code, int steps)
{
    return layout_of(code, steps).stride;
}

void cuda_viterbi_tiled(const batch_view& dev, const viterbi_gpu_code& code, int max_steps, void* stream)
{
    if (dev.nframes == 0)
        return;
    tiled_args a{ code,
                  dev.frames,
                  dev.params_as<viterbi::frame_params>(),
                  dev.in,
                  dev.out,
                  dev.results_as<viterbi::frame_result>(),
                  dev.scratch,
                  layout_of(code, max_steps),
                  int(dev.nframes) };
    const auto st = static_cast<cudaStream_t>(stream);
    const int tiles = (max_steps + code.chunk - 1) / code.chunk;
    const int threads = code.S > 16 ? code.S : 16; // >= 2^n for the branch metrics
    const size_t tile_smem = (2 * size_t(code.S) + 16) * sizeof(float);
    const dim3 grid(unsigned(tiles), unsigned(dev.nframes));
    const int rows = code.termination == 2 ? code.S : 1;
    launch_checked(&tile_tables, "viterbi tile_tables", grid, threads, tile_smem, st, a);
    launch_checked(&merge, "viterbi merge", int(dev.nframes), threads,
                   2 * size_t(rows) * code.S * sizeof(float), st, a);
    launch_checked(&traceback, "viterbi traceback", grid, threads, tile_smem, st, a);
}

} // namespace core
} // namespace gpurx
} // namespace gr
