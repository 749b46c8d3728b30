/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the streaming receivers (link/burst_receiver, ofdm/ofdm_sync) share
// about the running sums they detect with: samples that would poison them,
// and dropping the sums' head when the kept samples are trimmed.
#ifndef INCLUDED_GPURX_COMMON_RUNNING_SUMS_H
#define INCLUDED_GPURX_COMMON_RUNNING_SUMS_H

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

/*!
 * Replaces every sample that is NaN, Inf or beyond 1e15 in magnitude by 0
 * and returns how many there were: one such sample would make every prefix
 * sum after it NaN or Inf, and detection stop for the rest of the stream.
 */
inline uint64_t zero_non_finite(std::complex<float>* x, size_t n)
{
    // The common case first, in a loop the compiler vectorises: |x|^2 <
    // 1e30 is false for NaN and Inf parts too.
    bool all = true;
    for (size_t i = 0; i < n; i++)
        all &= x[i].real() * x[i].real() + x[i].imag() * x[i].imag() < 1e30f;
    if (all)
        return 0;
    uint64_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (!std::isfinite(x[i].real()) || !std::isfinite(x[i].imag()) || !(std::norm(x[i]) < 1e30f)) {
            x[i] = std::complex<float>(0.0f, 0.0f);
            count++;
        }
    return count;
}

/*!
 * Drops the first \p drop entries of prefix sums and subtracts the new first
 * one's old value from every entry: the sums restart near zero, so their
 * rounding stays that of the kept samples, however long the stream.
 */
template <typename T>
void drop_prefix(std::vector<T>& sums, size_t drop)
{
    const T base = sums[drop];
    sums.erase(sums.begin(), sums.begin() + std::ptrdiff_t(drop));
    for (auto& v : sums)
        v -= base;
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
