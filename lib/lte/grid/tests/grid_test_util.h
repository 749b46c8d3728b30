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

#include <map>
#include <string>
#include <utility>
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

//! The bandwidths and cells the grid tests run (6, 25, 100 PRB).
struct bw_cell {
    int n_prb, cell_id;
};
const bw_cell cases[] = { { 6, 0 }, { 25, 5 }, { 100, 301 } };

//! lte_dl_gen's arguments for \p bc, 1 port (TM1) or 2 (TM2), \p n subframes.
inline std::string gen_args(const bw_cell& bc, int ports, int n, const std::string& extra = "")
{
    std::string a = "-p " + std::to_string(bc.n_prb) + " -c " + std::to_string(bc.cell_id) + " -n " +
                    std::to_string(n) + " -m 9";
    a += ports == 1 ? " -x 1 -a 1" : " -x 2 -a 2";
    return a + " " + extra;
}

//! The captures that several tests read, made once per program.
inline const lte_capture& cached_capture(const std::string& args, lte_rx_setup setup)
{
    static std::map<std::pair<std::string, int>, lte_capture> cache;
    const auto key = std::make_pair(args, int(setup));
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, generate_lte_capture(args, setup)).first;
    return it->second;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
