/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_CHANNEL_H
#define INCLUDED_GPURX_MIMO_CHANNEL_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>

namespace gr {
namespace gpurx {

/*!
 * \brief Flat-fading MIMO channel for simulation: transmit vectors (nt
 * complex) in; received vectors y (nr complex, output 0) and the channel
 * matrices H (nr * nt complex, row-major H[r][t] at r * nt + t, output 1) out,
 * one H per vectors_per_channel y vectors - what mimo_detector takes.
 * \ingroup gpurx
 *
 * y = H s + n. H = Rr^(1/2) G Rt^(1/2)^T (Kronecker model) with G i.i.d.
 * CN(0,1), a new one every vectors_per_channel vectors; Rt and Rr are
 * exponential correlation matrices, R[i][j] = rho^|i-j| with rho =
 * tx_correlation / rx_correlation in [0, 1) (0: i.i.d. Rayleigh). n is
 * complex Gaussian, E|n|^2 = noise_var per receive antenna, independent.
 * With unit-energy symbols the SNR per receive antenna is nt / noise_var.
 * seed fixes the random sequences: the same seed, the same channels (at any
 * noise_var) and noise.
 */
class GPURX_API mimo_channel : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_channel> sptr;
    /*!
     * \param nt transmit antennas, 1..8
     * \param nr receive antennas, nt..8 (mimo_detector needs nr >= nt)
     * \param noise_var N0 per receive antenna, >= 0
     * \param vectors_per_channel vectors per H, 1..65536
     * \param tx_correlation exponential correlation coefficient, [0, 1)
     * \param rx_correlation exponential correlation coefficient, [0, 1)
     * \param seed random seed
     */
    static sptr make(int nt,
                     int nr,
                     float noise_var = 0.1f,
                     int vectors_per_channel = 1,
                     float tx_correlation = 0.0f,
                     float rx_correlation = 0.0f,
                     uint64_t seed = 0);
    virtual float noise_var() const = 0;
    //! Throws std::invalid_argument naming noise_var unless >= 0 and finite.
    virtual void set_noise_var(float noise_var) = 0;
};

} // namespace gpurx
} // namespace gr

#endif
