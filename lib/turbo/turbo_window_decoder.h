/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd: the CPU backend's fast LTE turbo decoder. A codeword's
// trellis is cut into windows, one per int16 lane of a 16-lane vector
// (turbo_window_plan.h): 16 windows of K/16 steps for K >= 2048, so ONE
// codeword fills the vector and its whole working set (about 200 KiB at
// K = 6144) stays in the core's L2; smaller K get fewer, longer windows
// (at least 128 steps) and share the vector with other codewords of their
// K. The QPP interleaver is a row permutation plus an in-register lane
// shuffle.
//
// The arithmetic is turbo_fixed.h's 16-bit scaled max-log-MAP, step for step;
// the schedule is turbo_decoder_cpu's with P = turbo_win::windows_for(K)
// windows and guard 0 (each window's edges start from the metrics its
// neighbours reached in the previous iteration). So each codeword's output
// is, bit for bit, turbo_decoder_cpu::decode_fixed with cfg.subblocks = P,
// cfg.guard = 0: the tests hold it to that, and every SIMD build to the
// generic one. cfg.subblocks and cfg.guard are not used (the geometry is
// chosen for the CPU); BER: docs/cpu-turbo.md.
//
// Builds: "generic" (GCC vector types for the target: SSE2 on x86-64, NEON on
// aarch64; always built) and "avx2" (x86, chosen at run time when the CPU
// has it). GPURX_TURBO_SIMD=generic|avx2 caps the choice, as
// GPURX_VITERBI_SIMD does for the Viterbi decoder.
#ifndef INCLUDED_GPURX_TURBO_TURBO_WINDOW_DECODER_H
#define INCLUDED_GPURX_TURBO_TURBO_WINDOW_DECODER_H

#include "turbo/turbo_config.h"
#include "turbo/turbo_decoder_cpu.h"
#include "turbo/turbo_window_plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace turbo_win {

enum class simd_isa { generic = 0, avx2 = 1 };
const char* simd_isa_name(simd_isa isa);
//! "generic" | "avx2" (throws std::invalid_argument naming \p what).
simd_isa parse_simd_isa(const std::string& name, const char* what);
bool simd_isa_supported(simd_isa isa);
//! The widest build this CPU runs, capped by GPURX_TURBO_SIMD; decided once.
simd_isa default_simd_isa();

//! What one decode runs on (raw pointers into turbo_window_decoder's
//! buffers; rows of LANES int16, 64-byte aligned).
struct job {
    const plan* pl;
    int iterations;
    int sq;            //!< extrinsic scale, 1/256 steps
    bool every;        //!< decisions after every iteration (early termination)
    int16_t* ls[2];    //!< systematic LLRs, natural / interleaved layout
    int16_t* lp[2];    //!< parity LLRs of each decoder
    int16_t* lu[2];    //!< each decoder's input: systematic + a-priori
    int16_t* alpha;    //!< W rows x 8 states
    int16_t* app;      //!< a-posteriori LLRs, natural layout
    int16_t* ainit[2]; //!< [8 states][LANES]: each decoder's window-start alpha
    int16_t* binit[2]; //!< window-end beta
    int16_t* tail[2];  //!< [8][LANES]: beta_K of each lane's codeword
    //! After iteration it with app filled: true to stop.
    bool (*end_iteration)(void* ctx, int it);
    void* ctx;
};

//! One build's functions (turbo_window_generic.cc, turbo_window_avx2.cc):
//! the decode loop (turbo_window_kernel.h) and the moves in and out of the
//! lane layout, which are a tenth of the time when done value by value.
struct build_fns {
    void (*run)(const job& j);
    //! One codeword's 3K+12 float LLRs (d0 d1 d2 interleaved), each
    //! turbo_fx::quantize_vectorisable'd, split into its three streams of K
    //! and the 12 termination values.
    void (*quantise_split)(const float* in, int K, float scale, int16_t* sys, int16_t* p0, int16_t* p1,
                           int16_t* tail);
    //! The same of int8 LLRs in steps (quantize(int8_t) of turbo_fixed.h:
    //! -128 saturates to -LLR_MAX).
    void (*split_int8)(const int8_t* in, int K, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail);
    //! Rows between the decoders' layouts: dst[to_row[r] * LANES + t] =
    //! src[r * LANES + idx[r * LANES + t]] for r < W (ctl: idx as the
    //! vpshufb controls of plan::to_int_ctl).
    void (*permute_rows)(const int16_t* src, int W, const uint16_t* to_row, const uint8_t* idx,
                         const uint8_t* ctl, int16_t* dst);
    //! Into the lane layout: dst[r * LANES + t] = src[t][r], r < W.
    void (*to_lanes)(const int16_t* const* src, int W, int16_t* dst);
    //! Out of it, as decisions: dst[t][r] = app[r * LANES + t] > 0, r < W.
    void (*hard_from_lanes)(const int16_t* app, int W, uint8_t* const* dst);
    //! turbo_fx::scale_extrinsic of n values, n a multiple of LANES (tests).
    void (*scale)(const int16_t* le, size_t n, int sq, int16_t* out);
};
const build_fns& generic_build();
const build_fns& avx2_build(); //!< the generic build off x86
inline const build_fns& build_of(simd_isa isa) { return isa == simd_isa::avx2 ? avx2_build() : generic_build(); }

} // namespace turbo_win

class turbo_window_decoder
{
public:
    explicit turbo_window_decoder(const turbo_config& cfg,
                                  turbo_win::simd_isa isa = turbo_win::default_simd_isa());
    //! Codewords of block size K one decode() call takes (16 / windows).
    static int codewords_per_call(int K) { return turbo_win::plan_for(K).C; }
    /*!
     * Decode n codewords of block size K (1 <= n <= codewords_per_call(K)),
     * each 3K+12 LLRs in the interleaved layout c[3k+i] = d(i)_k: float
     * (quantised by cfg.fixed_scale), int8 (LLR = value x int8_scale, as
     * the other CPU implementations take it), or already quantised int
     * (turbo_fixed.h steps, |q| <= LLR_MAX).
     * \param hard, soft, res n outputs each (soft entries may be nullptr)
     */
    void decode(const float* const* llr, int n, int K, uint8_t* const* hard, float* const* soft,
                turbo_decode_result* res);
    void decode_int8(const int8_t* const* llr, int n, int K, float int8_scale, uint8_t* const* hard,
                     float* const* soft, turbo_decode_result* res);
    void decode_quantised(const int* const* q, int n, int K, float soft_unit, uint8_t* const* hard,
                          float* const* soft, turbo_decode_result* res);
    turbo_win::simd_isa isa() const { return d_isa; }

private:
    struct group; // the codewords of one call, for the decisions
    template <class Split>
    void run(const Split& split, int n, int K, float soft_unit, uint8_t* const* hard, float* const* soft,
             turbo_decode_result* res);
    static bool end_iteration(void* ctx, int it);

    turbo_config d_cfg;
    turbo_win::simd_isa d_isa;
    turbo_decoder_cpu::avector<int16_t> d_mem;   // every buffer of job, one block
    turbo_decoder_cpu::avector<int16_t> d_stage; // codewords quantised, streams split
    std::vector<std::vector<uint8_t>> d_prev;  // hard-decision stop: last decisions
    std::vector<uint8_t> d_scratch;            // decisions of lanes not reported
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
