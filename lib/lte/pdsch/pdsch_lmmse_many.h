/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The PDSCH's per-stream LMMSE (pdsch_precoding.h's effective_channel and
// lmmse_streams) over a whole allocation: two ports, one or two layers, one
// or two receive antennas, the precoder fixed (codebook) or large-delay CDD's
// alternating pair. Eight REs at a time in GCC's vector types (AVX2 where
// the CPU has it); the per-RE functions stay the reference, and the tests
// hold the two together.
#ifndef INCLUDED_GPURX_LTE_PDSCH_PDSCH_LMMSE_MANY_H
#define INCLUDED_GPURX_LTE_PDSCH_PDSCH_LMMSE_MANY_H

#include "lte/common/lte_cell.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct lmmse_many_args {
    const cf* y = nullptr; //!< [re][rx]
    const cf* h = nullptr; //!< [re][rx][port], 2 ports
    int n = 0;             //!< REs
    int nr = 1, nl = 1;    //!< receive antennas (1, 2), layers (1, 2; nl <= nr)
    float amp = 1.0f;      //!< the effective channel is amp h P
    float n0 = 1.0f;
    bool cdd = false;      //!< large-delay CDD (2 layers): P alternates with the RE index
    const cf* p = nullptr; //!< otherwise P[port * nl + layer]
    cf* z[2] = {};         //!< per layer: [re]
    float* n0_out[2] = {}; //!< per layer: [re]
};

/*!
 * For every RE i: heff = amp h_i P(i), then lmmse_streams(y_i, heff, nr,
 * nl, n0) into z[l][i], n0_out[l][i]. Throws std::invalid_argument naming
 * nr or nl outside what it covers.
 */
void lmmse_streams_many(const lmmse_many_args& a);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
