/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The convolutional encoder of a viterbi_code, with its termination and
// puncturing: what a transmitter sends, and what the decoders expect.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_ENCODER_H
#define INCLUDED_GPURX_VITERBI_VITERBI_ENCODER_H

#include "viterbi/viterbi_code.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

/*!
 * Encode \p frame_bits information bits (0/1 bytes): coded_bits(frame_bits)
 * coded bits, the n of each step together in polynomial order, punctured.
 * Terminated frames get K-1 zero tail bits; tail-biting frames start in the
 * state of their last K-1 bits. Throws naming frame_bits for a length the
 * code does not accept.
 */
std::vector<uint8_t> viterbi_encode(const viterbi_code& code, const uint8_t* bits, int frame_bits);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
