/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared channel's receive steps on the GPU, before and after the turbo
// decoder: the same integer arithmetic as the CPU's sch_steps.cc
// (sch_arith.h), laid out for many TBs and code blocks at once.
//
//  descramble  one warp per 32 words of a TB: the Gold registers' state at
//              the group from tables, each lane stepped to its word by a
//              small matrix; then the warp walks the 32 words, lane l taking
//              element l of each, so loads and stores are coalesced;
//              only the TBs descramble_in_dematch() leaves to it (uplink,
//              or a code block too long to hold on chip);
//  cb_setup    one block per TB: its first code block in launch order
//              (single-block TBs first), and its blocks' turbo frames;
//  dematch     one block per code block: the rank of every circular-buffer
//              position (the non-<NULL> positions before it, in closed form:
//              circular_layout) tells which received bits land on it, e =
//              rank - rank(k0) modulo the non-<NULL> count, every lap of
//              repetition; each thread sums its positions' copies (a
//              gather: no atomics, so the sum is exact as on the CPU),
//              combines with the soft buffer and writes the decoder's int8
//              input; on the downlink the block descrambles its E LLRs
//              itself as it loads them (the descramble kernel's Gold words
//              for the range [at, at + E)), so the TB's LLRs are not
//              written out and read back;
//  assemble    one block per code block: its 0/1 bytes packed once into a
//              bit array in shared memory (16-byte loads); CRCs
//              word-parallel from it (each word times x^(32m+24) mod g from
//              a table, XOR-reduced; both CRCs' words in one pass);
//              the TB's CRC24A as the sum of its code blocks' shares (their
//              data's CRC times x^(bits after it)); the data bits copied to
//              the TB's output; then one thread per TB joins the results;
//  extrinsic   (extrinsic_output) two passes over each TB's output: one
//              block per code block walks its codeword positions as the
//              closed-form dematching does and writes, at each received
//              bit's place j, which code block and position it came from;
//              then a warp per 1024 bits (the descramble kernel's Gold
//              words) turns each into coded[c] + (dec[c] - rx[j]) / 8,
//              negated where scrambled (sch_steps.cc extrinsic()).
#include "cuda/cuda_check.h"
#include "cuda/launch.cuh"
#include "common/llr_int8.h"
#include "sch/cuda/sch_launch.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"
#include "turbo/lte_crc.h"
#include "turbo/turbo_config.h"
#include "turbo/turbo_frame.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

namespace {

// A 31x31 GF(2) matrix (31 columns) applied to a state.
__device__ __forceinline__ uint32_t gf2_apply_d(const uint32_t* columns, uint32_t s)
{
    uint32_t y = 0;
#pragma unroll
    for (int j = 0; j < 31; j++)
        y ^= (0u - ((s >> j) & 1u)) & columns[j];
    return y;
}

constexpr int DESCRAMBLE_THREADS = 256;

// Scrambling word 32 group + lane (c(32w) .. c(32w+31), w that word) of
// the sequence of c_init, for every lane of a warp (all 32 call it): x2's
// state at the 1024-bit group's start is its matrix on c_init, a column
// per lane XOR-reduced across the warp; each lane then steps to its own
// word with its lane matrix (shared memory, conflict-free: the stride 31
// is odd). x1's state at the word is a table (the same lane-matrix step,
// done once on the host).
__device__ __forceinline__ uint32_t gold_group_word(const device_tables& t, const uint32_t* lane_x2,
                                                    uint32_t c_init, int group, int lane)
{
    uint32_t x2 = lane < 31 && ((c_init >> lane) & 1u) ? t.x2_group[group * 31 + lane] : 0u;
    for (int o = 16; o > 0; o >>= 1)
        x2 ^= __shfl_xor_sync(0xFFFFFFFFu, x2, o);
    return gold_word(t.x1_word[group * 32 + lane], gf2_apply_d(&lane_x2[lane * 31], x2));
}

// Received LLR j as int8 (clamped to -127, or quantized from float),
// negated where scrambling bit \p lane of word \p c is set.
__device__ __forceinline__ int8_t descrambled_llr(const uint8_t* in, bool int8_in, int j, uint32_t c, int lane)
{
    int v;
    if (int8_in) {
        v = reinterpret_cast<const int8_t*>(in)[j];
        v = v < -127 ? -127 : v;
    } else {
        v = quantize_llr(reinterpret_cast<const float*>(in)[j], int8_llr_steps, int8_llr_max);
    }
    return int8_t(((c >> lane) & 1u) ? -v : v);
}

// grid: (groups of 8 warps, TB). A warp takes 32 words (1024 LLRs): x2's
// state at the group's start is its matrix on c_init, a column per lane
// XOR-reduced across the warp; each lane then steps to its own word with
// its lane matrix (shared memory, conflict-free: the stride 31 is odd).
__global__ void __launch_bounds__(DESCRAMBLE_THREADS) descramble_kernel(receive_args a)
{
    __shared__ uint32_t lane_x2[32 * 31];
    const int f = blockIdx.y;
    if (descramble_in_dematch(a.tbs[f]))
        return; // the dematching descrambles it (the whole block returns)
    for (int k = threadIdx.x; k < 32 * 31; k += blockDim.x)
        lane_x2[k] = a.tables.lane_x2[k];
    __syncthreads();
    const int G = a.tbs[f].G;
    const uint32_t c_init = a.tbs[f].c_init & 0x7FFFFFFFu;
    const bool int8_in = a.tbs[f].input == turbo::INPUT_INT8;
    const int lane = threadIdx.x & 31;
    const int group = blockIdx.x * (DESCRAMBLE_THREADS / 32) + int(threadIdx.x / 32);
    if (group * 1024 >= G)
        return;
    const uint32_t mine = gold_group_word(a.tables, lane_x2, c_init, group, lane);
    const uint8_t* in = a.in + a.frames[f].in_offset;
    int8_t* out = reinterpret_cast<int8_t*>(a.scratch + a.layout.descrambled_of(size_t(f)));
    for (int i = 0; i < 32; i++) {
        const uint32_t c = __shfl_sync(0xFFFFFFFFu, mine, i);
        const int j = group * 1024 + i * 32 + lane;
        if (j < G)
            out[j] = descrambled_llr(in, int8_in, j, c, lane);
    }
}

constexpr int SETUP_THREADS = 128;

// One block per TB: its first code block in launch order (TBs of one block
// first, then the others) is the count of the same group's blocks before
// it, summed by the block; then a thread per code block writes its turbo
// frame.
__global__ void __launch_bounds__(SETUP_THREADS) cb_setup_kernel(receive_args a)
{
    __shared__ int partial[SETUP_THREADS / 32];
    const int f = blockIdx.x;
    const frame_params& p = a.tbs[f];
    const int C = p.C;
    const bool single = C == 1;
    int before = 0;
    for (int g = threadIdx.x; g < f; g += blockDim.x) {
        const int Cg = a.tbs[g].C;
        before += single ? (Cg == 1 ? 1 : 0) : (Cg > 1 ? Cg : 0);
    }
    for (int o = 16; o > 0; o >>= 1)
        before += __shfl_xor_sync(0xFFFFFFFFu, before, o);
    if ((threadIdx.x & 31) == 0)
        partial[threadIdx.x / 32] = before;
    __syncthreads();
    int first = single ? 0 : a.single;
    for (int w = 0; w < SETUP_THREADS / 32; w++)
        first += partial[w];
    auto* desc = reinterpret_cast<frame_desc*>(a.scratch + a.layout.cb_desc);
    auto* tp = reinterpret_cast<turbo::frame_params*>(a.scratch + a.layout.cb_params);
    auto* entries = reinterpret_cast<cb_entry*>(a.scratch + a.layout.cb_entries);
    if (threadIdx.x == 0) {
        reinterpret_cast<int32_t*>(a.scratch + a.layout.tb_first)[f] = first;
        reinterpret_cast<uint32_t*>(a.scratch + a.layout.tb_crc)[f] = 0;
    }
    for (int r = threadIdx.x; r < C; r += blockDim.x) {
        const int i = first + r;
        const int K = cb_K(p, r);
        entries[i] = { f, r };
        desc[i] = { uint64_t(i) * CB_IN_STRIDE, uint64_t(i) * a.layout.cb_out_stride, uint32_t(3 * K + 12), uint32_t(K) };
        tp[i] = { K, r < p.Cm ? p.fm1 : p.fp1, r < p.Cm ? p.fm2 : p.fp2, int32_t(turbo::INPUT_INT8) };
    }
}

constexpr int DEMATCH_THREADS = 256;

// What a block working on code block blockIdx.x needs; its E LLRs are
// copied to shared memory first, in codeword order (coalesced loads; the
// uplink's deinterleaving done once), when they fit (\p held bytes): the
// gather's reads, a column apart, then stay on chip. Every thread of the
// block calls it (it synchronises the block).
struct cb_work {
    const frame_params* p;
    int tb, r, K, E, at;
    const int8_t* rx; //!< the TB's descrambled LLRs
    int8_t* dec;      //!< the turbo decoder's input
    int16_t* soft;    //!< the soft buffer, or nullptr
    bool ul, on_chip;
};
__device__ cb_work begin_code_block(const receive_args& a, int held, int8_t* rx_held)
{
    const int i = blockIdx.x;
    const cb_entry e = reinterpret_cast<const cb_entry*>(a.scratch + a.layout.cb_entries)[i];
    cb_work w;
    w.p = &a.tbs[e.tb];
    const frame_params& p = *w.p;
    w.tb = e.tb;
    w.r = e.r;
    w.K = cb_K(p, e.r);
    w.E = cb_E(p, e.r);
    w.at = cb_offset(p, e.r);
    w.rx = reinterpret_cast<const int8_t*>(a.scratch + a.layout.descrambled_of(size_t(e.tb)));
    w.dec = reinterpret_cast<int8_t*>(a.scratch + a.layout.cb_in + size_t(i) * CB_IN_STRIDE);
    w.soft = p.harq_slot >= 0 ? a.soft + size_t(p.harq_slot) * a.soft_llrs + size_t(e.r) * MAX_CB_LLRS : nullptr;
    w.ul = p.channel == ULSCH;
    w.on_chip = w.E <= held;
    if (descramble_in_dematch(p)) {
        // The descrambling of [at, at + E) here (on_chip holds: held is
        // min(max_E, MAX_HELD_LLRS)), the descramble kernel's arithmetic: a
        // warp per 1024-bit group the range meets. Saves writing the TB's
        // LLRs out and reading them back.
        __shared__ uint32_t lane_x2[32 * 31];
        for (int k = threadIdx.x; k < 32 * 31; k += blockDim.x)
            lane_x2[k] = a.tables.lane_x2[k];
        __syncthreads();
        const uint32_t c_init = p.c_init & 0x7FFFFFFFu;
        const bool int8_in = p.input == turbo::INPUT_INT8;
        const uint8_t* in = a.in + a.frames[e.tb].in_offset;
        const bool in_aligned = (reinterpret_cast<uintptr_t>(in) & 3u) == 0;
        const int lane = threadIdx.x & 31;
        const int at = w.at, end = w.at + w.E;
        for (int group = (at >> 10) + int(threadIdx.x / 32); group <= ((end - 1) >> 10);
             group += int(blockDim.x / 32)) {
            const uint32_t mine = gold_group_word(a.tables, lane_x2, c_init, group, lane);
            // Four LLRs a lane per step (int8: one 4-byte load, 128 bytes
            // a warp), their scrambling bits at the bottom of c.
            for (int i = 0; i < 8; i++) {
                const uint32_t c = __shfl_sync(0xFFFFFFFFu, mine, 4 * i + (lane >> 3)) >> (4 * (lane & 7));
                const int j0 = group * 1024 + i * 128 + 4 * lane;
                if (j0 + 4 <= at || j0 >= end)
                    continue;
                if (int8_in && in_aligned && j0 >= at && j0 + 4 <= end) {
                    const char4 v = *reinterpret_cast<const char4*>(in + j0);
                    const int vs[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
                    for (int b = 0; b < 4; b++) {
                        const int x = vs[b] < -127 ? -127 : vs[b];
                        rx_held[j0 + b - at] = int8_t(((c >> b) & 1u) ? -x : x);
                    }
                } else {
                    for (int b = 0; b < 4; b++)
                        if (j0 + b >= at && j0 + b < end)
                            rx_held[j0 + b - at] = descrambled_llr(in, int8_in, j0 + b, c, b);
                }
            }
        }
    } else if (w.on_chip) {
        for (int k = threadIdx.x; k < w.E; k += blockDim.x)
            rx_held[k] = w.rx[w.ul ? transmitted_index(p, w.at + k) : w.at + k];
    }
    __syncthreads();
    return w;
}

// The block's non-zero decoder inputs (each thread's \p count), summed into
// its code block's cb_nonzero for cb_informed(). Every thread calls it;
// \p s_sum is zero and a barrier has passed since it was set.
__device__ void store_nonzero(const receive_args& a, int count, int* s_sum)
{
    for (int o = 16; o > 0; o >>= 1)
        count += __shfl_xor_sync(0xFFFFFFFFu, count, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(s_sum, count);
    __syncthreads();
    if (threadIdx.x == 0)
        reinterpret_cast<int32_t*>(a.scratch + a.layout.cb_nonzero)[blockIdx.x] = *s_sum;
}

// Dematching from the closed form (what runs when the gather-table space is
// full): a thread per trellis step.
__global__ void __launch_bounds__(DEMATCH_THREADS) dematch_kernel(receive_args a, int held)
{
    extern __shared__ int8_t rx_held[];
    __shared__ circular_layout L;
    __shared__ int s_n, s_rank_k0, s_nonzero;
    const cb_work w = begin_code_block(a, held, rx_held);
    const frame_params& p = *w.p;
    const int r = w.r, K = w.K, E = w.E, at = w.at;
    const int F = cb_filler(p, r), ncb = cb_ncb(p, r), k0 = cb_k0(p, r);
    const int8_t* rx = w.rx;
    int8_t* dec = w.dec;
    int16_t* soft = w.soft;
    const bool ul = w.ul, on_chip = w.on_chip;
    if (threadIdx.x == 0) {
        L.init(K, F);
        s_n = L.rank(ncb);
        s_rank_k0 = L.rank(k0);
        s_nonzero = 0;
    }
    __syncthreads();
    const int n = s_n, rank_k0 = s_rank_k0;
    int nonzero = 0;
    // A thread per trellis step d: its three codeword bits 3d+i, written
    // side by side (coalesced); each bit's place in its stream's interleaver
    // from y = d + N_D by the column permutation (its own inverse) and
    // shifts, no division.
    const int K4 = K + 4;
    for (int d = threadIdx.x; d < K4; d += blockDim.x) {
        const int y = d + L.ND;
        for (int s = 0; s < 3; s++) {
            const int c = 3 * d + s;
            if (s < 2 && d < F) { // a filler bit: a certain zero
                if (soft && !p.combine)
                    soft[c] = 0;
                dec[c] = CERTAIN_ZERO;
                continue;
            }
            // Stream 2 is read one place on: P(col) + 32 row = y - 1 mod K_Pi.
            const int z = s < 2 ? y : (y == 0 ? L.Kpi : y) - 1;
            const int col = column_permutation(z & (SUBBLOCK_COLUMNS - 1)), row = z / SUBBLOCK_COLUMNS;
            int32_t sum = 0;
            if (L.position(s, col, row) < ncb && n > 0) {
                // The received bits e with e = rank - rank(k0) mod n, every lap.
                int k = L.rank_at(s, col, row) - rank_k0;
                if (k < 0)
                    k += n;
                if (on_chip)
                    for (; k < E; k += n)
                        sum += rx_held[k];
                else
                    for (; k < E; k += n)
                        sum += rx[ul ? transmitted_index(p, at + k) : at + k];
            }
            const int16_t v = soft && p.combine ? saturate16(int32_t(soft[c]) + sum) : saturate16(sum);
            if (soft)
                soft[c] = v;
            dec[c] = saturate8(v);
            nonzero += v != 0;
        }
        nonzero += d < F ? 2 : 0; // the filler's certain zeros
    }
    store_nonzero(a, nonzero, &s_nonzero);
}

// One block per new shape: each codeword position's first received index,
// from the closed-form ranks (the dematching of the others is then a table
// walk).
__global__ void __launch_bounds__(DEMATCH_THREADS) build_shapes_kernel(shape_tables t, shape_builds b)
{
    __shared__ circular_layout L;
    __shared__ int s_n, s_rank_k0;
    const shape_key key = b.key[blockIdx.x];
    int16_t* first = t.first + size_t(b.slot[blockIdx.x]) * SHAPE_STRIDE;
    if (threadIdx.x == 0) {
        L.init(key.K, key.F);
        s_n = L.rank(key.ncb);
        s_rank_k0 = L.rank(key.k0);
        t.n[b.slot[blockIdx.x]] = s_n;
    }
    __syncthreads();
    const int n = s_n, rank_k0 = s_rank_k0;
    for (int d = threadIdx.x; d < key.K + 4; d += blockDim.x) {
        const int y = d + L.ND;
        for (int s = 0; s < 3; s++) {
            const int c = 3 * d + s;
            if (s < 2 && d < key.F) {
                first[c] = SHAPE_FILLER;
                continue;
            }
            const int z = s < 2 ? y : (y == 0 ? L.Kpi : y) - 1;
            const int col = column_permutation(z & (SUBBLOCK_COLUMNS - 1)), row = z / SUBBLOCK_COLUMNS;
            int16_t e = SHAPE_UNSENT;
            if (L.position(s, col, row) < key.ncb && n > 0) {
                int k = L.rank_at(s, col, row) - rank_k0;
                e = int16_t(k < 0 ? k + n : k);
            }
            first[c] = e;
        }
    }
}

// The table walk: a thread per four codeword positions.
__global__ void __launch_bounds__(DEMATCH_THREADS) dematch_table_kernel(receive_args a, int held)
{
    extern __shared__ int8_t rx_held[];
    __shared__ int s_nonzero;
    if (threadIdx.x == 0)
        s_nonzero = 0;
    __syncthreads();
    const cb_work w = begin_code_block(a, held, rx_held);
    const frame_params& p = *w.p;
    const int r = w.r, K = w.K, E = w.E, at = w.at;
    int nonzero = 0;
    const int32_t* slots = a.tb_shapes + 3 * w.tb;
    const int slot = r == 0 ? slots[0] : (r < p.Cm ? slots[1] : slots[2]);
    const int16_t* first = a.shapes.first + size_t(slot) * SHAPE_STRIDE;
    const int n = a.shapes.n[slot];
    const int8_t* rx = w.rx;
    int8_t* dec = w.dec;
    int16_t* soft = w.soft;
    const bool ul = w.ul, on_chip = w.on_chip;
    // Four positions per thread and step (3K+12 is a multiple of 4; the
    // tables, inputs and soft buffers are 8-byte aligned): independent loads
    // in flight, vector loads and stores.
    const int L4 = (3 * K + 12) / 4;
    for (int q = threadIdx.x; q < L4; q += blockDim.x) {
        const short4 k4 = reinterpret_cast<const short4*>(first)[q];
        const int ks[4] = { k4.x, k4.y, k4.z, k4.w };
        short4 old = make_short4(0, 0, 0, 0);
        if (soft && p.combine)
            old = reinterpret_cast<const short4*>(soft)[q];
        const int olds[4] = { old.x, old.y, old.z, old.w };
        int16_t v[4];
        int8_t out[4];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int k = ks[j];
            if (k == SHAPE_FILLER) {
                v[j] = int16_t(olds[j]); // kept when combining, 0 afresh (as the CPU)
                out[j] = CERTAIN_ZERO;
                continue;
            }
            int32_t sum = 0;
            if (on_chip)
                for (; k >= 0 && k < E; k += n)
                    sum += rx_held[k];
            else
                for (; k >= 0 && k < E; k += n)
                    sum += rx[ul ? transmitted_index(p, at + k) : at + k];
            v[j] = saturate16(olds[j] + sum);
            out[j] = saturate8(v[j]);
        }
#pragma unroll
        for (int j = 0; j < 4; j++)
            nonzero += out[j] != 0;
        if (soft)
            reinterpret_cast<short4*>(soft)[q] = make_short4(v[0], v[1], v[2], v[3]);
        reinterpret_cast<char4*>(dec)[q] = make_char4(out[0], out[1], out[2], out[3]);
    }
    store_nonzero(a, nonzero, &s_nonzero);
}

constexpr int ASSEMBLE_THREADS = 256;
constexpr int CB_BIT_WORDS = 6144 / 32; //!< a code block's bits, packed

//! (w * t) mod g over GF(2) for a 32-bit w and 24-bit t: the same value as
//! crc24_mulmod(crc24_word_mod(w, g), t, g) (both are w t mod g), in one
//! 32-step Horner loop instead of two loops of 32 and 24 steps.
__device__ __forceinline__ uint32_t crc24_mulmod32(uint32_t w, uint32_t t, uint32_t g)
{
    uint32_t r = 0;
#pragma unroll
    for (int i = 31; i >= 0; i--) {
        r = ((r << 1) & 0xFFFFFFu) ^ (g & (0u - ((r >> 23) & 1u)));
        r ^= t & (0u - ((w >> i) & 1u));
    }
    return r;
}

//! 32 bits of the packed array from bit \p s on, LSB-first (bit b is bit s+b).
__device__ __forceinline__ uint32_t bits_at(const uint32_t* bits, int s)
{
    return __funnelshift_r(bits[s >> 5], bits[(s >> 5) + 1], uint32_t(s) & 31u);
}

//! The 0/1 byte's bit 0 of each of a word's 4 bytes, as 4 bits (byte j to bit j).
__device__ __forceinline__ uint32_t pack4(uint32_t x)
{
    x &= 0x01010101u;
    return (x | (x >> 7) | (x >> 14) | (x >> 21)) & 0xFu;
}
//! The inverse: 4 bits to 4 bytes of 0/1.
__device__ __forceinline__ uint32_t unpack4(uint32_t b)
{
    return (b & 1u) | ((b & 2u) << 7) | ((b & 4u) << 14) | ((b & 8u) << 21);
}

// x^L mod g from x^(32q) (table) and L mod 32 more steps.
__device__ uint32_t crc24_xpow(int L, uint32_t g, const uint32_t* pow32)
{
    uint32_t r = 1;
    for (int i = 0; i < (L & 31); i++)
        r = ((r << 1) & 0xFFFFFFu) ^ ((r & 0x800000u) ? g : 0u);
    return crc24_mulmod(r, pow32[L >> 5], g);
}

// One block per code block: its own CRC (CRC24B, or CRC24A for a TB of one
// block); its data bits' share of the TB's CRC24A (the CRC is linear: the
// segment's CRC times x^(bits after it)), XORed into the TB's accumulator;
// and its data bits copied into the TB's output.
//
// The decoder's 0/1 bytes are read once, 16 at a time, and packed into a
// bit array in shared memory (bit 32 + k is byte k, bits 0..31 zero: a
// CRC's leading zeros then need no test); every 32-bit word of either CRC
// is then a funnel shift of two array words, whatever its alignment (block
// 0's data start at F), and the output bytes are expanded from the array
// and written 16 at a time. Each CRC word is w times x^(32m+24) mod g
// (table), XOR-reduced: both CRCs' words are spread over the block's
// threads together, and reduced together.
__global__ void __launch_bounds__(ASSEMBLE_THREADS) assemble_kernel(receive_args a)
{
    __shared__ uint32_t bits[CB_BIT_WORDS + 4];
    __shared__ uint32_t partial[ASSEMBLE_THREADS / 32][2];
    const int i = blockIdx.x;
    const cb_entry e = reinterpret_cast<const cb_entry*>(a.scratch + a.layout.cb_entries)[i];
    const frame_params& p = a.tbs[e.tb];
    const int r = e.r, K = cb_K(p, r), F = cb_filler(p, r);
    const int L = p.C > 1 ? 24 : 0;
    const uint8_t* c = a.scratch + a.layout.cb_out + size_t(i) * a.layout.cb_out_stride;

    // Pack: chunk j (bytes 16j..16j+15) is half-word 2 + j of the array;
    // chunks past K (zeros) fill it to the last word a funnel shift reads.
    const int W = (K + 31) / 32;
    const int chunks = 2 * (W + 1);
    const bool c_aligned = (reinterpret_cast<uintptr_t>(c) & 15u) == 0;
    auto* half = reinterpret_cast<uint16_t*>(bits);
    if (threadIdx.x == 0)
        bits[0] = 0;
    for (int j = threadIdx.x; j < chunks; j += blockDim.x) {
        const int k0 = 16 * j;
        uint32_t h = 0;
        if (k0 + 16 <= K && c_aligned) {
            const uint4 v = *reinterpret_cast<const uint4*>(c + k0);
            h = pack4(v.x) | (pack4(v.y) << 4) | (pack4(v.z) << 8) | (pack4(v.w) << 12);
        } else {
            for (int b = 0; b < 16 && k0 + b < K; b++)
                h |= uint32_t(c[k0 + b] & 1u) << b;
        }
        half[2 + j] = uint16_t(h);
    }
    __syncthreads();

    // CRC words: items [0, W) the block's own CRC over bits [0, K), items
    // [W, W + Ws) the data segment's over [F, F + D), each word m of n bits
    // starting at bit 32m - pad (pad = 32 W - n leading zeros).
    const int D = K - L - F; // data bits
    const int Ws = (D + 31) / 32;
    const int pad = 32 * W - K, pad_s = 32 * Ws - D;
    const uint32_t g_cb = L ? crc24b_poly : crc24a_poly;
    const uint32_t* t_cb = L ? a.tables.crc_b : a.tables.crc_a;
    uint32_t acc_cb = 0, acc_seg = 0;
    for (int m = threadIdx.x; m < W + Ws; m += blockDim.x) {
        if (m < W) {
            // Bits before 0 are the array's zero word.
            const uint32_t v = bits_at(bits, 32 + 32 * m - pad);
            acc_cb ^= crc24_mulmod32(__brev(v), t_cb[W - 1 - m], g_cb);
        } else {
            const int ms = m - W;
            uint32_t v = bits_at(bits, 32 + F + 32 * ms - pad_s);
            if (ms == 0)
                v &= ~0u << pad_s; // the filler bits before F count as zeros
            acc_seg ^= crc24_mulmod32(__brev(v), a.tables.crc_a[Ws - 1 - ms], crc24a_poly);
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        acc_cb ^= __shfl_xor_sync(0xFFFFFFFFu, acc_cb, o);
        acc_seg ^= __shfl_xor_sync(0xFFFFFFFFu, acc_seg, o);
    }
    if ((threadIdx.x & 31) == 0) {
        partial[threadIdx.x / 32][0] = acc_cb;
        partial[threadIdx.x / 32][1] = acc_seg;
    }

    // The data bits into the TB's output: 16-byte stores on 16-byte
    // boundaries, the bytes before the first and after the last one apart.
    const int S = r == 0 ? 0 : cb_bit_offset(p, r) - r * L - p.F; // where they start in the TB
    const int n = min(D, p.tbs - S);
    uint8_t* out = a.out + a.frames[e.tb].out_offset + S;
    const int head = min(n, int((16u - (reinterpret_cast<uintptr_t>(out) & 15u)) & 15u));
    const int body = (n - head) / 16;
    const int tail_at = head + 16 * body;
    for (int q = threadIdx.x; q < body; q += blockDim.x) {
        const uint32_t b = bits_at(bits, 32 + F + head + 16 * q);
        *reinterpret_cast<uint4*>(out + head + 16 * q) =
            make_uint4(unpack4(b), unpack4(b >> 4), unpack4(b >> 8), unpack4(b >> 12));
    }
    for (int k = threadIdx.x; k < head + (n - tail_at); k += blockDim.x) {
        const int at = k < head ? k : tail_at + (k - head);
        out[at] = uint8_t((bits[(32 + F + at) >> 5] >> ((32 + F + at) & 31)) & 1u);
    }

    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t cb = 0, seg = 0;
        for (int w = 0; w < ASSEMBLE_THREADS / 32; w++) {
            cb ^= partial[w][0];
            seg ^= partial[w][1];
        }
        const int B = p.tbs + 24;
        reinterpret_cast<int32_t*>(a.scratch + a.layout.cb_ok)[i] = cb == 0;
        if (seg)
            atomicXor(reinterpret_cast<uint32_t*>(a.scratch + a.layout.tb_crc) + e.tb,
                      crc24_mulmod(seg, crc24_xpow(B - S - D, crc24a_poly, a.tables.pow32_a), crc24a_poly));
    }
}

// One thread per TB: its results from its code blocks'.
__global__ void finish_kernel(receive_args a)
{
    const int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= a.ntb)
        return;
    const frame_params& p = a.tbs[f];
    const int first = reinterpret_cast<const int32_t*>(a.scratch + a.layout.tb_first)[f];
    const auto* tres = reinterpret_cast<const turbo::frame_result*>(a.scratch + a.layout.cb_results);
    const auto* ok = reinterpret_cast<const int32_t*>(a.scratch + a.layout.cb_ok);
    uint64_t cb_crc = 0;
    int iterations = 0;
    for (int r = 0; r < p.C; r++) {
        cb_crc |= uint64_t(ok[first + r] ? 1 : 0) << r;
        iterations = max(iterations, tres[first + r].iterations);
    }
    const uint32_t tb = reinterpret_cast<const uint32_t*>(a.scratch + a.layout.tb_crc)[f];
    const int uninformed = tb_uninformed(p, reinterpret_cast<const int32_t*>(a.scratch + a.layout.cb_nonzero) + first);
    a.results[f] = { tb == 0 && uninformed == 0 ? 1 : 0, iterations, p.C, uninformed, cb_crc };
}

// Extrinsic output, pass 1: a block per code block; each received bit's
// place j in the TB's output gets (as int32) the code block's launch
// position i and its codeword position c, i * MAX_CB_LLRS + c. Every j < G
// belongs to exactly one code block and copy, so the writes never collide.
__global__ void __launch_bounds__(DEMATCH_THREADS) extrinsic_index_kernel(receive_args a)
{
    __shared__ circular_layout L;
    __shared__ int s_n, s_rank_k0;
    const int i = blockIdx.x;
    const cb_entry en = reinterpret_cast<const cb_entry*>(a.scratch + a.layout.cb_entries)[i];
    const frame_params& p = a.tbs[en.tb];
    const int r = en.r, K = cb_K(p, r), E = cb_E(p, r), at = cb_offset(p, r);
    const int F = cb_filler(p, r), ncb = cb_ncb(p, r), k0 = cb_k0(p, r);
    auto* out = reinterpret_cast<uint32_t*>(a.out + a.frames[en.tb].out_offset + extrinsic_offset(p.tbs));
    if (threadIdx.x == 0) {
        L.init(K, F);
        s_n = L.rank(ncb);
        s_rank_k0 = L.rank(k0);
    }
    __syncthreads();
    const int n = s_n, rank_k0 = s_rank_k0;
    for (int d = threadIdx.x; d < K + 4; d += blockDim.x) {
        const int y = d + L.ND;
        for (int s = 0; s < 3; s++) {
            if (s < 2 && d < F)
                continue; // filler bits are never sent
            const int z = s < 2 ? y : (y == 0 ? L.Kpi : y) - 1;
            const int col = column_permutation(z & (SUBBLOCK_COLUMNS - 1)), row = z / SUBBLOCK_COLUMNS;
            if (L.position(s, col, row) >= ncb || n == 0)
                continue;
            int k = L.rank_at(s, col, row) - rank_k0;
            if (k < 0)
                k += n;
            for (; k < E; k += n)
                out[transmitted_index(p, at + k)] = uint32_t(i) * uint32_t(MAX_CB_LLRS) + uint32_t(3 * d + s);
        }
    }
}

// Extrinsic output, pass 2: grid (groups of 8 warps, TB), a warp per 1024
// bits as in descramble_kernel.
__global__ void __launch_bounds__(DESCRAMBLE_THREADS) extrinsic_value_kernel(receive_args a)
{
    __shared__ uint32_t lane_x2[32 * 31];
    const int f = blockIdx.y;
    for (int k = threadIdx.x; k < 32 * 31; k += blockDim.x)
        lane_x2[k] = a.tables.lane_x2[k];
    __syncthreads();
    const frame_params& p = a.tbs[f];
    const int G = p.G;
    const int lane = threadIdx.x & 31;
    const int group = blockIdx.x * (DESCRAMBLE_THREADS / 32) + int(threadIdx.x / 32);
    if (group * 1024 >= G)
        return;
    const uint32_t mine = gold_group_word(a.tables, lane_x2, p.c_init & 0x7FFFFFFFu, group, lane);
    const uint8_t* in = a.in + a.frames[f].in_offset;
    const bool int8_in = p.input == turbo::INPUT_INT8;
    float* out = reinterpret_cast<float*>(a.out + a.frames[f].out_offset + extrinsic_offset(p.tbs));
    const auto* tp = reinterpret_cast<const turbo::frame_params*>(a.scratch + a.layout.cb_params);
    const float unit = 1.0f / int8_llr_steps;
    for (int w = 0; w < 32; w++) {
        const uint32_t c = __shfl_sync(0xFFFFFFFFu, mine, w);
        const int j = group * 1024 + w * 32 + lane;
        if (j >= G)
            continue;
        const uint32_t at = reinterpret_cast<const uint32_t*>(out)[j];
        const uint32_t i = at / uint32_t(MAX_CB_LLRS), pos = at % uint32_t(MAX_CB_LLRS);
        const float* coded = reinterpret_cast<const float*>(a.scratch + a.layout.cb_out + size_t(i) * a.layout.cb_out_stride +
                                                            turbo_coded_offset(tp[i].K, false));
        const int8_t dec = reinterpret_cast<const int8_t*>(a.scratch + a.layout.cb_in + size_t(i) * CB_IN_STRIDE)[pos];
        const int8_t rx = descrambled_llr(in, int8_in, j, c, lane);
        const float v = coded[pos] * a.extrinsic_scale + (float(dec) * unit - float(rx) * unit);
        out[j] = ((c >> lane) & 1u) ? -v : v;
    }
}

// x^(32m + shift) mod g for m < n, on the host.
std::vector<uint32_t> crc_powers(uint32_t g, int n, int shift)
{
    std::vector<uint32_t> t(static_cast<size_t>(n));
    uint32_t r = 1; // x^0
    auto times_x = [g](uint32_t v) { return ((v << 1) & 0xFFFFFFu) ^ ((v & 0x800000u) ? g : 0u); };
    for (int i = 0; i < shift; i++)
        r = times_x(r);
    for (int m = 0; m < n; m++) {
        t[size_t(m)] = r;
        for (int i = 0; i < 32; i++)
            r = times_x(r);
    }
    return t;
}

} // namespace

void launch_build_shapes(const shape_tables& t, const shape_builds& b, void* stream)
{
    if (b.count == 0)
        return;
    auto fn = &build_shapes_kernel;
    fn<<<b.count, DEMATCH_THREADS, 0, static_cast<cudaStream_t>(stream)>>>(t, b);
    check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__, "sch shape tables");
}

size_t table_words(int crc_words)
{
    const auto& g = gold_warp();
    return 3 * size_t(crc_words) + g.x1_group.size() + g.x2_group.size() + g.lane_x1.size() + g.lane_x2.size() +
           32 * g.x1_group.size();
}

device_tables upload_tables(uint32_t* words, int crc_words)
{
    const auto& g = gold_warp();
    std::vector<uint32_t> all;
    auto put = [&](const std::vector<uint32_t>& v) {
        const size_t at = all.size();
        all.insert(all.end(), v.begin(), v.end());
        return words + at;
    };
    device_tables t{};
    t.crc_a = put(crc_powers(crc24a_poly, crc_words, 24));
    t.crc_b = put(crc_powers(crc24b_poly, crc_words, 24));
    t.pow32_a = put(crc_powers(crc24a_poly, crc_words, 0));
    t.crc_words = crc_words;
    t.x1_group = put(g.x1_group);
    t.x2_group = put(g.x2_group);
    t.lane_x1 = put(g.lane_x1);
    t.lane_x2 = put(g.lane_x2);
    std::vector<uint32_t> x1_word(32 * g.x1_group.size());
    for (size_t grp = 0; grp < g.x1_group.size(); grp++)
        for (size_t l = 0; l < 32; l++)
            x1_word[32 * grp + l] = gf2_apply(&g.lane_x1[l * 31], g.x1_group[grp]);
    t.x1_word = put(x1_word);
    GPURX_CUDA_CHECK(cudaMemcpy(words, all.data(), all.size() * 4, cudaMemcpyHostToDevice));
    return t;
}

void launch_descramble(const receive_args& a, int max_G, void* stream)
{
    if (a.ntb == 0 || max_G == 0)
        return;
    const int groups = (max_G + 1023) / 1024;
    const dim3 grid((groups + DESCRAMBLE_THREADS / 32 - 1) / (DESCRAMBLE_THREADS / 32), a.ntb);
    launch_checked(&descramble_kernel, "sch descramble", grid, DESCRAMBLE_THREADS, 0,
                   static_cast<cudaStream_t>(stream), a);
}

void launch_cb_setup(const receive_args& a, void* stream)
{
    if (a.ntb == 0)
        return;
    launch_checked(&cb_setup_kernel, "sch code block setup", dim3(a.ntb), SETUP_THREADS, 0,
                   static_cast<cudaStream_t>(stream), a);
}

void launch_dematch(const receive_args& a, int max_E, void* stream)
{
    if (a.ncb == 0)
        return;
    // Up to MAX_HELD_LLRS per block on chip; larger E (heavy repetition)
    // reads them from global memory.
    const int held = std::min(max_E, MAX_HELD_LLRS);
    auto fn = a.tb_shapes ? &dematch_table_kernel : &dematch_kernel;
    allow_smem(fn, size_t(held));
    fn<<<a.ncb, DEMATCH_THREADS, size_t(held), static_cast<cudaStream_t>(stream)>>>(a, held);
    check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__, "sch dematch");
}

void launch_assemble(const receive_args& a, void* stream)
{
    if (a.ntb == 0)
        return;
    auto st = static_cast<cudaStream_t>(stream);
    launch_checked(&assemble_kernel, "sch assemble", dim3(a.ncb), ASSEMBLE_THREADS, 0, st, a);
    launch_checked(&finish_kernel, "sch finish", dim3((a.ntb + 127) / 128), 128, 0, st, a);
}

void launch_extrinsic(const receive_args& a, int max_G, void* stream)
{
    if (a.ntb == 0 || a.ncb == 0)
        return;
    auto st = static_cast<cudaStream_t>(stream);
    launch_checked(&extrinsic_index_kernel, "sch extrinsic index", dim3(a.ncb), DEMATCH_THREADS, 0, st, a);
    const int groups = (max_G + 1023) / 1024;
    const dim3 grid((groups + DESCRAMBLE_THREADS / 32 - 1) / (DESCRAMBLE_THREADS / 32), a.ntb);
    launch_checked(&extrinsic_value_kernel, "sch extrinsic values", grid, DESCRAMBLE_THREADS, 0, st, a);
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr
