/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The deployments as complete blocks, for any family: a family's block is
// its public interface (Public, with backend()) plus a frame_adapter
// (Adapter); make() builds one of these. Written once, so every family gets
// the same batching, ordering, end-of-stream, stop/restart and error handling.
#ifndef INCLUDED_GPURX_BLOCKS_DRIVER_BLOCKS_H
#define INCLUDED_GPURX_BLOCKS_DRIVER_BLOCKS_H

#include "blocks/drivers/buffer_limits.h"
#include "blocks/drivers/continuous_driver.h"
#include "blocks/drivers/pdu_driver.h"
#include "blocks/drivers/pipeline_holder.h"
#include "blocks/drivers/stream_driver.h"
#include "blocks/drivers/tagged_driver.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpurx {

/*!
 * What the blocks on GNU Radio streams share: the adapter, the pipeline, a
 * driver (stream_driver, tagged_driver or continuous_driver) and the
 * gr::block methods that forward to it. gr::block is a virtual base, so the
 * most derived class (stream_block, tagged_block, continuous_block or a
 * class derived from it) constructs it, with its io signatures.
 */
template <typename Public, typename Adapter, typename Driver>
class item_block : public Public, private block_tags
{
protected:
    Adapter d_adapter;
    pipeline_holder d_holder;
    Driver d_driver;

    template <typename Extra>
    item_block(Adapter adapter, const pipeline_options& options, const Extra& extra)
        : d_adapter(std::move(adapter)),
          d_holder(d_adapter, options, this->d_logger),
          d_driver(*this, *this, d_adapter, d_holder, extra)
    {
        d_driver.setup();
    }

public:
    // The pipeline is made here, in the thread that calls tb.start(): a
    // failure (memory the machine would allow but the process cannot get)
    // then raises from tb.start() instead of hanging it.
    bool check_topology(int, int noutputs) override
    {
        d_holder.prepare();
        // The tagged form's buffer is sized for its largest packet: on a
        // restart a smaller one would fail its min_noutput_items ("Buffer
        // too small for min_noutput_items") and end its thread.
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }
    bool start() override
    {
        d_holder.start();
        return gr::block::start();
    }
    bool stop() override
    {
        d_driver.stop();
        d_holder.stop();
        return gr::block::stop();
    }
    void forecast(int noutput_items, gr_vector_int& required) override
    {
        d_driver.forecast(noutput_items, required);
    }
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        return d_driver.general_work(noutput_items, ninput_items, input_items, output_items);
    }
    std::string backend() const override { return d_holder.backend_name(); }

private:
    output_buffer_limits d_buffer_limits;

    void add_tag(uint64_t offset, const pmt::pmt_t& key, const pmt::pmt_t& value) override
    {
        this->add_item_tag(0, offset, key, value);
    }
    void tags_in_window(std::vector<gr::tag_t>& tags, uint64_t rel_start, uint64_t rel_end, const pmt::pmt_t& key) override
    {
        this->get_tags_in_window(tags, 0, rel_start, rel_end, key);
    }
    void all_tags_in_window(std::vector<gr::tag_t>& tags, unsigned port, uint64_t rel_start, uint64_t rel_end) override
    {
        this->get_tags_in_window(tags, port, rel_start, rel_end);
    }
};

//! Stream deployment: vectors of in_items input items in, one output vector
//! of the frame's output bytes out; or the ports the adapter declares
//! (frame_adapter::stream_ports()).
template <typename Public, typename Adapter>
class stream_block final : public item_block<Public, Adapter, stream_driver>
{
    static stream_layout layout(const Adapter& a, size_t in_items, frame_shape& s)
    {
        std::string why;
        if (!a.shape(in_items, s, why))
            throw std::invalid_argument(why);
        return a.stream_ports(s);
    }
    static gr::io_signature::sptr in_sig(const Adapter& a, size_t in_items)
    {
        frame_shape s;
        std::vector<int> sizes;
        for (const auto& p : layout(a, in_items, s).inputs)
            sizes.push_back(int(p.item_bytes));
        return gr::io_signature::makev(int(sizes.size()), int(sizes.size()), sizes);
    }
    static gr::io_signature::sptr out_sig(const Adapter& a, size_t in_items)
    {
        frame_shape s;
        const auto l = layout(a, in_items, s);
        return gr::io_signature::make(1, 1, int(s.out_bytes / l.out_items_per_frame));
    }

public:
    stream_block(const char* name, Adapter adapter, size_t in_items, const pipeline_options& options)
        : gr::block(name, in_sig(adapter, in_items), out_sig(adapter, in_items)),
          item_block<Public, Adapter, stream_driver>(std::move(adapter), options, in_items)
    {
    }
};

//! Tagged-stream deployment: items in, one packet per frame, packets out.
template <typename Public, typename Adapter>
class tagged_block final : public item_block<Public, Adapter, tagged_driver>
{
public:
    tagged_block(const char* name, Adapter adapter, const std::string& len_tag_key, const pipeline_options& options)
        : gr::block(name,
                    gr::io_signature::make(1, 1, int(adapter.in_item_bytes())),
                    gr::io_signature::make(1, 1, int(adapter.out_item_bytes()))),
          item_block<Public, Adapter, tagged_driver>(std::move(adapter), options, len_tag_key)
    {
    }
};

/*!
 * Continuous deployment: one unbounded stream in, the adapter cutting it into
 * frames (a continuous_adapter), their output out in order. Not final: a
 * family whose public interface reports more (e.g. counts) derives from it,
 * and constructs gr::block with in_signature() and out_signature().
 */
template <typename Public, typename Adapter>
class continuous_block : public item_block<Public, Adapter, continuous_driver>
{
public:
    static gr::io_signature::sptr in_signature(const Adapter& a)
    {
        return gr::io_signature::make(1, 1, int(a.in_item_bytes()));
    }
    static gr::io_signature::sptr out_signature(const Adapter& a)
    {
        return gr::io_signature::make(1, 1, int(a.out_item_bytes()));
    }

    continuous_block(const char* name, Adapter adapter, const pipeline_options& options)
        : gr::block(name, in_signature(adapter), out_signature(adapter)),
          // Two frames' input held by the adapter is enough to keep the
          // pipeline fed; beyond that, input stays upstream.
          item_block<Public, Adapter, continuous_driver>(std::move(adapter), options, size_t(2))
    {
    }
};

//! PDU deployment: a PDU per frame on "pdus", in and out; "errors" out.
template <typename Public, typename Adapter>
class pdu_block final : public Public
{
    Adapter d_adapter;
    pipeline_holder d_holder;
    pdu_driver d_driver;

public:
    pdu_block(const char* name, Adapter adapter, const pipeline_options& options)
        : gr::block(name, gr::io_signature::make(0, 0, 0), gr::io_signature::make(0, 0, 0)),
          d_adapter(std::move(adapter)),
          d_holder(d_adapter, options, this->d_logger),
          d_driver(*this, d_adapter, d_holder)
    {
        d_driver.setup();
    }
    // As item_block's: the pipeline is made in tb.start()'s thread.
    bool check_topology(int, int) override
    {
        d_holder.prepare();
        return true;
    }
    bool start() override
    {
        d_driver.start();
        return gr::block::start();
    }
    bool stop() override
    {
        d_driver.stop();
        return gr::block::stop();
    }
    std::string backend() const override { return d_holder.backend_name(); }
    // Overrides the public class's pdus_out() where it declares one.
    uint64_t pdus_out() const { return d_driver.published(); }
};

} // namespace gpurx
} // namespace gr

#endif
