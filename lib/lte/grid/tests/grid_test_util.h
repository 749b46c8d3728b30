/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Cutting an lte_dl_gen capture into subframes and demodulating them: the
// captures start at subframe 0 of SFN -b, so subframe i starts at sample
// i x subframe length (no synchronisation needed).
#ifndef INCLUDED_GPURX_LTE_GRID_TESTS_GRID_TEST_UTIL_H
#define INCLUDED_GPURX_LTE_GRID_TESTS_GRID_TEST_UTIL_H

#include "lte/common/tests/lte_capture.h"
#include "lte/grid/ofdm_demod.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace test {

//! The cell the truth of subframe 0 describes (normal CP).
inline core::lte::cell cell_of_truth(const nlohmann::json& t)
{
    core::lte::cell c;
    c.n_prb = t["nof_prb"].get<int>();
    c.cell_id = t["cell_id"].get<int>();
    c.ports = t["ports"].get<int>();
    return c;
}

//! Number of whole subframes in the capture.
inline int capture_subframes(const lte_capture& cap, const core::lte::ofdm_demodulator& d)
{
    return int(cap.rx[0].size() / size_t(d.subframe_samples()));
}

//! Subframe \p i of the capture, demodulated, its time from the truth.
inline void demod_subframe(const lte_capture& cap, const core::lte::ofdm_demodulator& d, int i,
                           core::lte::subframe_grid& g)
{
    std::vector<const core::lte::cf*> p;
    for (const auto& f : cap.rx)
        p.push_back(f.data() + size_t(i) * size_t(d.subframe_samples()));
    core::lte::subframe_time t;
    t.sfn = cap.truth[size_t(i)]["sfn"].get<int>();
    t.subframe = cap.truth[size_t(i)]["sf_idx"].get<int>();
    d.demodulate(p.data(), t, g);
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
