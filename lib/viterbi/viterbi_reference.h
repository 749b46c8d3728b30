/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The family's reference: a plain full-frame Viterbi decoder, one
// add-compare-select step after another over the whole frame, then one
// traceback. No tiling, no windows.
//   terminated   starts in state 0, ends in state 0
//   truncated    starts in state 0, ends in the best end state
//   tail-biting  EXACT maximum likelihood: one full pass per start state s
//                (2^(K-1) passes, 256 for K=9) constrained to end in s; the
//                best of them wins. Slow, and right for every frame length
//                the code accepts (K-1 bits and up), so it needs no
//                wrap-around heuristics.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_REFERENCE_H
#define INCLUDED_GPURX_VITERBI_VITERBI_REFERENCE_H

#include "viterbi/viterbi_decoder.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class viterbi_reference final : public viterbi_decoder
{
public:
    explicit viterbi_reference(const viterbi_code& code);
    const char* name() const override { return "cpu-reference"; }
    viterbi_path decode(const float* llr, int frame_bits, uint8_t* bits) override;

private:
    // One pass over `steps` steps from state `start` alone; leaves the final
    // metrics in d_metric and the decisions in d_decisions.
    void forward(const float* llr, int steps, int start);
    // Bits of the path ending in `end`, from d_decisions.
    void traceback(int steps, int end, int frame_bits, uint8_t* bits) const;

    viterbi_code d_code;
    std::vector<double> d_metric, d_next, d_bm;
    std::vector<uint8_t> d_decisions; // [step * states + state]: 1 = odd predecessor
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
