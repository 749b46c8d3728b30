/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/mimo_training.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

mimo_training::mimo_training(int nt_, int used_, int repeats_) : nt(nt_), used(used_), repeats(repeats_)
{
    if (nt != 1 && nt != 2 && nt != 4 && nt != 8)
        throw std::invalid_argument("nt must be 1, 2, 4 or 8 (a Hadamard order), got " + std::to_string(nt));
    if (used < 1 || used > 65536)
        throw std::invalid_argument("used subcarriers must be in 1..65536, got " + std::to_string(used));
    if (repeats < 1 || repeats > 16)
        throw std::invalid_argument("training repeats must be in 1..16, got " + std::to_string(repeats));
    // Zadoff-Chu of odd length N >= used (root 1), cut to the used carriers:
    // constant modulus, flat spectrum, low peak-to-average after the IFFT.
    const int n = used % 2 ? used : used + 1;
    const double pi = std::acos(-1.0);
    d_l.resize(size_t(used));
    for (int k = 0; k < used; k++) {
        const double ph = -pi * double(k) * double(k + 1) / n;
        d_l[k] = cfloat(float(std::cos(ph)), float(std::sin(ph)));
    }
}

float mimo_training::cover(int j, int c) const
{
    // Sylvester's Hadamard matrix: (-1)^popcount(j & c).
    return __builtin_parity(unsigned(j & c)) ? -1.0f : 1.0f;
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
