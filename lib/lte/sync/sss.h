/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The secondary synchronisation signal (36.211 §6.11.2): two interleaved
// length-31 m-sequences, cyclically shifted by m0 and m1 (from N_ID^(1)),
// scrambled by c0/c1 (from N_ID^(2)) and z1; the halves swap between
// subframe 0 and subframe 5, which tells the receiver where the frame starts.
#ifndef INCLUDED_GPURX_LTE_SYNC_SSS_H
#define INCLUDED_GPURX_LTE_SYNC_SSS_H

#include "lte/sync/pss.h"

#include <array>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The shifts of N_ID^(1) (0..167), Table 6.11.2.1-1. Throws otherwise.
struct sss_shifts {
    int m0 = 0, m1 = 0;
};
sss_shifts sss_shifts_of(int n_id1);

/*!
 * d(n), n = 0..61, as +-1, for cell-identity group \p n_id1, identity
 * \p n_id2, in subframe 0 (\p in_subframe5 false) or subframe 5.
 */
std::array<float, SYNC_LENGTH> sss_sequence(int n_id1, int n_id2, bool in_subframe5);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
