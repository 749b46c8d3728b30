/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The primary synchronisation signal (36.211 §6.11.1): a length-63
// Zadoff-Chu sequence with its middle element punctured, root 25, 29 or 34
// for N_ID^(2) = 0, 1, 2, on the 62 subcarriers around DC. FDD sends it in
// the last OFDM symbol of slots 0 and 10, the secondary signal (sss.h) in
// the symbol before (§6.11.1.2, §6.11.2.2).
#ifndef INCLUDED_GPURX_LTE_SYNC_PSS_H
#define INCLUDED_GPURX_LTE_SYNC_PSS_H

#include "lte/common/lte_cell.h"

#include <array>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

constexpr int SYNC_LENGTH = 62; //!< PSS and SSS elements, n = 0..61

//! The Zadoff-Chu root of N_ID^(2) (0..2): 25, 29, 34. Throws otherwise.
int pss_root(int n_id2);

//! d_u(n), n = 0..61 (36.211 §6.11.1.1).
std::array<cf, SYNC_LENGTH> pss_sequence(int n_id2);

/*!
 * Element n (0..61) of a synchronisation sequence sits on subcarrier
 * k = n - 31 + N_sc/2 (§6.11.1.2): as an offset from DC, -31..-1 for
 * n < 31 and +1..+31 for n >= 31 (DC itself is not a subcarrier).
 */
inline int sync_subcarrier_offset(int n) { return n < 31 ? n - 31 : n - 30; }

//! The FFT bin (0..fft_size-1) of element n.
inline int sync_fft_bin(int n, int fft_size)
{
    const int o = sync_subcarrier_offset(n);
    return o < 0 ? o + fft_size : o;
}

/*!
 * The useful part (no cyclic prefix) of the PSS's OFDM symbol at FFT size
 * \p fft_size: fft_size samples, every element at unit amplitude, scaled
 * so that a forward FFT of it gives d_u(n) back on the 62 bins.
 */
std::vector<cf> pss_time_symbol(int n_id2, int fft_size);

//! First sample of the PSS symbol's useful part in subframes 0 and 5: the
//! last fft_size samples of the slot, for either cyclic prefix.
inline int pss_useful_start(const numerology& nu) { return nu.subframe_samples() / 2 - nu.fft_size; }
//! First sample of the SSS symbol's useful part: one symbol earlier.
inline int sss_useful_start(const numerology& nu)
{
    return pss_useful_start(nu) - nu.cp_length(nu.symbols_per_slot() - 1) - nu.fft_size;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
