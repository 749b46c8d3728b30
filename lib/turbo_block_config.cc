/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo_block_config.h"
#include "pipeline_holder.h"

#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {

core::turbo_config make_turbo_config(int iterations,
                                     const std::string& algorithm,
                                     int subblocks,
                                     float scaling,
                                     const std::string& early_termination)
{
    core::turbo_config c;
    c.algorithm = core::parse_algorithm(algorithm);
    c.iterations = iterations;
    c.subblocks = subblocks;
    c.scaling = scaling;
    c.stop = core::parse_early_stop(early_termination);
    c.validate();
    return c;
}

core::pipeline_config
make_turbo_pipeline_config(int max_K, bool soft, int max_batch, int slots, int flush_us)
{
    if (max_batch < 1)
        throw std::invalid_argument("max_batch must be >= 1, got " + std::to_string(max_batch));
    if (slots < 1)
        throw std::invalid_argument("slots must be >= 1, got " + std::to_string(slots));
    core::pipeline_config p;
    p.max_batch = size_t(max_batch);
    p.slots = size_t(slots);
    p.flush_timeout = flush_timeout_from_us(flush_us);
    p.max_in_bytes = (3 * size_t(max_K) + 12) * sizeof(float);
    p.max_out_bytes = core::turbo_out_bytes(max_K, soft);
    p.validate();
    return p;
}

bool submit_finite_llrs(core::batch_pipeline& pipe, const float* llr, size_t n, int K, uint32_t param)
{
    float* dst = reinterpret_cast<float*>(
        pipe.begin_frame(n * sizeof(float), size_t(K), param));
    float acc = 0.0f;
    // Copy and check in one pass: x - x is 0 for finite x and NaN for NaN or
    // Inf, and summing it keeps the loop branch-free so it vectorises.
    for (size_t i = 0; i < n; i++) {
        dst[i] = llr[i];
        acc += llr[i] - llr[i];
    }
    if (acc == 0.0f) {
        pipe.commit_frame();
        return true;
    }
    pipe.abort_frame();
    return false;
}

} // namespace gpurx
} // namespace gr
