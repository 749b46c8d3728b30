/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the drivers of GNU Radio streams (stream, tagged, continuous) share
// about the end of a finite stream and about waiting with no new input: how
// the end is recognised, how a driver waits without spinning, and how input
// cut short by the end is reported. Written once, so every deployment ends a
// stream the same way.
#ifndef INCLUDED_GPURX_BLOCKS_STREAM_END_H
#define INCLUDED_GPURX_BLOCKS_STREAM_END_H

#include "pipeline/batch_pipeline.h"
#include <gnuradio/block.h>
#include <gnuradio/logger.h>

#include <chrono>
#include <string>

namespace gr {
namespace gpurx {

//! Longest sleep while waiting for a partial batch to fall due; short enough
//! that new input is picked up promptly, long enough not to spin a core.
constexpr auto max_idle_sleep = std::chrono::microseconds(200);

//! True when the upstream of \p block's input \p port has finished and its buffer
//! holds nothing more: the end of a finite stream.
bool input_finished(gr::block& block, int ninput_items, int port = 0);

//! True when the upstream of \p block's input \p port has finished (items
//! may still wait in its buffer).
bool upstream_finished(gr::block& block, int port = 0);

/*!
 * Bounded wait when a call brought no new input and nothing completed: block
 * until the oldest launched batch completes (it stays at the front), or, when
 * only a partial batch waits, sleep towards its flush deadline (at most
 * max_idle_sleep) and launch it once due.
 */
void pipeline_idle_wait(core::batch_pipeline& pipe);

/*!
 * Input the end of the stream cut short (less than a frame, or a trellis
 * step) is not processed: a warning naming input item \p offset, and a dict
 * on \p block's "errors" port: "reason" (\p why), "offset", "dropped" (the
 * items, per input port or as one count).
 */
void report_cut_at_end(gr::block& block,
                       const gr::logger_ptr& logger,
                       uint64_t offset,
                       const std::string& why,
                       const pmt::pmt_t& dropped);

} // namespace gpurx
} // namespace gr

#endif
