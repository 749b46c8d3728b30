/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-ber's channel: a transmission's coded bits as 36.211 Gray QAM
// symbols (lib/mimo/qam.h, unit average energy), complex AWGN, and max-log
// LLRs per bit (L = ln P(b=1)/P(b=0), positive for 1), the decoder's input.
#ifndef INCLUDED_GPURX_APPS_LTE_BER_CHANNEL_H
#define INCLUDED_GPURX_APPS_LTE_BER_CHANNEL_H

#include "common/awgn_llr.h"
#include "modulation/qam_demap.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! QAM over AWGN at a given Es/N0; one per generator thread (its own noise).
class qam_awgn_channel
{
public:
    //! \p exact: exact LLRs instead of max-log (core::qam::axis_demapper).
    qam_awgn_channel(int qm, uint64_t seed, bool exact = false);
    /*!
     * The \p g LLRs of the coded bits \p c (0/1; g a multiple of qm) sent as
     * g/qm symbols, b(0) of each symbol first, at Es/N0 = \p esn0_db
     * (Es = 1, E|n|^2 = N0 per complex sample).
     */
    void transmit(const uint8_t* c, size_t g, double esn0_db, float* llr);

private:
    //! A standard complex normal sample, E|n|^2 = 1 (Box-Muller).
    std::complex<float> normal();

    core::qam::modulation d_mod;
    const core::qam::constellation& d_points;
    core::qam::axis_demapper d_demap;
    core::awgn_llr_source d_rng; //!< its uniform generator (xoshiro128+)
};

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
