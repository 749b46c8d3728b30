/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A frequency-selective MIMO channel for simulation, on sample streams (the
// core of gpurx.mimo_fading_channel; GNU Radio-free, CPU only):
//
//   s_t[n] = x_t(n - delay)                          (sampling offset, all t)
//   y_r[n] = e^{j phi[n]} sum_t sum_l h^(b)_{r,t,l} s_t[n - d_l] + w_r[n]
//
// with b = floor(n / block_samples) the fading block of output sample n (0
// for the whole run when block_samples is 0), h^(b)_{r,t,l} independent
// CN(0, p_l) for every block, antenna pair and tap, the power-delay profile
// (d_l, p_l) from make_profile() (sum p_l = 1), phi[n] = 2 pi sum_{i<n} cfo
// (one oscillator for all receive antennas; 2 pi cfo n while cfo is
// unchanged) and w_r[n] i.i.d. CN(0, noise_var).
//
// The fractional delay is a Kaiser-windowed sinc of 2 * interp_half taps
// (unit DC gain); an integer delay is an exact shift. The interpolator
// reads interp_half - 1 samples ahead: with a fractional delay smaller than
// interp_half - 1, the output lags the input by lookahead() samples (the
// last lookahead() samples of a finite run are never output).
//
// Random sequences: the taps from mt19937_64(seed), block by block, r, then
// t, then l, real part first; the noise from mt19937_64(seed ^
// 0x9e3779b97f4a7c15), sample by sample, r within a sample - so the same
// seed gives the same taps at every noise_var.
#ifndef INCLUDED_GPURX_CORE_MIMO_FADING_CHANNEL_H
#define INCLUDED_GPURX_CORE_MIMO_FADING_CHANNEL_H

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

//! A power-delay profile: taps at distinct sample delays, ascending, with
//! powers that sum to 1.
struct power_delay_profile {
    std::vector<int> delays;     //!< samples, ascending, distinct
    std::vector<double> powers;  //!< linear, sum 1
};

/*!
 * The profile called \p name:
 *  - "flat": one tap at delay 0;
 *  - "exponential": num_taps taps at delays 0 .. num_taps-1, the power of
 *    tap l proportional to 10^(-decay_db * l / 10);
 *  - "epa", "eva": 3GPP TS 36.104 Annex B.2 (Extended Pedestrian A,
 *    Extended Vehicular A), their delays times sample_rate rounded to the
 *    nearest sample (halves up), the powers of taps landing on the same
 *    sample added.
 * Then normalised to total power 1. Throws std::invalid_argument naming the
 * parameter and its value: an unknown profile, sample_rate not positive and
 * finite, num_taps outside 1..max_taps, decay_db negative or not finite
 * (each checked whatever the profile).
 */
power_delay_profile make_profile(const std::string& name, double sample_rate, int num_taps, double decay_db);

struct fading_channel_config {
    int nt = 1;
    int nr = 1;
    std::string profile = "flat";
    double sample_rate = 1e6;      //!< Hz, for "epa" and "eva"
    int num_taps = 1;              //!< "exponential"
    double decay_db = 3.0;         //!< "exponential", dB per tap
    int64_t block_samples = 0;     //!< new taps every block_samples samples; 0: one set for the run
    int fft_len = 64;              //!< the grid of the reported frequency responses
    double cfo = 0.0;              //!< cycles per sample, |cfo| <= 0.5
    double delay = 0.0;            //!< samples, 0 .. max_delay
    double noise_var = 0.0;        //!< N0 per receive antenna
    uint64_t seed = 0;
};

//! One fading block's channel, as reported.
struct fading_block {
    uint64_t index = 0;        //!< b
    uint64_t first_sample = 0; //!< b * block_samples: the block's first output sample
    //! h_{r,t,l} at (r * nt + t) * L + l, L the profile's tap count
    std::vector<std::complex<float>> taps;
    //! H_{r,t}[k] = sum_l h_{r,t,l} e^{-j 2 pi k d_l / fft_len} at (k * nr + r) * nt + t
    //! (fft_len row-major nr x nt matrices, k in FFT order 0 .. fft_len-1)
    std::vector<std::complex<float>> freq_response;
};

class fading_channel
{
public:
    static constexpr int max_antennas = 8;
    static constexpr int max_taps = 256;
    static constexpr int max_fft_len = 65536;
    static constexpr double max_delay = 4096.0;
    static constexpr int interp_half = 24; //!< the fractional-delay filter has 2 * interp_half taps

    //! Validates \p cfg: throws std::invalid_argument naming the parameter and its value.
    explicit fading_channel(const fading_channel_config& cfg);

    const fading_channel_config& config() const { return d_cfg; }
    const power_delay_profile& profile() const { return d_pdp; }
    //! Samples the output lags the input (nonzero only with a fractional delay under interp_half - 1).
    int lookahead() const { return d_lookahead; }

    void set_noise_var(double n0); //!< throws naming noise_var unless >= 0 and finite
    void set_cfo(double cfo);      //!< throws naming cfo unless |cfo| <= 0.5; the phase stays continuous

    /*!
     * Takes m more samples of each transmit stream (x[t][0..m)) and writes
     * the output samples they complete, y[r][0..returned); returns their
     * count: m in steady state, fewer while the first lookahead() samples
     * are pending. Any split of a stream into calls gives the same output.
     */
    int process(const std::complex<float>* const* x, int m, std::complex<float>* const* y);

    uint64_t consumed() const { return d_consumed; }
    uint64_t produced() const { return d_produced; }

    //! The fading blocks whose first sample process() has output since the
    //! last call, in order (moved out).
    std::vector<fading_block> take_new_blocks();

    //! The fractional-delay filter's taps f[i], i = -(interp_half-1) .. interp_half, at i + interp_half - 1;
    //! s[n] = sum_i f[i] x[n - floor(delay) - i]. Empty for an integer delay.
    const std::vector<float>& interpolator() const { return d_interp; }

    //! The frequency response on an fft_len grid of taps at (r * nt + t) * L + l.
    static std::vector<std::complex<float>> frequency_response(int nr, int nt, const std::vector<int>& delays,
                                                               const std::vector<std::complex<float>>& taps,
                                                               int fft_len);

private:
    void new_block(uint64_t b);

    fading_channel_config d_cfg;
    power_delay_profile d_pdp;
    int d_ntaps;
    int d_int_delay;
    int d_lookahead;
    int d_max_d;
    std::vector<float> d_interp;
    std::vector<float> d_sqrt_p;

    std::mt19937_64 d_rng_h, d_rng_n;
    std::normal_distribution<double> d_normal_h{ 0.0, 1.0 }, d_normal_n{ 0.0, 1.0 };

    // x_t[i] at d_x[t][i - d_xbase]; s_t[i] at d_s[t][i - d_sbase] (zeros before 0).
    std::vector<std::vector<std::complex<float>>> d_x, d_s;
    int64_t d_xbase, d_sbase;
    uint64_t d_consumed = 0, d_produced = 0;

    bool d_have_block = false;
    uint64_t d_block = 0;
    std::vector<std::complex<float>> d_taps; // the current block's
    std::vector<fading_block> d_new_blocks;

    double d_phase = 0.0; // cycles, in [0, 1)
};

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
