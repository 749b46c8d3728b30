/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Internal to cpu-simd (viterbi_simd.h): the trellis in the layout the SIMD
// forward passes read, and the passes each instruction set provides.
//
// Lane labels. The passes number states by their K-1 bits REVERSED
// (r = rev(s)): the newest input bit is then the LSB, the predecessors of r'
// are (r' >> 1) and (r' >> 1) | H (H = states / 2) and butterfly b reads old
// states b and b + H and writes new states 2b (input 0) and 2b + 1 (input 1).
// Old metrics load as two straight vectors and new ones store with one
// interleave (unpacklo/hi), where the family's numbering would need a
// deinterleave of every load. The lower predecessor b is the family's even
// one (rev keeps bit order otherwise), so "decision 1 = odd predecessor" and
// "a tie keeps the even one" carry over unchanged.
//
// Branch metrics. For butterfly b the coded bit of polynomial i on the
// branch (p0 = rev(b), input 0) is precomputed; the other three branches
// flip it where the polynomial taps the oldest bit (from p1 = p0 | 1) or
// the current one (input 1). Grouping the polynomials by which ends they tap
//   class 0: both, class 1: oldest only, class 2: current only
// gives per butterfly the three sums A, B, C of +-L over each class and
//   bm(p0,0) = A+B+C  bm(p1,0) = -A-B+C  bm(p0,1) = -A+B-C  bm(p1,1) = A-B-C.
// Codes whose polynomials all tap both ends (every standard one) have B = C
// = 0 and take the symmetric pass: bm(p0,0) = bm(p1,1) = A, the others -A.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_SIMD_TRELLIS_H
#define INCLUDED_GPURX_VITERBI_VITERBI_SIMD_TRELLIS_H

#include "viterbi/viterbi_code.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_simd_detail {

//! Steps between renormalisations of the path metrics (viterbi_simd.cc
//! proves the int16 bound for this period).
constexpr int renorm_period = 32;
//! The int16 metric of a state the pass has not reached yet (see the bound).
constexpr int16_t unreachable_int16 = -16384;

struct simd_trellis {
    explicit simd_trellis(const viterbi_code& code);

    int K, n, states, half;
    //! uint64 words of decisions per step: one bit per state, bit r (of
    //! word r / 64) the decision of new lane-label state r.
    int decision_words;
    bool symmetric;      //!< every polynomial is class 0
    int poly_class[4];   //!< per polynomial: 0, 1 or 2 (above)
    // Per polynomial i and butterfly b, at [i * half + b], the coded bit of
    // (p0, input 0) as what turns L into +-L:
    std::vector<int16_t> negate_mask16; //!< int16: -1 where the bit is 0 (-L = (L ^ -1) + 1), else 0
    std::vector<int16_t> sign16;        //!< int16: -1 where the bit is 0, else +1 (vpsignw)
    std::vector<uint32_t> sign_mask32;  //!< float: the sign bit where the bit is 0, else 0
    //! [class * half + b]: the polynomials of the class whose bit is 0: the
    //! "+ 1" of each two's-complement negation by negate_mask16, added once.
    std::vector<int16_t> negations16;
};

//! One instruction set's forward pass over one metric type. The pass runs
//! `steps` add-compare-select steps from lane-label state `start` alone,
//! writes the decisions of step t to decisions[t * decision_words ..], the
//! final metrics in lane labels to `metrics`, and returns what
//! renormalisation subtracted from them. Bit r being state r's decision
//! (the integer passes get it from their byte movemasks without a shuffle) spares
//! the traceback, a chain of dependent steps, a table look-up per step.
template <typename Metric, typename Llr, typename Offset>
struct lanes_kernel {
    const char* isa;
    int lanes;
    Offset (*forward)(const simd_trellis& trellis,
                      const Llr* llr,
                      int steps,
                      int start,
                      Metric* metrics,
                      uint64_t* decisions);
};

//! int16 metrics from int8 LLRs: branch metric sum of +-L (twice the family's).
using int16_kernel = lanes_kernel<int16_t, int8_t, int64_t>;
//! float32 metrics from float LLRs: branch metric sum of +-L/2.
using float_kernel = lanes_kernel<float, float, double>;

struct isa_kernels {
    int16_kernel int16;
    float_kernel float32;
};

// One per instruction set, each in its own file compiled for it. The SSE2
// and AVX2 ones exist on x86 only (viterbi_simd.cc checks GPURX_VITERBI_X86).
const isa_kernels& generic_kernels();
const isa_kernels& sse2_kernels();
const isa_kernels& avx2_kernels();

} // namespace viterbi_simd_detail
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
