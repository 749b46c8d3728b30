/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A small OFDM demodulator for the PDSCH tests only (the receiver's own is
// written in grid/): the subframe's symbols cut at their cyclic prefixes,
// one FFT each, the cell's subcarriers picked by fft_bin_of() and scaled
// so that a unit-power RE of lte_dl_gen (a normalised IFFT times
// sqrt(N / 12 n_prb)) comes back with unit power.
#ifndef INCLUDED_GPURX_LTE_PDSCH_TESTS_LTE_TEST_OFDM_H
#define INCLUDED_GPURX_LTE_PDSCH_TESTS_LTE_TEST_OFDM_H

#include "lte/common/resource_grid.h"

#include <fftw3.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

class test_ofdm_demod
{
public:
    explicit test_ofdm_demod(int fft_size) : d_n(fft_size)
    {
        d_in = fftwf_alloc_complex(size_t(d_n));
        d_out = fftwf_alloc_complex(size_t(d_n));
        static std::mutex plan_mutex; // FFTW's planner is not thread-safe
        std::lock_guard<std::mutex> lock(plan_mutex);
        d_plan = fftwf_plan_dft_1d(d_n, d_in, d_out, FFTW_FORWARD, FFTW_ESTIMATE);
    }
    ~test_ofdm_demod()
    {
        fftwf_destroy_plan(d_plan);
        fftwf_free(d_in);
        fftwf_free(d_out);
    }
    test_ofdm_demod(const test_ofdm_demod&) = delete;
    test_ofdm_demod& operator=(const test_ofdm_demod&) = delete;

    //! Antenna \p rx of \p grid (already sized) from the subframe whose
    //! first sample is \p sf (15 fft_size samples from there).
    void demodulate(const core::lte::cell& c,
                    const core::lte::cf* sf,
                    int rx,
                    core::lte::subframe_grid& grid)
    {
        const core::lte::numerology nu{ d_n, c.cp };
        const float scale = std::sqrt(float(c.n_sc())) / float(d_n);
        for (int l = 0; l < c.symbols_per_subframe(); l++) {
            std::memcpy(
                d_in, sf + nu.useful_start(l), sizeof(fftwf_complex) * size_t(d_n));
            fftwf_execute(d_plan);
            core::lte::cf* out = grid.symbol(rx, l);
            for (int k = 0; k < c.n_sc(); k++) {
                const int b = core::lte::fft_bin_of(k, c.n_sc(), d_n);
                out[k] = core::lte::cf(d_out[b][0], d_out[b][1]) * scale;
            }
        }
    }

private:
    int d_n;
    fftwf_complex *d_in, *d_out;
    fftwf_plan d_plan;
};

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
