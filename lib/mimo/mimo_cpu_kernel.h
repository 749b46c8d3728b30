/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO detectors on the CPU as a pipeline kernel: frames (mimo_frame.h)
// go to the pool's workers one at a time, each worker with its own detector
// of the configured algorithm. A frame that cannot be detected (bad shape,
// wrong byte count, NaN or infinity) comes out as zeros with its status.
//   cpu-ml     exhaustive max-log: the family's reference
//   cpu-mtt    multi-pass trellis traversal
//   cpu-kbest  K-best tree search, LLRs clipped
//   cpu-lmmse  LMMSE equalisation and per-stream demapping
//   cpu-one-pass  one-pass trellis traversal, LLRs clipped
// Frames with a-priori LLRs (frame_params::apriori) get them to the detector;
// cfg.output chooses a-posteriori or extrinsic LLRs, cfg.llr_type float or
// int8 (each float LLR quantised by common/llr_int8.h).
#ifndef INCLUDED_GPURX_MIMO_MIMO_CPU_KERNEL_H
#define INCLUDED_GPURX_MIMO_MIMO_CPU_KERNEL_H

#include "mimo/mimo_config.h"
#include "mimo/mimo_detector.h"
#include "mimo/mimo_frame.h"
#include "pipeline/batch_kernel.h"

#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class mimo_cpu_kernel final : public cpu_kernel
{
public:
    explicit mimo_cpu_kernel(const mimo_config& cfg);
    const char* name() const override { return d_name.c_str(); }
    void run(const batch_view& batch, worker_pool& pool) override;
    const mimo_config& config() const { return d_cfg; }

    /*!
     * Detect one frame: \p in (frame_in_bytes(p)) to \p out
     * (frame_out_bytes(p, cfg.llr_type)) with \p detector. Exposed for tests and for callers
     * without a pipeline.
     */
    static mimo::frame_result detect_frame(mimo::mimo_detector& detector,
                                           const mimo_config& cfg,
                                           const mimo::frame_params& p,
                                           const uint8_t* in,
                                           size_t in_bytes,
                                           uint8_t* out,
                                           size_t out_bytes);

private:
    mimo_config d_cfg;
    std::string d_name;
    std::vector<std::unique_ptr<mimo::mimo_detector>> d_detectors; // one per worker
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
