/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Packed 16x2 path-metric arithmetic of the cuda-thread Viterbi decoder
// (lib/viterbi/cuda/viterbi_thread_kernels.cuh), written once for nvcc and g++ so the
// CPU tests check the portable path against the instruction it replaces.
#ifndef INCLUDED_GPURX_CORE_VITERBI_PACKED_H
#define INCLUDED_GPURX_CORE_VITERBI_PACKED_H

#include "common/host_device.h"
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace viterbi_packed {

//! a1 - a0 + 0x7fff in each 16-bit half, for halves whose difference lies
//! in [-0x7fff, 0x7fff] (every metric below 2^15): no borrow crosses the
//! halves, and bit 15 of a half is set exactly when a1 > a0 there.
GPURX_HD uint32_t diff_u16x2(uint32_t a0, uint32_t a1) { return a1 + 0x7fff7fffu - a0; }

//! Lane-wise unsigned max of a0 and a1 from their diff_u16x2, for the same
//! bounded halves: Hopper's max.u16x2 (VIMNMX.U16x2) in three plain integer
//! instructions (shift-and, multiply, select) on GPUs without it. Equal to
//! max.u16x2 for every such input (tests/test_viterbi_simd.cc checks all).
GPURX_HD uint32_t max_u16x2_from_diff(uint32_t a0, uint32_t a1, uint32_t diff)
{
    const uint32_t m = ((diff >> 15) & 0x00010001u) * 0xffffu; // 0xffff where a1 > a0
    return (a1 & m) | (a0 & ~m);
}

//! max.u16x2 of any two words, lane by lane (the reference for the tests).
GPURX_HD uint32_t max_u16x2_reference(uint32_t a, uint32_t b)
{
    const uint32_t lo = (a & 0xffffu) > (b & 0xffffu) ? (a & 0xffffu) : (b & 0xffffu);
    const uint32_t hi = (a >> 16) > (b >> 16) ? (a >> 16) : (b >> 16);
    return lo | (hi << 16);
}

} // namespace viterbi_packed
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
