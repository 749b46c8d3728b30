/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(pipeline_options.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/pipeline_options.h>

namespace {
// devices may be given as "0,1"/"all", as an int, or as a list of ints.
std::string devices_string(const py::object& d)
{
    if (py::isinstance<py::str>(d))
        return d.cast<std::string>();
    if (py::isinstance<py::int_>(d))
        return std::to_string(d.cast<long>());
    if (py::isinstance<py::sequence>(d)) {
        // An empty list would read as "" - no device named at all.
        if (py::len(d) == 0)
            throw py::value_error("devices must name at least one GPU (an int, a list of ints, "
                                  "\"0,1\" or \"all\"), got []");
        std::string s;
        for (const auto& x : d.cast<py::sequence>()) {
            if (!py::isinstance<py::int_>(x))
                throw py::value_error("devices must be \"all\", an int or a list of ints, got " +
                                      py::repr(d).cast<std::string>());
            s += (s.empty() ? "" : ",") + std::to_string(x.cast<long>());
        }
        return s;
    }
    throw py::value_error("devices must be \"all\", an int or a list of ints, got " +
                          py::repr(d).cast<std::string>());
}
} // namespace

void bind_pipeline_options(py::module& m)
{
    using cls = ::gr::gpurx::pipeline_options;
    py::class_<cls>(m,
                    "pipeline_options",
                    "How a gr-gpurx block batches frames and where it runs them; the same for\n"
                    "every block.\n\n"
                    "max_batch: frames per batch, 1..1048576\n"
                    "slots: batches in flight per device, 1..64\n"
                    "flush_us: longest wait of a frame for its batch to fill, 0..10000000 us\n"
                    "backend: \"auto\" (CUDA when usable, else CPU), \"cuda\" or \"cpu\"\n"
                    "devices: GPUs to spread batches over: an int, a list, \"0,1\" or \"all\"\n"
                    "cpu_threads: CPU backend workers, 0 = one per hardware thread")
        .def(py::init([](int max_batch, int slots, int flush_us, const std::string& backend,
                         const py::object& devices, int cpu_threads) {
                 return cls(max_batch, slots, flush_us, backend, devices_string(devices), cpu_threads);
             }),
             py::arg("max_batch") = 64,
             py::arg("slots") = 3,
             py::arg("flush_us") = 1000,
             py::arg("backend") = "auto",
             py::arg("devices") = "0",
             py::arg("cpu_threads") = 0)
        .def_readwrite("max_batch", &cls::max_batch)
        .def_readwrite("slots", &cls::slots)
        .def_readwrite("flush_us", &cls::flush_us)
        .def_readwrite("backend", &cls::backend)
        .def_readwrite("devices", &cls::devices)
        .def_readwrite("cpu_threads", &cls::cpu_threads)
        .def("__repr__", [](const cls& o) { return "pipeline_options(" + o.to_string() + ")"; });
}
