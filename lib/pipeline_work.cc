/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline_work.h"

#include <algorithm>
#include <thread>

namespace gr {
namespace gpurx {

namespace {
// Longest sleep while waiting for a partial batch to fall due; short enough
// that new input is picked up promptly, long enough not to spin a core.
constexpr auto max_idle_sleep = std::chrono::microseconds(200);
} // namespace

pipeline_work_result run_pipeline_work(core::batch_pipeline& pipe,
                                       const pipeline_work_io& io,
                                       const submit_item_fn& submit,
                                       const emit_item_fn& emit)
{
    int consumed = 0, produced = 0;
    auto emit_ready = [&](bool block) {
        bool any = false;
        while (produced < io.noutput_items) {
            const core::completed_frame* f = pipe.front(block);
            if (!f)
                break;
            emit(*f, io.out + size_t(produced) * io.out_item_bytes, produced);
            pipe.pop();
            produced++;
            any = true;
            block = false; // wait for at most one batch per call
        }
        return any;
    };

    for (;;) {
        bool progress = emit_ready(false);
        while (consumed < io.ninput_items && pipe.can_accept()) {
            submit(io.in + size_t(consumed) * io.in_item_bytes, consumed);
            consumed++;
            progress = true;
        }
        pipe.launch_due();
        if (consumed == io.ninput_items) {
            emit_ready(false);
            break;
        }
        if (!progress) {
            // Input is waiting but every slot is busy: wait for the oldest
            // batch if there is room for its output, else return.
            if (produced < io.noutput_items && pipe.front_in_flight()) {
                emit_ready(true);
                continue;
            }
            break;
        }
    }

    if (produced == 0 && consumed == 0 && pipe.pending() > 0) {
        // No new input: the upstream is idle or finished.
        pipeline_idle_wait(pipe);
        emit_ready(false);
    }
    return { consumed, produced };
}

void pipeline_idle_wait(core::batch_pipeline& pipe)
{
    if (pipe.front_in_flight()) {
        pipe.front(true);
        return;
    }
    const auto now = core::batch_pipeline::clock::now();
    const auto due = pipe.next_deadline();
    if (due > now)
        std::this_thread::sleep_for(
            std::min<core::batch_pipeline::clock::duration>(due - now, max_idle_sleep));
    pipe.launch_due();
}

} // namespace gpurx
} // namespace gr
