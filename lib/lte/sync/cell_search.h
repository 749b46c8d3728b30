/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Cell search on a buffer of samples at any standard LTE rate, the
// bandwidth unknown (the PSS and SSS sit on the central 62 subcarriers of
// every bandwidth):
//  1. decimate to 1.92 MS/s;
//  2. correlate with the three PSS, each shifted by whole subcarriers of
//     frequency offset (up to max_cfo_hz), by FFT, in two halves whose
//     magnitudes add (so half a subcarrier of offset costs little and the
//     halves' phase difference measures the fractional offset); fold the
//     result over 5 ms periods and normalise by the received energy;
//  3. for the best few (root, offset) peaks, detect the SSS (N_ID^(1), which
//     half-frame, normal or extended CP from where it sits), using the PSS
//     as the channel reference;
//  4. refine timing and frequency at the full rate from the PSS and SSS in
//     the frequency domain (sync_estimate.h).
#ifndef INCLUDED_GPURX_LTE_SYNC_CELL_SEARCH_H
#define INCLUDED_GPURX_LTE_SYNC_CELL_SEARCH_H

#include "lte/common/lte_cell.h"

#include <cstddef>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct search_options {
    //! Use at most this many 5 ms periods from the buffer's start (the rest
    //! is not looked at).
    int max_half_frames = 4;
    //! Integer frequency-offset hypotheses: whole subcarriers up to this
    //! (45 kHz: -3..+3 subcarriers).
    double max_cfo_hz = 45000.0;
    /*!
     * The folded, normalised PSS metric a peak needs (0..1). On complex
     * white noise the largest of all positions and hypotheses stays below
     * about 0.09 with 4 periods (test_sync measures it); a PSS at 0 dB
     * per-RE SNR gives about 0.25 or more.
     */
    double pss_threshold = 0.15;
    /*!
     * The SSS metric the best group needs (0..1: the coherent sum of the
     * SSS times its sequence over the sum of magnitudes). Noise gives about
     * 0.2 - 0.3 for the best of the 336 sequences, a clean SSS 1.
     */
    double sss_threshold = 0.45;
    int candidates = 4; //!< (root, offset) peaks checked with the SSS
};

struct cell_search_result {
    bool found = false;
    int cell_id = -1, n_id1 = -1, n_id2 = -1;
    cyclic_prefix cp = cyclic_prefix::normal;
    //! Index (at the buffer's rate) of the first sample of a subframe 0: the
    //! earliest at or after the buffer's start.
    long long frame_start = -1;
    double cfo_hz = 0.0;
    double pss_metric = 0.0; //!< the folded PSS metric of the peak (0..1)
    double sss_metric = 0.0; //!< the SSS metric of the detected group (0..1)
    int half_frames = 0;     //!< 5 ms periods the refinement used
    std::string reason;      //!< why nothing was found
};

/*!
 * Searches \p n samples of \p n_rx antennas (rx[a][0..n-1]) at
 * \p sample_rate, which must be 15 kHz times a multiple of 128 (1.92 ..
 * 30.72 MS/s); throws std::invalid_argument for a bad parameter. A buffer
 * without a cell, or too short (less than 5 ms and two symbols), gives
 * found = false with the reason.
 */
cell_search_result search_cell(const cf* const* rx,
                               int n_rx,
                               size_t n,
                               double sample_rate,
                               const search_options& options = search_options());

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
