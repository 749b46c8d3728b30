/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// An LTE cell as the downlink receiver knows it (cell search gives the ID
// and cyclic prefix, the MIB the bandwidth, PHICH configuration and ports),
// and the numerology of its standard sampling rate (36.211 §6.2, §6.12):
// FFT size, cyclic prefix lengths, where each OFDM symbol starts in a
// subframe.
#ifndef INCLUDED_GPURX_LTE_COMMON_LTE_CELL_H
#define INCLUDED_GPURX_LTE_COMMON_LTE_CELL_H

#include <complex>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

using cf = std::complex<float>;

enum class cyclic_prefix : int32_t { normal, extended };

//! PHICH resource Ng (36.211 §6.9), as the MIB signals it.
enum class phich_ng : int32_t { one_sixth, half, one, two };

struct cell {
    int n_prb = 6;                          //!< N_RB^DL: 6, 15, 25, 50, 75, 100
    int cell_id = 0;                        //!< N_ID^cell = 3 N_ID^(1) + N_ID^(2), 0..503
    int ports = 1;                          //!< cell-specific reference signal ports: 1, 2, 4
    cyclic_prefix cp = cyclic_prefix::normal;
    phich_ng ng = phich_ng::one;
    bool phich_extended = false;            //!< PHICH duration (MIB): extended

    //! An empty string, or what is wrong, naming the field and its value.
    std::string check() const;
    int n_sc() const { return 12 * n_prb; }
    //! OFDM symbols per slot: 7 (normal CP) or 6 (extended).
    int symbols_per_slot() const { return cp == cyclic_prefix::normal ? 7 : 6; }
    int symbols_per_subframe() const { return 2 * symbols_per_slot(); }
};

//! OFDM symbols of the control region for a CFI (36.211 Table 6.7-1): CFI,
//! or CFI + 1 in cells of at most 10 PRBs (the 1.4 MHz column counts 2..4).
//! Throws std::invalid_argument naming cfi outside 1..3.
int control_symbols(const cell& c, int cfi);

//! The standard bandwidths, in PRBs.
constexpr int standard_n_prb[] = { 6, 15, 25, 50, 75, 100 };
bool is_standard_n_prb(int n_prb);

/*!
 * The sampling of a subframe at an FFT size: 15 kHz subcarriers, so the
 * rate is fft_size x 15 kHz (128 -> 1.92 MS/s, 2048 -> 30.72 MS/s) and a
 * subframe is 15 fft_size samples. Normal CP: 160/144 x fft_size/2048
 * samples (the first symbol of each slot the longer); extended: 512 x
 * fft_size/2048.
 */
struct numerology {
    int fft_size = 128;
    cyclic_prefix cp = cyclic_prefix::normal;

    double sample_rate() const { return 15000.0 * fft_size; }
    int subframe_samples() const { return 15 * fft_size; }
    int symbols_per_slot() const { return cp == cyclic_prefix::normal ? 7 : 6; }
    //! Cyclic prefix of symbol \p l (0..symbols_per_slot()-1) of a slot.
    int cp_length(int l) const;
    //! First sample of symbol \p l (0..2 symbols_per_slot()-1) of a subframe,
    //! its cyclic prefix included.
    int symbol_start(int l) const;
    //! First sample of symbol \p l's useful part (after the cyclic prefix).
    int useful_start(int l) const { return symbol_start(l) + cp_length(l % symbols_per_slot()); }
};

//! The standard FFT size of a bandwidth: 6 -> 128, 15 -> 256, 25 -> 512,
//! 50 -> 1024, 75 -> 1536, 100 -> 2048. Throws naming n_prb otherwise.
int standard_fft_size(int n_prb);

//! A sampling rate that is fft_size x 15 kHz for an FFT size of at least
//! 128, or 0 (the rate is not one LTE symbols can be cut from directly).
int fft_size_of_rate(double sample_rate);

//! Subcarrier k (0..n_sc-1 of the grid, 36.211's k) in FFT bin order: the
//! grid's lower half sits below DC, its upper half above; DC is unused.
inline int fft_bin_of(int k, int n_sc, int fft_size)
{
    const int half = n_sc / 2;
    return k < half ? fft_size - half + k : k - half + 1;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
