/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "modulation/qam_demap.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gr {
namespace gpurx {
namespace core {
namespace qam {

axis_demapper::axis_demapper(modulation m, bool exact)
    : d_bits(bits_per_symbol(m)), d_levels(1 << (d_bits / 2)), d_exact(exact)
{
    // The in-phase amplitude of axis pattern p (bit j of p, counted from the
    // most significant, is b(2j)): the real part of the point whose even bits
    // are p and whose odd bits are 0. The quadrature axis has the same
    // amplitudes for the same pattern of odd bits (36.211 §7.1's tables are
    // symmetric in I and Q).
    const auto& c = constellation_of(m);
    const int k = d_bits / 2;
    d_amp.resize(size_t(d_levels));
    for (int p = 0; p < d_levels; p++) {
        int idx = 0;
        for (int j = 0; j < k; j++)
            if ((p >> (k - 1 - j)) & 1)
                idx |= 1 << (d_bits - 1 - 2 * j);
        d_amp[size_t(p)] = float(c.points[size_t(idx)].real());
    }
}

namespace {

// demap_scaled's max-log arithmetic with the bits per axis known at compile
// time: the same operations in the same order (so the same LLRs, bit for
// bit), unrolled and without branches, for the receivers' per-RE loops.
template <int K>
void max_log_axes(const float* amp, std::complex<float> y, float inv, float* llr)
{
    constexpr int levels = 1 << K;
    for (int axis = 0; axis < 2; axis++) {
        const float v = axis ? y.imag() : y.real();
        float min0[K], min1[K];
        for (int j = 0; j < K; j++)
            min0[j] = min1[j] = std::numeric_limits<float>::infinity();
        for (int p = 0; p < levels; p++) {
            const float e = v - amp[p];
            const float d = e * e;
            for (int j = 0; j < K; j++) {
                float& m = (p >> (K - 1 - j)) & 1 ? min1[j] : min0[j];
                m = d < m ? d : m;
            }
        }
        for (int j = 0; j < K; j++)
            llr[2 * j + axis] = (min0[j] - min1[j]) * inv;
    }
}

// max_log_axes over n symbols, eight at a time in GCC's vector types (one
// AVX register in the AVX2 build, two SSE ones in the baseline): the same
// operations per symbol as max_log_axes, so the same LLRs.
typedef float float8 __attribute__((vector_size(32)));

template <int K>
inline __attribute__((always_inline)) void
max_log_many(const float* amp, const std::complex<float>* y, const float* n0, size_t n, float* llr)
{
    constexpr int levels = 1 << K;
    constexpr float inf = std::numeric_limits<float>::infinity();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float8 re, im, noise;
        for (int l = 0; l < 8; l++) {
            re[l] = y[i + size_t(l)].real();
            im[l] = y[i + size_t(l)].imag();
            noise[l] = n0[i + size_t(l)];
        }
        const float8 zero = {};
        const float8 inv = noise > zero ? 1.0f / noise : zero;
        for (int axis = 0; axis < 2; axis++) {
            const float8 v = axis ? im : re;
            float8 min0[K], min1[K];
            for (int j = 0; j < K; j++)
                min0[j] = min1[j] = zero + inf;
            for (int p = 0; p < levels; p++) {
                const float8 e = v - amp[p];
                const float8 d = e * e;
                for (int j = 0; j < K; j++) {
                    if ((p >> (K - 1 - j)) & 1)
                        min1[j] = d < min1[j] ? d : min1[j];
                    else
                        min0[j] = d < min0[j] ? d : min0[j];
                }
            }
            for (int j = 0; j < K; j++) {
                const float8 r = noise > zero ? (min0[j] - min1[j]) * inv : zero;
                for (int l = 0; l < 8; l++)
                    llr[(i + size_t(l)) * 2 * K + size_t(2 * j + axis)] = r[l];
            }
        }
    }
    for (; i < n; i++) {
        float* out = llr + i * 2 * K;
        if (n0[i] > 0.0f)
            max_log_axes<K>(amp, y[i], 1.0f / n0[i], out);
        else
            std::fill(out, out + 2 * K, 0.0f);
    }
}

// One entry per order, each built for AVX2 and for the baseline (chosen
// when the library loads): the same arithmetic, so the same LLRs on both.
#define GPURX_MAX_LOG_MANY(K)                                                                            \
    __attribute__((target_clones("avx2", "default"))) void max_log_many_##K(                             \
        const float* amp, const std::complex<float>* y, const float* n0, size_t n, float* llr)           \
    {                                                                                                    \
        max_log_many<K>(amp, y, n0, n, llr);                                                             \
    }
GPURX_MAX_LOG_MANY(1)
GPURX_MAX_LOG_MANY(2)
GPURX_MAX_LOG_MANY(3)
GPURX_MAX_LOG_MANY(4)
#undef GPURX_MAX_LOG_MANY

} // namespace

void axis_demapper::demap_many(const std::complex<float>* y, const float* n0, size_t n, float* llr) const
{
    if (!d_exact) {
        switch (d_bits) {
        case 2: return max_log_many_1(d_amp.data(), y, n0, n, llr);
        case 4: return max_log_many_2(d_amp.data(), y, n0, n, llr);
        case 6: return max_log_many_3(d_amp.data(), y, n0, n, llr);
        case 8: return max_log_many_4(d_amp.data(), y, n0, n, llr);
        default: break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        float* out = llr + i * size_t(d_bits);
        if (n0[i] > 0.0f)
            demap(y[i], n0[i], out);
        else
            std::fill(out, out + d_bits, 0.0f);
    }
}

void axis_demapper::demap_scaled(std::complex<float> y, float inv, float* llr) const
{
    if (!d_exact) {
        switch (d_bits) {
        case 2: return max_log_axes<1>(d_amp.data(), y, inv, llr);
        case 4: return max_log_axes<2>(d_amp.data(), y, inv, llr);
        case 6: return max_log_axes<3>(d_amp.data(), y, inv, llr);
        case 8: return max_log_axes<4>(d_amp.data(), y, inv, llr);
        default: break;
        }
    }
    const int k = d_bits / 2;
    for (int axis = 0; axis < 2; axis++) {
        const float v = axis ? y.imag() : y.real();
        float d[16];
        float min0[4], min1[4];
        for (int j = 0; j < k; j++)
            min0[j] = min1[j] = std::numeric_limits<float>::infinity();
        for (int p = 0; p < d_levels; p++) {
            const float e = v - d_amp[size_t(p)];
            d[p] = e * e;
            for (int j = 0; j < k; j++) {
                float& m = (p >> (k - 1 - j)) & 1 ? min1[j] : min0[j];
                m = d[p] < m ? d[p] : m;
            }
        }
        for (int j = 0; j < k; j++)
            llr[2 * j + axis] = (min0[j] - min1[j]) * inv;
        if (!d_exact)
            continue;
        // Exact: ln sum exp(-d/N0) per side, each sum taken relative to its
        // side's minimum (so it is >= 1 and exp() cannot underflow to 0):
        // the max-log value plus a correction.
        for (int j = 0; j < k; j++) {
            double s0 = 0, s1 = 0;
            for (int p = 0; p < d_levels; p++) {
                if ((p >> (k - 1 - j)) & 1)
                    s1 += std::exp(-double(d[p] - min1[j]) * inv);
                else
                    s0 += std::exp(-double(d[p] - min0[j]) * inv);
            }
            llr[2 * j + axis] += float(std::log(s1) - std::log(s0));
        }
    }
}

} // namespace qam
} // namespace core
} // namespace gpurx
} // namespace gr
