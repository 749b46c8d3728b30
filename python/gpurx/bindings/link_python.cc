/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(burst_sync.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/burst_framer.h>
#include <gnuradio/gpurx/burst_sync.h>
#include <gnuradio/gpurx/packet_counter.h>
#include <gnuradio/gpurx/packet_tagger.h>
#include <gnuradio/gpurx/payload_source.h>

void bind_link(py::module& m)
{
    {
        using cls = ::gr::gpurx::burst_framer;
        py::class_<cls, gr::tagged_stream_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "burst_framer",
            "The packet link's burst: a codeword's bits (tagged stream, G = data_symbols x bits per\n"
            "symbol) to guard, Zadoff-Chu preamble x4, pilot blocks and QAM data symbols, then\n"
            "gap_symbols zeros (docs/radio-link.md).")
            .def(py::init(&cls::make), py::arg("modulation") = "qpsk", py::arg("data_symbols") = 1048,
                 py::arg("gap_symbols") = 0, py::arg("len_tag_key") = "packet_len")
            .def("burst_symbols", &cls::burst_symbols);
    }
    {
        using cls = ::gr::gpurx::burst_sync;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "burst_sync",
            "The packet link's burst receiver front end: matched-filter samples in; per burst,\n"
            "data_symbols equalised symbols y = gain s + n out, tagged gain, n0, snr_db, cfo, corr,\n"
            "burst_time and the length tag (docs/radio-link.md).")
            .def(py::init(&cls::make), py::arg("sps") = 4, py::arg("data_symbols") = 1048,
                 py::arg("threshold") = 0.25, py::arg("min_corr") = 0.15, py::arg("len_tag_key") = "packet_len")
            .def("bursts", &cls::bursts)
            .def("false_alarms", &cls::false_alarms);
    }
    {
        using cls = ::gr::gpurx::packet_tagger;
        py::class_<cls, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "packet_tagger",
            "Adds a dict's tags to the first item of every packet of a tagged stream (a tag the\n"
            "packet already has wins); items pass unchanged.")
            .def(py::init(&cls::make), py::arg("itemsize"), py::arg("tags"), py::arg("len_tag_key") = "packet_len");
    }
    {
        using cls = ::gr::gpurx::packet_counter;
        py::class_<cls, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "packet_counter",
            "The packet link's receive counters: decoded TBs (tagged bits with crc_ok) in; good\n"
            "payloads out on 'pdus', counters on 'stats'; lost packets from sequence numbers.")
            .def(py::init(&cls::make), py::arg("len_tag_key") = "packet_len")
            .def("decoded", &cls::decoded)
            .def("crc_fail", &cls::crc_fail)
            .def("lost", &cls::lost)
            .def("per", &cls::per)
            .def("snr_db", &cls::snr_db)
            .def("cfo", &cls::cfo)
            .def("goodput_bps", &cls::goodput_bps);
    }
    {
        using cls = ::gr::gpurx::payload_source;
        py::class_<cls, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "payload_source",
            "Test payloads: packets of payload_bytes bytes (tagged stream), a 4-byte big-endian\n"
            "sequence number then pseudo-random bytes; ends after `packets` (0: never).")
            .def(py::init(&cls::make), py::arg("payload_bytes") = 128, py::arg("packets") = 0,
                 py::arg("seed") = 1, py::arg("len_tag_key") = "packet_len")
            .def("sent", &cls::sent);
    }
}
