/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/llr_staging.h"

#include <algorithm>
#include <cmath>

namespace gr {
namespace gpurx {

bool stage_finite_llrs(const float* src, size_t n, float* dst)
{
    // x - x is 0 for finite x and NaN for NaN or Inf; summing it keeps the
    // loop branch-free so it vectorises with the clamp.
    float acc = 0.0f;
    for (size_t i = 0; i < n; i++) {
        const float x = src[i];
        acc += x - x;
        dst[i] = std::min(std::max(x, -max_llr), max_llr);
    }
    return acc == 0.0f;
}

bool stage_llrs(const uint8_t* src, size_t first, size_t n, uint8_t* dst, std::string& why)
{
    const auto* x = reinterpret_cast<const float*>(src);
    if (stage_finite_llrs(x, n, reinterpret_cast<float*>(dst)))
        return true;
    for (size_t i = 0; i < n; i++)
        if (!std::isfinite(x[i])) {
            why = "LLR " + std::to_string(first + i) + " is NaN or Inf";
            break;
        }
    return false;
}

bool pdu_llr_items(const pmt::pmt_t& vec, bool int8, const uint8_t*& items, size_t& n, std::string& why)
{
    if (int8) {
        if (pmt::is_s8vector(vec)) {
            items = reinterpret_cast<const uint8_t*>(pmt::s8vector_elements(vec, n));
            return true;
        }
        if (pmt::is_u8vector(vec)) {
            items = pmt::u8vector_elements(vec, n);
            return true;
        }
        why = "not a PDU of int8 LLRs (s8vector or u8vector)";
        return false;
    }
    if (!pmt::is_f32vector(vec)) {
        why = "not a PDU of float32 LLRs (f32vector)";
        return false;
    }
    items = reinterpret_cast<const uint8_t*>(pmt::f32vector_elements(vec, n));
    return true;
}

} // namespace gpurx
} // namespace gr
