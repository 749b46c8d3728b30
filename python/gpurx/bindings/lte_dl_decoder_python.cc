/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(lte_dl_decoder.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/lte_dl_decoder.h>

void bind_lte_dl_decoder(py::module& m)
{
    using cls = ::gr::gpurx::lte_dl_decoder;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "lte_dl_decoder",
        "The LTE downlink receiver of one cell as a sink (docs/lte-downlink.md): n_rx complex sample\n"
        "streams at sample_rate (a standard LTE rate) in; cell search, MIB, PCFICH/PDCCH, PDSCH,\n"
        "DL-SCH with HARQ on the GPU or CPU. Message ports: 'tbs' (a PDU per transport block: dict\n"
        "sfn, subframe, cell_id, rnti, dci_format, mcs, tbs, rv, ndi, harq_process, tb, crc_ok,\n"
        "iterations, transmissions, duplicate; the bits as a u8vector of 0/1, empty for a\n"
        "duplicate), 'stats' (a dict per subframe: sfn, subframe, outcome, cfi, dcis, pdschs,\n"
        "cfo_hz, noise_var, reason), 'status' (on change: state searching/found/lost, the cell's\n"
        "parameters, the backend). rnti: 'all' or a comma list (decimal or 0x-hex). gr-uhd's\n"
        "rx_time tags that jump mark lost samples (those subframes are reported lost). pcap: a\n"
        "MAC-LTE pcap path for Wireshark, or ''. A bad parameter raises ValueError naming it.")
        .def(py::init(&cls::make), py::arg("sample_rate"), py::arg("n_rx") = 1, py::arg("rnti") = "all",
             py::arg("backend") = "auto", py::arg("devices") = "0", py::arg("ue_category") = 4,
             py::arg("detector") = "lmmse", py::arg("pcap") = "")
        .def("backend", &cls::backend)
        .def("state", &cls::state)
        .def("cell_id", &cls::cell_id)
        .def("subframes", &cls::subframes)
        .def("subframes_lost", &cls::subframes_lost)
        .def("subframes_no_control", &cls::subframes_no_control)
        .def("tbs", &cls::tbs)
        .def("tbs_ok", &cls::tbs_ok)
        .def("duplicates", &cls::duplicates)
        .def("ok_bits", &cls::ok_bits)
        .def("gaps", &cls::gaps)
        .def("samples_lost", &cls::samples_lost);
}
