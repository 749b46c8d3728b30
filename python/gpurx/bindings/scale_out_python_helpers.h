/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand: what the scale-out blocks' Python binding (generated from
// lib/blocks/scale_out/scale_out.api.yml) binds where Python's form differs
// from the C++ one: make()s that check Python's arguments as the Python
// blocks did (a bool or a non-number raises ValueError naming the
// parameter; pdu_shard_sink's endpoints may be one string of them separated
// by commas), None for "no endpoint", flush() without the GIL, a Python
// callable as worker_gate's decoded source. Included by that binding only.
#ifndef INCLUDED_GPURX_SCALE_OUT_PYTHON_HELPERS_H
#define INCLUDED_GPURX_SCALE_OUT_PYTHON_HELPERS_H

#include <gnuradio/gpurx/pdu_reorder.h>
#include <gnuradio/gpurx/pdu_shard_sink.h>
#include <gnuradio/gpurx/worker_gate.h>

#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpurx_scale_out_py {

namespace py = pybind11;

// An integer parameter as Python gave it: a bool or a non-integer raises
// ValueError naming the parameter (the Python blocks' checks).
inline int64_t int_param(const char* who, const char* name, const py::object& v, const char* rule)
{
    if (py::isinstance<py::bool_>(v) || !py::isinstance<py::int_>(v))
        throw py::value_error(std::string(who) + ": " + name + " must be " + rule + ", got " +
                              std::string(py::repr(v)));
    try {
        return v.cast<int64_t>();
    } catch (const py::cast_error&) {
        throw py::value_error(std::string(who) + ": " + name + " must be " + rule + ", got " +
                              std::string(py::repr(v)));
    }
}

inline double num_param(const char* who, const char* name, const py::object& v, const char* rule)
{
    if (py::isinstance<py::bool_>(v) ||
        !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
        throw py::value_error(std::string(who) + ": " + name + " must be " + rule + ", got " +
                              std::string(py::repr(v)));
    return v.cast<double>();
}

// pdu_reorder(window, timeout_ms, first_seq)
inline gr::gpurx::pdu_reorder::sptr make_pdu_reorder(const py::object& window,
                                                     const py::object& timeout_ms,
                                                     const py::object& first_seq)
{
    const char* who = "pdu_reorder";
    return gr::gpurx::pdu_reorder::make(
        int_param(who, "window", window, "1..16777216"),
        num_param(who, "timeout_ms", timeout_ms, "> 0 (and at most an hour)"),
        int_param(who, "first_seq", first_seq, ">= 0"));
}

// pdu_reorder.flush(): emits on the message ports, so without the GIL.
inline void pdu_reorder_flush(gr::gpurx::pdu_reorder& self)
{
    py::gil_scoped_release nogil;
    self.flush();
}

// pdu_shard_sink(endpoints, vnodes, timeout_ms, max_queue, max_keys, balance, eps):
// endpoints a list of strings or one string of them separated by commas.
inline gr::gpurx::pdu_shard_sink::sptr make_pdu_shard_sink(const py::object& endpoints,
                                                           const py::object& vnodes,
                                                           const py::object& timeout_ms,
                                                           const py::object& max_queue,
                                                           const py::object& max_keys,
                                                           const std::string& balance,
                                                           const py::object& eps)
{
    const char* who = "pdu_shard_sink";
    std::vector<std::string> eps_list;
    if (py::isinstance<py::str>(endpoints)) {
        const std::string s = endpoints.cast<std::string>();
        size_t start = 0;
        while (start <= s.size()) {
            size_t comma = s.find(',', start);
            if (comma == std::string::npos)
                comma = s.size();
            std::string item = s.substr(start, comma - start);
            const auto a = item.find_first_not_of(" \t\r\n");
            const auto b = item.find_last_not_of(" \t\r\n");
            if (a != std::string::npos)
                eps_list.push_back(item.substr(a, b - a + 1));
            start = comma + 1;
        }
    } else {
        for (const auto& e : endpoints) {
            if (!py::isinstance<py::str>(e))
                throw py::value_error(std::string(who) + ": endpoints: " +
                                      std::string(py::repr(e)) +
                                      " is not a ZMQ endpoint: not a string");
            eps_list.push_back(e.cast<std::string>());
        }
    }
    const double e = num_param(who, "eps", eps, "in (0, 10]");
    if (balance != "bounded" && balance != "ring")
        throw py::value_error(std::string(who) +
                              ": balance must be one of ('bounded', 'ring'), got '" + balance +
                              "'");
    const int64_t v = int_param(who, "vnodes", vnodes, "1..4096");
    if (v < 1 || v > 4096)
        throw py::value_error(std::string(who) + ": vnodes must be 1..4096, got " +
                              std::to_string(v));
    const int64_t t = int_param(who, "timeout_ms", timeout_ms, ">= 0");
    if (t < 0 || t > (1 << 30))
        throw py::value_error(std::string(who) + ": timeout_ms must be >= 0, got " +
                              std::to_string(t));
    return gr::gpurx::pdu_shard_sink::make(
        eps_list, int(v), int(t), int_param(who, "max_queue", max_queue, ">= 0 (0: unbounded)"),
        int_param(who, "max_keys", max_keys, ">= 1"), balance, e);
}

// pdu_shard_sink.endpoint_of(shard_key): None where C++ says "".
inline py::object pdu_shard_sink_endpoint_of(const gr::gpurx::pdu_shard_sink& self, uint64_t key)
{
    const std::string e = self.endpoint_of(key);
    if (e.empty())
        return py::none();
    return py::str(e);
}

// pdu_shard_sink.add_endpoint(endpoint, instance=None, cause): None for an
// instance not known.
inline void pdu_shard_sink_add_endpoint(gr::gpurx::pdu_shard_sink& self,
                                        const py::object& endpoint,
                                        const py::object& instance,
                                        const std::string& cause)
{
    if (!py::isinstance<py::str>(endpoint))
        throw py::value_error("pdu_shard_sink.add_endpoint: endpoint " +
                              std::string(py::repr(endpoint)) +
                              " is not a ZMQ endpoint: not a string");
    int64_t inst = -1;
    if (!instance.is_none())
        inst = int_param("pdu_shard_sink.add_endpoint", "instance", instance,
                         "an integer in 0..2^63-1");
    self.add_endpoint(endpoint.cast<std::string>(), inst, cause);
}

// worker_gate_block.set_decoded_source(fn): a Python callable (None: none).
inline void worker_gate_set_decoded_source(gr::gpurx::worker_gate& self, const py::object& fn)
{
    if (fn.is_none()) {
        self.set_decoded_source(nullptr);
        return;
    }
    // Called from the block's log thread: the GIL is taken around the call
    // and around the callable's release.
    std::shared_ptr<py::object> held(new py::object(fn), [](py::object* o) {
        py::gil_scoped_acquire gil;
        delete o;
    });
    self.set_decoded_source([held]() -> int64_t {
        py::gil_scoped_acquire gil;
        try {
            py::object r = (*held)();
            return r.is_none() ? -1 : r.cast<int64_t>();
        } catch (const std::exception&) {
            return -1;
        }
    });
}

} // namespace gpurx_scale_out_py

#endif
