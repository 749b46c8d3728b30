/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/rnti_tracker.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

int agg_index(int agg) { return agg == 1 ? 0 : agg == 2 ? 1 : agg == 4 ? 2 : 3; }

} // namespace

rnti_tracker::rnti_tracker(rnti_tracker_config cfg) : d_cfg(std::move(cfg))
{
    if (d_cfg.sightings_to_activate < 1)
        throw std::invalid_argument("sightings_to_activate=" + std::to_string(d_cfg.sightings_to_activate) +
                                    " is below 1");
}

void rnti_tracker::add_rnti(uint16_t rnti)
{
    int& s = d_sightings[rnti];
    s = std::max(s, d_cfg.sightings_to_activate);
}

bool rnti_tracker::is_active(uint16_t rnti) const { return sightings(rnti) >= d_cfg.sightings_to_activate; }

int rnti_tracker::sightings(uint16_t rnti) const
{
    const auto it = d_sightings.find(rnti);
    return it == d_sightings.end() ? 0 : it->second;
}

std::vector<uint16_t> rnti_tracker::active_rntis() const
{
    std::vector<uint16_t> v;
    for (const auto& s : d_sightings)
        if (s.second >= d_cfg.sightings_to_activate)
            v.push_back(s.first);
    return v;
}

std::vector<uint16_t> rnti_tracker::seen_rntis() const
{
    std::vector<uint16_t> v;
    for (const auto& s : d_sightings)
        v.push_back(s.first);
    return v;
}

std::vector<tracked_dci> rnti_tracker::process(const control_layout& lay, const float* cce_llr, int subframe,
                                               const cce_power_gate& gate)
{
    const dci_sizes sizes = dci_payload_sizes(lay.c);
    const int size_01a = sizes.of(dci_format::f1a), size_1c = sizes.of(dci_format::f1c);

    // Jobs: every position at every UE size, and the common space's
    // candidates at the 0/1A and 1C sizes. [job] -> in the common space.
    std::map<std::tuple<int, int, int>, bool> wanted;
    for (const auto& cand : all_pdcch_positions(lay.n_cce))
        for (dci_format f : d_cfg.ue_formats)
            if (sizes.of(f) > 0)
                wanted.emplace(std::make_tuple(cand.ncce, cand.agg, sizes.of(f)), false);
    if (d_cfg.common_space)
        for (const auto& cand : common_search_space(lay.n_cce))
            for (int s : { size_01a, size_1c })
                wanted[std::make_tuple(cand.ncce, cand.agg, s)] = true;
    std::vector<pdcch_job> jobs;
    std::vector<bool> in_common;
    for (const auto& w : wanted) {
        jobs.push_back({ std::get<0>(w.first), std::get<1>(w.first), std::get<2>(w.first) });
        in_common.push_back(w.second);
    }
    pdcch_job_results res;
    d_decoder.run(cce_llr, lay.n_cce, jobs, res, gate);

    auto format_of_ue_size = [&](int s, bool& ok) {
        for (dci_format f : d_cfg.ue_formats)
            if (sizes.of(f) == s) {
                ok = true;
                return f;
            }
        ok = false;
        return dci_format::f1a;
    };
    std::vector<scored_dci> found;
    for (size_t j = 0; j < jobs.size(); j++) {
        const pdcch_job& job = jobs[j];
        const uint16_t x = res.crc_xor[j];
        if (res.correlation[j] < d_cfg.min_correlation[size_t(agg_index(job.agg))])
            continue;
        bool common = false, ok = false;
        dci_format fmt = dci_format::f1a;
        if (in_common[j] && (is_broadcast_rnti(x) || (is_active(x) && job.payload_bits == size_01a))) {
            common = true;
            ok = job.payload_bits == size_01a || (job.payload_bits == size_1c && is_broadcast_rnti(x));
            fmt = job.payload_bits == size_01a ? dci_format::f1a : dci_format::f1c;
        } else if (is_c_rnti_value(x) && in_ue_search_space(lay.n_cce, x, subframe, { job.ncce, job.agg })) {
            fmt = format_of_ue_size(job.payload_bits, ok);
        }
        if (!ok)
            continue;
        scored_dci d;
        d.msg = parse_dci(lay.c, fmt, &res.bits[j * size_t(res.max_bits)], job.payload_bits, x);
        if (!d.msg.valid)
            continue;
        d.msg.ncce = job.ncce;
        d.msg.agg = job.agg;
        d.msg.common_space = common;
        d.correlation = res.correlation[j];
        found.push_back(std::move(d));
    }
    // Correlations of the kept DCIs, looked up after the overlap pruning.
    std::vector<scored_dci> scored = found;
    const auto kept = drop_overlapping_decodes(std::move(found));

    std::set<uint16_t> seen_now;
    for (const auto& m : kept)
        if (is_c_rnti_value(m.rnti))
            seen_now.insert(m.rnti);
    for (uint16_t r : seen_now)
        d_sightings[r]++;

    std::vector<tracked_dci> out;
    for (const auto& m : kept) {
        tracked_dci t;
        t.msg = m;
        for (const auto& s : scored)
            if (s.msg.ncce == m.ncce && s.msg.agg == m.agg && s.msg.rnti == m.rnti)
                t.correlation = s.correlation;
        t.active = is_broadcast_rnti(m.rnti) || is_active(m.rnti);
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
