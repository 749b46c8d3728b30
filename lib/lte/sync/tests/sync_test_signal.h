/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Helpers of the sync tests: complex white noise, a capture's truth read
// back, and a synthetic downlink built in the test from 36.211 (the
// generator makes normal CP only): PSS in the last symbol of slots 0 and 10,
// SSS in the symbol before, random QPSK on every other resource element of
// the band, any cyclic prefix, OFDM by a direct inverse DFT of the occupied
// subcarriers.
#ifndef INCLUDED_GPURX_LTE_SYNC_TESTS_SYNC_TEST_SIGNAL_H
#define INCLUDED_GPURX_LTE_SYNC_TESTS_SYNC_TEST_SIGNAL_H

#include "lte/common/lte_cell.h"
#include "lte/common/tests/lte_capture.h"
#include "lte/sync/pss.h"
#include "lte/sync/sss.h"

#include <cmath>
#include <random>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

using core::lte::cf;

inline std::vector<cf> white_noise(size_t n, float power, uint32_t seed)
{
    std::mt19937 g(seed);
    std::normal_distribution<float> d(0.0f, std::sqrt(power / 2.0f));
    std::vector<cf> v(n);
    for (auto& x : v)
        x = cf(d(g), d(g));
    return v;
}

//! The sample where the first subframe 0 of a capture starts (the truth's).
inline long long truth_frame_start(const lte_capture& c)
{
    for (const auto& t : c.truth)
        if (t["sf_idx"].get<int>() == 0)
            return t["sample_offset"].get<long long>();
    return -1;
}

/*!
 * \p n_subframes subframes of a cell with \p n_prb PRBs at FFT size
 * \p fft_size and cyclic prefix \p cp, starting with subframe
 * \p first_subframe, after \p lead zero samples, times exp(j 2 pi cfo n/fs).
 */
inline std::vector<cf> synthetic_downlink(int cell_id,
                                          core::lte::cyclic_prefix cp,
                                          int n_prb,
                                          int fft_size,
                                          int n_subframes,
                                          int first_subframe,
                                          size_t lead,
                                          double cfo_hz,
                                          uint32_t seed)
{
    using namespace core::lte;
    const numerology nu{ fft_size, cp };
    const int n_sc = 12 * n_prb, per_slot = nu.symbols_per_slot();
    const auto pss = pss_sequence(cell_id % 3);
    std::mt19937 g(seed);
    std::vector<cf> out(lead + size_t(n_subframes) * size_t(nu.subframe_samples()), cf(0.0f, 0.0f));
    std::vector<cf> grid(static_cast<size_t>(fft_size));
    const float q = float(M_SQRT1_2);
    for (int s = 0; s < n_subframes; s++) {
        const int sf = (first_subframe + s) % 10;
        const auto sss = sss_sequence(cell_id / 3, cell_id % 3, sf == 5);
        for (int l = 0; l < 2 * per_slot; l++) {
            std::fill(grid.begin(), grid.end(), cf(0.0f, 0.0f));
            for (int k = 0; k < n_sc; k++)
                grid[size_t(fft_bin_of(k, n_sc, fft_size))] = cf(g() & 1 ? q : -q, g() & 1 ? q : -q);
            if ((sf == 0 || sf == 5) && (l == per_slot - 1 || l == per_slot - 2)) {
                // §6.11.1.2 / §6.11.2.2: n = 0..61 on k = n - 31 + N_sc/2; the
                // five subcarriers each side are reserved (left empty).
                for (int n = -5; n < 67; n++) {
                    const int k = n - 31 + n_sc / 2;
                    cf v(0.0f, 0.0f);
                    if (n >= 0 && n < 62)
                        v = l == per_slot - 1 ? pss[size_t(n)] : cf(sss[size_t(n)], 0.0f);
                    grid[size_t(fft_bin_of(k, n_sc, fft_size))] = v;
                }
            }
            const int cpl = nu.cp_length(l % per_slot);
            const size_t start = lead + size_t(s) * size_t(nu.subframe_samples()) + size_t(nu.symbol_start(l));
            for (int i = -cpl; i < fft_size; i++) {
                std::complex<double> acc(0.0, 0.0);
                for (int k = 0; k < n_sc; k++) {
                    const int b = fft_bin_of(k, n_sc, fft_size);
                    const int bb = b < fft_size / 2 ? b : b - fft_size;
                    const double a = 2.0 * M_PI * double((long(bb) * (i + fft_size)) % fft_size) / fft_size;
                    acc += std::complex<double>(grid[size_t(b)]) * std::complex<double>(std::cos(a), std::sin(a));
                }
                out[start + size_t(i + cpl)] = cf(acc / std::sqrt(double(fft_size)));
            }
        }
    }
    const double fs = nu.sample_rate();
    for (size_t i = 0; i < out.size(); i++) {
        const double a = 2.0 * M_PI * cfo_hz * double(i) / fs;
        out[i] *= cf(float(std::cos(a)), float(std::sin(a)));
    }
    return out;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
