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

} // namespace gpurx
} // namespace gr
