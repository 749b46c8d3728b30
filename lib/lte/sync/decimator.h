/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Down to 1.92 MS/s for cell search: the PSS and SSS use the 62 subcarriers
// around DC (+-465 kHz) at every bandwidth, so a low-pass filter and every
// D-th sample keep them, with room for +-45 kHz of frequency offset.
#ifndef INCLUDED_GPURX_LTE_SYNC_DECIMATOR_H
#define INCLUDED_GPURX_LTE_SYNC_DECIMATOR_H

#include "lte/common/lte_cell.h"

#include <cstddef>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

/*!
 * y[m] = sum_i h[i] x[m D + i], i = -8D..8D: a zero-phase Blackman-windowed
 * sinc with its -6 dB point at 950 kHz (flat to about 600 kHz, below
 * -70 dB from about 1.3 MHz, so nothing aliases onto the central 1.1 MHz),
 * so y[m] lines up with x[m D]. Samples outside x count as zero. D = 1
 * copies. Output length ceil(n / D).
 */
std::vector<cf> decimate(const cf* x, size_t n, int factor);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
