/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_config.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

viterbi_code viterbi_config::code() const
{
    return viterbi_code(K, polynomials,
                        gr_fec_order ? viterbi::polynomial_order::gr_fec
                                     : viterbi::polynomial_order::msb_current,
                        termination, puncture);
}

void viterbi_config::validate() const
{
    (void)code();
    if (max_frame_bits < 1 || max_frame_bits > (1 << 24))
        throw std::invalid_argument("max_frame_bits must be in 1..16777216, got " +
                                    std::to_string(max_frame_bits));
    if (chunk < 1 || chunk > 65536)
        throw std::invalid_argument("chunk must be in 1..65536 trellis steps, got " + std::to_string(chunk));
}

size_t viterbi_in_bytes(const viterbi_code& code, int frame_bits, viterbi::input_kind input)
{
    return code.coded_bits(frame_bits) * (input == viterbi::INPUT_SOFT ? sizeof(float) : 1);
}

} // namespace core
} // namespace gpurx
} // namespace gr
