/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Tagged-stream turbo decoder. It is a gr::block rather than a
// gr::tagged_stream_block, because tagged_stream_block hands work() one packet
// per call, and batching needs many packets per call: this block parses the
// length tags itself, submits every complete packet it sees, and emits
// decoded packets as their batches complete.
#include "core/turbo_kernel.h"
#include "pipeline_holder.h"
#include "pipeline_work.h"
#include "turbo_block_config.h"
#include <gnuradio/gpurx/lte_turbo_decoder_tagged.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cstring>

namespace gr {
namespace gpurx {

class lte_turbo_decoder_tagged_impl : public lte_turbo_decoder_tagged
{
    core::turbo_batch_kernel d_kernel;
    pipeline_holder d_holder;
    const pmt::pmt_t d_len_key;
    const pmt::pmt_t d_errors_port = pmt::mp("errors");
    const pmt::pmt_t d_iter_key = pmt::mp("turbo_iterations");
    const pmt::pmt_t d_crc_key = pmt::mp("crc_ok");
    int d_need = 1; // input items the next packet needs (forecast)

public:
    lte_turbo_decoder_tagged_impl(int iterations,
                                  const std::string& algorithm,
                                  int subblocks,
                                  float scaling,
                                  const std::string& early_termination,
                                  int max_batch,
                                  int slots,
                                  int flush_us,
                                  const std::string& backend,
                                  int device,
                                  const std::string& len_tag_key)
        : gr::block("lte_turbo_decoder_tagged",
                    gr::io_signature::make(1, 1, sizeof(float)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          d_kernel(make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination)),
          d_holder(make_turbo_pipeline_config(core::lte_max_K, false, max_batch, slots, flush_us),
                   backend,
                   device,
                   d_logger),
          d_len_key(pmt::mp(len_tag_key))
    {
        set_tag_propagation_policy(TPP_DONT);
        set_relative_rate(1, 3);
        // Room for the largest decoded packet in every call.
        set_min_noutput_items(core::lte_max_K);
        message_port_register_out(d_errors_port);
    }

    bool start() override
    {
        d_holder.start(d_kernel);
        d_need = 1;
        return block::start();
    }
    bool stop() override
    {
        d_holder.stop();
        return block::stop();
    }
    std::string backend() const override
    {
        return core::backend_name(d_holder.backend().kind);
    }
    void forecast(int, gr_vector_int& required) override
    {
        const auto* p = d_holder.pipe();
        required[0] = (p && p->pending() > 0) ? 0 : d_need;
    }

    void report(uint64_t offset, const std::string& why)
    {
        d_logger->warn("packet at input item {} dropped: {}", offset, why);
        message_port_pub(d_errors_port,
                         pmt::dict_add(pmt::dict_add(pmt::make_dict(),
                                                     pmt::mp("reason"),
                                                     pmt::mp(why)),
                                       pmt::mp("offset"),
                                       pmt::from_uint64(offset)));
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        auto& pipe = *d_holder.pipe();
        const auto* in = static_cast<const float*>(input_items[0]);
        auto* out = static_cast<uint8_t*>(output_items[0]);
        const int nin = ninput_items[0];
        const uint64_t r0 = nitems_read(0);
        int consumed = 0, produced = 0;

        auto emit = [&](bool block) {
            while (const auto* f = pipe.front(block)) {
                const int K = int(f->out_bytes);
                if (produced + K > noutput_items)
                    break;
                std::memcpy(out + produced, f->data, K);
                const uint64_t at = nitems_written(0) + produced;
                add_item_tag(0, at, d_len_key, pmt::from_long(K));
                add_item_tag(0, at, d_iter_key, pmt::from_long(f->result.iterations));
                if (f->result.check >= 0)
                    add_item_tag(0, at, d_crc_key, pmt::from_bool(f->result.check == 1));
                produced += K;
                pipe.pop();
                block = false;
            }
        };

        emit(false);
        std::vector<gr::tag_t> tags;
        get_tags_in_window(tags, 0, 0, nin, d_len_key);
        std::sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
        size_t t = 0;
        d_need = 1;
        while (consumed < nin) {
            const uint64_t pos = r0 + consumed;
            while (t < tags.size() && tags[t].offset < pos)
                t++;
            if (t == tags.size() || tags[t].offset != pos) {
                // Items outside any packet: skip to the next length tag.
                const uint64_t next = t < tags.size() ? tags[t].offset : r0 + nin;
                report(pos, "items without a " + pmt::symbol_to_string(d_len_key) + " tag");
                consumed = int(next - r0);
                continue;
            }
            const long L = pmt::to_long(tags[t].value);
            if (L <= 0) {
                report(pos, "packet length " + std::to_string(L));
                t++;
                continue;
            }
            if (consumed + L > nin) {
                d_need = int(L); // wait for the whole packet
                break;
            }
            const int K = core::lte_K_from_codeword_length(L);
            if (K == 0) {
                report(pos, "length " + std::to_string(L) + " is not 3K+12 for an LTE block size K");
            } else {
                if (!pipe.can_accept())
                    break;
                if (!submit_finite_llrs(pipe, in + consumed, size_t(L), K, core::turbo_frame_param(K)))
                    report(pos, "NaN or Inf in the LLRs");
            }
            consumed += int(L);
            t++;
        }
        pipe.launch_due();
        emit(false);
        if (produced == 0 && pipe.pending() > 0 && (consumed == 0 || !pipe.can_accept())) {
            pipeline_idle_wait(pipe);
            emit(false);
        }
        consume_each(consumed);
        return produced;
    }
};

lte_turbo_decoder_tagged::sptr lte_turbo_decoder_tagged::make(int iterations,
                                                              const std::string& algorithm,
                                                              int subblocks,
                                                              float scaling,
                                                              const std::string& early_termination,
                                                              int max_batch,
                                                              int slots,
                                                              int flush_us,
                                                              const std::string& backend,
                                                              int device,
                                                              const std::string& len_tag_key)
{
    return gnuradio::make_block_sptr<lte_turbo_decoder_tagged_impl>(iterations,
                                                                    algorithm,
                                                                    subblocks,
                                                                    scaling,
                                                                    early_termination,
                                                                    max_batch,
                                                                    slots,
                                                                    flush_us,
                                                                    backend,
                                                                    device,
                                                                    len_tag_key);
}

} // namespace gpurx
} // namespace gr
