/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/scale_out/scale_out_pmt.h"
#include "scale_out/reorder_window.h"
#include "pdu_reorder_params.h"
#include <gnuradio/io_signature.h>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {

using namespace scale_out;

namespace {

double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string symbol_or_empty(const pmt::pmt_t& v)
{
    return pmt::is_symbol(v) ? pmt::symbol_to_string(v) : std::string();
}

} // namespace

class pdu_reorder_impl : public pdu_reorder
{
public:
    pdu_reorder_impl(int64_t window, double timeout_ms, int64_t first_seq)
        : gr::block("pdu_reorder", gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0)),
          d_timeout_s(timeout_ms / 1e3),
          d_window(uint64_t(window), timeout_ms / 1e3, uint64_t(first_seq)),
          d_out{ this }
    {
        message_port_register_in(keys::pdus());
        message_port_register_out(keys::pdus());
        message_port_register_out(keys::errors());
        set_msg_handler(keys::pdus(),
                        guarded(this, "pdus", [this](const pmt::pmt_t& m) { handle(m); }));
    }

    ~pdu_reorder_impl() override { stop_timer(); }

    std::map<std::string, uint64_t> stats() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        const auto& c = d_window.stats();
        return { { "emitted", c.emitted },   { "timeout", c.timeout },
                 { "window_full", c.window_full }, { "resync", c.resync },
                 { "duplicate", c.duplicate }, { "late", c.late },
                 { "no_seq", c.no_seq },     { "flush", c.flush },
                 { "dropped", c.dropped },   { "held", d_window.held() },
                 { "next_seq", d_window.next_seq() } };
    }

    void flush() override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_window.flush(d_out);
    }

    bool start() override
    {
        stop_timer();
        {
            std::lock_guard<std::mutex> lock(d_timer_mutex);
            d_stopping = false;
        }
        d_timer = std::thread([this] { tick(); });
        return true;
    }

    bool stop() override
    {
        stop_timer();
        return true;
    }

private:
    // What the window's calls publish (called with d_mutex held).
    struct out_t {
        pdu_reorder_impl* b;
        void emit(uint64_t, pmt::pmt_t& msg) { b->message_port_pub(keys::pdus(), msg); }
        void dropped(uint64_t seq, pmt::pmt_t& msg)
        {
            const pmt::pmt_t meta = pmt::car(msg);
            scale_out::report r("dropped");
            r.u64("seq", seq);
            const std::string cause =
                symbol_or_empty(pmt::dict_ref(meta, keys::dropped(), pmt::PMT_NIL));
            const std::string worker =
                symbol_or_empty(pmt::dict_ref(meta, keys::worker(), pmt::PMT_NIL));
            if (!cause.empty())
                r.str("cause", cause);
            if (!worker.empty())
                r.str("worker", worker);
            b->message_port_pub(keys::errors(), r.dict());
        }
        void report_(const char* reason, uint64_t seq)
        {
            b->message_port_pub(keys::errors(), scale_out::report(reason).u64("seq", seq).dict());
        }
        void report(const char* reason, uint64_t seq) { report_(reason, seq); }
        void resync(uint64_t first, uint64_t last, uint64_t count)
        {
            scale_out::report r("resync");
            r.u64("seq", first).u64("first", first).u64("last", last).u64("count", count);
            b->message_port_pub(keys::errors(), r.dict());
        }
    };

    void handle(const pmt::pmt_t& msg)
    {
        meta_int seq;
        bool notice = false;
        if (is_meta_pdu(msg)) {
            const pmt::pmt_t meta = pmt::car(msg);
            seq = dict_int(meta, keys::seq());
            notice = pmt::dict_has_key(meta, keys::dropped());
        }
        std::lock_guard<std::mutex> lock(d_mutex);
        if (seq.kind != meta_int::ok || seq.value < 0) {
            d_window.no_seq();
            message_port_pub(keys::errors(), report("no seq").dict());
            return;
        }
        d_window.push(uint64_t(seq.value), msg, notice, now_s(), d_out);
    }

    void tick()
    {
        const auto period = std::chrono::duration<double>(std::min(0.05, d_timeout_s / 4));
        std::unique_lock<std::mutex> tl(d_timer_mutex);
        while (!d_timer_cv.wait_for(tl, period, [this] { return d_stopping; })) {
            tl.unlock();
            try {
                std::lock_guard<std::mutex> lock(d_mutex);
                if (d_window.waiting())
                    d_window.expire(now_s(), d_out);
            } catch (const std::exception& e) {
                std::cerr << "pdu_reorder: timer: " << e.what() << std::endl;
            }
            tl.lock();
        }
    }

    void stop_timer()
    {
        {
            std::lock_guard<std::mutex> lock(d_timer_mutex);
            d_stopping = true;
        }
        d_timer_cv.notify_all();
        if (d_timer.joinable())
            d_timer.join();
    }

    const double d_timeout_s;
    mutable std::mutex d_mutex;
    reorder_window<pmt::pmt_t> d_window;
    out_t d_out;
    std::mutex d_timer_mutex;
    std::condition_variable d_timer_cv;
    bool d_stopping = false;
    std::thread d_timer;
};

pdu_reorder::sptr make_pdu_reorder(const pdu_reorder_params& p)
{
    if (p.window < 1 || p.window > (int64_t(1) << 24))
        throw std::invalid_argument("pdu_reorder: window must be 1..16777216, got " +
                                    std::to_string(p.window));
    if (!(p.timeout_ms > 0 && p.timeout_ms <= 3600e3)) {
        std::ostringstream s;
        s << "pdu_reorder: timeout_ms must be > 0 (and at most an hour), got "
          << p.timeout_ms;
        throw std::invalid_argument(s.str());
    }
    if (p.first_seq < 0)
        throw std::invalid_argument("pdu_reorder: first_seq must be >= 0, got " +
                                    std::to_string(p.first_seq));
    return gnuradio::make_block_sptr<pdu_reorder_impl>(
        p.window, p.timeout_ms, p.first_seq);
}

} // namespace gpurx
} // namespace gr
