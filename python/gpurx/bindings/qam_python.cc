/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(qam_mapper.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/qam_demapper.h>
#include <gnuradio/gpurx/qam_mapper.h>

void bind_qam(py::module& m)
{
    {
        using cls = ::gr::gpurx::qam_mapper;
        py::class_<cls, gr::sync_decimator, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "qam_mapper",
            "QAM mapper (3GPP TS 36.211 7.1, Gray, unit average energy): unpacked bits (uint8, 0 or\n"
            "not 0), b(0) first, in; complex symbols out. modulation 'qpsk', '16qam', '64qam', '256qam'.")
            .def(py::init(&cls::make), py::arg("modulation") = "16qam")
            .def("bits_per_symbol", &cls::bits_per_symbol);
    }
    {
        using cls = ::gr::gpurx::qam_demapper;
        py::class_<cls, gr::sync_interpolator, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "qam_demapper",
            "Max-log QAM demapper (the constellation of qam_mapper): complex symbols in,\n"
            "bits_per_symbol float LLRs out per symbol, b(0) first, L = ln P(b=1)/P(b=0), positive\n"
            "for bit 1: L = (min_{b=0} |y-s|^2 - min_{b=1} |y-s|^2) / noise_var.\n"
            "Tags 'n0' and 'gain' on a symbol set noise_var and the gain (y = gain s + n) from it on.")
            .def(py::init(&cls::make), py::arg("modulation") = "16qam", py::arg("noise_var") = 1.0f)
            .def("bits_per_symbol", &cls::bits_per_symbol)
            .def("noise_var", &cls::noise_var)
            .def("set_noise_var", &cls::set_noise_var, py::arg("noise_var"));
    }
}
