/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_OFDM_SYNC_H
#define INCLUDED_GPURX_MIMO_OFDM_SYNC_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>

namespace gr {
namespace gpurx {

/*!
 * \brief Synchronisation of nr receive channels to mimo_ofdm_framer's
 * frames (docs/mimo-ofdm.md): one timing and one frequency offset for all,
 * found on their sum; out, the frames' training and data symbols after the
 * FFT.
 * \ingroup gpurx
 *
 * In: nr streams of samples. Each frame is found by its Schmidl & Cox sync
 * symbol (the metric summed over the antennas), its frequency offset
 * estimated there (range +-1/fft_len cycles/sample) and refined by the
 * training's repeats, its timing by correlation with the sync symbol.
 * Out: nr streams of fft_len-vectors, per frame its repeats*nt training
 * and data_symbols data symbols, frequency corrected and transformed,
 * frames back to back (mimo_ofdm_channel_estimator's input). A frame cut
 * by the end of the stream is reported on "errors".
 */
class GPURX_API mimo_ofdm_sync : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_ofdm_sync> sptr;
    /*!
     * Frame parameters as mimo_ofdm_framer's, and
     * \param nr receive antennas, 1..8
     * \param threshold detection metric threshold, 0..1
     * \param threads worker threads that transform the frames' symbols
     *        while the block goes on detecting, 0..16 (0: the block's own
     *        thread does it), or -1 (default): 2 for fft_len >= 512, else
     *        0. The output is the same either way; with workers the block
     *        keeps up with about twice the sample rate (docs/mimo-ofdm.md).
     */
    static sptr make(int nt, int nr, int fft_len, int cp_len, int used, int repeats, int data_symbols,
                     double threshold = 0.3, int threads = -1);
    virtual uint64_t frames() const = 0;
    //! The last frame's frequency offset, cycles per sample.
    virtual double cfo() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
