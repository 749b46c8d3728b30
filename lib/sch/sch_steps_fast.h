/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CPU steps' SIMD builds (sch_steps_avx2.cc, compiled with -mavx2 on
// x86 only) and the choice between them and the plain loops of
// sch_steps.cc, which stay the reference: the tests compare the two.
#ifndef INCLUDED_GPURX_SCH_SCH_STEPS_FAST_H
#define INCLUDED_GPURX_SCH_SCH_STEPS_FAST_H

#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

/*!
 * Whether descramble() takes the AVX2 build: the CPU has AVX2 and
 * GPURX_SCH_SIMD (environment, read once) is not "generic"; decided once.
 */
bool avx2_steps();

namespace avx2 {
//! descramble() of G float32 / int8 LLRs with the scrambler of \p c_init.
void descramble_float(const float* x, size_t G, uint32_t c_init, int8_t* out);
void descramble_int8(const int8_t* q, size_t G, uint32_t c_init, int8_t* out);
} // namespace avx2

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
