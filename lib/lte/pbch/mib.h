/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The master information block (36.331 §6.2.2 MasterInformationBlock, 24
// bits, unaligned PER, first bit first):
//   dl-Bandwidth       3 bits  n6, n15, n25, n50, n75, n100 (0..5)
//   phich-Duration     1 bit   normal, extended
//   phich-Resource     2 bits  oneSixth, half, one, two
//   systemFrameNumber  8 bits  the SFN's 8 most significant bits
//   spare             10 bits  (later releases use some; kept as sent)
// The SFN's two least significant bits are the frame's place in the PBCH's
// 40 ms (36.211 §6.6.1: which quarter of the scrambled block it carries).
#ifndef INCLUDED_GPURX_LTE_PBCH_MIB_H
#define INCLUDED_GPURX_LTE_PBCH_MIB_H

#include "lte/common/lte_cell.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

constexpr int mib_bits = 24;

struct mib {
    int n_prb = 6;                     //!< N_RB^DL
    bool phich_extended = false;       //!< phich-Duration
    phich_ng ng = phich_ng::one_sixth; //!< phich-Resource
    int sfn = 0;                       //!< the full SFN, 0..1023
    int spare = 0;                     //!< the 10 spare bits, first bit the MSB
};

/*!
 * The MIB of the 24 bits \p bits of a frame whose SFN mod 4 is
 * \p frame_in_tti. False (m unchanged) when dl-Bandwidth is not one of the
 * six values (6, 7: no such bandwidth).
 */
bool parse_mib(const uint8_t* bits, int frame_in_tti, mib& m);
//! The 24 bits a transmitter sends for \p m (the SFN's 8 MSBs). Throws
//! std::invalid_argument naming n_prb or sfn when out of range.
void pack_mib(const mib& m, uint8_t* bits);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
