/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// LTE turbo rate matching (3GPP TS 36.212 §5.1.4.1) for one code block sent
// whole: E = 3(K+4) bits, redundancy version 0, no soft-buffer limit
// (Ncb = Kw), no filler bits. With E equal to the number of coded bits the
// circular-buffer read visits every coded bit exactly once, so rate matching
// is a permutation: it is the channel interleaver of an LTE transmitter, and
// its inverse puts a receiver's LLRs back in the decoder's order.
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
    explicit lte_rate_match(int K);

    int K() const { return d_K; }
    //! E = 3K + 12, the bits sent.
    int size() const { return int(d_order.size()); }
    /*!
     * order()[j] is the position, in the encoder's codeword layout
     * (c[3k+i] = d(i)_k, the layout of lte_turbo_encoder and the decoders),
     * of the j-th bit sent.
     */
    const std::vector<int>& order() const { return d_order; }

    //! e[j] = c[order[j]]: the bits in the order they are sent.
    void match(const uint8_t* codeword, uint8_t* sent) const;
    //! llr[order[j]] = received[j]: the LLRs back in the codeword's order.
    void dematch(const float* received, float* llr) const;

private:
    int d_K;
    std::vector<int> d_order;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
