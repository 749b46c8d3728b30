/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// LTE turbo rate matching (3GPP TS 36.212 §5.1.4.1) for one code block of
// E bits, redundancy version 0, no soft-buffer limit (Ncb = Kw), no filler
// bits. With E = 3(K+4), the number of coded bits (the default), the
// circular-buffer read visits every coded bit exactly once, so rate matching
// is a permutation: the channel interleaver of an LTE transmitter, whose
// inverse puts a receiver's LLRs back in the decoder's order. A smaller E
// punctures (the read stops early: rate K/E), a larger one repeats (it
// wraps), and dematch() gives unsent bits LLR 0 and sums repeated ones.
//
// What it does to a codeword: each of the three streams d(0), d(1), d(2)
// goes through the 32-column sub-block interleaver, the systematic stream is
// sent first and the two parity streams interlaced after it, from k0 = 2R.
// Consecutive transmitted bits come from trellis steps about 32 apart, so a
// faded symbol or channel no longer erases a burst of consecutive steps.
#ifndef INCLUDED_GPURX_CORE_LTE_RATE_MATCH_H
#define INCLUDED_GPURX_CORE_LTE_RATE_MATCH_H

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class lte_rate_match
{
public:
    //! \param K an LTE block size (36.212 Table 5.1.3-3)
    //! \param E the bits sent, >= 1; 0: 3K + 12
    explicit lte_rate_match(int K, int E = 0);

    int K() const { return d_K; }
    //! E, the bits sent.
    int size() const { return int(d_order.size()); }
    /*!
     * order()[j] is the position, in the encoder's codeword layout
     * (c[3k+i] = d(i)_k, the layout of lte_turbo_encoder and the decoders),
     * of the j-th bit sent.
     */
    const std::vector<int>& order() const { return d_order; }

    //! e[j] = c[order[j]]: the bits in the order they are sent.
    void match(const uint8_t* codeword, uint8_t* sent) const;
    //! The LLRs back in the codeword's order (3K + 12 of them): llr[c] is
    //! the sum of received[j] over the j with order[j] = c, 0 where none.
    void dematch(const float* received, float* llr) const;
    /*!
     * Iterative detection and decoding: the a-priori LLR of each bit sent,
     * given the decoder's extrinsic LLRs of the codeword (3K + 12, as from
     * turbo_decoder_cpu::decode_coded) and the \p received LLRs it was
     * given (E, before dematch()). A copy's a-priori LLR is what is known of
     * its codeword bit without it: the extrinsic plus the other copies'
     * received LLRs, apriori[j] = coded_ext[c] + dematch(received)[c] -
     * received[j] with c = order()[j]. Its own LLR is never fed back, or
     * the detector would count it twice. \p scratch: 3K + 12 floats.
     */
    void feedback(const float* coded_ext, const float* received, float* apriori, float* scratch) const;

private:
    int d_K;
    std::vector<int> d_order;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
