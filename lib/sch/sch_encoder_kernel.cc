/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_encoder_kernel.h"
#include "pipeline/worker_pool.h"

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

void sch_encoder_kernel::run(const batch_view& b, worker_pool& pool)
{
    while (d_encoders.size() < pool.size())
        d_encoders.push_back(std::make_unique<sch_encoder>());
    const auto* params = b.params_as<frame_params>();
    auto* results = b.results_as<encoder_result>();
    pool.parallel_for(b.nframes, [&](size_t i, size_t worker) {
        const frame_desc& fd = b.frames[i];
        d_encoders[worker]->encode(b.in + fd.in_offset, params[i], b.out + fd.out_offset);
        results[i].bits = params[i].G;
    });
}

kernel_factories encoder_kernel_factories()
{
    kernel_factories k;
    k.cpu = [] { return std::make_unique<sch_encoder_kernel>(); };
    return k;
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr
