/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(lte_sch_encoder_pdu.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "sch_docstrings.h"
#include <gnuradio/gpurx/lte_sch_encoder_pdu.h>
#include <gnuradio/gpurx/lte_sch_encoder_tagged.h>

void bind_lte_sch(py::module& m)
{
    {
        using cls = ::gr::gpurx::lte_sch_encoder_pdu;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "lte_sch_encoder_pdu",
            "LTE DL-SCH / UL-SCH transport-block encoder for PDUs (CPU): a TB's bits (u8vector\n"
            "of 0/1) with its metadata and g in, the G scrambled codeword bits out.")
            .def(py::init(&cls::make),
                 py::arg("channel") = "dlsch",
                 py::arg("max_tbs") = 97896,
                 py::arg("max_g") = 262144,
                 GPURX_DOC_SCH_ENCODER_PARAMS GPURX_DOC_SCH_METADATA)
            .def("backend", &cls::backend);
    }
    {
        using cls = ::gr::gpurx::lte_sch_encoder_tagged;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "lte_sch_encoder_tagged",
            "LTE DL-SCH / UL-SCH transport-block encoder on a tagged stream (CPU): a packet\n"
            "of TB bits with its parameters as tags in, a packet of G codeword bits out.")
            .def(py::init(&cls::make),
                 py::arg("channel") = "dlsch",
                 py::arg("len_tag_key") = "packet_len",
                 py::arg("max_tbs") = 97896,
                 py::arg("max_g") = 262144,
                 GPURX_DOC_SCH_ENCODER_PARAMS GPURX_DOC_SCH_LEN_TAG_KEY GPURX_DOC_SCH_METADATA
                 "The output packet carries the input packet's tags.\n")
            .def("backend", &cls::backend);
    }
}
