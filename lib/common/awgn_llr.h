/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// BPSK over AWGN as channel LLRs, for simulations and benchmarks: a fast
// per-thread generator (xoshiro128+ and Box-Muller), bit 1 -> +1, Es = 1,
// LLR = 4 y / N0 (positive for 1, GNU Radio's convention).
#ifndef INCLUDED_GPURX_CORE_AWGN_LLR_H
#define INCLUDED_GPURX_CORE_AWGN_LLR_H

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

class awgn_llr_source
{
public:
    explicit awgn_llr_source(uint64_t seed)
    {
        uint64_t z = seed * 0x9E3779B97F4A7C15ull + 1;
        for (auto& s : d_s) {
            z ^= z >> 31;
            z *= 0xBF58476D1CE4E5B9ull;
            s = uint32_t(z >> 17) | 1u;
        }
    }
    uint32_t next()
    {
        const uint32_t r = d_s[0] + d_s[3];
        const uint32_t t = d_s[1] << 9;
        d_s[2] ^= d_s[0];
        d_s[3] ^= d_s[1];
        d_s[1] ^= d_s[2];
        d_s[0] ^= d_s[3];
        d_s[2] ^= t;
        d_s[3] = (d_s[3] << 11) | (d_s[3] >> 21);
        return r;
    }
    //! n LLRs for the bits c[0..n) at Es/N0 = esn0_db.
    void llrs(const uint8_t* c, size_t n, double esn0_db, float* out)
    {
        const float n0 = float(std::pow(10.0, -esn0_db / 10.0));
        const float sigma = std::sqrt(n0 / 2), gain = 4.0f / n0;
        for (size_t i = 0; i < n; i += 2) {
            // Box-Muller: two normals per pair of uniforms.
            const float u1 = (float(next() >> 8) + 1.0f) * (1.0f / 16777217.0f);
            const float u2 = float(next() >> 8) * (1.0f / 16777216.0f);
            const float r = std::sqrt(-2.0f * std::log(u1)) * sigma;
            const float a = 6.28318530718f * u2;
            out[i] = gain * ((c[i] ? 1.0f : -1.0f) + r * std::cos(a));
            if (i + 1 < n)
                out[i + 1] = gain * ((c[i + 1] ? 1.0f : -1.0f) + r * std::sin(a));
        }
    }

private:
    uint32_t d_s[4];
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
