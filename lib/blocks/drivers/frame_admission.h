/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// For a family whose frames depend on earlier ones: the shared channel's
// HARQ retransmissions are combined with what earlier transmissions of the
// same transport block left in a soft buffer. The PDU and tagged drivers
// ask the adapter's admission (frame_adapter::admission()) three things:
//  - before a frame is staged, whether it must wait for frames already in
//    the pipeline (its earlier transmission): the driver then launches what
//    it holds and delivers completed frames until it need not, so a
//    retransmission never shares a batch with, or overtakes, the
//    transmission it combines with;
//  - once the frame is staged and well-formed, just before it is
//    committed, to amend its parameter record (assign its soft buffer): a
//    frame withdrawn as malformed never touches the HARQ state;
//  - for every frame leaving the pipeline, in order, what it adds to the
//    frame's tags or metadata (and to release its buffer).
// The drivers call it with their lock held, from one thread at a time.
#ifndef INCLUDED_GPURX_BLOCKS_FRAME_ADMISSION_H
#define INCLUDED_GPURX_BLOCKS_FRAME_ADMISSION_H

#include "blocks/drivers/frame_adapter.h"

#include <string>

namespace gr {
namespace gpurx {

//! What admitting a frame has to say.
struct admission_report {
    std::string error; //!< for the "errors" port (the frame is still processed)
    std::string info;  //!< for an info log line
};

class frame_admission
{
public:
    virtual ~frame_admission() = default;
    //! True while the frame of \p shape must wait for frames in the pipeline.
    virtual bool must_wait(const frame_shape& shape) const = 0;
    //! The frame of \p shape is about to be committed: amend \p params, its
    //! record in the pipeline (shape.params as it was at begin_frame()).
    virtual void admit(const frame_shape& shape, void* params, admission_report& report) = 0;
    //! A frame leaves the pipeline (every admitted frame, in order).
    virtual void completed(const core::completed_frame& frame, frame_meta& meta) = 0;
};

} // namespace gpurx
} // namespace gr

#endif
