/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_BURST_SYNC_H
#define INCLUDED_GPURX_BURST_SYNC_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The packet link's burst receiver front end (docs/radio-link.md):
 * finds burst_framer's bursts in a stream of matched-filter samples and
 * gives their equalised data symbols with the gain and N0 a soft demapper
 * needs.
 * \ingroup gpurx
 *
 * In: complex samples at \p sps samples per symbol, after the receiver's
 * root-raised-cosine matched filter. Each burst is found by its preamble's
 * repetition (frequency offsets up to +-1/(2 zc_len sps) cycles/sample,
 * +-3.9e-3 at sps 4), timed by the preamble's correlation, its channel
 * estimated from the preamble (7 symbol-spaced taps) and equalised (MMSE,
 * scaled to unit gain), its phase tracked with the pilot blocks, its N0
 * estimated from the equaliser's model and the pilots' residual.
 *
 * Out: per burst, a packet of \p data_symbols symbols y = gain s + n (gain
 * 1: the equaliser's scale),
 * E|n|^2 = n0, tagged on its first symbol with \p len_tag_key, "gain",
 * "n0", "snr_db" (10 log10 gain^2/n0), "cfo" (cycles/sample), "corr" (the
 * preamble's normalised correlation) and "burst_time" (the preamble's first
 * symbol, in input samples, fractional). gpurx.qam_demapper reads "gain"
 * and "n0".
 *
 * A detection the preamble's correlation rejects is counted
 * (false_alarms()). At the end of the stream zeros follow the last sample
 * for as far as the receiver looks past a burst (its timing search and
 * equaliser span, the two filters' tails: about 54 symbols), what a radio
 * sends after its last burst, so a stream's last burst sent without a gap
 * is found; a burst cut earlier is reported: a warning and a dict on
 * "errors" ("reason", "offset", "dropped").
 */
class GPURX_API burst_sync : virtual public gr::block
{
public:
    typedef std::shared_ptr<burst_sync> sptr;
    /*!
     * \param sps samples per symbol, 2..64
     * \param data_symbols data symbols per burst, 1..1048576 (burst_framer's)
     * \param threshold detection metric threshold, 0..1 (S/(S+N) of the
     *        preamble's repetition; 0.25 holds to Es/N0 -4 dB)
     * \param min_corr the preamble correlation below which a detection is
     *        a false alarm, 0..1
     * \param len_tag_key the output packet length tag
     */
    static sptr make(int sps = 4,
                     int data_symbols = 1048,
                     double threshold = 0.25,
                     double min_corr = 0.15,
                     const std::string& len_tag_key = "packet_len");
    //! Bursts output so far.
    virtual uint64_t bursts() const = 0;
    //! Detections rejected by the preamble's correlation.
    virtual uint64_t false_alarms() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
