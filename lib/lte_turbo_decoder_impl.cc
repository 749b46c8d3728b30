/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "core/turbo_kernel.h"
#include "pipeline_holder.h"
#include "pipeline_work.h"
#include "turbo_block_config.h"
#include <gnuradio/gpurx/lte_turbo_decoder.h>
#include <gnuradio/io_signature.h>

#include <cstring>

namespace gr {
namespace gpurx {

namespace {
int checked_K(int K)
{
    core::lte_qpp(K); // throws, naming K, for sizes outside Table 5.1.3-3
    return K;
}
} // namespace

class lte_turbo_decoder_impl : public lte_turbo_decoder
{
    const int d_K;
    const uint32_t d_param;
    core::turbo_batch_kernel d_kernel;
    pipeline_holder d_holder;
    const pmt::pmt_t d_error_key = pmt::mp("gpurx_error");

public:
    lte_turbo_decoder_impl(int K,
                           int iterations,
                           const std::string& algorithm,
                           int subblocks,
                           float scaling,
                           const std::string& early_termination,
                           int max_batch,
                           int slots,
                           int flush_us,
                           const std::string& backend,
                           int device)
        : gr::block("lte_turbo_decoder",
                    gr::io_signature::make(1, 1, sizeof(float) * (3 * checked_K(K) + 12)),
                    gr::io_signature::make(1, 1, K)),
          d_K(K),
          d_param(core::turbo_frame_param(K)),
          d_kernel(make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination)),
          d_holder(make_turbo_pipeline_config(K, false, max_batch, slots, flush_us),
                   backend,
                   device,
                   d_logger)
    {
    }

    bool start() override
    {
        d_holder.start(d_kernel);
        return block::start();
    }
    bool stop() override
    {
        d_holder.stop();
        return block::stop();
    }
    void forecast(int noutput_items, gr_vector_int& required) override
    {
        required[0] = pipeline_input_required(d_holder.pipe(), noutput_items);
    }
    std::string backend() const override
    {
        return core::backend_name(d_holder.backend().kind);
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        auto& pipe = *d_holder.pipe();
        const size_t n = 3 * size_t(d_K) + 12;
        const uint64_t first_in = nitems_read(0);
        const pipeline_work_io io{ noutput_items,
                                   ninput_items[0],
                                   static_cast<const uint8_t*>(input_items[0]),
                                   n * sizeof(float),
                                   static_cast<uint8_t*>(output_items[0]),
                                   size_t(d_K) };
        const auto r = run_pipeline_work(
            pipe,
            io,
            [&](const uint8_t* item, int index) {
                if (!submit_finite_llrs(pipe, reinterpret_cast<const float*>(item), n, d_K, d_param)) {
                    d_logger->warn("codeword {} holds NaN or Inf LLRs: not decoded, output "
                                   "zeros tagged gpurx_error",
                                   first_in + index);
                    pipe.submit_rejected(d_K);
                }
            },
            [&](const core::completed_frame& f, uint8_t* out, int index) {
                std::memcpy(out, f.data, d_K);
                if (f.result.status != core::FRAME_OK)
                    add_item_tag(0,
                                 nitems_written(0) + index,
                                 d_error_key,
                                 pmt::mp("NaN or Inf in the input LLRs"));
            });
        consume_each(r.consumed);
        return r.produced;
    }
};

lte_turbo_decoder::sptr lte_turbo_decoder::make(int K,
                                                int iterations,
                                                const std::string& algorithm,
                                                int subblocks,
                                                float scaling,
                                                const std::string& early_termination,
                                                int max_batch,
                                                int slots,
                                                int flush_us,
                                                const std::string& backend,
                                                int device)
{
    return gnuradio::make_block_sptr<lte_turbo_decoder_impl>(K,
                                                             iterations,
                                                             algorithm,
                                                             subblocks,
                                                             scaling,
                                                             early_termination,
                                                             max_batch,
                                                             slots,
                                                             flush_us,
                                                             backend,
                                                             device);
}

} // namespace gpurx
} // namespace gr
