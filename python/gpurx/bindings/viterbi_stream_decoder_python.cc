/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(viterbi_stream_decoder.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/viterbi_stream_decoder.h>

namespace {
const char* stream_doc =
    "Continuous Viterbi decoder: one unbounded stream of coded bits in, one bit per trellis\n"
    "step out. Window c decodes steps [c*chunk, (c+1)*chunk) from a Viterbi run over\n"
    "[c*chunk - traceback, (c+1)*chunk + traceback) (clipped to the stream; from state 0 at the\n"
    "stream's start, else from every state), traced back from the best end state (lowest on\n"
    "ties). Bit t leaves once steps up to (t//chunk + 1)*chunk + traceback have arrived (plus\n"
    "flush_us); at the end of the stream every remaining step is decoded.\n"
    "The code: K 3..9; polys in octal as standards print them ([0o133, 0o171]), or bit-reversed\n"
    "as gr-fec's cc_encoder with gr_fec_order=True; puncture keep/drop flags from the stream's\n"
    "first step; input 'soft' (float LLRs L = ln P(b=1)/P(b=0), positive for bit 1; NaN/Inf\n"
    "decoded as 0 and counted), 'int8' (int8 LLRs, any positive scale) or 'hard' (bytes).\n"
    "Bits out are unpacked uint8.";
} // namespace

void bind_viterbi_stream_decoder(py::module& m)
{
    using gr::gpurx::pipeline_options;
    using cls = ::gr::gpurx::viterbi_stream_decoder;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(m, "viterbi_stream_decoder", stream_doc)
        .def(py::init(&cls::make),
             py::arg("K") = 7,
             py::arg("polys") = std::vector<int>{ 0133, 0171 },
             py::arg("traceback") = 96,
             py::arg("chunk") = 512,
             py::arg("gr_fec_order") = false,
             py::arg("puncture") = std::vector<int>{},
             py::arg("input") = "soft",
             py::arg("options") = pipeline_options())
        .def("backend", &cls::backend)
        .def("nonfinite_llrs", &cls::nonfinite_llrs);
}
