/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Carrier frequency offset: removing it (a phase-continuous mixer) and
// measuring it from the cyclic prefix, which repeats the symbol's last
// samples fft_size samples earlier, so their product's angle is the phase
// the offset turns in one FFT length (range +-half a subcarrier).
#ifndef INCLUDED_GPURX_LTE_SYNC_CFO_H
#define INCLUDED_GPURX_LTE_SYNC_CFO_H

#include "lte/common/lte_cell.h"

#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

/*!
 * out[i] = in[i] exp(j (phase + step i)), i = 0..n-1 (in and out may be the
 * same). VOLK's rotator turns each block of 1024 samples; the block's first
 * phasor is computed exactly (in double), so the error does not grow with
 * n.
 */
void mix(const cf* in, cf* out, size_t n, double phase, double step);

/*!
 * Sum over the symbols of the subframe starting at \p subframe of
 * sum_{cp} r[i] conj(r[i + fft_size]): its angle is -2 pi cfo fft_size / fs.
 */
std::complex<double> cp_correlation(const cf* subframe, const numerology& nu);

//! The CFO in Hz that a cp_correlation() sum says (0 for a zero sum).
double cfo_of_cp_correlation(std::complex<double> c, const numerology& nu);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
