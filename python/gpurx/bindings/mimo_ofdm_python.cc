/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(mimo_ofdm_channel_estimator.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/mimo_ofdm_channel_estimator.h>
#include <gnuradio/gpurx/mimo_ofdm_framer.h>
#include <gnuradio/gpurx/mimo_ofdm_sync.h>

void bind_mimo_ofdm(py::module& m)
{
    {
        using cls = ::gr::gpurx::mimo_ofdm_framer;
        py::class_<cls, gr::tagged_stream_block, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "mimo_ofdm_framer",
            "MIMO-OFDM transmitter framing (docs/mimo-ofdm.md): a codeword's QAM symbols (a tagged\n"
            "stream of (used-pilots)*nt*data_symbols) to nt streams of samples: sync symbol, training,\n"
            "data (with `pilots` pilot subcarriers per data symbol).")
            .def(py::init(&cls::make), py::arg("nt"), py::arg("fft_len"), py::arg("cp_len"), py::arg("used"),
                 py::arg("repeats") = 2, py::arg("data_symbols") = 12, py::arg("gap") = 0,
                 py::arg("len_tag_key") = "packet_len", py::arg("pilots") = 0)
            .def("frame_samples", &cls::frame_samples);
    }
    {
        using cls = ::gr::gpurx::mimo_ofdm_sync;
        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
            m, "mimo_ofdm_sync",
            "Synchronisation of nr receive channels to mimo_ofdm_framer's frames: nr sample streams\n"
            "in, nr streams of fft_len-vectors (training and data symbols after the FFT) out.")
            .def(py::init(&cls::make), py::arg("nt"), py::arg("nr"), py::arg("fft_len"), py::arg("cp_len"),
                 py::arg("used"), py::arg("repeats") = 2, py::arg("data_symbols") = 12, py::arg("threshold") = 0.3,
                 py::arg("threads") = -1)
            .def("frames", &cls::frames)
            .def("cfo", &cls::cfo);
    }
    {
    using cls = ::gr::gpurx::mimo_ofdm_channel_estimator;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "mimo_ofdm_channel_estimator",
        "MIMO-OFDM channel estimation (docs/mimo-ofdm.md): nr streams of OFDM symbols (vectors of\n"
        "fft_len) in, frames of repeats*nt training and data_symbols data symbols; out: y vectors\n"
        "(nr), one H (nr x nt row-major) per group of subcarriers, N0 per group, for mimo_detector\n"
        "with vectors_per_channel = group * data_symbols and noise_input = True. Runs on the batching\n"
        "pipeline (options: backend auto/cpu/cuda, devices, batching); implementation \"cpu\" or \"cuda\"\n"
        "is kept for compatibility and sets options.backend. With pilots > 0 the data symbols carry\n"
        "that many pilot subcarriers (mimo_ofdm_framer's): out come the data carriers only, each data\n"
        "symbol turned back by the common phase error measured on its pilots (track_phase), and with\n"
        "track_slope by a phase slope across subcarriers too (a timing drift).")
        .def(py::init(&cls::make), py::arg("nt"), py::arg("nr"), py::arg("fft_len"), py::arg("used"),
             py::arg("repeats") = 2, py::arg("data_symbols") = 12, py::arg("group") = 1,
             py::arg("implementation") = "auto", py::arg("delay_spread") = 0,
             py::arg("options") = ::gr::gpurx::pipeline_options(), py::arg("pilots") = 0,
             py::arg("track_phase") = true, py::arg("track_slope") = false)
        .def("implementation", &cls::implementation)
        .def("backend", &cls::backend)
        .def("vectors_per_channel", &cls::vectors_per_channel)
        .def("frames", &cls::frames);
    }
}
