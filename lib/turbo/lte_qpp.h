/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo code internal interleaver: 3GPP TS 36.212 section 5.1.3.2.3,
// Table 5.1.3-3 (188 block sizes K from 40 to 6144 and their f1, f2).
#ifndef INCLUDED_GPURX_CORE_LTE_QPP_H
#define INCLUDED_GPURX_CORE_LTE_QPP_H

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct qpp_params {
    int K, f1, f2;
};

constexpr int lte_num_block_sizes = 188;
constexpr int lte_max_K = 6144;
constexpr int lte_min_K = 40;

//! The table row for block size K; throws std::invalid_argument naming K
//! when K is not one of the 188 sizes.
qpp_params lte_qpp(int K);
//! True when K is one of the 188 sizes.
bool lte_valid_K(int K);
//! All 188 rows, in increasing K.
const std::vector<qpp_params>& lte_qpp_table();
//! For a length-3K+12 codeword: K, or 0 when no K fits.
int lte_K_from_codeword_length(long n);

//! Pi(i) = (f1 i + f2 i^2) mod K, evaluated as ((f1 + f2 i) mod K) i mod K,
//! which stays inside 32 bits for every K in the table.
inline int qpp_index(const qpp_params& p, int i)
{
    const uint32_t t = (uint32_t(p.f1) + uint32_t(p.f2) * uint32_t(i)) % uint32_t(p.K);
    return int((t * uint32_t(i)) % uint32_t(p.K));
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
