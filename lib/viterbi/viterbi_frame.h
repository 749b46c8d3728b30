/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The Viterbi family's per-frame records, carried by the pipeline beside the
// frame descriptors without being read by it.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_FRAME_H
#define INCLUDED_GPURX_VITERBI_VITERBI_FRAME_H

#include "../pipeline/frame.h"
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi {

//! How a frame's coded bits are stored in the input area (after puncturing,
//! the n coded bits of each trellis step together, in polynomial order).
enum input_kind : int32_t {
    INPUT_SOFT = 0, //!< float32 LLRs, ln P(b=1)/P(b=0): positive for bit 1
    INPUT_HARD = 1, //!< one byte per coded bit: 0, or anything else for 1 (Hamming metric)
    //! int8 LLRs, positive for bit 1, at any positive scale: the decoded path
    //! does not depend on it; the metric is in the input's units.
    INPUT_INT8 = 2,
};

//! One frame: its information bits (the tail, when terminated, is not counted).
struct frame_params {
    int32_t frame_bits;
    int32_t input; //!< input_kind
};

enum frame_status : int32_t {
    FRAME_DECODED = 0,
    //! frame_bits outside what the code accepts, an unknown input kind, or
    //! input/output sizes that do not match: the output is all zero.
    FRAME_REJECTED = 1,
};

//! What the decoder reports per frame.
struct frame_result {
    //! Soft input: the decoded path's correlation metric (sum of +-L/2,
    //! larger is better). Hard input: the Hamming distance between the
    //! decoded path's coded bits and the received ones.
    float metric;
    int32_t end_state; //!< the path's last state (its first too, tail-biting)
    int32_t status;    //!< frame_status
};

inline frame_types frame_types_of() { return frame_types::of<frame_params, frame_result>(); }

} // namespace viterbi
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
