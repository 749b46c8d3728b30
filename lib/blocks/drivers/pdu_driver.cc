/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/pdu_driver.h"
#include "blocks/drivers/frame_admission.h"
#include <gnuradio/pdu.h>
#include <boost/thread/thread.hpp>

#include <chrono>

namespace gr {
namespace gpurx {

pdu_driver::pdu_driver(gr::block& block, const frame_adapter& adapter, pipeline_holder& holder)
    : d_block(block), d_adapter(adapter), d_holder(holder)
{
}

pdu_driver::~pdu_driver() { stop_poller(); }

void pdu_driver::setup()
{
    d_block.message_port_register_in(msgport_names::pdus());
    d_block.message_port_register_out(msgport_names::pdus());
    d_block.message_port_register_out(d_errors_port);
    d_block.set_msg_handler(msgport_names::pdus(), [this](const pmt::pmt_t& m) { handle(m); });
}

void pdu_driver::start()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_holder.start();
    }
    d_running = true;
    d_poller = std::thread([this] { poll(); });
}

void pdu_driver::stop_poller()
{
    d_running = false;
    if (d_poller.joinable())
        d_poller.join();
}

void pdu_driver::stop()
{
    d_holder.request_stop(); // cancels a batch the poller is running
    stop_poller();
    std::lock_guard<std::mutex> lock(d_mutex);
    auto* pipe = d_holder.pipe();
    if (!pipe)
        return;
    pipe->wait_in_flight();
    publish_ready(false);
    d_holder.stop(); // logs what stays for the restart
    if (!d_backlog.empty())
        d_holder.logger()->warn("stop(): {} more PDU(s) arrived while the block stopped: they are "
                                "taken first if the flowgraph starts again, and lost if it does not",
                                d_backlog.size());
}

pmt::pmt_t error_dict(const std::string& why, const char* action)
{
    pmt::pmt_t d = pmt::make_dict();
    d = pmt::dict_add(d, pmt::mp("reason"), pmt::mp(why));
    return pmt::dict_add(d, pmt::mp("action"), pmt::mp(action));
}

void pdu_driver::report(const std::string& why)
{
    d_holder.logger()->warn("PDU dropped: {}", why);
    d_block.message_port_pub(d_errors_port, error_dict(why, "dropped"));
}

void pdu_driver::notify(const std::string& why)
{
    d_holder.logger()->warn("{}", why);
    d_block.message_port_pub(d_errors_port, error_dict(why, "processed"));
}

void pdu_driver::publish_ready(bool block)
{
    auto& pipe = *d_holder.pipe();
    auto* admission = d_adapter.admission();
    while (const auto* f = pipe.front(block)) {
        pmt::pmt_t meta = d_meta.front();
        d_meta.pop_front();
        frame_meta entries;
        d_adapter.describe(*f, entries);
        if (admission)
            admission->completed(*f, entries);
        for (const auto& kv : entries)
            meta = pmt::dict_add(meta, kv.first, kv.second);
        const pmt::pmt_t vec = d_adapter.pdu_output(*f);
        pipe.pop();
        d_block.message_port_pub(msgport_names::pdus(), pmt::cons(meta, vec));
        d_published.fetch_add(1, std::memory_order_relaxed);
        block = false;
    }
}

void pdu_driver::handle(const pmt::pmt_t& msg)
{
    // Waits for the poller, which may be running a CPU batch: if GNU Radio
    // stops the block meanwhile, that batch is cancelled so the stop is not
    // held up (the block's thread is the one GNU Radio interrupts).
    std::unique_lock<std::mutex> lock(d_mutex, std::try_to_lock);
    while (!lock.owns_lock()) {
        if (boost::this_thread::interruption_requested())
            d_holder.request_stop();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        lock.try_lock();
    }
    if (!d_holder.pipe()) {
        report(d_holder.failure().empty() ? "the block is not running"
                                          : "the block is not running: " + d_holder.failure());
        return;
    }
    d_holder.resume_if_restarted();
    take_backlog();
    take(msg);
}

void pdu_driver::take_backlog()
{
    while (!d_backlog.empty() && !d_holder.pipe()->held()) {
        const pmt::pmt_t msg = d_backlog.front();
        d_backlog.pop_front();
        take(msg);
    }
}

void pdu_driver::take(const pmt::pmt_t& msg)
{
    if (!pmt::is_pdu(msg)) {
        report("not a PDU (a pair of a dict and a uniform vector)");
        return;
    }
    const uint8_t* items = nullptr;
    size_t n = 0;
    std::string why;
    frame_shape shape;
    const bool shaped = d_adapter.pdu_items(pmt::cdr(msg), items, n, why) &&
                        (d_adapter.uses_frame_metadata()
                             ? d_adapter.shape_frame(n, pmt::car(msg), shape, why)
                             : d_adapter.shape(n, shape, why));
    if (!shaped) {
        report(why);
        return;
    }
    auto* pipe = d_holder.pipe();
    auto* admission = d_adapter.admission();
    if (admission && d_backlog.empty() && !pipe->held() && admission->must_wait(shape)) {
        // Its earlier transmission is in the pipeline: everything there
        // completes and leaves first (a stop meanwhile holds the pipeline,
        // and the PDU waits in the backlog below).
        pipe->drain();
        publish_ready(false);
    }
    while (d_backlog.empty() && !pipe->held() && !pipe->can_accept())
        publish_ready(true);
    if (!d_backlog.empty() || pipe->held()) {
        d_backlog.push_back(msg); // in order, after those already waiting
        return;
    }
    uint8_t* dst = pipe->begin_frame(n * d_adapter.in_item_bytes(), shape.out_bytes, shape.params.data());
    if (!d_adapter.stage(shape, items, 0, n, dst, why)) {
        pipe->abort_frame();
        report("not processed: " + why);
        return;
    }
    if (admission) {
        admission_report said;
        admission->admit(shape, pipe->open_frame_params(), said);
        if (!said.info.empty())
            d_holder.logger()->info("{}", said.info);
        if (!said.error.empty())
            notify(said.error);
    }
    d_meta.push_back(pmt::car(msg)); // under the lock: before its frame can leave
    pipe->commit_frame();
    publish_ready(false);
}

void pdu_driver::poll()
{
    while (d_running) {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            if (auto* pipe = d_holder.pipe()) {
                d_holder.resume_if_restarted();
                take_backlog();
                pipe->launch_due();
                publish_ready(false);
            }
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

} // namespace gpurx
} // namespace gr
