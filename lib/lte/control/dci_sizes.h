/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The DCI formats a downlink receiver meets (36.212 §5.3.3.1, Rel-8 FDD:
// no carrier indicator, no DAI) and their payload sizes for a cell, with
// the padding rules that keep formats apart: 0 and 1A the same size, no
// format at one of the ambiguous sizes of Table 5.3.3.1.2-1, format 1 not
// the size of 0/1A. The resource allocation sizes come from 36.213 §7.1.6.
#ifndef INCLUDED_GPURX_LTE_CONTROL_DCI_SIZES_H
#define INCLUDED_GPURX_LTE_CONTROL_DCI_SIZES_H

#include "lte/common/lte_cell.h"
#include "lte/common/resource_blocks.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

enum class dci_format : int32_t { f0, f1, f1a, f1b, f1c, f1d, f2, f2a };
constexpr int dci_format_count = 8;

//! "0", "1", "1A", "1B", "1C", "1D", "2", "2A" (the generator's spelling).
const char* dci_format_name(dci_format f);

/*!
 * The downlink formats a UE of transmission mode \p tm is told of in its
 * UE-specific space (36.213 Table 7.1-5): 1A and the mode's own (1, 2A, 2,
 * 1D, 1B for TM1/2/7, 3, 4, 5, 6). \p tm 0, the mode unknown: 1A, 1, 2A,
 * 2 (1B and 1D share a size that may be 1's, so only the mode tells them
 * apart). Throws std::invalid_argument naming tm outside 0..7.
 */
std::vector<dci_format> ue_formats_of_tm(int tm);

//! ceil(log2(n (n + 1) / 2)): a type-2 resource indication value's bits.
int riv_bits(int n);
//! N_step of format 1C (36.213 Table 7.1.6.3-1): 2 below 50 PRBs, else 4.
inline int format1c_step(int n_prb) { return n_prb < 50 ? 2 : 4; }

//! True for the sizes of 36.212 Table 5.3.3.1.2-1.
bool is_ambiguous_dci_size(int bits);

//! Payload bits (without the CRC) of every format for a cell (its n_prb
//! and ports); 1B and 1D exist only with 2 or 4 ports (0 otherwise).
struct dci_sizes {
    int size[dci_format_count] = {};
    int of(dci_format f) const { return size[int(f)]; }
};
dci_sizes dci_payload_sizes(const cell& c);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
