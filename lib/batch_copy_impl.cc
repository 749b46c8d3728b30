/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "batch_copy_impl.h"
#include "pipeline_work.h"

#include <gnuradio/io_signature.h>
#include <cstring>

namespace gr {
namespace gpurx {

namespace {
core::pipeline_config copy_config(unsigned vlen, unsigned max_batch, unsigned slots, int flush_us)
{
    core::pipeline_config c;
    c.slots = slots;
    c.max_batch = max_batch;
    c.max_in_bytes = size_t(vlen) * sizeof(float);
    c.max_out_bytes = c.max_in_bytes;
    c.flush_timeout = flush_timeout_from_us(flush_us);
    return c;
}
} // namespace

batch_copy::sptr batch_copy::make(unsigned vlen,
                                  float scale,
                                  unsigned max_batch,
                                  unsigned slots,
                                  int flush_us,
                                  const std::string& backend,
                                  int device)
{
    return gnuradio::make_block_sptr<batch_copy_impl>(
        vlen, scale, max_batch, slots, flush_us, backend, device);
}

batch_copy_impl::batch_copy_impl(unsigned vlen,
                                 float scale,
                                 unsigned max_batch,
                                 unsigned slots,
                                 int flush_us,
                                 const std::string& backend,
                                 int device)
    : gr::block("batch_copy",
                gr::io_signature::make(1, 1, sizeof(float) * (vlen ? vlen : 1)),
                gr::io_signature::make(1, 1, sizeof(float) * (vlen ? vlen : 1))),
      d_kernel(vlen, scale),
      d_holder(copy_config(vlen, max_batch, slots, flush_us), backend, device, d_logger)
{
}

bool batch_copy_impl::start()
{
    d_holder.start(d_kernel);
    return block::start();
}

bool batch_copy_impl::stop()
{
    d_holder.stop();
    return block::stop();
}

void batch_copy_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    ninput_items_required[0] = pipeline_input_required(d_holder.pipe(), noutput_items);
}

std::string batch_copy_impl::backend() const
{
    return core::backend_name(d_holder.backend().kind);
}

int batch_copy_impl::general_work(int noutput_items,
                                  gr_vector_int& ninput_items,
                                  gr_vector_const_void_star& input_items,
                                  gr_vector_void_star& output_items)
{
    auto& pipe = *d_holder.pipe();
    const size_t bytes = d_kernel.frame_bytes();
    const pipeline_work_io io{ noutput_items,
                               ninput_items[0],
                               static_cast<const uint8_t*>(input_items[0]),
                               bytes,
                               static_cast<uint8_t*>(output_items[0]),
                               bytes };
    const auto r = run_pipeline_work(
        pipe,
        io,
        [&](const uint8_t* item, int) { pipe.submit(item, bytes, bytes, 0); },
        [&](const core::completed_frame& f, uint8_t* out, int) {
            std::memcpy(out, f.data, bytes);
        });
    consume_each(r.consumed);
    return r.produced;
}

} // namespace gpurx
} // namespace gr
