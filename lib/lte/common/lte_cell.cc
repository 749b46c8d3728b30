/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/common/lte_cell.h"

#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

bool is_standard_n_prb(int n_prb)
{
    for (int n : standard_n_prb)
        if (n == n_prb)
            return true;
    return false;
}

std::string cell::check() const
{
    if (!is_standard_n_prb(n_prb))
        return "n_prb=" + std::to_string(n_prb) + " is not a standard bandwidth (6, 15, 25, 50, 75, 100)";
    if (cell_id < 0 || cell_id > 503)
        return "cell_id=" + std::to_string(cell_id) + " is outside 0..503";
    if (ports != 1 && ports != 2 && ports != 4)
        return "ports=" + std::to_string(ports) + " is not 1, 2 or 4";
    return {};
}

int control_symbols(const cell& c, int cfi)
{
    if (cfi < 1 || cfi > 3)
        throw std::invalid_argument("cfi=" + std::to_string(cfi) + " is not 1, 2 or 3");
    return c.n_prb <= 10 ? cfi + 1 : cfi;
}

int numerology::cp_length(int l) const
{
    if (cp == cyclic_prefix::extended)
        return 512 * fft_size / 2048;
    return (l == 0 ? 160 : 144) * fft_size / 2048;
}

int numerology::symbol_start(int l) const
{
    const int per_slot = symbols_per_slot();
    const int slot = l / per_slot;
    int n = slot * (subframe_samples() / 2);
    for (int i = 0; i < l % per_slot; i++)
        n += cp_length(i) + fft_size;
    return n;
}

int standard_fft_size(int n_prb)
{
    switch (n_prb) {
    case 6: return 128;
    case 15: return 256;
    case 25: return 512;
    case 50: return 1024;
    case 75: return 1536;
    case 100: return 2048;
    default:
        throw std::invalid_argument("n_prb=" + std::to_string(n_prb) +
                                    " is not a standard bandwidth (6, 15, 25, 50, 75, 100)");
    }
}

int fft_size_of_rate(double sample_rate)
{
    const double n = sample_rate / 15000.0;
    const double r = std::round(n);
    if (r < 128 || std::fabs(n - r) > 1e-6 * n)
        return 0;
    return int(r);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
