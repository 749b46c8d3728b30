/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO-OFDM link's frame in time (docs/mimo-ofdm.md), per transmit
// antenna:
//
//   sync | training x repeats*nt | data x data_symbols
//
// sync:     one OFDM symbol, from antenna 0 only (sqrt(nt) times louder:
//           every symbol has the same total power), with a PN QPSK
//           sequence on the even used subcarriers and zeros on the odd
//           ones: its two halves repeat (Schmidl & Cox), for detection and
//           the frequency offset on any channel;
// training: mimo_training's symbols (Hadamard cover across antennas);
// data:     `pilots` of the used subcarriers are pilots (ofdm_pilots.h:
//           their places, their +-1 values per symbol and antenna), the
//           others data carriers; codeword symbol m on antenna m mod nt,
//           as y vector i = m / nt, on data carrier i / data_symbols of
//           data symbol i mod data_symbols (mimo_ofdm_channel_estimator's
//           order).
// Every OFDM symbol has a cyclic prefix of cp_len samples; IFFTs are
// scaled by 1/sqrt(fft_len), so a unit-energy subcarrier symbol is a unit
// of energy in time.
#ifndef INCLUDED_GPURX_OFDM_OFDM_FRAME_H
#define INCLUDED_GPURX_OFDM_OFDM_FRAME_H

#include "ofdm/mimo_training.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

struct ofdm_frame_format {
    int nt, fft_len, cp_len, used, repeats, data_symbols, pilots;

    //! Throws std::invalid_argument naming the parameter.
    ofdm_frame_format(int nt, int fft_len, int cp_len, int used, int repeats, int data_symbols, int pilots = 0);

    int symbol_len() const { return fft_len + cp_len; }
    int training_symbols() const { return repeats * nt; }
    //! Samples per frame and antenna.
    int frame_len() const { return symbol_len() * (1 + training_symbols() + data_symbols); }
    //! Used subcarriers that carry data in a data symbol.
    int data_carriers() const { return used - pilots; }
    //! Codeword symbols one frame carries.
    int data_res() const { return data_carriers() * data_symbols * nt; }
    //! FFT bin of used subcarrier k (-used/2 .. -1, then 1 .. used/2).
    int bin(int k) const { return k < used / 2 ? fft_len - used / 2 + k : k - used / 2 + 1; }
};

//! The sync symbol's subcarriers (fft_len bins, antenna 0).
std::vector<cfloat> sync_spectrum(const ofdm_frame_format& f);

//! In-place FFT of a power-of-two length; inverse: the IFFT without 1/N.
void fft_inplace(std::vector<cfloat>& x, bool inverse);

//! The frame of each antenna (nt vectors of frame_len samples) around
//! \p symbols (data_res QAM symbols).
std::vector<std::vector<cfloat>> build_ofdm_frame(const ofdm_frame_format& f, const cfloat* symbols);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
