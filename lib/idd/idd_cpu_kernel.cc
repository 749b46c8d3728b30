/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "idd/idd_cpu_kernel.h"
#include "idd/idd_implementations.h"
#include "pipeline/worker_pool.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace idd {

void expand_input(const mimo::frame_params& p, const uint8_t* in, uint8_t* det_in)
{
    const size_t hy = channel_hy_bytes(p), full = channel_full_bytes(p);
    for (int c = 0; c < p.channels; c++) {
        std::memcpy(det_in + size_t(c) * full, in + size_t(c) * hy, hy);
        std::memset(det_in + size_t(c) * full + hy, 0, full - hy);
    }
}

void feed_back(const mimo::frame_params& p, const float* ext, uint8_t* det_in)
{
    const size_t hy = channel_hy_bytes(p), full = channel_full_bytes(p);
    const size_t per = size_t(p.vectors) * p.nt * p.bits_per_symbol;
    for (int c = 0; c < p.channels; c++)
        std::memcpy(det_in + size_t(c) * full + hy, ext + size_t(c) * per, per * sizeof(float));
}

} // namespace idd

idd_cpu_kernel::idd_cpu_kernel(const mimo_idd_config& cfg) : d_cfg(cfg)
{
    d_cfg.validate();
    auto parts = idd_part_factories(d_cfg);
    d_det = parts.detector.cpu();
    d_sch = parts.decoder.cpu();
}

std::string idd_cpu_kernel::parts() const { return std::string(d_det->name()) + " + " + d_sch->name(); }

idd::batch_layout idd_cpu_kernel::layout(size_t n) const
{
    return idd::batch_layout(d_cfg, n, d_det->scratch_bytes(n), d_sch->scratch_bytes(n));
}

size_t idd_cpu_kernel::scratch_bytes(size_t max_frames) const { return layout(max_frames).bytes; }

void idd_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    const auto* params = b.params_as<idd::frame_params>();
    auto* res = b.results_as<idd::frame_result>();
    const size_t n = b.nframes;
    for (size_t f = 0; f < n; f++) {
        const std::string why = idd::frame_problem(params[f], d_cfg);
        if (!why.empty())
            throw std::invalid_argument("cpu-idd: TB " + std::to_string(f) + ": " + why);
    }
    const size_t cap = std::max(n, b.capacity); // a TB's memory at the same place in every batch
    const auto L = layout(cap);
    uint8_t* s = b.scratch;
    // Every TB's records in its own slot; a pass runs a compacted copy.
    std::vector<frame_desc> det_desc(n), sch_desc(n);
    std::vector<mimo::frame_params> detp(n);
    std::vector<sch::frame_params> tbp(n);
    for (size_t f = 0; f < n; f++)
        idd::tb_records(L, params[f], f, det_desc[f], detp[f], sch_desc[f], tbp[f]);
    pool.parallel_for(n, [&](size_t f, size_t) {
        idd::expand_input(detp[f], b.in + b.frames[f].in_offset, s + L.det_in + f * L.det_in_stride);
    });
    std::vector<size_t> active(n);
    for (size_t f = 0; f < n; f++)
        active[f] = f;
    for (int pass = 1; pass <= d_cfg.passes && !active.empty(); pass++) {
        const size_t m = active.size();
        d_det_desc.resize(m);
        d_sch_desc.resize(m);
        d_det_params.resize(m);
        d_sch_params.resize(m);
        d_det_res.assign(m, mimo::frame_result{});
        d_sch_res.assign(m, sch::frame_result{});
        for (size_t i = 0; i < m; i++) {
            d_det_desc[i] = det_desc[active[i]];
            d_sch_desc[i] = sch_desc[active[i]];
            d_det_params[i] = detp[active[i]];
            d_sch_params[i] = tbp[active[i]];
        }
        batch_view dv{};
        dv.frames = d_det_desc.data();
        dv.nframes = m;
        dv.params = d_det_params.data();
        dv.in = s + L.det_in;
        dv.out = s + L.det_out;
        dv.results = d_det_res.data();
        dv.scratch = s + L.det_scratch;
        dv.capacity = cap;
        d_det->run(dv, pool);
        batch_view sv{};
        sv.frames = d_sch_desc.data();
        sv.nframes = m;
        sv.params = d_sch_params.data();
        sv.in = s + L.det_out;
        sv.out = s + L.sch_out;
        sv.results = d_sch_res.data();
        sv.scratch = s + L.sch_scratch;
        sv.capacity = cap;
        d_sch->run(sv, pool);
        if (pool.cancelled())
            return;
        std::vector<size_t> next;
        for (size_t i = 0; i < m; i++) {
            const size_t f = active[i];
            auto& r = res[f];
            const auto& tr = d_sch_res[i];
            const uint8_t* sch_out = s + L.sch_out + f * L.sch_out_stride;
            std::memcpy(b.out + b.frames[f].out_offset, sch_out, size_t(tbp[f].tbs));
            if (pass == 1) {
                r.pass_crc = 0;
                r.det_status = d_det_res[i].status;
                r.det_rank = d_det_res[i].rank;
            } else {
                r.det_status = std::max(r.det_status, d_det_res[i].status);
            }
            r.tb = tr;
            r.passes = pass;
            if (tr.crc_ok) {
                r.pass_crc |= 1 << (pass - 1);
            } else if (pass < d_cfg.passes) {
                idd::feed_back(detp[f],
                               reinterpret_cast<const float*>(sch_out + sch::extrinsic_offset(tbp[f].tbs)),
                               s + L.det_in + f * L.det_in_stride);
                next.push_back(f);
            }
        }
        active.swap(next);
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
