/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/scale_out/scale_out_pmt.h"
#include "scale_out/endpoint.h"
#include "scale_out/key_table.h"
#include "scale_out/shard_ring.h"
#include "pdu_shard_sink_params.h"
#include <gnuradio/io_signature.h>
#include <gnuradio/top_block.h>
#include <gnuradio/zeromq/push_msg_sink.h>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace gr {
namespace gpurx {

using namespace scale_out;

namespace {

// The idle block ahead of a lane's sink that makes the lane a flowgraph.
class lane_relay : public gr::block
{
public:
    lane_relay()
        : gr::block("pdu_shard_lane", gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0))
    {
        message_port_register_in(keys::pdus());
        message_port_register_out(keys::pdus());
        set_msg_handler(keys::pdus(),
                        [this](const pmt::pmt_t& m) { message_port_pub(keys::pdus(), m); });
    }
};

// One endpoint: a push_msg_sink (connecting) in a flowgraph of its own, so
// that an endpoint can come and go while the others run, and one whose peer
// stopped reading blocks only its own lane. PDUs are posted straight to the
// sink's input queue.
struct lane {
    std::string endpoint;
    gr::top_block_sptr tb;
    gr::basic_block_sptr sink;
    pmt::pmt_t port;
    bool running = false;
    uint64_t sent = 0;

    lane(const std::string& e, int timeout_ms) : endpoint(e)
    {
        gr::basic_block_sptr s;
        try {
            s = gr::zeromq::push_msg_sink::make(const_cast<char*>(e.c_str()), timeout_ms, false);
        } catch (const std::exception& ex) {
            throw std::runtime_error("pdu_shard_sink: endpoint " + e + ": " + ex.what());
        }
        attach(s, "in");
    }

    void attach(gr::basic_block_sptr s, const std::string& p)
    {
        tb = gr::make_top_block("pdu_shard_lane " + endpoint);
        sink = s;
        port = pmt::mp(p);
        tb->msg_connect(gnuradio::make_block_sptr<lane_relay>(), keys::pdus(), sink, port);
    }

    void start()
    {
        if (!running) {
            tb->start();
            running = true;
        }
    }

    // False when it did not stop within timeout_s (its sink blocked in a ZMQ
    // send to a worker that does not read: it is left running).
    bool stop(double timeout_s = 2.0)
    {
        if (!running)
            return true;
        auto done = std::make_shared<std::promise<void>>();
        auto fut = done->get_future();
        auto flowgraph = tb;
        std::thread([flowgraph, done] {
            flowgraph->stop();
            flowgraph->wait();
            done->set_value();
        }).detach();
        if (fut.wait_for(std::chrono::duration<double>(timeout_s)) ==
            std::future_status::ready) {
            running = false;
            return true;
        }
        return false;
    }

    uint64_t depth() const { return sink->nmsgs(port); }
    void post(const pmt::pmt_t& msg)
    {
        ++sent;
        sink->_post(port, msg);
    }
};

} // namespace

class pdu_shard_sink_impl : public pdu_shard_sink
{
public:
    pdu_shard_sink_impl(const std::vector<std::string>& endpoints,
                        int vnodes,
                        int timeout_ms,
                        int64_t max_queue,
                        int64_t max_keys,
                        const std::string& balance,
                        double eps)
        : gr::block("pdu_shard_sink", gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0)),
          d_bounded(balance == "bounded"),
          d_timeout_ms(timeout_ms),
          d_max_queue(uint64_t(max_queue)),
          d_keys(uint64_t(max_keys)),
          d_bring(vnodes, eps),
          d_hring(vnodes)
    {
        for (const auto& e : endpoints) {
            ring_add(e);
            d_lanes[e] = std::make_shared<lane>(e, timeout_ms);
        }
        message_port_register_in(keys::pdus());
        message_port_register_in(keys::control());
        message_port_register_out(keys::errors());
        set_msg_handler(keys::pdus(),
                        guarded(this, "pdus", [this](const pmt::pmt_t& m) { handle(m); }));
        set_msg_handler(keys::control(), guarded(this, "control", [this](const pmt::pmt_t& m) {
                            handle_control(m);
                        }));
    }

    std::vector<std::string> endpoints() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_bounded ? d_bring.endpoints() : d_hring.endpoints();
    }

    std::string endpoint_of(uint64_t key) const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        const std::string* e = d_bounded ? d_bring.lookup(key) : d_hring.lookup(key);
        return e ? *e : std::string();
    }

    std::map<std::string, uint64_t> keys_of() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (d_bounded)
            return d_bring.counts();
        std::map<std::string, uint64_t> out;
        for (const auto& e : d_hring.endpoints())
            out[e] = 0;
        for (const auto& kv : d_keys.counts())
            out[kv.first] += kv.second;
        return out;
    }

    std::map<std::string, uint64_t> sent() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        std::map<std::string, uint64_t> out;
        for (const auto& kv : d_retired)
            out[kv.first] = kv.second->sent;
        for (const auto& kv : d_lanes)
            out[kv.first] = kv.second->sent;
        return out;
    }

    std::map<std::string, uint64_t> pending() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        std::map<std::string, uint64_t> out;
        for (const auto& kv : d_retired)
            out[kv.first] = kv.second->depth();
        for (const auto& kv : d_lanes)
            out[kv.first] = kv.second->depth();
        return out;
    }

    std::map<std::string, uint64_t> stats() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        auto s = d_stats;
        s["keys"] = d_keys.size();
        return s;
    }

    void remove_endpoint(const std::string& endpoint, const std::string& cause) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (d_bounded)
            d_bring.remove(endpoint); // throws when it is not there
        else
            d_hring.remove(endpoint);
        d_retired[endpoint] = d_lanes.at(endpoint);
        d_lanes.erase(endpoint);
        const uint64_t n = d_keys.lose_keys_of(endpoint, "endpoint_removed");
        d_stats["endpoint_removed"] += 1;
        report r("endpoint_removed");
        r.str("endpoint", endpoint).str("cause", cause).i64("keys", int64_t(n)).i64("after_seq",
                                                                                   d_last_seq);
        error(r);
    }

    void add_endpoint(const std::string& endpoint, int64_t instance, const std::string& cause) override
    {
        check_endpoint("pdu_shard_sink.add_endpoint", "endpoint", endpoint);
        std::lock_guard<std::mutex> lock(d_mutex);
        if (d_bounded ? d_bring.has(endpoint) : d_hring.has(endpoint))
            throw std::invalid_argument("endpoint '" + endpoint + "' is already on the ring");
        // A lane retired with its socket is taken back: what is still queued
        // there (for a dead predecessor) reaches the worker first, in order,
        // and is dropped there by its worker_instance.
        std::shared_ptr<lane> l;
        auto it = d_retired.find(endpoint);
        if (it != d_retired.end()) {
            l = it->second;
            d_retired.erase(it);
        } else {
            l = std::make_shared<lane>(endpoint, d_timeout_ms);
        }
        const size_t taken = ring_add(endpoint);
        d_lanes[endpoint] = l;
        if (instance >= 0)
            d_instances[endpoint] = uint64_t(instance);
        if (d_running)
            l->start();
        d_stats["endpoint_added"] += 1;
        report r("endpoint_added");
        r.str("endpoint", endpoint).str("cause", cause);
        if (instance >= 0)
            r.u64("instance", uint64_t(instance));
        if (d_bounded)
            r.i64("keys", int64_t(taken));
        r.i64("after_seq", d_last_seq);
        error(r);
    }

    void restart_endpoint(const std::string& endpoint, uint64_t instance, const std::string& cause) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_instances[endpoint] = instance;
        const uint64_t n = d_keys.lose_keys_of(endpoint, "worker_restarted");
        d_stats["endpoint_restarted"] += 1;
        report r("endpoint_restarted");
        r.str("endpoint", endpoint).str("cause", cause).u64("instance", instance);
        r.i64("keys", int64_t(n)).i64("after_seq", d_last_seq);
        error(r);
    }

    void set_lane_sink(const std::string& endpoint, gr::basic_block_sptr block, const std::string& port) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        auto it = d_lanes.find(endpoint);
        if (it == d_lanes.end())
            throw std::invalid_argument("pdu_shard_sink.set_lane_sink: endpoint '" + endpoint +
                                        "' is not on the ring");
        if (it->second->running)
            throw std::invalid_argument("pdu_shard_sink.set_lane_sink: not while running");
        it->second->attach(block, port);
    }

    bool start() override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_running = true;
        for (auto& kv : d_lanes)
            kv.second->start();
        return true;
    }

    bool stop() override
    {
        std::vector<std::shared_ptr<lane>> lanes;
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_running = false;
            for (auto& kv : d_lanes)
                lanes.push_back(kv.second);
            for (auto& kv : d_retired)
                lanes.push_back(kv.second);
        }
        for (auto& l : lanes)
            if (!l->stop())
                std::cerr << "pdu_shard_sink: the lane to " << l->endpoint
                          << " did not stop (its worker does not read): left running"
                          << std::endl;
        return true;
    }

private:
    void error(const report& r) { message_port_pub(keys::errors(), r.dict()); }

    size_t ring_add(const std::string& e)
    {
        if (d_bounded)
            return d_bring.add(e).size();
        d_hring.add(e);
        return 0;
    }

    void handle_control(const pmt::pmt_t& msg)
    {
        std::string problem;
        std::string command, endpoint, cause = "control";
        std::optional<uint64_t> instance;
        if (!pmt::is_dict(msg)) {
            problem = "not a dict";
        } else {
            auto sym = [&](const char* k) {
                const pmt::pmt_t v = pmt::dict_ref(msg, pmt::mp(k), pmt::PMT_NIL);
                return pmt::is_symbol(v) ? pmt::symbol_to_string(v) : std::string();
            };
            command = sym("command");
            endpoint = sym("endpoint");
            if (!sym("cause").empty())
                cause = sym("cause");
            const meta_int inst = dict_int(msg, pmt::mp("instance"));
            if (inst.kind == meta_int::ill_typed)
                problem = "not an integer: " +
                          pmt::write_string(pmt::dict_ref(msg, pmt::mp("instance"), pmt::PMT_NIL));
            else if (inst.kind == meta_int::ok)
                instance = uint64_t(inst.value);
            if (problem.empty() && endpoint.empty())
                problem = "no endpoint";
        }
        if (!problem.empty()) {
            error(report("bad control message: " + problem).str("message", pmt::write_string(msg)));
            return;
        }
        const auto eps = endpoints();
        const bool on_ring = std::find(eps.begin(), eps.end(), endpoint) != eps.end();
        if (command == "remove") {
            if (on_ring) {
                try {
                    remove_endpoint(endpoint, cause);
                } catch (const std::invalid_argument&) {
                    // removed meanwhile by a call
                }
            }
        } else if (command == "add") {
            if (!on_ring) {
                try {
                    add_endpoint(endpoint, instance ? int64_t(*instance) : -1, cause);
                } catch (const std::exception& e) { // a bad endpoint, ZMQ's refusal
                    error(report(std::string("bad control message: ") + e.what())
                              .str("message", pmt::write_string(msg)));
                }
                return;
            }
            std::optional<uint64_t> known;
            {
                std::lock_guard<std::mutex> lock(d_mutex);
                auto it = d_instances.find(endpoint);
                if (it != d_instances.end())
                    known = it->second;
                else if (instance)
                    d_instances[endpoint] = *instance;
            }
            if (instance && known && *known != *instance)
                restart_endpoint(endpoint, *instance, cause);
        } else {
            error(report("bad control message: command '" + command + "' (add or remove)")
                      .str("message", pmt::write_string(msg)));
        }
    }

    void handle(const pmt::pmt_t& msg)
    {
        if (!is_meta_pdu(msg)) {
            error(report("not a PDU (a pair of a dict and a vector)"));
            return;
        }
        pmt::pmt_t meta = pmt::car(msg);
        meta_int key = dict_int(meta, keys::shard_key());
        meta_int seq = dict_int(meta, keys::seq());
        if (key.kind == meta_int::ill_typed || seq.kind == meta_int::ill_typed)
            key = seq = meta_int();
        if (key.kind != meta_int::ok) {
            error(report("missing or ill-typed shard_key").seq(seq));
            return;
        }
        const uint64_t k = uint64_t(key.value);
        std::lock_guard<std::mutex> lock(d_mutex);
        if (seq.kind == meta_int::ok)
            d_last_seq = int64_t(seq.value);
        const std::string* ep = d_bounded ? d_bring.place(k) : d_hring.lookup(k);
        const auto lit = ep ? d_lanes.find(*ep) : d_lanes.end();
        key_table::entry* entry = d_keys.find(k);
        if (lit == d_lanes.end()) {
            d_stats["no_endpoint"] += 1;
            if (entry)
                entry->lost = "no_endpoint";
            error(report("no endpoint left").seq(seq).u64("shard_key", k));
            return;
        }
        const std::string& e = *ep;
        lane& l = *lit->second;
        if (d_max_queue && l.depth() >= d_max_queue) {
            d_stats["queue_full"] += 1;
            // This PDU never reaches the key's decoder: its next one there
            // must not be combined with a buffer that missed it.
            if (!entry)
                remember(k, e, &entry);
            entry->lost = "queue_full";
            error(report("queue_full").seq(seq).u64("shard_key", k).str("endpoint", e).i64(
                "queue", int64_t(d_max_queue)));
            return;
        }
        bool reset = false;
        if (!entry) {
            remember(k, e, &entry);
            if (d_bounded) {
                d_stats["new_keys"] += 1;
                reset = true;
            }
        } else {
            if (entry->endpoint != e) {
                d_stats["key_moved"] += 1;
                error(report("key_moved").seq(seq).u64("shard_key", k).str("from", entry->endpoint).str("to", e));
                reset = true;
            } else if (!entry->lost.empty()) {
                d_stats["key_reset"] += 1;
                error(report("key_reset").seq(seq).u64("shard_key", k).str("endpoint", e).str(
                    "cause", entry->lost));
                reset = true;
            }
            entry->endpoint = e;
            entry->lost.clear();
        }
        const auto inst = d_instances.find(e);
        if (reset || inst != d_instances.end()) {
            if (reset)
                meta = pmt::dict_add(meta, keys::harq_reset(), pmt::PMT_T);
            if (inst != d_instances.end())
                meta = pmt::dict_add(meta, keys::instance(), pmt::from_uint64(inst->second));
            l.post(pmt::cons(meta, pmt::cdr(msg)));
        } else {
            l.post(msg);
        }
    }

    void remember(uint64_t key, const std::string& endpoint, key_table::entry** entry)
    {
        const auto old = d_keys.remember(key, endpoint, entry);
        if (old) {
            if (d_bounded)
                d_bring.forget(*old);
            d_stats["keys_forgotten"] += 1;
        }
    }

    const bool d_bounded;
    const int d_timeout_ms;
    const uint64_t d_max_queue;
    mutable std::mutex d_mutex;
    key_table d_keys;
    bounded_ring d_bring;
    hash_ring d_hring;
    std::map<std::string, std::shared_ptr<lane>> d_lanes, d_retired;
    std::map<std::string, uint64_t> d_instances;
    std::map<std::string, uint64_t> d_stats{ { "key_moved", 0 },       { "key_reset", 0 },
                                             { "queue_full", 0 },      { "no_endpoint", 0 },
                                             { "endpoint_removed", 0 }, { "endpoint_added", 0 },
                                             { "endpoint_restarted", 0 }, { "keys_forgotten", 0 },
                                             { "new_keys", 0 } };
    bool d_running = false;
    int64_t d_last_seq = -1;
};

pdu_shard_sink::sptr make_pdu_shard_sink(const pdu_shard_sink_params& p)
{
    const std::string who = "pdu_shard_sink";
    if (p.balance != "bounded" && p.balance != "ring")
        throw std::invalid_argument(who + ": balance must be one of ('bounded', 'ring'), got '" +
                                    p.balance + "'");
    if (!(p.eps > 0 && p.eps <= 10)) {
        std::ostringstream s;
        s << who << ": eps must be in (0, 10], got " << p.eps;
        throw std::invalid_argument(s.str());
    }
    if (p.endpoints.empty())
        throw std::invalid_argument(who + ": endpoints must name at least one ZMQ endpoint");
    for (const auto& e : p.endpoints)
        check_endpoint(who, "endpoints:", e);
    for (size_t i = 0; i < p.endpoints.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (p.endpoints[i] == p.endpoints[j])
                throw std::invalid_argument(who + ": endpoints: '" + p.endpoints[i] +
                                            "' listed twice");
    if (p.vnodes < 1 || p.vnodes > 4096)
        throw std::invalid_argument(who + ": vnodes must be 1..4096, got " +
                                    std::to_string(p.vnodes));
    if (p.timeout_ms < 0)
        throw std::invalid_argument(who + ": timeout_ms must be >= 0, got " +
                                    std::to_string(p.timeout_ms));
    if (p.max_queue < 0)
        throw std::invalid_argument(who + ": max_queue must be >= 0 (0: unbounded), got " +
                                    std::to_string(p.max_queue));
    if (p.max_keys < 1)
        throw std::invalid_argument(who + ": max_keys must be >= 1, got " +
                                    std::to_string(p.max_keys));
    return gnuradio::make_block_sptr<pdu_shard_sink_impl>(
        p.endpoints, p.vnodes, p.timeout_ms, p.max_queue, p.max_keys, p.balance, p.eps);
}

} // namespace gpurx
} // namespace gr
