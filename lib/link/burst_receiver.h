/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The burst receiver over a continuous stream of matched-filter samples:
// it finds each burst by the preamble's repetition (an autocorrelation at a
// lag of one repetition, D = zc_len sps samples, which no frequency offset
// or channel destroys), takes the coarse start and the frequency offset from
// the metric's peak, and hands the burst to demodulate_burst. Samples in,
// bursts out; it knows nothing of GNU Radio.
//
// The metric at sample n, with A(n) = sum_(i<D) conj(y(n+i)) y(n+i+D):
//   P(n) = A(n) - A(n+D) - A(n+2D)   (the signs + + - + of the repetitions)
//   m(n) = |P(n)| / (3/4 sum_(i<4D) |y(n+i)|^2)
// m is S/(S+N) on a preamble, S/(1.5 S + 3 N) 2D either side of it, and
// about 0.1 on noise. Its phase is 2 pi cfo D:
// the capture range is |cfo| < 1/(2D) (3.9e-3 cycles/sample at sps 4).
#ifndef INCLUDED_GPURX_LINK_BURST_RECEIVER_H
#define INCLUDED_GPURX_LINK_BURST_RECEIVER_H

#include "link/burst_demod.h"

#include <complex>
#include <cstdint>
#include <deque>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

struct receiver_config {
    demod_config demod;
    double threshold = 0.25; //!< the detection metric m, 0 < threshold < 1
};

class burst_receiver
{
public:
    //! Throws std::invalid_argument naming sps (2..64), threshold (0..1),
    //! min_corr (0..1) or data_symbols out of range.
    burst_receiver(const receiver_config& cfg, int data_symbols);

    //! Appends n samples; finds the bursts they complete.
    void push(const cfloat* x, size_t n);
    //! The next burst found, oldest first; false when none waits.
    bool pop(burst_result& r);
    /*!
     * The end of the stream: zeros past the last sample, what a
     * transmitter sends after its last burst: the look-ahead a detection
     * needs past a burst's core plus one guard (burst_format::guard), so a
     * stream that ends with a burst's last symbol still gives that burst,
     * and one cut into its core stays pending(): it was cut. Returns the
     * samples added (they count in samples() and in later bursts' timing:
     * a caller that goes on with the stream subtracts them).
     */
    size_t finish();

    //! Samples pushed so far.
    int64_t samples() const { return d_base + int64_t(d_y.size()); }
    //! True when a detection waits for samples the stream has not brought
    //! yet: at the end of a stream, a burst cut short, detected at
    //! pending_sample().
    bool pending() const { return d_triggered; }
    int64_t pending_sample() const { return d_trigger; }
    //! Detections that the preamble's correlation rejected.
    uint64_t false_alarms() const { return d_false_alarms; }
    //! Input samples that were NaN, Inf or beyond 1e15 in magnitude: taken
    //! as 0.
    uint64_t non_finite() const { return d_non_finite; }

    const burst_format& format() const { return d_fmt; }
    const receiver_config& config() const { return d_cfg; }

private:
    receiver_config d_cfg;
    burst_format d_fmt;
    int d_lag;                    // D
    int64_t d_base = 0;           // absolute index of d_y[0]
    std::vector<cfloat> d_y;      // samples kept
    std::vector<std::complex<double>> d_q; // d_q[i] = sum_(j<i) conj(y_j) y_(j+D)
    std::vector<double> d_e;      // d_e[i] = sum_(j<i) |y_j|^2
    int64_t d_scan = 0;           // next sample to test (absolute)
    bool d_triggered = false;     // a detection waits for samples
    int64_t d_trigger = 0;        // its sample (absolute)
    uint64_t d_false_alarms = 0;
    uint64_t d_non_finite = 0;
    std::deque<burst_result> d_out;
    demod_scratch d_scratch;

    double metric(int64_t n, std::complex<double>* p) const;
    bool crosses(int64_t n, double threshold_squared) const;
    void run();
    void trim();
};

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
