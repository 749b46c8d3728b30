/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(runtime_info.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/runtime_info.h>

void bind_runtime_info(py::module& m)
{
    m.def("cuda_available",
          &::gr::gpurx::cuda_available,
          py::arg("device") = 0,
          "True when the CUDA device is usable (a probe kernel ran on it).");
    m.def("auto_backend",
          &::gr::gpurx::auto_backend,
          py::arg("device") = 0,
          "The backend \"auto\" resolves to: \"cuda\" or \"cpu\".");
    m.def("backend_reason",
          &::gr::gpurx::backend_reason,
          py::arg("backend"),
          py::arg("device") = 0,
          "Why a backend request resolves the way it does (raises like a block).");
    m.def("version", &::gr::gpurx::version, "This build's version (also gpurx.__version__).");
    m.def("cuda_architectures",
          &::gr::gpurx::cuda_architectures,
          "The CUDA architectures compiled into this build (CMAKE_CUDA_ARCHITECTURES:\n"
          "\"90-real\" is sm_90 machine code, \"90-virtual\" compute_90 PTX that newer\n"
          "GPUs compile when loading); \"\" when built without CUDA.");
    m.def("runtime_report",
          &::gr::gpurx::runtime_report,
          "Devices, versions and the backend \"auto\" picks, as gpurx-info prints.");
}
