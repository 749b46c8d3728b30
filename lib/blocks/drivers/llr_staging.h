/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Staging of float LLRs (L = ln P(b=1)/P(b=0), positive for bit 1), shared
// by every family's adapter that takes them.
#ifndef INCLUDED_GPURX_BLOCKS_LLR_STAGING_H
#define INCLUDED_GPURX_BLOCKS_LLR_STAGING_H

#include <pmt/pmt.h>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

//! Finite LLRs beyond +-max_llr are clamped to it: no decoder tells them
//! apart (the fixed-point ones saturate at 15.9), and left alone, float
//! sums of them overflow to Inf (log-MAP, Viterbi path metrics).
constexpr float max_llr = 1.0e4f;

/*!
 * Copy \p n float LLRs into staging, checking and clamping them in one pass.
 * Returns false when one is NaN or Inf.
 */
bool stage_finite_llrs(const float* src, size_t n, float* dst);

/*!
 * A PDU's LLRs: float32 (f32vector), or with \p int8 an s8vector or a
 * u8vector (GNU Radio's byte PDUs: the same int8 values). False, with
 * \p why, for another type.
 */
bool pdu_llr_items(const pmt::pmt_t& vec, bool int8, const uint8_t*& items, size_t& n, std::string& why);

/*!
 * stage_finite_llrs() over items [first, first + n) of a frame, as bytes;
 * on a NaN or Inf, \p why names the first such LLR's index in the frame.
 */
bool stage_llrs(const uint8_t* src, size_t first, size_t n, uint8_t* dst, std::string& why);

} // namespace gpurx
} // namespace gr

#endif
