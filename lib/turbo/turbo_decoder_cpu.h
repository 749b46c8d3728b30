/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CPU LTE turbo decoder: the CPU backend, and the reference the CUDA
// kernels are tested against. It runs the same parallel-window schedule as
// the GPU (P windows per codeword; each window starts its recursions `guard`
// steps inside its neighbours, from the metrics saved there in the previous
// iteration), window after window, with the same per-step arithmetic
// (turbo_trellis.h for float, turbo_fixed.h for 16-bit fixed point), so
// max-log-MAP results agree bit for bit.
//
// A-priori and extrinsic LLRs are double-buffered: decoder d reads ext[d] and
// writes ext[1-d], so training steps that read a neighbour's positions see
// the previous half-iteration's values, as on the GPU.
#ifndef INCLUDED_GPURX_CORE_TURBO_DECODER_CPU_H
#define INCLUDED_GPURX_CORE_TURBO_DECODER_CPU_H

#include "turbo/lte_qpp.h"
#include "turbo/turbo_config.h"
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct turbo_decode_result {
    int iterations; //!< iterations run
    int check;      //!< CRC of the decision: 1 pass, 0 fail, -1 not checked
};

class turbo_decoder_cpu
{
public:
    explicit turbo_decoder_cpu(const turbo_config& cfg);
    /*!
     * Decode one codeword of block size K from float LLRs. With
     * cfg.uses_fixed_point() the LLRs are first quantised by
     * cfg.fixed_scale (turbo_fixed.h).
     * \param llr 3K+12 LLRs in the interleaved layout c[3k+i] = d(i)_k
     * \param hard K output bits (0/1)
     * \param soft K a-posteriori LLRs, or nullptr
     */
    turbo_decode_result decode(const float* llr, int K, uint8_t* hard, float* soft);
    /*!
     * Decode one codeword and give the extrinsic LLRs of all its 3K+12 coded
     * bits, for iterative detection and decoding: what the decoder adds to
     * the channel LLRs it was given, to be fed back to a detector as
     * a-priori LLRs. Float arithmetic only (cfg.fixed_point = false, or
     * log-MAP); throws std::invalid_argument otherwise.
     * \param llr 3K+12 channel LLRs in the interleaved layout c[3k+i] = d(i)_k
     * \param hard K output bits (0/1)
     * \param coded_ext 3K+12 LLRs in the same layout, from the last
     *        iteration: systematic L_app - Ls (the soft output of decode()
     *        minus llr[3k]); each parity bit's L_app - Lp from its own
     *        constituent decoder's pass (the second encoder's at its
     *        interleaved step k); the 12 tail bits 0. Not scaled.
     * \param soft K a-posteriori LLRs (decode()'s soft output), or nullptr
     */
    turbo_decode_result
    decode_coded(const float* llr, int K, uint8_t* hard, float* coded_ext, float* soft = nullptr);
    /*!
     * Decode from int8 LLRs (LLR = value x int8_scale): quantised as they are
     * in fixed point, converted to float otherwise.
     */
    turbo_decode_result
    decode_int8(const int8_t* llr, int K, float int8_scale, uint8_t* hard, float* soft);
    /*!
     * Decode already quantised LLRs with the fixed-point arithmetic;
     * \p soft_unit is one quantisation step in LLR units. \p Ops is
     * turbo_fx::int_ops, or a checking variant in the tests.
     */
    template <class Ops>
    turbo_decode_result
    decode_fixed(const int* q, int K, float soft_unit, uint8_t* hard, float* soft);
    /*!
     * Fixed point, up to turbo_fx::SIMD_LANES codewords of the same K at
     * once, one per SIMD lane: each lane's results are those of
     * decode_fixed(), bit for bit, iterations included.
     * \param q n lanes' quantised LLRs
     * \param hard, soft, res n lanes' outputs (soft entries may be nullptr)
     */
    void decode_fixed_lanes(const int* const* q, int n, int K, float soft_unit,
                            uint8_t* const* hard, float* const* soft, turbo_decode_result* res);
    const turbo_config& config() const { return d_cfg; }
    //! The instruction set decode_fixed_lanes() runs with: "avx2" or "sse2"
    //! on x86, "generic" (the compiler's vectors for the target) elsewhere.
    static const char* simd_isa();
    //! Tests: run the baseline (SSE2) build even where AVX2 is available.
    static void force_baseline_simd(bool on);

    //! 64-byte aligned storage: SIMD vectors whatever the ISA a function is
    //! compiled for (see turbo_fx::simd_v).
    template <typename T>
    struct aligned64_allocator {
        using value_type = T;
        aligned64_allocator() = default;
        template <typename U>
        aligned64_allocator(const aligned64_allocator<U>&) {}
        T* allocate(size_t n)
        {
            return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64)));
        }
        void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(64)); }
        template <typename U>
        bool operator==(const aligned64_allocator<U>&) const { return true; }
        template <typename U>
        bool operator!=(const aligned64_allocator<U>&) const { return false; }
    };
    template <typename T>
    using avector = std::vector<T, aligned64_allocator<T>>;

    // Work buffers of one metric type (float, int or SIMD vector).
    template <typename T>
    struct buffers {
        avector<T> ext[2], alpha, abound, bbound, ain, bin;
    };

private:
    template <class Arith, class Sink>
    void run(const Arith& ar, buffers<typename Arith::T>& buf, const typename Arith::T* llr, int K,
             Sink& sink);
    template <class Arith>
    turbo_decode_result
    run_one(const Arith& ar, buffers<typename Arith::T>& buf, const typename Arith::T* llr, int K,
            uint8_t* hard, float* soft, float* coded = nullptr);
    //! decode() and decode_coded() in float: log-MAP or (scaled) max-log-MAP.
    turbo_decode_result run_float(const float* llr, int K, uint8_t* hard, float* soft, float* coded);
    void set_interleaver(int K);
    struct lanes_job;
    // The SIMD schedule, everything inlined into it, compiled for AVX2 and
    // for the baseline ISA; decode_fixed_lanes picks one at run time.
    void run_lanes_avx2(lanes_job& job);
    void run_lanes_generic(lanes_job& job);
    static bool use_avx2();

    turbo_config d_cfg;
    buffers<float> d_fbuf;
    buffers<int> d_ibuf;
    struct simd_state; // SIMD buffers (turbo_fixed.h types)
    std::shared_ptr<simd_state> d_simd;
    std::vector<float> d_convert;
    std::vector<int> d_quant;
    std::vector<int> d_pi;
    std::vector<uint8_t> d_prev;
    int d_pi_K = 0;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
