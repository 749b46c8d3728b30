/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/chanest_cpu_kernel.h"
#include "ofdm/mimo_chanest.h"
#include "pipeline/worker_pool.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
const chanest_config& validated(const chanest_config& c)
{
    c.validate();
    return c;
}
} // namespace

chanest_cpu_kernel::chanest_cpu_kernel(const chanest_config& cfg)
    : d_cfg(validated(cfg)), d_tr(cfg.nt, cfg.used, cfg.repeats)
{
}

chanest_frame_result chanest_cpu_kernel::estimate_frame(const chanest_frame_params& p,
                                                        const frame_desc& d,
                                                        const uint8_t* in,
                                                        uint8_t* out) const
{
    if (!chanest_frame_ok(p, d, d_cfg.max_work())) {
        std::memset(out, 0, d.out_bytes);
        return { 0.0, CHANEST_BAD_FRAME, 0 };
    }
    const bool same = p.nt == d_tr.nt && p.used == d_tr.used && p.repeats == d_tr.repeats;
    std::unique_ptr<mimo_training> local;
    if (!same)
        local = std::make_unique<mimo_training>(p.nt, p.used, p.repeats);
    const mimo_training& tr = local ? *local : d_tr;
    const auto* y = reinterpret_cast<const cfloat*>(in);
    const chanest_result est = estimate_mimo_channel(tr, p.nr, y, p.group);
    // The data symbols' y vectors: subcarrier by subcarrier, symbol by
    // symbol, antenna by antenna (mimo_detector's vectors).
    const int T = chanest_training_symbols(p), K = p.used, nr = p.nr, D = p.data_symbols;
    auto* yo = reinterpret_cast<cfloat*>(out);
    for (int k = 0; k < K; k++)
        for (int s = 0; s < D; s++)
            for (int r = 0; r < nr; r++)
                *yo++ = y[(size_t(T + s) * nr + r) * K + k];
    std::copy(est.h.begin(), est.h.end(), yo);
    return { est.n0, CHANEST_OK, 0 };
}

void chanest_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    const auto* params = b.params_as<chanest_frame_params>();
    auto* results = b.results_as<chanest_frame_result>();
    pool.parallel_for(b.nframes, [&](size_t f, size_t) {
        const frame_desc& fd = b.frames[f];
        results[f] = estimate_frame(params[f], fd, b.in + fd.in_offset, b.out + fd.out_offset);
    });
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
