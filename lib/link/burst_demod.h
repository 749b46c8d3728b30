/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One burst from the matched filter's samples, once the detector has found
// its preamble roughly and its frequency offset (docs/radio-link.md):
//   1. fine timing: the preamble's cross-correlation peak over +-window
//      samples, with a parabolic fraction; a peak too weak is a false alarm;
//   2. the symbols at t0 + k sps, by cubic interpolation;
//   3. the channel (symbol-spaced taps) and the noise from the preamble, an
//      MMSE equaliser;
//   4. phase from the pilot blocks: a residual frequency fitted over the
//      burst, each block's estimate smoothed with its neighbours' (+-3
//      blocks), interpolated between blocks; the gain is the equaliser's
//      unbiased scale, 1 (pilots, not decision feedback: at the
//      turbo code's operating SNR one symbol decision in ten is wrong, which
//      makes decision-directed loops slip; pilots cost 6 % of the symbols);
//   5. N0 from the equaliser's model and the pilots' residual.
#ifndef INCLUDED_GPURX_LINK_BURST_DEMOD_H
#define INCLUDED_GPURX_LINK_BURST_DEMOD_H

#include "link/burst_format.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

struct burst_result {
    double timing = 0.0; //!< the preamble's first symbol, in input samples
    double cfo = 0.0;    //!< carrier frequency offset, cycles per sample
    double corr = 0.0;   //!< normalised preamble correlation, 0..1
    float gain = 0.0f;   //!< data[d] = gain * s_d + n_d
    float n0 = 0.0f;     //!< E|n_d|^2
    float snr_db = 0.0f; //!< 10 log10(gain^2 / n0)
    int channel_taps = 0; //!< the channel taps found significant
    std::vector<cfloat> data; //!< fmt.data_symbols symbols, phase-corrected
};

struct demod_config {
    int sps = 4;
    int window = 0;          //!< fine timing search, +- samples (0: one repetition)
    double min_corr = 0.15;  //!< below: a false alarm
    int channel_span = 3;    //!< M: channel taps -M..M symbols
    int equalizer_half = 5;  //!< L: equaliser taps -L..L
};

//! The demodulator's buffers, kept from burst to burst by its caller: a
//! burst's allocations, returned and taken again, cost a page fault per
//! page each time once the allocator hands memory back to the system.
struct demod_scratch {
    std::vector<cfloat> y, z;
    std::vector<double> c2;
    std::vector<std::complex<double>> u;
};

//! Samples the demodulator needs around a burst whose preamble starts near
//! sample s: [s - before, s + after).
int demod_before(const demod_config& c, const burst_format& f);
int demod_after(const demod_config& c, const burst_format& f);

/*!
 * Demodulates the burst whose preamble starts near x[start] with frequency
 * offset \p cfo (cycles/sample); x must hold [start - demod_before, start +
 * demod_after). \p x_offset is the absolute index of x[0], for the result's
 * timing. Returns false (a false alarm) when the preamble is not there.
 */
bool demodulate_burst(const demod_config& c,
                      const burst_format& f,
                      const cfloat* x,
                      int64_t x_offset,
                      int start,
                      double cfo,
                      burst_result& r,
                      demod_scratch& scratch);

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
