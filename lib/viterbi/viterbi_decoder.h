/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What every Viterbi decoder of the family does, and the metric they share.
//
// Metric: correlation, MAXIMISED. With LLRs L = ln P(b=1)/P(b=0), a branch
// whose coded bit is 1 gains +L/2, one whose bit is 0 gains -L/2 (the log
// likelihood of the branch up to a constant shared by all branches). Hard
// input enters as L = +-1, so the correlation is (kept bits)/2 - Hamming
// distance and maximising it is the seed paper's minimum Hamming distance.
// Metrics are doubles; branch metrics are summed in polynomial order by
// step_branch_metrics, the same in every decoder.
//
// Ties are deterministic: in add-compare-select and in chunk merging the
// candidate with the LOWER predecessor (or middle) state wins a tie; among
// end states (truncated) and start states (tail-biting) the lower state wins.
// Two decoders that sum in a different order (full frame vs tiled) may still
// pick different paths of EXACTLY equal metric.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_DECODER_H
#define INCLUDED_GPURX_VITERBI_VITERBI_DECODER_H

#include "viterbi/viterbi_code.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! The decoded path's correlation metric and its last state.
struct viterbi_path {
    double metric;
    int end_state;
};

class viterbi_decoder
{
public:
    virtual ~viterbi_decoder() = default;
    //! The registry name ("cpu-reference", "cpu-tiled").
    virtual const char* name() const = 0;
    /*!
     * Decode one frame. \p llr: code().n() * code().steps(frame_bits)
     * depunctured LLRs (viterbi_code::depuncture). Writes frame_bits bits
     * (0/1, one per byte) to \p bits. Throws std::invalid_argument naming
     * frame_bits when the code does not accept the length.
     */
    virtual viterbi_path decode(const float* llr, int frame_bits, uint8_t* bits) = 0;
};

namespace viterbi {

//! bm[o] for every output combination o (bit i: polynomial i's coded bit) of
//! one step whose n LLRs are \p llr: sum over i of +-llr[i]/2.
inline void step_branch_metrics(const float* llr, int n, double* bm)
{
    for (unsigned o = 0; o < (1u << n); o++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += ((o >> i) & 1u) ? 0.5 * double(llr[i]) : -0.5 * double(llr[i]);
        bm[o] = s;
    }
}

} // namespace viterbi
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
