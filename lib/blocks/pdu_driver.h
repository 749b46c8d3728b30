/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The PDU deployment, shared by every family: a PDU in on "pdus" is one
// frame; its output leaves on "pdus" in order, with the input's metadata and
// the family's entries added. A malformed PDU is logged and published on
// "errors" (a dict with the reason), never decoded.
//
// Message handlers run on the block's thread; a poller thread launches
// partial batches when they fall due and publishes completed PDUs, so latency
// stays bounded by flush_us without new input. One mutex guards the
// pipeline, which is not itself thread-safe. At stop() every frame still in
// the pipeline is completed and published, and the count is logged: a
// message handler downstream that has already stopped may not see them.
#ifndef INCLUDED_GPURX_BLOCKS_PDU_DRIVER_H
#define INCLUDED_GPURX_BLOCKS_PDU_DRIVER_H

#include "blocks/frame_adapter.h"
#include "blocks/pipeline_holder.h"
#include <gnuradio/block.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

namespace gr {
namespace gpurx {

class pdu_driver
{
public:
    pdu_driver(gr::block& block, const frame_adapter& adapter, pipeline_holder& holder);
    ~pdu_driver();

    //! Call from the block's constructor: ports and handler.
    void setup();
    void start();
    void stop();

private:
    void handle(const pmt::pmt_t& msg);
    void report(const std::string& why);
    void publish_ready(bool block); // caller holds d_mutex
    void poll();
    void stop_poller();

    gr::block& d_block;
    const frame_adapter& d_adapter;
    pipeline_holder& d_holder;
    const pmt::pmt_t d_errors_port = pmt::mp("errors");
    std::mutex d_mutex;
    std::deque<pmt::pmt_t> d_meta; // metadata of the frames in the pipeline, in order
    std::thread d_poller;
    std::atomic<bool> d_running{ false };
};

} // namespace gpurx
} // namespace gr

#endif
