/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One frame at a time through a family's batching pipeline, for the gr-fec
// decoder objects. gr-fec calls generic_work() with a single frame and reads
// the output when the call returns, so each frame is submitted, launched at
// once and waited for: a batch of one. That keeps the objects on the same
// implementations and backends as the blocks (CPU or CUDA), at the cost of
// the blocks' throughput, which comes from batching.
#ifndef INCLUDED_GPURX_BLOCKS_FEC_FRAME_RUNNER_H
#define INCLUDED_GPURX_BLOCKS_FEC_FRAME_RUNNER_H

#include "blocks/frame_adapter.h"
#include "blocks/pipeline_holder.h"

#include <functional>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

//! Throws std::invalid_argument naming llr_scale unless it is finite and > 0.
void check_llr_scale(float llr_scale);

class fec_frame_runner
{
public:
    using on_frame = std::function<void(const core::completed_frame&)>;

    //! \p adapter must outlive the runner. Validates \p backend and resolves
    //! it (one log line), as the blocks do; the pipeline is made on the first
    //! frame, so objects that are made but never used cost no worker.
    fec_frame_runner(const frame_adapter& adapter, const std::string& backend, gr::logger_ptr logger);

    /*!
     * Decode one frame of \p n float values, each multiplied by \p scale,
     * into \p out (the frame's out_bytes). \p done sees the completed frame.
     * A malformed frame (a length the family does not take, NaN or Inf) is
     * not decoded: its output is zeros, the reason is logged, and false is
     * returned.
     */
    bool run(const float* in, size_t n, float scale, uint8_t* out, size_t out_bytes, const on_frame& done = {});

    std::string backend_name() const { return d_holder.backend_name(); }

private:
    void reject(const std::string& why, uint8_t* out, size_t out_bytes);

    const frame_adapter& d_adapter;
    pipeline_holder d_holder;
    std::vector<float> d_scaled;
};

} // namespace gpurx
} // namespace gr

#endif
