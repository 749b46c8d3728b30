/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(viterbi_decoder.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/viterbi_decoder.h>
#include <gnuradio/gpurx/viterbi_decoder_pdu.h>
#include <gnuradio/gpurx/viterbi_decoder_tagged.h>

namespace {
const char* code_doc =
    "The code: K 3..9; polys in octal as standards print them ([0o133, 0o171]: the most\n"
    "significant bit taps the current input), or bit-reversed as gr-fec's cc_encoder with\n"
    "gr_fec_order=True; termination 'terminated', 'truncated' or 'tail-biting'; puncture\n"
    "keep/drop flags; input 'soft' (float LLRs L = ln P(b=1)/P(b=0), positive for bit 1),\n"
    "'int8' (int8 LLRs, any positive scale)\n"
    "or 'hard' (bytes). Bits out are unpacked uint8.";
} // namespace

void bind_viterbi_decoder(py::module& m)
{
    using gr::gpurx::pipeline_options;
    {
        using cls = ::gr::gpurx::viterbi_decoder;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "viterbi_decoder", (std::string("Viterbi decoder: one vector of coded bits per frame of frame_bits bits.\n") + code_doc).c_str())
            .def(py::init(&cls::make),
                 py::arg("frame_bits"),
                 py::arg("K") = 7,
                 py::arg("polys") = std::vector<int>{ 0133, 0171 },
                 py::arg("termination") = "terminated",
                 py::arg("chunk") = 64,
                 py::arg("puncture") = std::vector<int>{},
                 py::arg("input") = "soft",
                 py::arg("gr_fec_order") = false,
                 py::arg("options") = pipeline_options())
            .def("backend", &cls::backend);
    }
    {
        using cls = ::gr::gpurx::viterbi_decoder_tagged;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "viterbi_decoder_tagged", (std::string("Viterbi decoder for tagged streams: a packet of coded bits per frame.\n") + code_doc).c_str())
            .def(py::init(&cls::make),
                 py::arg("K") = 7,
                 py::arg("polys") = std::vector<int>{ 0133, 0171 },
                 py::arg("termination") = "terminated",
                 py::arg("chunk") = 64,
                 py::arg("puncture") = std::vector<int>{},
                 py::arg("input") = "soft",
                 py::arg("gr_fec_order") = false,
                 py::arg("max_frame_bits") = 16384,
                 py::arg("len_tag_key") = "packet_len",
                 py::arg("options") = pipeline_options())
            .def("backend", &cls::backend);
    }
    {
        using cls = ::gr::gpurx::viterbi_decoder_pdu;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "viterbi_decoder_pdu", (std::string("Viterbi decoder for PDUs: a PDU of coded bits per frame.\n") + code_doc).c_str())
            .def(py::init(&cls::make),
                 py::arg("K") = 7,
                 py::arg("polys") = std::vector<int>{ 0133, 0171 },
                 py::arg("termination") = "terminated",
                 py::arg("chunk") = 64,
                 py::arg("puncture") = std::vector<int>{},
                 py::arg("input") = "soft",
                 py::arg("gr_fec_order") = false,
                 py::arg("max_frame_bits") = 16384,
                 py::arg("options") = pipeline_options())
            .def("backend", &cls::backend);
    }
}
