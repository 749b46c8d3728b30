/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The staging check of the blocks that feed the MIMO detector (mimo_adapter,
// idd_adapter): H and y must stay within max_input_component() for the
// detector's metrics to stay within float's range.
#ifndef INCLUDED_GPURX_BLOCKS_MIMO_BOUNDED_COPY_H
#define INCLUDED_GPURX_BLOCKS_MIMO_BOUNDED_COPY_H

#include <cmath>
#include <cstddef>

namespace gr {
namespace gpurx {

//! Copies \p n floats, refusing NaN, Inf and magnitudes beyond \p limit:
//! returns the index of the first such float, or n.
inline size_t copy_bounded(const float* src, size_t n, double limit, float* dst)
{
    for (size_t i = 0; i < n; i++) {
        if (!(std::fabs(src[i]) <= limit)) // false for NaN too
            return i;
        dst[i] = src[i];
    }
    return n;
}

} // namespace gpurx
} // namespace gr

#endif
