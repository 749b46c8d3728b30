/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// After a successful cell search: cuts the sample stream into time-aligned,
// frequency-corrected subframes and keeps them aligned.
//  - Frequency: every subframe's cyclic prefixes measure the offset left
//    after correction (cfo.h); a small share of it goes into the estimate.
//  - Timing: in subframes 0 and 5 the PSS and SSS (known from the search)
//    measure where the subframe really starts, in the frequency domain
//    (sync_estimate.h); a second-order loop corrects the position and the
//    samples per subframe, so a sampling-rate offset (+-20 ppm: 0.6 samples
//    per ms at 30.72 MS/s) is followed by starting a subframe one sample
//    earlier or later now and then (a sample dropped or repeated).
//  - A known gap (feed_gap): the subframes it touches are reported lost,
//    never cut across it; the next PSS is searched for near where it
//    should be before more subframes go out.
//  - The PSS too weak for max_missed_pss half-frames in a row: the track is
//    lost, reported once; search again and start a new tracker.
#ifndef INCLUDED_GPURX_LTE_SYNC_SUBFRAME_TRACKER_H
#define INCLUDED_GPURX_LTE_SYNC_SUBFRAME_TRACKER_H

#include "lte/common/lte_cell.h"
#include "lte/sync/cell_search.h"
#include "lte/sync/sss.h"
#include "lte/sync/sync_fft.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct tracker_options {
    double cfo_gain = 0.1;    //!< share of each subframe's CP measurement taken
    double timing_gain = 0.5; //!< share of a PSS timing error corrected at once
    double rate_gain = 0.1;   //!< share (per 5 ms) that goes into the samples per subframe
    //! The per-half-frame PSS metric (sync_accumulator::pss_metric, about 0.5
    //! at 0 dB per-RE SNR, 1/62 for noise) below which the PSS counts as missed.
    double pss_threshold = 0.12;
    int max_missed_pss = 4;      //!< missed half-frames in a row: track lost
    int reacquire_window = 0;    //!< +-samples searched after a gap; 0: fft_size / 4
};

enum class subframe_status {
    ok,         //!< rx holds the subframe
    lost,       //!< a gap touched it: no samples
    track_lost, //!< the PSS was lost: nothing follows; search again
};

struct tracked_subframe {
    subframe_status status = subframe_status::ok;
    int subframe = 0;            //!< 0..9 (from the SSS; the SFN comes from the MIB)
    long long counter = 0;       //!< subframes since the tracker started, lost ones included
    long long start_sample = 0;  //!< stream index (gaps counted) of its first sample
    double cfo_hz = 0.0;         //!< the offset removed from it
    double residual_cfo_hz = 0.0; //!< its own CP measurement after the removal
    double timing_error = 0.0;   //!< the last PSS timing measurement (samples, before correction)
    double pss_metric = 0.0;     //!< subframes 0 and 5: the PSS metric; else 0
    double samples_per_subframe = 0.0; //!< the current estimate (fs/1000 without rate offset)
    std::vector<std::vector<cf>> rx; //!< [antenna][fs/1000 samples] when ok
    std::string reason;          //!< for lost and track_lost
};

class subframe_tracker
{
public:
    /*!
     * Starts from \p found (found must be true) for \p n_rx antennas at
     * \p sample_rate (the search's). \p stream_offset: the stream index
     * (as fed to this tracker, from 0) of the first sample of the buffer
     * the search looked at. Throws std::invalid_argument for a bad parameter.
     */
    subframe_tracker(const cell_search_result& found,
                     int n_rx,
                     double sample_rate,
                     long long stream_offset = 0,
                     const tracker_options& options = tracker_options());
    ~subframe_tracker();

    //! Feeds \p n samples per antenna (rx[a][0..n-1]); returns what was completed.
    std::vector<tracked_subframe> feed(const cf* const* rx, size_t n);
    //! \p samples_lost samples are missing from the stream here.
    std::vector<tracked_subframe> feed_gap(size_t samples_lost);

    bool tracking() const { return d_tracking; }
    long long lost_subframes() const { return d_lost; }
    double cfo_hz() const { return d_cfo; }
    double samples_per_subframe() const { return d_period; }

private:
    void emit_ready(std::vector<tracked_subframe>& out);
    bool reacquire();
    void measure_pss(tracked_subframe& t, long long start);
    tracked_subframe next_record(subframe_status s);

    numerology d_nu;
    int d_n_rx, d_n_id2, d_n_id1;
    double d_fs;
    tracker_options d_opt;
    std::array<cf, SYNC_LENGTH> d_pss;
    std::array<std::array<float, SYNC_LENGTH>, 2> d_sss;
    std::vector<cf> d_pss_time;
    std::unique_ptr<sync_fft> d_fft;

    std::vector<std::vector<cf>> d_buf; // [antenna] from d_buf_start
    long long d_buf_start = 0;
    double d_next = 0.0;   // stream index of the next subframe's start
    double d_period = 0.0; // samples per subframe
    int d_sf = 0;          // the next subframe's index
    long long d_counter = 0, d_lost = 0;
    double d_cfo = 0.0, d_phase = 0.0, d_last_residual = 0.0, d_last_timing = 0.0;
    long long d_phase_at = 0;
    int d_missed = 0;
    bool d_tracking = true, d_reacquire = false;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
