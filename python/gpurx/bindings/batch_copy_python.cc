/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(batch_copy.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/batch_copy.h>

void bind_batch_copy(py::module& m)
{
    using batch_copy = ::gr::gpurx::batch_copy;
    py::class_<batch_copy, gr::block, gr::basic_block, std::shared_ptr<batch_copy>>(
        m,
        "batch_copy",
        "Scaled copy of float vectors through the gr-gpurx batching pipeline.\n\n"
        "Each vector is a frame; frames are batched as options (pipeline_options) say.")
        .def(py::init(&batch_copy::make),
             py::arg("vlen"),
             py::arg("scale") = 1.0f,
             py::arg("options") = ::gr::gpurx::pipeline_options())
        .def("backend", &batch_copy::backend, "The backend in use: \"cuda\" or \"cpu\".");
}
