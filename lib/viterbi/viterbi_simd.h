/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-simd: the full-frame Viterbi decoder of viterbi_reference.h with the
// add-compare-select of a step in SIMD lanes (AVX2, SSE2, or a portable
// one-lane path), the decisions packed as bits (movemask) and the traceback
// read from those bits.
//
//   int8 / hard input  int16 path metrics, branch metric +-L (twice the
//                      reference's +-L/2, so every comparison is the same):
//                      BIT-EXACT with cpu-reference, ties included, and the
//                      same reported metric.
//   float input        float32 metrics, +-L/2 as the reference: the same
//                      path except where two paths' metrics are so close
//                      that float32 rounding orders them otherwise.
//   terminations       all three, as the reference does them (tail-biting:
//                      one full pass per start state, the best wins).
//
// The instruction set is chosen at run time, the widest the CPU has
// (__builtin_cpu_supports), capped by the environment variable
// GPURX_VITERBI_SIMD=generic|sse2|avx2 (to compare or debug the variants);
// a code with fewer butterflies (2^(K-2)) than the set's lanes takes the
// next narrower one (SSE2 int16 needs K >= 5, AVX2 int16 K >= 6).
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_SIMD_H
#define INCLUDED_GPURX_VITERBI_VITERBI_SIMD_H

#include "viterbi/viterbi_decoder.h"
#include "viterbi/viterbi_simd_trellis.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace viterbi {

enum class simd_isa { generic = 0, sse2 = 1, avx2 = 2 };

const char* simd_isa_name(simd_isa isa);
//! "generic" | "sse2" | "avx2" (throws std::invalid_argument naming \p what).
simd_isa parse_simd_isa(const std::string& name, const char* what);
//! Whether this CPU (and build) can run \p isa.
bool simd_isa_supported(simd_isa isa);
//! The widest set this CPU runs, capped by GPURX_VITERBI_SIMD; decided once.
simd_isa default_simd_isa();

} // namespace viterbi

class viterbi_simd final : public viterbi_decoder
{
public:
    /*!
     * \p widest: the widest instruction set to use. Throws
     * std::invalid_argument naming it when this CPU cannot run it.
     */
    explicit viterbi_simd(const viterbi_code& code, viterbi::simd_isa widest = viterbi::default_simd_isa());
    const char* name() const override { return "cpu-simd"; }
    //! Float LLRs (float32 lanes).
    viterbi_path decode(const float* llr, int frame_bits, uint8_t* bits) override;
    /*!
     * int8 LLRs, depunctured like decode's (0 where punctured), at any
     * positive scale; hard bits as -1/+1. The reported metric is the
     * reference's for the same values as floats.
     */
    viterbi_path decode_int8(const int8_t* llr, int frame_bits, uint8_t* bits);

    //! The sets the two paths run on for this code.
    viterbi::simd_isa int8_isa() const { return d_int16.isa; }
    viterbi::simd_isa float_isa() const { return d_float.isa; }

private:
    // One metric type's pass on the instruction set chosen for it.
    template <typename Kernel>
    struct pass {
        Kernel kernel;
        viterbi::simd_isa isa;
    };
    template <typename Kernel>
    static pass<Kernel> choose(const viterbi_code& code, viterbi::simd_isa widest, Kernel viterbi_simd_detail::isa_kernels::*which);

    template <typename Kernel, typename Llr, typename Metric>
    viterbi_path run(const pass<Kernel>& p, const Llr* llr, int frame_bits, uint8_t* bits, std::vector<Metric>& metrics, double unit);
    void traceback(int steps, int end_lane, int frame_bits, uint8_t* bits) const;

    viterbi_code d_code;
    viterbi_simd_detail::simd_trellis d_trellis;
    std::vector<int> d_lane_of; // [state]: its lane label (K-1 bits reversed)
    pass<viterbi_simd_detail::int16_kernel> d_int16;
    pass<viterbi_simd_detail::float_kernel> d_float;
    std::vector<uint64_t> d_decisions; // [step * decision_words + word]
    std::vector<int16_t> d_metric16;
    std::vector<float> d_metric32;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
