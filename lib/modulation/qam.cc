/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "modulation/qam.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace qam {

modulation modulation_of_bits(int bits)
{
    if (bits == 2 || bits == 4 || bits == 6 || bits == 8)
        return modulation(bits);
    throw std::invalid_argument("bits_per_symbol must be 2, 4, 6 or 8, got " +
                                std::to_string(bits));
}

modulation parse_modulation(const std::string& name)
{
    if (name == "qpsk")
        return modulation::qpsk;
    if (name == "16qam")
        return modulation::qam16;
    if (name == "64qam")
        return modulation::qam64;
    if (name == "256qam")
        return modulation::qam256;
    throw std::invalid_argument(
        "modulation must be \"qpsk\", \"16qam\", \"64qam\" or \"256qam\", got \"" + name +
        "\"");
}

const char* modulation_name(modulation m)
{
    switch (m) {
    case modulation::qpsk:
        return "qpsk";
    case modulation::qam16:
        return "16qam";
    case modulation::qam64:
        return "64qam";
    default:
        return "256qam";
    }
}

namespace {

// One axis of 36.211 7.1: with the axis bits a(0) (sign), a(1), ..., a(k-1),
// the amplitude is (1-2a(0)) (2^(k-1) - (1-2a(1)) (2^(k-2) - ... (1-2a(k-1)))),
// e.g. 64-QAM: I = (1-2b(0)) (4 - (1-2b(2)) (2 - (1-2b(4)))). The in-phase
// axis takes the even bits, the quadrature axis the odd ones.
double axis_amplitude(const uint8_t* b, int first, int k)
{
    double t = 1.0;
    for (int j = k - 1; j >= 1; j--) {
        t *= 1.0 - 2.0 * b[first + 2 * j];
        t = double(1 << (k - j)) - t;
    }
    return t * (1.0 - 2.0 * b[first]);
}

constellation build(modulation m)
{
    const int bits = bits_per_symbol(m), k = bits / 2;
    // Average energy of the unnormalised grid: 2 (4^k - 1) / 3 (2, 10, 42, 170).
    const double scale = 1.0 / std::sqrt(2.0 * double((1 << (2 * k)) - 1) / 3.0);
    constellation c{ m, bits, {} };
    uint8_t b[8];
    for (int idx = 0; idx < (1 << bits); idx++) {
        for (int i = 0; i < bits; i++)
            b[i] = uint8_t((idx >> (bits - 1 - i)) & 1);
        c.points.emplace_back(scale * axis_amplitude(b, 0, k),
                              scale * axis_amplitude(b, 1, k));
    }
    return c;
}

} // namespace

const constellation& constellation_of(modulation m)
{
    static const constellation all[4] = { build(modulation::qpsk),
                                          build(modulation::qam16),
                                          build(modulation::qam64),
                                          build(modulation::qam256) };
    return all[bits_per_symbol(modulation_of_bits(int(m))) / 2 - 1];
}

std::complex<double> map_bits(modulation m, const uint8_t* b)
{
    const int bits = bits_per_symbol(m);
    int idx = 0;
    for (int i = 0; i < bits; i++)
        idx = (idx << 1) | (b[i] & 1);
    return constellation_of(m).points[idx];
}

void demap_max_log(const constellation& c, std::complex<double> y, double n0, float* llr)
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    double min0[8], min1[8];
    for (int i = 0; i < c.bits; i++)
        min0[i] = min1[i] = inf;
    for (size_t idx = 0; idx < c.points.size(); idx++) {
        const double d = std::norm(y - c.points[idx]);
        for (int i = 0; i < c.bits; i++) {
            double& m = (idx >> (c.bits - 1 - i)) & 1 ? min1[i] : min0[i];
            if (d < m)
                m = d;
        }
    }
    for (int i = 0; i < c.bits; i++)
        llr[i] = float((min0[i] - min1[i]) / n0);
}

} // namespace qam
} // namespace core
} // namespace gpurx
} // namespace gr
