/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The transmit chain (sch_encoder) as a CPU pipeline kernel, so that the
// encoder blocks share the PDU and tagged-stream drivers of the decoders
// (ordering, errors, stop and restart, packets larger than GNU Radio's
// buffers). A frame is one TB: its tbs bits (0/1) in, its G scrambled bits
// out, described by sch::frame_params; TBs are spread over the workers.
#ifndef INCLUDED_GPURX_SCH_SCH_ENCODER_KERNEL_H
#define INCLUDED_GPURX_SCH_SCH_ENCODER_KERNEL_H

#include "pipeline/batch_kernel.h"
#include "pipeline/batch_pipeline.h"
#include "sch/sch_encoder.h"
#include "sch/sch_frame.h"

#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

//! The encoder's result record (the pipeline needs one; nothing to report).
struct encoder_result {
    int32_t bits; //!< G, the bits written
};

inline frame_types encoder_frame_types() { return frame_types::of<frame_params, encoder_result>(); }

class sch_encoder_kernel final : public cpu_kernel
{
public:
    const char* name() const override { return "cpu-sch-encoder"; }
    void run(const batch_view& batch, worker_pool& pool) override;

private:
    std::vector<std::unique_ptr<sch_encoder>> d_encoders; // one per worker (each caches orders)
};

//! The CPU-only factories of the encoder kernel.
kernel_factories encoder_kernel_factories();

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
