/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The PDU deployment, shared by every family: a PDU in on "pdus" is one
// frame; its output leaves on "pdus" in order, with the input's metadata and
// the family's entries added. A malformed PDU is logged and published on
// "errors" (a dict: "reason", and "action" "dropped"), never decoded; a PDU
// that is decoded but reported (a HARQ contradiction: decoded alone) posts
// "action" "processed", so a consumer counts each PDU once. A family that shapes
// frames from their metadata gets the PDU's (frame_adapter::shape_frame());
// one whose frames depend on earlier ones has them admitted in order
// (blocks/frame_admission.h).
//
// Message handlers run on the block's thread; a poller thread launches
// partial batches when they fall due and publishes completed PDUs, so latency
// stays bounded by flush_us without new input. One mutex guards the
// pipeline, which is not itself thread-safe.
//
// stop() cancels a CPU batch in progress (at its next work item), publishes
// every PDU that has completed, and launches nothing new: the PDUs still in
// the pipeline, and those that arrived while it stopped, are kept, counted
// in the log, and go out first, in order, when the flowgraph starts again;
// without a restart they are lost. (GNU Radio stops blocks in no particular
// order: what stop() publishes reaches a downstream block that has already
// stopped only if the flowgraph runs again.)
#ifndef INCLUDED_GPURX_BLOCKS_PDU_DRIVER_H
#define INCLUDED_GPURX_BLOCKS_PDU_DRIVER_H

#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/pipeline_holder.h"
#include <gnuradio/block.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

namespace gr {
namespace gpurx {

//! An "errors" message: {"reason": why, "action": action}; \p action is
//! "dropped" (the frame was not processed) or "processed" (it was, and
//! leaves on the output as well).
pmt::pmt_t error_dict(const std::string& why, const char* action);

class pdu_driver
{
public:
    pdu_driver(gr::block& block, const frame_adapter& adapter, pipeline_holder& holder);
    ~pdu_driver();

    //! Call from the block's constructor: ports and handler.
    void setup();
    void start();
    void stop();
    //! PDUs published on "pdus" since construction (a worker's progress
    //! count without a block after the decoder to count them).
    uint64_t published() const { return d_published.load(std::memory_order_relaxed); }

private:
    void handle(const pmt::pmt_t& msg);
    //! Submits \p msg, or keeps it in the backlog while the pipeline holds
    //! (a stop cancelled a batch). Caller holds d_mutex.
    void take(const pmt::pmt_t& msg);
    //! Submits the backlog's PDUs, oldest first, until the pipeline holds.
    //! Caller holds d_mutex.
    void take_backlog();
    void report(const std::string& why);
    //! Logs and posts \p why on "errors" for a PDU that is still processed.
    void notify(const std::string& why);
    void publish_ready(bool block); // caller holds d_mutex
    void poll();
    void stop_poller();

    gr::block& d_block;
    const frame_adapter& d_adapter;
    pipeline_holder& d_holder;
    const pmt::pmt_t d_errors_port = pmt::mp("errors");
    std::mutex d_mutex;
    std::deque<pmt::pmt_t> d_meta; // metadata of the frames in the pipeline, in order
    std::deque<pmt::pmt_t> d_backlog; // PDUs not yet submitted while the pipeline held
    std::thread d_poller;
    std::atomic<bool> d_running{ false };
    std::atomic<uint64_t> d_published{ 0 };
};

} // namespace gpurx
} // namespace gr

#endif
