/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(mimo_idd_decoder.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/mimo_idd_decoder.h>

void bind_mimo_idd_decoder(py::module& m)
{
    using gr::gpurx::pipeline_options;
    using cls = ::gr::gpurx::mimo_idd_decoder;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "mimo_idd_decoder",
        "Iterative detection and decoding receiver: a MIMO detector and the LTE transport-block decoder\n"
        "in a loop, `passes` passes per TB (on the GPU without a host round trip between passes).\n"
        "Inputs as mimo_detector(noise_input=True): y vectors (nr complex), one H per channel\n"
        "(nr*nt complex), one N0 per channel (float); a TB is `channels` channels of\n"
        "vectors_per_channel vectors, G = channels*vectors_per_channel*nt*bits_per_symbol coded bits\n"
        "in the detector's output order. Output: the TB's tbs bits (one per byte), the first tagged\n"
        "crc_ok, passes, pass_crc (bit p-1: pass p's CRC checked), iterations. A TB stops at its first\n"
        "CRC pass; later passes take the decoder's extrinsic LLRs (times extrinsic_scale) as priors.")
        .def(py::init(&cls::make),
             py::arg("nt"),
             py::arg("nr"),
             py::arg("modulation"),
             py::arg("algorithm"),
             py::arg("channels"),
             py::arg("vectors_per_channel"),
             py::arg("tbs"),
             py::arg("passes") = 2,
             py::arg("iterations") = 6,
             py::arg("extrinsic_scale") = 0.75f,
             py::arg("channel") = "dlsch",
             py::arg("rnti") = 0,
             py::arg("cell_id") = 0,
             py::arg("subframe") = 0,
             py::arg("implementation") = "auto",
             py::arg("options") = pipeline_options())
        .def("backend", &cls::backend);
}
