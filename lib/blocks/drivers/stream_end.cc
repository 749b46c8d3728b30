/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/stream_end.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

#include <algorithm>
#include <thread>

namespace gr {
namespace gpurx {

bool input_finished(gr::block& block, int ninput_items, int port)
{
    if (ninput_items > 0 || !block.detail())
        return false;
    const auto reader = block.detail()->input(port);
    return reader && reader->done() && reader->items_available() == 0;
}

bool upstream_finished(gr::block& block, int port)
{
    if (!block.detail())
        return false;
    const auto reader = block.detail()->input(port);
    return reader && reader->done();
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

void report_cut_at_end(gr::block& block,
                       const gr::logger_ptr& logger,
                       uint64_t offset,
                       const std::string& why,
                       const pmt::pmt_t& dropped)
{
    logger->warn("input item {}: {}", offset, why);
    pmt::pmt_t d = pmt::make_dict();
    d = pmt::dict_add(d, pmt::mp("reason"), pmt::mp(why));
    d = pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(offset));
    d = pmt::dict_add(d, pmt::mp("dropped"), dropped);
    block.message_port_pub(pmt::mp("errors"), d);
}

} // namespace gpurx
} // namespace gr
