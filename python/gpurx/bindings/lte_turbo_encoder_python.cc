/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(lte_turbo_encoder.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/lte_turbo_encoder.h>
#include <gnuradio/sync_block.h>

void bind_lte_turbo_encoder(py::module& m)
{
    using cls = ::gr::gpurx::lte_turbo_encoder;
    py::class_<cls, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "lte_turbo_encoder",
        "LTE turbo encoder (TS 36.212 5.1.3.2): vectors of K bits in, 3K+12 bits out,\n"
        "layout c[3k+i] = d(i)_k.")
        .def(py::init(&cls::make),
             py::arg("K"),
             "K: block size in bits, one of the 188 sizes of TS 36.212 Table 5.1.3-3\n"
             "(gpurx.lte_turbo_block_sizes()); raises ValueError naming K otherwise.");
    m.def("lte_turbo_block_sizes",
          &::gr::gpurx::lte_turbo_block_sizes,
          "The 188 LTE turbo block sizes K (TS 36.212 Table 5.1.3-3), ascending: 40..512\n"
          "in steps of 8, ..1024 of 16, ..2048 of 32, ..6144 of 64. Every turbo block\n"
          "(encoder and decoder, stream, tagged and PDU) takes exactly these.");
}
