/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared-channel decoders' HARQ admission (blocks/frame_admission.h)
// over one core::sch::harq_pool per block (sch/sch_harq.h has the
// semantics): a TB whose buffer has a TB in flight waits for it; a staged
// TB is given its soft buffer and told whether to combine; a decoded TB
// releases its buffer (passed) or keeps it for the next retransmission,
// and is described with "transmissions". The TB's core::sch::harq_request
// rides in its frame_shape's note from shape_frame() to admit(). Evictions are logged (info);
// contradictions go to "errors", and the TB is decoded alone.
#ifndef INCLUDED_GPURX_BLOCKS_SCH_SCH_HARQ_ADMISSION_H
#define INCLUDED_GPURX_BLOCKS_SCH_SCH_HARQ_ADMISSION_H

#include "blocks/drivers/frame_admission.h"
#include "sch/sch_harq.h"

#include <deque>

namespace gr {
namespace gpurx {

class sch_harq_admission final : public frame_admission
{
public:
    explicit sch_harq_admission(int buffers) : d_pool(buffers) {}

    bool must_wait(const frame_shape& shape) const override;
    void admit(const frame_shape& shape, void* params, admission_report& report) override;
    void completed(const core::completed_frame& frame, frame_meta& meta) override;

private:
    struct admitted {
        int slot;
        int transmissions;
        bool duplicate;
        core::sch::harq_request req;
    };
    core::sch::harq_pool d_pool;
    std::deque<admitted> d_admitted; // the TBs in the pipeline, in order
};

} // namespace gpurx
} // namespace gr

#endif
