/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The turbo family's per-frame records, carried by the pipeline beside the
// frame descriptors (to the GPU and back) without being read by it.
#ifndef INCLUDED_GPURX_TURBO_TURBO_FRAME_H
#define INCLUDED_GPURX_TURBO_TURBO_FRAME_H

#include "../pipeline/frame.h"
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo {

//! How a codeword's LLRs are stored in the input area.
enum input_kind : int32_t {
    INPUT_FLOAT32 = 0, //!< float32 LLRs
    INPUT_INT8 = 1,    //!< int8 LLRs, LLR = value x the decoder's int8 scale
};

//! One codeword: its block size with the QPP coefficients (36.212 Table
//! 5.1.3-3) beside it, so the kernels need no table.
struct frame_params {
    int32_t K;
    int32_t f1;
    int32_t f2;
    int32_t input; //!< input_kind
};

//! What the decoder reports per codeword.
struct frame_result {
    int32_t iterations; //!< full iterations run
    int32_t check;      //!< early-termination CRC: 1 passed, 0 failed, -1 none ran
};

//! The parameters of a codeword of block size K (throws for an invalid K).
frame_params frame_params_for(int K, input_kind input = INPUT_FLOAT32);

inline frame_types frame_types_of() { return frame_types::of<frame_params, frame_result>(); }

} // namespace turbo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
