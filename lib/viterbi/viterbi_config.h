/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the Viterbi decoder, shared by every implementation.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_CONFIG_H
#define INCLUDED_GPURX_VITERBI_VITERBI_CONFIG_H

#include "viterbi/viterbi_code.h"
#include "viterbi/viterbi_frame.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct viterbi_config {
    int K = 7; //!< constraint length, 3..9
    //! One per coded bit (rate 1/n, n in 2..4), octal in the standards'
    //! order (viterbi_code.h) unless gr_fec_order.
    std::vector<unsigned> polynomials{ 0133, 0171 };
    bool gr_fec_order = false; //!< polynomials bit-reversed, as gr-fec's cc_encoder takes them
    viterbi::termination termination = viterbi::termination::terminated;
    std::vector<int> puncture; //!< keep/drop flags over n x period coded bits; empty: none
    int chunk = 64;            //!< tiled decoders: trellis steps per chunk, 1..65536
    //! The longest frame the GPU implementation must hold (sizes its
    //! per-frame working memory), 1..2^24.
    int max_frame_bits = 16384;
    //! The implementation by registry name (viterbi_implementations.h), or "auto".
    std::string implementation = "auto";

    //! The code these options describe (throws naming the bad parameter).
    viterbi_code code() const;
    //! Throws std::invalid_argument naming the bad field and its value.
    void validate() const;
};

//! Input bytes of a frame of \p frame_bits information bits.
size_t viterbi_in_bytes(const viterbi_code& code, int frame_bits, viterbi::input_kind input);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
