/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(mimo_channel.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/mimo_channel.h>

void bind_mimo_channel(py::module& m)
{
    using cls = ::gr::gpurx::mimo_channel;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "mimo_channel",
        "Flat-fading MIMO channel: transmit vectors (nt complex) in; y (nr complex, output 0) and H\n"
        "(nr*nt complex, row-major, output 1, one per vectors_per_channel y's) out. H = Rr^1/2 G Rt^1/2^T,\n"
        "G i.i.d. CN(0,1), exponential correlation tx_correlation / rx_correlation in [0, 1); AWGN with\n"
        "E|n|^2 = noise_var per receive antenna (SNR per antenna nt/noise_var); seeded.")
        .def(py::init(&cls::make),
             py::arg("nt"),
             py::arg("nr"),
             py::arg("noise_var") = 0.1f,
             py::arg("vectors_per_channel") = 1,
             py::arg("tx_correlation") = 0.0f,
             py::arg("rx_correlation") = 0.0f,
             py::arg("seed") = 0)
        .def("noise_var", &cls::noise_var)
        .def("set_noise_var", &cls::set_noise_var, py::arg("noise_var"));
}
