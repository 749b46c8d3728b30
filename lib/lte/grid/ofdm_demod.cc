/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/grid/ofdm_demod.h"

#include "ofdm/ofdm_fft.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

ofdm_demodulator::ofdm_demodulator(const cell& c, int fft_size, int n_rx, int window_advance)
    : d_cell(c), d_rx(n_rx)
{
    const std::string bad = c.check();
    if (!bad.empty())
        throw std::invalid_argument(bad);
    if (fft_size < c.n_sc() + 1 || fft_size < 128)
        throw std::invalid_argument("fft_size=" + std::to_string(fft_size) + " is too small for " +
                                    std::to_string(c.n_prb) + " PRB");
    if (n_rx < 1)
        throw std::invalid_argument("n_rx=" + std::to_string(n_rx) + " is not at least 1");
    d_num.fft_size = fft_size;
    d_num.cp = c.cp;
    // The shortest prefix: normal CP's symbols 1..6, or the extended one.
    const int shortest = d_num.cp_length(1);
    if (window_advance < 0)
        window_advance = shortest / 4;
    if (window_advance > shortest)
        throw std::invalid_argument("window_advance=" + std::to_string(window_advance) +
                                    " is longer than the cyclic prefix (" + std::to_string(shortest) + ")");
    d_advance = window_advance;
    const int n_sc = c.n_sc();
    const float scale = std::sqrt(float(n_sc)) / float(fft_size);
    d_bin.resize(size_t(n_sc));
    d_factor.resize(size_t(n_sc));
    for (int k = 0; k < n_sc; k++) {
        d_bin[size_t(k)] = fft_bin_of(k, n_sc, fft_size);
        d_factor[size_t(k)] = demod_bin_factor(d_bin[size_t(k)], fft_size, d_advance, scale);
    }
}

void ofdm_demodulator::demodulate(const cf* const* rx, const subframe_time& t, subframe_grid& grid) const
{
    const int n_sym = d_cell.symbols_per_subframe(), n_sc = d_cell.n_sc(), n = d_num.fft_size;
    if (grid.n_rx != d_rx || grid.n_symbols != n_sym || grid.n_sc != n_sc ||
        grid.re.size() != size_t(d_rx) * size_t(n_sym) * size_t(n_sc))
        grid.resize(d_rx, n_sym, n_sc);
    grid.time = t;
    std::vector<cf> out(static_cast<size_t>(n));
    for (int a = 0; a < d_rx; a++)
        for (int l = 0; l < n_sym; l++) {
            ofdm::fft(rx[a] + d_num.useful_start(l) - d_advance, out.data(), size_t(n), false);
            cf* dst = grid.symbol(a, l);
            for (int k = 0; k < n_sc; k++)
                dst[k] = out[size_t(d_bin[size_t(k)])] * d_factor[size_t(k)];
        }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
