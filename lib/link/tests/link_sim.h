/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A small transmitter and channel for the burst receiver's tests, written
// from the textbook definitions: root-raised-cosine shaping, a fractional
// delay by windowed sinc, sample-spaced multipath, a frequency offset and
// complex white noise.
#ifndef INCLUDED_GPURX_LINK_TESTS_LINK_SIM_H
#define INCLUDED_GPURX_LINK_TESTS_LINK_SIM_H

#include "link/burst_format.h"

#include <complex>
#include <random>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

using core::link::cfloat;

//! Unit-energy root-raised-cosine taps, span symbols long (span*sps + 1 taps).
std::vector<float> rrc_taps(int sps, double alpha, int span);

std::vector<cfloat> convolve(const std::vector<cfloat>& x, const std::vector<float>& h);
std::vector<cfloat> convolve(const std::vector<cfloat>& x, const std::vector<cfloat>& h);

//! Symbols to samples: upsampling by sps and shaping.
std::vector<cfloat> shape(const std::vector<cfloat>& symbols, int sps, const std::vector<float>& rrc);

struct channel {
    double cfo = 0.0;                 //!< cycles/sample
    double delay = 0.0;               //!< samples, may be fractional
    std::vector<cfloat> taps{ { 1.0f, 0.0f } }; //!< sample spaced, unit energy
    double n0 = 0.0;                  //!< noise variance per sample
    double phase = 0.0;               //!< initial carrier phase
};

std::vector<cfloat> apply(const channel& c, const std::vector<cfloat>& x, std::mt19937_64& rng);

//! Random QPSK (qm 2) or 16-QAM (qm 4) unit-energy symbols.
std::vector<cfloat> random_symbols(int n, int qm, std::mt19937_64& rng);

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
