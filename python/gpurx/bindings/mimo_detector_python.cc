/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(mimo_detector.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/mimo_detector.h>
#include <gnuradio/gpurx/mimo_detector_pdu.h>
#include <gnuradio/gpurx/mimo_detector_tagged.h>

namespace {
const char* model_doc =
    "y = H s + n: nt streams of unit-energy 36.211 symbols (modulation 'qpsk', '16qam',\n"
    "'64qam', '256qam'), nr >= nt antennas, E|n|^2 = N0 per antenna; H nr x nt complex,\n"
    "row-major (H[r][t] at r*nt+t). LLRs out (and a-priori LLRs in, apriori=True) are\n"
    "L = ln P(b=1)/P(b=0), positive for bit 1: per vector nt*bits_per_symbol floats,\n"
    "antenna 0's bits first, b(0) first. algorithm 'ml', 'mtt', 'one-pass', 'kbest'\n"
    "(k, clip) or 'lmmse'; output 'aposteriori' or 'extrinsic'. llr_type 'float'\n"
    "(default) or 'int8': one char per LLR, v = round(8 L) saturated to +-127 (steps\n"
    "of 1/8: lte_turbo_decoder(input='int8')). Frames are tagged (described) 'rank',\n"
    "and 'rank_deficient' when rank < nt.";
} // namespace

void bind_mimo_detector(py::module& m)
{
    using gr::gpurx::pipeline_options;
    {
        using cls = ::gr::gpurx::mimo_detector;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "mimo_detector", (std::string("Soft MIMO detector: y vectors (input 0) and one H per vectors_per_channel of them (input 1) in;\n"
                                             "[a-priori LLR vectors, apriori=True]; [N0 per H, noise_input=True]; an LLR vector per y out.\n") + model_doc).c_str())
            .def(py::init(&cls::make),
                 py::arg("nt"),
                 py::arg("nr"),
                 py::arg("modulation") = "16qam",
                 py::arg("algorithm") = "mtt",
                 py::arg("k") = 16,
                 py::arg("clip") = 16.0f,
                 py::arg("noise_var") = 0.1f,
                 py::arg("noise_input") = false,
                 py::arg("vectors_per_channel") = 1,
                 py::arg("sorted_qr") = false,
                 py::arg("apriori") = false,
                 py::arg("output") = "aposteriori",
                 py::arg("implementation") = "auto",
                 py::arg("options") = pipeline_options(),
                 py::arg("llr_type") = "float",
                 py::arg("rank_tags") = true)
            .def("backend", &cls::backend);
    }
    {
        using cls = ::gr::gpurx::mimo_detector_tagged;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "mimo_detector_tagged", (std::string("Soft MIMO detector for tagged streams: a packet of complex items per channel: H, its y\n"
                                                    "vectors, [a-priori LLRs two per item]; a packet of LLRs out.\n") + model_doc).c_str())
            .def(py::init(&cls::make),
                 py::arg("nt"),
                 py::arg("nr"),
                 py::arg("modulation") = "16qam",
                 py::arg("algorithm") = "mtt",
                 py::arg("k") = 16,
                 py::arg("clip") = 16.0f,
                 py::arg("noise_var") = 0.1f,
                 py::arg("sorted_qr") = false,
                 py::arg("apriori") = false,
                 py::arg("output") = "aposteriori",
                 py::arg("implementation") = "auto",
                 py::arg("max_vectors") = 1024,
                 py::arg("len_tag_key") = "packet_len",
                 py::arg("options") = pipeline_options(),
                 py::arg("llr_type") = "float")
            .def("backend", &cls::backend);
    }
    {
        using cls = ::gr::gpurx::mimo_detector_pdu;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "mimo_detector_pdu", (std::string("Soft MIMO detector for PDUs: a c32vector per channel: H, its y vectors,\n"
                                                 "[a-priori LLRs two per item]; an f32vector (int8: s8vector) of LLRs out.\n") + model_doc).c_str())
            .def(py::init(&cls::make),
                 py::arg("nt"),
                 py::arg("nr"),
                 py::arg("modulation") = "16qam",
                 py::arg("algorithm") = "mtt",
                 py::arg("k") = 16,
                 py::arg("clip") = 16.0f,
                 py::arg("noise_var") = 0.1f,
                 py::arg("sorted_qr") = false,
                 py::arg("apriori") = false,
                 py::arg("output") = "aposteriori",
                 py::arg("implementation") = "auto",
                 py::arg("max_vectors") = 1024,
                 py::arg("options") = pipeline_options(),
                 py::arg("llr_type") = "float")
            .def("backend", &cls::backend);
    }
}
