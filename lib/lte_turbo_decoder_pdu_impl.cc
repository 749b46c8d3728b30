/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PDU turbo decoder. Message handlers run on the block's thread; a poller
// thread launches partial batches when they fall due and publishes completed
// PDUs, so latency stays bounded by flush_us without new input. One mutex
// guards the pipeline, which is not itself thread-safe.
#include "core/turbo_kernel.h"
#include "pipeline_holder.h"
#include "turbo_block_config.h"
#include <gnuradio/gpurx/lte_turbo_decoder_pdu.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/pdu.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

namespace gr {
namespace gpurx {

class lte_turbo_decoder_pdu_impl : public lte_turbo_decoder_pdu
{
    core::turbo_batch_kernel d_kernel;
    pipeline_holder d_holder;
    std::mutex d_mutex;
    std::deque<pmt::pmt_t> d_meta; // metadata of the frames in the pipeline, in order
    std::thread d_poller;
    std::atomic<bool> d_running{ false };

public:
    lte_turbo_decoder_pdu_impl(int iterations,
                               const std::string& algorithm,
                               int subblocks,
                               float scaling,
                               const std::string& early_termination,
                               int max_batch,
                               int slots,
                               int flush_us,
                               const std::string& backend,
                               int device)
        : gr::block("lte_turbo_decoder_pdu",
                    gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0)),
          d_kernel(make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination)),
          d_holder(make_turbo_pipeline_config(core::lte_max_K, false, max_batch, slots, flush_us),
                   backend,
                   device,
                   d_logger)
    {
        message_port_register_in(msgport_names::pdus());
        message_port_register_out(msgport_names::pdus());
        message_port_register_out(pmt::mp("errors"));
        set_msg_handler(msgport_names::pdus(), [this](const pmt::pmt_t& m) { handle(m); });
    }

    ~lte_turbo_decoder_pdu_impl() override { stop_poller(); }

    bool start() override
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_holder.start(d_kernel);
        }
        d_running = true;
        d_poller = std::thread([this] { poll(); });
        return block::start();
    }

    bool stop() override
    {
        stop_poller();
        std::lock_guard<std::mutex> lock(d_mutex);
        if (d_holder.pipe()) {
            d_holder.pipe()->drain();
            publish_ready(false);
        }
        d_holder.stop();
        d_meta.clear();
        return block::stop();
    }

    std::string backend() const override
    {
        return core::backend_name(d_holder.backend().kind);
    }

private:
    void stop_poller()
    {
        d_running = false;
        if (d_poller.joinable())
            d_poller.join();
    }

    void report(const std::string& why)
    {
        d_logger->warn("PDU dropped: {}", why);
        message_port_pub(pmt::mp("errors"),
                         pmt::dict_add(pmt::make_dict(), pmt::mp("reason"), pmt::mp(why)));
    }

    // Publishes completed PDUs in order. Caller holds d_mutex.
    void publish_ready(bool block)
    {
        auto& pipe = *d_holder.pipe();
        while (const auto* f = pipe.front(block)) {
            pmt::pmt_t meta = d_meta.front();
            d_meta.pop_front();
            const int K = int(f->out_bytes);
            meta = pmt::dict_add(meta, pmt::mp("K"), pmt::from_long(K));
            meta = pmt::dict_add(meta, pmt::mp("iterations"), pmt::from_long(f->result.iterations));
            if (f->result.check >= 0)
                meta = pmt::dict_add(meta, pmt::mp("crc_ok"), pmt::from_bool(f->result.check == 1));
            pmt::pmt_t bits = pmt::init_u8vector(K, f->data);
            pipe.pop();
            message_port_pub(msgport_names::pdus(), pmt::cons(meta, bits));
            block = false;
        }
    }

    void handle(const pmt::pmt_t& msg)
    {
        if (!pmt::is_pdu(msg) || !pmt::is_f32vector(pmt::cdr(msg))) {
            report("not a PDU of float32 LLRs");
            return;
        }
        const pmt::pmt_t vec = pmt::cdr(msg);
        size_t n = 0;
        const float* llr = pmt::f32vector_elements(vec, n);
        const int K = core::lte_K_from_codeword_length(long(n));
        if (K == 0) {
            report("length " + std::to_string(n) + " is not 3K+12 for an LTE block size K");
            return;
        }
        std::lock_guard<std::mutex> lock(d_mutex);
        auto& pipe = *d_holder.pipe();
        while (!pipe.can_accept())
            publish_ready(true);
        if (!submit_finite_llrs(pipe, llr, n, K, core::turbo_frame_param(K))) {
            report("NaN or Inf in the LLRs");
            return;
        }
        d_meta.push_back(pmt::car(msg)); // under the lock: before its frame can leave
        publish_ready(false);
    }

    void poll()
    {
        while (d_running) {
            {
                std::lock_guard<std::mutex> lock(d_mutex);
                if (auto* pipe = d_holder.pipe()) {
                    pipe->launch_due();
                    publish_ready(false);
                }
            }
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    }
};

lte_turbo_decoder_pdu::sptr lte_turbo_decoder_pdu::make(int iterations,
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
    return gnuradio::make_block_sptr<lte_turbo_decoder_pdu_impl>(iterations,
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
