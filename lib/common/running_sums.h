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
    // The common case first, in a loop the compiler vectorises: a count of
    // the |x|^2 that are not below 1e30 (false for NaN and Inf parts too),
    // kept in 8 independent lanes (a single bool accumulated with &= stays
    // a scalar compare and branch per sample).
    const float* v = reinterpret_cast<const float*>(x);
    uint32_t bad[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (size_t k = 0; k < 8; k++) {
            const float re = v[2 * (i + k)], im = v[2 * (i + k) + 1];
            bad[k] += re * re + im * im < 1e30f ? 0u : 1u;
        }
    uint32_t any = 0;
    for (; i < n; i++)
        any += x[i].real() * x[i].real() + x[i].imag() * x[i].imag() < 1e30f ? 0u : 1u;
    for (size_t k = 0; k < 8; k++)
        any += bad[k];
    if (any == 0)
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
