/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The worker gate block: PMT in and out around lib/scale_out/gate_router,
// the log thread, and the decoders' queues it watches.
#include "blocks/scale_out/scale_out_pmt.h"
#include "scale_out/gate_router.h"
#include "worker_gate_params.h"
#include <gnuradio/io_signature.h>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {

using namespace scale_out;

namespace {

const pmt::pmt_t& decoder_key()
{
    static const pmt::pmt_t v = pmt::mp("decoder");
    return v;
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

// One line on stderr at once (several workers may share a terminal).
void say_line(const std::string& line)
{
    std::fputs((line + "\n").c_str(), stderr);
    std::fflush(stderr);
}

} // namespace

class worker_gate_impl : public worker_gate
{
public:
    worker_gate_impl(const std::string& name,
                     int decoders,
                     int64_t max_queue,
                     uint64_t instance,
                     double log_interval)
        : gr::block("worker_gate", gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0)),
          d_name(name),
          d_name_sym(pmt::mp(name)),
          d_router(unsigned(decoders), uint64_t(max_queue), instance),
          d_log_interval(log_interval),
          d_empty(pmt::init_u8vector(0, std::vector<uint8_t>())),
          d_queue_full(pmt::mp("worker_queue_full")),
          d_bad_field(pmt::mp("bad_harq_field"))
    {
        message_port_register_in(keys::pdus());
        for (int i = 0; i < decoders; ++i) {
            d_ports.push_back(pmt::mp("pdus" + std::to_string(i)));
            d_indices.push_back(pmt::from_long(i));
            message_port_register_out(d_ports.back());
        }
        if (decoders == 1)
            message_port_register_out(keys::pdus());
        message_port_register_out(keys::dropped());
        message_port_register_out(keys::errors());
        set_msg_handler(keys::pdus(),
                        guarded(this, "pdus", [this](const pmt::pmt_t& m) { handle(m); }));
    }

    ~worker_gate_impl() override { stop_log(); }

    std::string worker_name() const override { return d_name; }
    uint64_t instance() const override { return d_router.instance(); }
    int decoders() const override { return int(d_router.decoders()); }
    int64_t max_queue() const override { return int64_t(d_router.max_queue()); }
    double log_interval() const override { return d_log_interval; }
    uint64_t passed() const override { return d_router.passed(); }
    uint64_t dropped() const override { return d_router.dropped(); }
    uint64_t stale() const override { return d_router.stale(); }
    uint64_t bad() const override { return d_router.bad(); }

    void watch(const std::vector<gr::basic_block_sptr>& decoders) override
    {
        if (decoders.size() != d_router.decoders())
            throw std::invalid_argument("worker_gate.watch: " + std::to_string(decoders.size()) +
                                        " decoder blocks for a gate of " +
                                        std::to_string(d_router.decoders()) + " decoders");
        std::lock_guard<std::mutex> lock(d_watch_mutex);
        d_watched = decoders;
    }

    bool watching() const override
    {
        std::lock_guard<std::mutex> lock(d_watch_mutex);
        return !d_watched.empty();
    }

    uint64_t queue(int decoder) const override
    {
        // nmsgs() is not const in GNU Radio; it only reads under its lock.
        auto* self = const_cast<worker_gate_impl*>(this);
        uint64_t n = self->nmsgs(keys::pdus());
        std::lock_guard<std::mutex> lock(d_watch_mutex);
        if (d_watched.empty())
            return n;
        if (decoder >= 0)
            return n + d_watched.at(size_t(decoder))->nmsgs(keys::pdus());
        for (const auto& b : d_watched)
            n += b->nmsgs(keys::pdus());
        return n;
    }

    void set_decoded_source(std::function<int64_t()> decoded) override
    {
        std::lock_guard<std::mutex> lock(d_watch_mutex);
        d_decoded = std::move(decoded);
    }

    int decoder_for(const pmt::pmt_t& meta) const override
    {
        return int(d_router.decoder_for(read(meta, nullptr)));
    }

    void inject_fault(const std::string& what) override
    {
        std::lock_guard<std::mutex> lock(d_watch_mutex);
        d_fault = what;
        d_fault_armed.store(true);
    }

    bool start() override
    {
        if (d_router.decoders() == 1 && pmt::length(message_subscribers(d_ports[0])) == 0 &&
            pmt::length(message_subscribers(keys::pdus())) > 0)
            d_ports[0] = keys::pdus(); // GRC connects "pdus"
        if (d_log_interval > 0) {
            say(format("started, instance %016llx, %u decoder(s), max_queue %llu%s",
                       (unsigned long long)d_router.instance(), d_router.decoders(),
                       (unsigned long long)d_router.max_queue(),
                       watching() ? "" : " (the gate's own queue)"));
            {
                std::lock_guard<std::mutex> lock(d_log_mutex);
                d_log_stop = false;
            }
            d_log_thread = std::thread([this] { log_loop(); });
        }
        return gr::block::start();
    }

    bool stop() override
    {
        if (d_log_interval > 0 && d_log_thread.joinable()) {
            stop_log();
            say("stopped, " + tally());
        }
        return gr::block::stop();
    }

private:
    // What the rules read of a PDU's metadata; bad, when given, gets the
    // invalid HARQ field.
    gate_pdu read(const pmt::pmt_t& meta, bad_field* bad) const
    {
        gate_pdu p;
        p.instance = dict_int(meta, keys::instance());
        if (d_router.decoders() > 1)
            p.shard_key = dict_int(meta, keys::shard_key());
        bad_field b;
        p.harq_valid = read_harq(meta, p.harq, b);
        if (bad)
            *bad = b;
        return p;
    }

    void handle(const pmt::pmt_t& msg)
    {
        if (!is_meta_pdu(msg)) {
            message_port_pub(d_ports[0], msg); // its decoder reports it
            return;
        }
        if (d_fault_armed.exchange(false)) {
            std::string what;
            {
                std::lock_guard<std::mutex> lock(d_watch_mutex);
                what = d_fault;
            }
            throw std::runtime_error(what);
        }
        pmt::pmt_t meta = pmt::car(msg);
        bad_field bad;
        const gate_pdu p = read(meta, &bad);
        const bool bounded = d_router.max_queue() > 0;
        const gate_decision d =
            d_router.admit(p, [&](unsigned i) { return bounded ? queue(int(i)) : 0; });
        switch (d.verdict) {
        case gate_verdict::stale: {
            const uint64_t n = d_router.stale();
            if (n == 1 || n % 1000 == 0)
                say_line(format("gpurx-worker %s: %llu PDU(s) meant for a previous instance at "
                                "this endpoint dropped",
                                d_name.c_str(), (unsigned long long)n));
            return;
        }
        case gate_verdict::bad_harq_field: {
            const meta_int seq = dict_int(meta, keys::seq());
            message_port_pub(keys::errors(),
                             bad.to_report().seq(seq).str("worker", d_name).dict());
            if (seq.kind == meta_int::ok) {
                meta = pmt::dict_add(meta, keys::worker(), d_name_sym);
                meta = pmt::dict_add(meta, keys::dropped(), d_bad_field);
                message_port_pub(keys::dropped(), pmt::cons(meta, d_empty));
            }
            return;
        }
        case gate_verdict::queue_full:
        case gate_verdict::pass:
            break;
        }
        meta = pmt::dict_add(meta, keys::worker(), d_name_sym);
        meta = pmt::dict_add(meta, decoder_key(), d_indices[d.decoder]);
        if (d.verdict == gate_verdict::queue_full) {
            meta = pmt::dict_add(meta, keys::dropped(), d_queue_full);
            message_port_pub(keys::dropped(), pmt::cons(meta, d_empty));
            return;
        }
        if (d.harq_reset)
            meta = pmt::dict_add(meta, keys::harq_reset(), pmt::PMT_T);
        message_port_pub(d_ports[d.decoder], pmt::cons(meta, pmt::cdr(msg)));
    }

    void say(const std::string& text) const
    {
        say_line("gpurx worker gate " + d_name + ": " + text);
    }

    int64_t decoded() const
    {
        std::function<int64_t()> f;
        {
            std::lock_guard<std::mutex> lock(d_watch_mutex);
            f = d_decoded;
        }
        return f ? f() : -1;
    }

    std::string tally() const
    {
        const int64_t dec = decoded();
        return format("%llu passed to %u decoder(s)%s, %llu dropped (queue full), %llu stale%s",
                      (unsigned long long)passed(), d_router.decoders(),
                      dec < 0 ? "" : format(", %lld decoded", (long long)dec).c_str(),
                      (unsigned long long)dropped(), (unsigned long long)stale(),
                      bad() ? format(", %llu bad HARQ fields", (unsigned long long)bad()).c_str()
                            : "");
    }

    void log_loop()
    {
        using clock = std::chrono::steady_clock;
        auto last_t = clock::now();
        int64_t last_n = 0;
        std::unique_lock<std::mutex> lock(d_log_mutex);
        while (!d_log_cv.wait_for(lock, std::chrono::duration<double>(d_log_interval),
                                  [this] { return d_log_stop; })) {
            lock.unlock();
            const auto now = clock::now();
            const int64_t dec = decoded();
            const int64_t n = dec < 0 ? int64_t(passed()) : dec;
            const double dt = std::chrono::duration<double>(now - last_t).count();
            say(format("%s; %.1f TB/s %s over the last %.1f s", tally().c_str(),
                       double(n - last_n) / dt, dec < 0 ? "passed" : "decoded", dt));
            last_t = now;
            last_n = n;
            lock.lock();
        }
    }

    void stop_log()
    {
        {
            std::lock_guard<std::mutex> lock(d_log_mutex);
            d_log_stop = true;
        }
        d_log_cv.notify_all();
        if (d_log_thread.joinable())
            d_log_thread.join();
    }

    const std::string d_name;
    const pmt::pmt_t d_name_sym;
    gate_router d_router;
    const double d_log_interval;
    const pmt::pmt_t d_empty, d_queue_full, d_bad_field;
    std::vector<pmt::pmt_t> d_ports, d_indices;

    mutable std::mutex d_watch_mutex;
    std::vector<gr::basic_block_sptr> d_watched;
    std::function<int64_t()> d_decoded;
    std::string d_fault;
    std::atomic<bool> d_fault_armed{ false };

    std::mutex d_log_mutex;
    std::condition_variable d_log_cv;
    bool d_log_stop = false;
    std::thread d_log_thread;
};

worker_gate::sptr make_worker_gate(const worker_gate_params& p)
{
    const std::string who = "worker_gate";
    if (p.name.empty())
        throw std::invalid_argument(who + ": name must be a non-empty string, got ''");
    if (p.decoders < 1 || p.decoders > int(gate_router::max_decoders))
        throw std::invalid_argument(who + ": decoders must be 1..64, got " +
                                    std::to_string(p.decoders));
    if (p.max_queue < 0)
        throw std::invalid_argument(who + ": max_queue must be >= 0 (0: unbounded), got " +
                                    std::to_string(p.max_queue));
    if (!(p.log_interval >= 0))
        throw std::invalid_argument(who + ": log_interval must be >= 0 seconds (0: no log), got " +
                                    std::to_string(p.log_interval));
    return gnuradio::make_block_sptr<worker_gate_impl>(
        p.name, p.decoders, p.max_queue, p.instance, p.log_interval);
}

} // namespace gpurx
} // namespace gr
