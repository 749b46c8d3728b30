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
#include "lte/grid/ofdm_demod.h"

#include <algorithm>


#include <cmath>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

//! One antenna's subframe into a plane of a grid, through the receiver's
//! own OFDM demodulator (grid/).
class test_ofdm_demod
{
public:
    explicit test_ofdm_demod(int fft_size) : d_n(fft_size) {}

    //! Antenna \p rx of \p grid (already sized) from the subframe whose
    //! first sample is \p sf (15 fft_size samples from there).
    void demodulate(const core::lte::cell& c, const core::lte::cf* sf, int rx, core::lte::subframe_grid& grid)
    {
        const core::lte::ofdm_demodulator demod(c, d_n, 1);
        demod.demodulate(sf, grid.time, d_one);
        for (int l = 0; l < c.symbols_per_subframe(); l++)
            std::copy(d_one.symbol(0, l), d_one.symbol(0, l) + c.n_sc(), grid.symbol(rx, l));
    }

private:
    int d_n;
    core::lte::subframe_grid d_one;
};

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
