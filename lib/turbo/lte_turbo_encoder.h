/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo encoder of 3GPP TS 36.212 section 5.1.3.2: two 8-state RSC
// encoders (g0 = 1+D^2+D^3 feedback, g1 = 1+D+D^3 parity), the QPP
// interleaver, and trellis termination with 12 tail bits.
//
// Codeword layout used throughout gr-gpurx: the three output streams
// interleaved, c[3k+i] = d(i)_k for k = 0..K+3, 3K+12 values.
#ifndef INCLUDED_GPURX_CORE_LTE_TURBO_ENCODER_H
#define INCLUDED_GPURX_CORE_LTE_TURBO_ENCODER_H

#include "turbo/lte_qpp.h"
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class lte_turbo_encoder
{
public:
    //! Throws std::invalid_argument when K is not in Table 5.1.3-3.
    explicit lte_turbo_encoder(int K);
    int K() const { return d_qpp.K; }
    int codeword_length() const { return 3 * d_qpp.K + 12; }
    //! bits: K unpacked bits (0/1). out: 3K+12 unpacked bits.
    void encode(const uint8_t* bits, uint8_t* out);

private:
    qpp_params d_qpp;
    std::vector<uint8_t> d_interleaved;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
