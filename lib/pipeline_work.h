/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The general_work() loop shared by every gr-gpurx stream block that runs a
// batch_pipeline, one input item (a vector) per frame and one output item per
// frame.
//
// Frames are consumed when they are copied into the pipeline and produced when
// their batch completes, so output lags input by up to slots x max_batch items.
// Each block's forecast() asks for no input while frames are pending; that
// keeps the scheduler calling general_work() after the upstream block has
// finished, and this loop then flushes and drains the pipeline, so the end of
// a stream loses nothing. Waiting is bounded: on a completed batch, or at most
// until the partial batch's flush deadline.
#ifndef INCLUDED_GPURX_PIPELINE_WORK_H
#define INCLUDED_GPURX_PIPELINE_WORK_H

#include "core/batch_pipeline.h"
#include <cstdint>
#include <functional>

namespace gr {
namespace gpurx {

struct pipeline_work_io {
    int noutput_items;
    int ninput_items;
    const uint8_t* in;
    size_t in_item_bytes;
    uint8_t* out;
    size_t out_item_bytes;
};

//! Puts one input item into the pipeline (submit() or submit_rejected()).
using submit_item_fn = std::function<void(const uint8_t* item, int index)>;
//! Writes one completed frame as output item number \p index of this call.
using emit_item_fn =
    std::function<void(const core::completed_frame& frame, uint8_t* item, int index)>;

struct pipeline_work_result {
    int consumed;
    int produced;
};

pipeline_work_result run_pipeline_work(core::batch_pipeline& pipe,
                                       const pipeline_work_io& io,
                                       const submit_item_fn& submit,
                                       const emit_item_fn& emit);

/*!
 * Bounded wait when a call brought no new input and nothing completed: block
 * until the oldest launched batch completes (it stays at the front), or, when
 * only a partial batch waits, sleep towards its flush deadline (at most
 * 200 us) and launch it once due.
 */
void pipeline_idle_wait(core::batch_pipeline& pipe);

//! forecast() for such blocks: nothing required while frames are pending.
inline int pipeline_input_required(const core::batch_pipeline* pipe, int noutput_items)
{
    return (pipe && pipe->pending() > 0) ? 0 : noutput_items;
}

} // namespace gpurx
} // namespace gr

#endif
