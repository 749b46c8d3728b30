/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "link/burst_format.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

namespace {
constexpr int max_data_symbols = 1 << 20;
// Pilot blocks kept precomputed: enough for the largest burst.
constexpr int max_pilot_blocks = max_data_symbols / burst_format::pilot_spacing + 2;

std::vector<cfloat> make_preamble()
{
    // Chu sequence for even length: exp(-j pi u n^2 / N), constant amplitude
    // and zero periodic autocorrelation off lag 0.
    std::vector<cfloat> zc(burst_format::zc_len);
    const double pi = std::acos(-1.0);
    for (int n = 0; n < burst_format::zc_len; n++) {
        const double ph = -pi * burst_format::zc_root * double(n) * n / burst_format::zc_len;
        zc[n] = cfloat(float(std::cos(ph)), float(std::sin(ph)));
    }
    static constexpr float sign[burst_format::repetitions] = { 1.0f, 1.0f, -1.0f, 1.0f };
    std::vector<cfloat> p;
    for (int r = 0; r < burst_format::repetitions; r++)
        for (int n = 0; n < burst_format::zc_len; n++)
            p.push_back(sign[r] * zc[n]);
    return p;
}

std::vector<cfloat> make_pilots()
{
    // PN9 (x^9 + x^5 + 1), seeded with ones: two bits per QPSK symbol.
    unsigned s = 0x1ff;
    auto bit = [&s]() {
        const unsigned b = ((s >> 8) ^ (s >> 4)) & 1u;
        s = ((s << 1) | b) & 0x1ffu;
        return b;
    };
    const float a = float(1.0 / std::sqrt(2.0));
    std::vector<cfloat> p(size_t(max_pilot_blocks) * burst_format::pilot_len);
    for (auto& v : p) {
        const unsigned b0 = bit(), b1 = bit();
        v = cfloat(b0 ? -a : a, b1 ? -a : a);
    }
    return p;
}
} // namespace

burst_format::burst_format(int n) : data_symbols(n)
{
    if (n < 1 || n > max_data_symbols)
        throw std::invalid_argument("data_symbols must be in 1.." + std::to_string(max_data_symbols) +
                                    ", got " + std::to_string(n));
}

const std::vector<cfloat>& preamble_symbols()
{
    static const std::vector<cfloat> p = make_preamble();
    return p;
}

const cfloat* pilot_symbols(int j)
{
    static const std::vector<cfloat> p = make_pilots();
    return p.data() + size_t(j) * burst_format::pilot_len;
}

std::vector<cfloat> build_burst(const burst_format& fmt, const cfloat* data)
{
    std::vector<cfloat> b(static_cast<size_t>(fmt.burst_len()), cfloat(0.0f, 0.0f));
    cfloat* core = b.data() + burst_format::guard;
    const auto& pre = preamble_symbols();
    std::copy(pre.begin(), pre.end(), core);
    for (int j = 0; j < fmt.pilot_blocks(); j++) {
        const cfloat* p = pilot_symbols(j);
        std::copy(p, p + burst_format::pilot_len, core + fmt.pilot_start(j));
    }
    for (int d = 0; d < fmt.data_symbols; d++)
        core[fmt.data_index(d)] = data[d];
    return b;
}

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr
