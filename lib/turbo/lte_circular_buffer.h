/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The turbo code's circular buffer (36.212 §5.1.4.1.1-2): the three
// sub-block interleavers and the bit collection, as index arithmetic, one
// definition for g++ and nvcc (lte_rate_match and the shared channel's
// rate matching on both backends).
#ifndef INCLUDED_GPURX_TURBO_LTE_CIRCULAR_BUFFER_H
#define INCLUDED_GPURX_TURBO_LTE_CIRCULAR_BUFFER_H

#include "common/host_device.h"

namespace gr {
namespace gpurx {
namespace core {
namespace turbo {

constexpr int SUBBLOCK_COLUMNS = 32; //!< C_subblock^TC

//! R_subblock^TC of a code block of K: rows of each stream's interleaver.
GPURX_HD int subblock_rows(int K) { return (K + 4 + SUBBLOCK_COLUMNS - 1) / SUBBLOCK_COLUMNS; }
//! K_w = 3 K_Pi: the circular buffer's length.
GPURX_HD int circular_length(int K) { return 3 * SUBBLOCK_COLUMNS * subblock_rows(K); }

//! Inter-column permutation P of the sub-block interleaver (Table 5.1.4-1):
//! bit-reversal of the 5-bit column number.
GPURX_HD int column_permutation(int j)
{
    return ((j & 1) << 4) | ((j & 2) << 2) | (j & 4) | ((j & 8) >> 2) | ((j & 16) >> 4);
}

/*!
 * Circular-buffer position w of a code block of K with F filler bits: the
 * codeword position 3k+i of d(i)_k it carries, or -1 for a <NULL> (a dummy
 * bit of the sub-block interleaver, or a filler bit of d(0) or d(1)).
 */
GPURX_HD int circular_to_codeword(int K, int F, int w)
{
    const int R = subblock_rows(K);
    const int Kpi = R * SUBBLOCK_COLUMNS;
    const int dummies = Kpi - (K + 4);
    int i, k;
    if (w < Kpi) {
        i = 0;
        k = w;
    } else {
        i = 1 + ((w - Kpi) & 1);
        k = (w - Kpi) >> 1;
    }
    int y = column_permutation(k / R) + SUBBLOCK_COLUMNS * (k % R);
    if (i == 2)
        y = (y + 1) % Kpi;
    const int d = y - dummies;
    if (d < 0 || (i < 2 && d < F))
        return -1;
    return 3 * d + i;
}

} // namespace turbo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
