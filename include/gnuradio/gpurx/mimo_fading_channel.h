/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_FADING_CHANNEL_H
#define INCLUDED_GPURX_MIMO_FADING_CHANNEL_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief Frequency-selective (tapped-delay-line) MIMO channel for simulation,
 * on sample streams: nt transmit streams in (inputs 0..nt-1), nr receive
 * streams out (outputs 0..nr-1), the true channel of each fading block as a
 * PDU on message port "H". CPU only.
 * \ingroup gpurx
 *
 *   y_r[n] = e^{j 2 pi cfo n} sum_t sum_l h_{r,t,l} x_t(n - d_l - delay) + w_r[n]
 *
 * Taps: h_{r,t,l} independent CN(0, p_l) for every antenna pair (r, t) and
 * tap l, redrawn every block_samples output samples (fading block b covers
 * samples [b * block_samples, (b+1) * block_samples); 0: one block for the
 * whole run). The power-delay profile (d_l in samples, p_l summing to 1 per
 * antenna pair; tap_delays(), tap_powers()):
 *  - "flat": one tap (flat Rayleigh per antenna pair, on streams);
 *  - "exponential": num_taps taps at delays 0..num_taps-1, p_l proportional
 *    to 10^(-decay_db l / 10);
 *  - "epa", "eva": 3GPP TS 36.104 Annex B.2 at sample_rate: EPA delays 0,
 *    30, 70, 90, 110, 190, 410 ns, powers 0, -1, -2, -3, -8, -17.2, -20.8 dB;
 *    EVA 0, 30, 150, 310, 370, 710, 1090, 1730, 2510 ns, 0, -1.5, -1.4,
 *    -3.6, -0.6, -9.1, -7.0, -12.0, -16.9 dB; delays rounded to the nearest
 *    sample, powers of taps on the same sample added.
 *
 * cfo: carrier frequency offset in cycles per sample, one oscillator for all
 * receive antennas (phase 0 at sample 0, continuous across set_cfo()).
 * delay: a sampling offset common to all streams, in samples (fractional:
 * a Kaiser-windowed sinc of 48 taps, error under 1e-4 for signals within
 * |f| < 0.4 cycles/sample; integer: an exact shift). The interpolator reads
 * 23 samples ahead: with a fractional delay under 23 the outputs lag the
 * inputs by lookahead() = 23 - floor(delay) samples, which a finite run
 * never outputs.
 * A sampling-rate offset is not modelled (it would break the one-to-one
 * sample grid the true channel reports refer to; a resampler after this
 * block adds one). w_r: complex white Gaussian noise, E|w|^2 = noise_var
 * per receive antenna. seed fixes the taps (the same at every noise_var)
 * and the noise.
 *
 * The true channel, one PDU on "H" per fading block, when the block's first
 * sample is output: data a c32vector of fft_len * nr * nt values, H_{r,t}[k]
 * = sum_l h_{r,t,l} e^{-j 2 pi k d_l / fft_len} at (k * nr + r) * nt + t:
 * fft_len row-major nr x nt matrices (mimo_detector's H layout), k in FFT
 * order 0..fft_len-1, without the CFO and the sampling offset (the latter
 * multiplies H[k] by e^{-j 2 pi f delay}, f = k / fft_len taken in
 * [-1/2, 1/2)). Metadata: "block" (b, uint64), "offset" (b * block_samples,
 * the block's first output sample, uint64), "nt", "nr", "fft_len" (long),
 * "delays" (s32vector, d_l), "taps" (c32vector, h_{r,t,l} at (r * nt + t) *
 * L + l). pdu.pdu_to_tagged_stream then blocks.stream_to_vector(nr * nt)
 * give mimo_detector's H input, one matrix per subcarrier. Each output also
 * carries a tag "fading_block" (uint64 b) on each block's first sample;
 * input tags go to every output at the same offset.
 */
class GPURX_API mimo_fading_channel : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_fading_channel> sptr;
    /*!
     * \param nt transmit antennas (inputs), 1..8
     * \param nr receive antennas (outputs), 1..8
     * \param profile "flat", "exponential", "epa" or "eva"
     * \param sample_rate Hz, > 0 (the "epa" / "eva" delays in samples)
     * \param num_taps "exponential": taps, 1..256
     * \param decay_db "exponential": power decay per tap, dB, >= 0
     * \param block_samples samples per fading block, >= 0 (0: one for the run)
     * \param fft_len subcarriers of the reported frequency responses, 1..65536,
     *        more than the longest tap delay
     * \param cfo cycles per sample, [-0.5, 0.5]
     * \param delay sampling offset, samples, [0, 4096]
     * \param noise_var N0 per receive antenna, >= 0
     * \param seed random seed
     */
    static sptr make(int nt,
                     int nr,
                     const std::string& profile = "epa",
                     double sample_rate = 15.36e6,
                     int num_taps = 8,
                     double decay_db = 3.0,
                     int64_t block_samples = 0,
                     int fft_len = 1024,
                     double cfo = 0.0,
                     double delay = 0.0,
                     float noise_var = 0.0f,
                     uint64_t seed = 0);

    //! The profile's tap delays in samples, ascending.
    virtual std::vector<int> tap_delays() const = 0;
    //! The profile's tap powers (linear, summing to 1), in the order of tap_delays().
    virtual std::vector<double> tap_powers() const = 0;
    //! Samples the outputs lag the inputs (see above).
    virtual int lookahead() const = 0;

    virtual float noise_var() const = 0;
    //! Throws std::invalid_argument naming noise_var unless >= 0 and finite.
    virtual void set_noise_var(float noise_var) = 0;
    virtual double cfo() const = 0;
    //! Throws std::invalid_argument naming cfo unless in [-0.5, 0.5].
    virtual void set_cfo(double cfo) = 0;
};

} // namespace gpurx
} // namespace gr

#endif
