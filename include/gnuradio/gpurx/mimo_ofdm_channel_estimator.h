/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_OFDM_CHANNEL_ESTIMATOR_H
#define INCLUDED_GPURX_MIMO_OFDM_CHANNEL_ESTIMATOR_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief MIMO-OFDM channel estimation for mimo_detector (docs/mimo-ofdm.md):
 * nr streams of OFDM symbols after the FFT in; y vectors, H per subcarrier
 * group and N0 out, in mimo_detector's layout.
 * \ingroup gpurx
 *
 * A frame is repeats * nt training symbols then \p data_symbols data
 * symbols, on every receive stream alike, frames back to back from the
 * first item (the synchronisation upstream aligns them). Training symbol t
 * carries, from transmit antenna j on used subcarrier k, P[j][t mod nt]
 * L[k] (P: Hadamard, L: a Zadoff-Chu sequence; core::ofdm::mimo_training).
 * Used subcarriers: \p used of them, centred on DC and leaving it out, in
 * the order -used/2 .. -1, 1 .. used/2 (FFT bins fft_len - used/2 ..
 * fft_len - 1, then 1 .. used/2).
 *
 * Per frame, out: port 0, the data symbols' y vectors (nr complex), group
 * by group of \p group adjacent used subcarriers, within a group
 * subcarrier by subcarrier, within a subcarrier symbol by symbol; port 1,
 * one H (nr x nt, row-major) per group: the least-squares estimate averaged
 * over the group; port 2, N0 (one float per group: the frame's estimate
 * from the training residual). With \p pilots > 0 the data symbols carry
 * that many pilot subcarriers (mimo_ofdm_framer's layout,
 * core::ofdm::ofdm_pilot_layout): the ports carry the used - pilots data
 * carriers only, in the same order, and with \p track_phase each data
 * symbol's y vectors are turned back by the common phase error its pilots
 * show against the estimated H (core::ofdm::common_phase), on the host
 * after the frame's estimate (and smoothing), whichever the backend. Feed
 * mimo_detector with
 * vectors_per_channel = group * data_symbols and noise_input = true.
 *
 * It runs on the batching pipeline like every gr-gpurx block (\p options:
 * backend auto/cpu/cuda, devices, batching): each frame is one batch item
 * (its used subcarriers on every receive antenna), estimated by the
 * "ofdm-chanest" family's implementation, cpu-ls (double) or cuda-ls
 * (float, on the listed GPUs), which agree to float rounding. Frames leave
 * in order; output lags input by up to slots x max_batch frames, and a
 * partial batch goes out after flush_us or at the end of the input.
 */
class GPURX_API mimo_ofdm_channel_estimator : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_ofdm_channel_estimator> sptr;
    /*!
     * \param nt transmit antennas: 1, 2, 4 or 8
     * \param nr receive antennas, nt..8
     * \param fft_len FFT size, 8..65536
     * \param used used subcarriers, even, 2..fft_len - 2
     * \param repeats the training pattern's repetitions, 2..16 (N0 needs 2)
     * \param data_symbols data OFDM symbols per frame, 1..4096
     * \param group subcarriers per H, dividing used
     * \param implementation "auto" (the registry's choice on the backend
     *        \p options names), an implementation's name ("cpu-ls",
     *        "cuda-ls"; gpurx-info lists them), or, kept for compatibility,
     *        "cpu" or "cuda": a backend, as options.backend = "cpu" or
     *        "cuda" (an error when options.backend names the other one)
     * \param delay_spread 0: plain least squares per subcarrier; else the
     *        samples from the FFT window's start within which the channel's
     *        impulse response lies (at most the cyclic prefix): LMMSE
     *        smoothing across subcarriers (core::ofdm::smooth_lmmse), on the
     *        host after each frame's least squares; needs group 1
     * \param options batching, backend and GPUs (pipeline_options)
     * \param pilots pilot subcarriers per data symbol, even, 0..used/2;
     *        needs group 1 when not 0
     * \param track_phase with pilots: turn each data symbol back by its
     *        pilots' common phase error (false: pilots only left out)
     * \param track_slope with track_phase and at least 4 pilots: also a
     *        phase slope across subcarriers per data symbol (a timing
     *        drift since the training; core::ofdm::common_phase)
     */
    static sptr make(int nt,
                     int nr,
                     int fft_len,
                     int used,
                     int repeats,
                     int data_symbols,
                     int group = 1,
                     const std::string& implementation = "auto",
                     int delay_spread = 0,
                     const pipeline_options& options = pipeline_options(),
                     int pilots = 0,
                     bool track_phase = true,
                     bool track_slope = false);
    //! "cuda" or "cpu": the backend the estimates are computed on (as backend()).
    virtual std::string implementation() const = 0;
    //! The backend in use: "cuda" or "cpu".
    virtual std::string backend() const = 0;
    //! y vectors per H: group * data_symbols (mimo_detector's vectors_per_channel).
    virtual int vectors_per_channel() const = 0;
    //! Frames processed.
    virtual uint64_t frames() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
