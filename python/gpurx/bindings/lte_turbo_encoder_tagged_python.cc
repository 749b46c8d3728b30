/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(lte_turbo_encoder_tagged.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/lte_turbo_encoder_tagged.h>
#include <gnuradio/tagged_stream_block.h>

void bind_lte_turbo_encoder_tagged(py::module& m)
{
    using cls = ::gr::gpurx::lte_turbo_encoder_tagged;
    py::class_<cls, gr::tagged_stream_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "lte_turbo_encoder_tagged",
        "LTE turbo encoder for tagged streams: packets of K bits in, 3K+12 out.")
        .def(py::init(&cls::make), py::arg("len_tag_key") = "packet_len");
    using pdu = ::gr::gpurx::lte_turbo_encoder_pdu;
    py::class_<pdu, gr::block, gr::basic_block, std::shared_ptr<pdu>>(
        m, "lte_turbo_encoder_pdu",
        "LTE turbo encoder for PDUs: a u8vector of K bits in, 3K+12 bits out.")
        .def(py::init(&pdu::make));
}
