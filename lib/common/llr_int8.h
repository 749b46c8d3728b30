/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// int8 LLRs, the one quantisation shared by every producer and consumer in
// this module: v = rint(clamp(s L, -127, 127)) (saturate, then round half
// to even), L = ln P(b=1)/P(b=0). With s = 8 (steps of 1/8) it is the
// fixed-point turbo decoders' own quantisation of a float LLR
// (turbo_fixed.h) and the unit of their int8 input, so a MIMO detector's
// int8 output decodes exactly as its float output would. One definition
// for g++ and nvcc: the CPU and GPU backends round alike.
#ifndef INCLUDED_GPURX_COMMON_LLR_INT8_H
#define INCLUDED_GPURX_COMMON_LLR_INT8_H

#include "common/host_device.h"
#include <cmath>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! int8 steps per LLR unit (a step is 1/8).
constexpr float int8_llr_steps = 8.0f;
//! |v| bound: -128 is never produced, so the code is symmetric.
constexpr int int8_llr_max = 127;

//! rint(clamp(x * scale, -max, max)): +-Inf saturate; NaN gives -max
//! (fmaxf returns the number).
GPURX_HD int quantize_llr(float x, float scale, int max)
{
    const float v = fminf(fmaxf(x * scale, -float(max)), float(max));
    return int(rintf(v));
}

//! A float LLR as the module's int8 LLR (steps of 1/8, saturated to +-127).
GPURX_HD int8_t llr_to_int8(float x)
{
    return int8_t(quantize_llr(x, int8_llr_steps, int8_llr_max));
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
