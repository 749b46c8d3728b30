/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(pdu_sequencer.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/llr_pdu_to_int8.h>
#include <gnuradio/gpurx/pdu_reorder.h>
#include <gnuradio/gpurx/pdu_sequencer.h>
#include <gnuradio/gpurx/pdu_shard_sink.h>
#include <gnuradio/gpurx/worker_gate.h>

#include <pmt/pmt.h>

#include <memory>
#include <stdexcept>

namespace {

// An integer parameter as Python gave it: a bool or a non-integer raises
// ValueError naming the parameter (the Python blocks' checks).
int64_t int_param(const char* who, const char* name, const py::object& v, const char* rule)
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

double num_param(const char* who, const char* name, const py::object& v, const char* rule)
{
    if (py::isinstance<py::bool_>(v) ||
        !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
        throw py::value_error(std::string(who) + ": " + name + " must be " + rule + ", got " +
                              std::string(py::repr(v)));
    return v.cast<double>();
}

} // namespace

void bind_scale_out(py::module& m)
{
    {
        using cls = ::gr::gpurx::llr_pdu_to_int8;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "llr_pdu_to_int8",
            "A PDU of float LLRs (f32vector) -> the same metadata with int8 LLRs (value =\n"
            "round(8 L), clipped to +-127: the decoders' input 'int8') as a u8vector of their\n"
            "bytes. Other PDUs pass unchanged. Ports: 'pdus' in, 'pdus' out.")
            .def(py::init(&cls::make))
            .def("converted", &cls::converted)
            .def("passed", &cls::passed);
    }
    {
        using cls = ::gr::gpurx::pdu_sequencer;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "pdu_sequencer",
            "Stamps each PDU's metadata with 'seq' (uint64 from 0) and 'shard_key' (uint64):\n"
            "key 'harq' hashes (rnti, harq_process, codeword), 'round_robin' is the seq.\n"
            "Malformed PDUs are dropped and reported on 'errors' (docs/scale-out.md).")
            .def(py::init(&cls::make), py::arg("key") = "harq")
            .def("next_seq", &cls::next_seq)
            .def_property_readonly("key", &cls::key);
    }
    {
        using cls = ::gr::gpurx::pdu_reorder;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "pdu_reorder",
            "Emits PDUs in 'seq' order; reports timeout, window_full, resync, duplicate, late,\n"
            "dropped, no seq and flush on 'errors' (docs/scale-out.md).")
            .def(py::init([](const py::object& window, const py::object& timeout_ms,
                             const py::object& first_seq) {
                     const char* who = "pdu_reorder";
                     return cls::make(int_param(who, "window", window, "1..16777216"),
                                      num_param(who, "timeout_ms", timeout_ms,
                                                "> 0 (and at most an hour)"),
                                      int_param(who, "first_seq", first_seq, ">= 0"));
                 }),
                 py::arg("window") = 4096, py::arg("timeout_ms") = 500, py::arg("first_seq") = 0)
            .def("stats", &cls::stats)
            .def("flush", &cls::flush, py::call_guard<py::gil_scoped_release>());
    }
    {
        using cls = ::gr::gpurx::pdu_shard_sink;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "pdu_shard_sink",
            "Sends each PDU to one of N ZMQ PUSH endpoints chosen by its 'shard_key' on a\n"
            "consistent hash ring (balance 'bounded': bounded loads; 'ring'); endpoints come and\n"
            "go at run time moving only their keys (docs/scale-out.md).")
            .def(py::init([](const py::object& endpoints, const py::object& vnodes,
                             const py::object& timeout_ms, const py::object& max_queue,
                             const py::object& max_keys, const std::string& balance,
                             const py::object& eps) {
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
                                 throw py::value_error(
                                     std::string(who) + ": endpoints: " +
                                     std::string(py::repr(e)) + " is not a ZMQ endpoint: not a string");
                             eps_list.push_back(e.cast<std::string>());
                         }
                     }
                     const double e = num_param(who, "eps", eps, "in (0, 10]");
                     if (balance != "bounded" && balance != "ring")
                         throw py::value_error(std::string(who) +
                                               ": balance must be one of ('bounded', 'ring'), got '" +
                                               balance + "'");
                     const int64_t v = int_param(who, "vnodes", vnodes, "1..4096");
                     if (v < 1 || v > 4096)
                         throw py::value_error(std::string(who) + ": vnodes must be 1..4096, got " +
                                               std::to_string(v));
                     const int64_t t = int_param(who, "timeout_ms", timeout_ms, ">= 0");
                     if (t < 0 || t > (1 << 30))
                         throw py::value_error(std::string(who) + ": timeout_ms must be >= 0, got " +
                                               std::to_string(t));
                     return cls::make(eps_list, int(v), int(t),
                                      int_param(who, "max_queue", max_queue, ">= 0 (0: unbounded)"),
                                      int_param(who, "max_keys", max_keys, ">= 1"), balance, e);
                 }),
                 py::arg("endpoints"), py::arg("vnodes") = 64, py::arg("timeout_ms") = 100,
                 py::arg("max_queue") = 1024, py::arg("max_keys") = 65536,
                 py::arg("balance") = "bounded", py::arg("eps") = 0.01)
            .def("endpoints", &cls::endpoints)
            .def("endpoint_of",
                 [](const cls& self, uint64_t key) -> py::object {
                     const std::string e = self.endpoint_of(key);
                     if (e.empty())
                         return py::none();
                     return py::str(e);
                 })
            .def("keys_of", &cls::keys_of)
            .def("sent", &cls::sent)
            .def("pending", &cls::pending)
            .def("stats", &cls::stats)
            .def("remove_endpoint", &cls::remove_endpoint, py::arg("endpoint"),
                 py::arg("cause") = "remove_endpoint()")
            .def("add_endpoint",
                 [](cls& self, const py::object& endpoint, const py::object& instance,
                    const std::string& cause) {
                     if (!py::isinstance<py::str>(endpoint))
                         throw py::value_error("pdu_shard_sink.add_endpoint: endpoint " +
                                               std::string(py::repr(endpoint)) +
                                               " is not a ZMQ endpoint: not a string");
                     int64_t inst = -1;
                     if (!instance.is_none())
                         inst = int_param("pdu_shard_sink.add_endpoint", "instance", instance,
                                          "an integer in 0..2^63-1");
                     self.add_endpoint(endpoint.cast<std::string>(), inst, cause);
                 },
                 py::arg("endpoint"), py::arg("instance") = py::none(),
                 py::arg("cause") = "add_endpoint()")
            .def("restart_endpoint", &cls::restart_endpoint, py::arg("endpoint"),
                 py::arg("instance"), py::arg("cause") = "restart_endpoint()")
            .def("set_lane_sink", &cls::set_lane_sink, py::arg("endpoint"), py::arg("block"),
                 py::arg("port"));
    }
    {
        // The C++ block under python/gpurx/scale_out.py's worker_gate (which
        // checks the parameters as the Python gate did, and watches Python
        // decoder blocks): its per-PDU path.
        using cls = ::gr::gpurx::worker_gate;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "worker_gate_block",
            "The C++ block of gpurx.worker_gate (use that): routes each PDU to a decoder by its\n"
            "HARQ shard key, drops stale PDUs and those beyond max_queue (docs/scale-out.md).")
            .def(py::init(&cls::make), py::arg("name"), py::arg("decoders") = 1,
                 py::arg("max_queue") = 0, py::arg("instance") = 0, py::arg("log_interval") = 0.0)
            .def("worker_name", &cls::worker_name)
            .def("instance", &cls::instance)
            .def("decoders", &cls::decoders)
            .def("max_queue", &cls::max_queue)
            .def("log_interval", &cls::log_interval)
            .def("passed", &cls::passed)
            .def("dropped", &cls::dropped)
            .def("stale", &cls::stale)
            .def("bad", &cls::bad)
            .def("watch", &cls::watch, py::arg("decoders"))
            .def("watching", &cls::watching)
            .def("queue", &cls::queue, py::arg("decoder") = -1)
            .def("decoder_for", &cls::decoder_for, py::arg("meta"))
            .def("inject_fault", &cls::inject_fault, py::arg("what"))
            .def("set_decoded_source",
                 [](cls& self, const py::object& fn) {
                     if (fn.is_none()) {
                         self.set_decoded_source(nullptr);
                         return;
                     }
                     // Called from the block's log thread: the GIL is taken
                     // around the call and around the callable's release.
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
                 },
                 py::arg("decoded"));
    }
}
