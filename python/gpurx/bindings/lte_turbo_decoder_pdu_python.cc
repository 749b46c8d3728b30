/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(lte_turbo_decoder_pdu.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "turbo_docstrings.h"
#include <gnuradio/gpurx/lte_turbo_decoder_pdu.h>

void bind_lte_turbo_decoder_pdu(py::module& m)
{
    using cls = ::gr::gpurx::lte_turbo_decoder_pdu;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "lte_turbo_decoder_pdu",
        "LTE turbo decoder for PDUs of 3K+12 float32 LLRs.\nSoft input: LLRs L = ln P(b=1)/P(b=0), positive for bit 1 (GNU Radio's convention).")
        .def(py::init(&cls::make),
             py::arg("iterations") = 6,
             py::arg("algorithm") = "scaled-max-log-map",
             py::arg("subblocks") = 0,
             py::arg("scaling") = 0.75f,
             py::arg("early_termination") = "none",
             py::arg("options") = ::gr::gpurx::pipeline_options(),
             py::arg("input") = "soft",
             GPURX_DOC_TURBO_DECODER_PARAMS GPURX_DOC_PIPELINE_OPTIONS
                 GPURX_DOC_TURBO_INPUT GPURX_DOC_SOFT_INPUT)
        .def("backend", &cls::backend);
}
