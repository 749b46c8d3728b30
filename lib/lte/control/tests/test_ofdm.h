/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A small OFDM demodulator for the control tests only (the receiver's own
// is lib/lte/grid/): a generator capture that starts at a subframe boundary,
// cut into symbols (cyclic prefix dropped), FFT, the subcarriers taken in
// 36.211 order, scaled back to the generator's unit-power REs; and the
// ideal channel of the generator's outputs (-o with 1 port, -S with 2:
// h = 1 from every port to the one antenna).
#ifndef INCLUDED_GPURX_LTE_CONTROL_TESTS_TEST_OFDM_H
#define INCLUDED_GPURX_LTE_CONTROL_TESTS_TEST_OFDM_H

#include "lte/common/resource_grid.h"

#include <fftw3.h>

#include <cmath>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

using core::lte::cf;

//! Subframe \p sf (counted from the file's start) of every antenna file.
inline core::lte::subframe_grid demodulate_subframe(const std::vector<std::vector<cf>>& rx, int n_prb, int sf,
                                                    int sfn_of_file_start = 0)
{
    using namespace core::lte;
    static std::mutex plan_mutex;
    const numerology nu{ standard_fft_size(n_prb), cyclic_prefix::normal };
    const int n = nu.fft_size, n_sc = 12 * n_prb;
    subframe_grid g;
    g.resize(int(rx.size()), 14, n_sc);
    g.time.subframe = sf % 10;
    g.time.sfn = (sfn_of_file_start + sf / 10) % 1024;
    std::vector<cf> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    fftwf_plan plan;
    {
        std::lock_guard<std::mutex> lock(plan_mutex);
        plan = fftwf_plan_dft_1d(n, reinterpret_cast<fftwf_complex*>(in.data()),
                                 reinterpret_cast<fftwf_complex*>(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
    }
    // The generator's IFFT is normalised by 1/sqrt(N) and scaled by
    // sqrt(N / (12 n_prb)): an unnormalised FFT returns N / sqrt(12 n_prb)
    // times the RE.
    const float scale = std::sqrt(float(n_sc)) / float(n);
    for (size_t a = 0; a < rx.size(); a++) {
        const size_t base = size_t(sf) * size_t(nu.subframe_samples());
        if (base + size_t(nu.subframe_samples()) > rx[a].size())
            throw std::runtime_error("capture too short for subframe " + std::to_string(sf));
        for (int l = 0; l < 14; l++) {
            const cf* s = rx[a].data() + base + size_t(nu.useful_start(l));
            std::copy(s, s + n, in.begin());
            fftwf_execute(plan);
            for (int k = 0; k < n_sc; k++)
                g.at(int(a), l, k) = out[size_t(fft_bin_of(k, n_sc, n))] * scale;
        }
    }
    {
        std::lock_guard<std::mutex> lock(plan_mutex);
        fftwf_destroy_plan(plan);
    }
    return g;
}

//! h = 1 from each of \p ports to each antenna, at every RE.
inline core::lte::channel_estimate ideal_channel(int n_rx, int ports, int n_sc, float noise_var = 1e-2f)
{
    core::lte::channel_estimate h;
    h.resize(n_rx, ports, 14, n_sc);
    for (auto& v : h.h)
        v = cf(1.0f, 0.0f);
    h.noise_var = noise_var;
    return h;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
