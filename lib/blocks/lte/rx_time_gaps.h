/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Samples lost, from gr-uhd's "rx_time" tags: the USRP Source tags the
// first sample, and the first after every discontinuity (an overflow "O",
// a restarted stream), with the device time of that sample. Against the
// previous tag and the samples counted since, a later time means samples
// were lost; an earlier one, a restart (the device clock set again).
#ifndef INCLUDED_GPURX_BLOCKS_RX_TIME_GAPS_H
#define INCLUDED_GPURX_BLOCKS_RX_TIME_GAPS_H

#include <pmt/pmt.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

struct rx_time_event {
    enum kind_t {
        none,    //!< the first tag, or a time that follows the samples counted
        gap,     //!< \p lost samples are missing before this one
        restart, //!< not contiguous, the loss unknown: start afresh
    } kind = none;
    uint64_t lost = 0;
    double jump_s = 0.0; //!< the tag's time minus the time expected there
    std::string why;     //!< for the log, with the count
};

class rx_time_gaps
{
public:
    /*!
     * \p sample_rate the stream's rate; a forward jump above \p max_gap_s
     * seconds is a restart (its subframes are not worth reporting one by
     * one); jumps of at most \p tolerance samples are none (the time's
     * rounding).
     */
    explicit rx_time_gaps(double sample_rate, double max_gap_s = 1.0, double tolerance = 2.0);

    //! The tag's value (a tuple of uint64 seconds and double fraction;
    //! an integer or double seconds are taken too). False: not a time.
    static bool time_of(const pmt::pmt_t& value, double& whole, double& frac);

    //! A tag at stream item \p offset with time whole + frac.
    rx_time_event on_tag(uint64_t offset, double whole, double frac);
    //! Forget the reference (a new stream).
    void reset() { d_have = false; }

private:
    double d_rate, d_max_gap_s, d_tolerance;
    bool d_have = false;
    uint64_t d_offset = 0;
    double d_whole = 0.0, d_frac = 0.0;
};

} // namespace gpurx
} // namespace gr

#endif
