/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(mimo_fading_channel.h)
// BINDTOOL_HEADER_FILE_HASH(0)

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/mimo_fading_channel.h>

void bind_mimo_fading_channel(py::module& m)
{
    using cls = ::gr::gpurx::mimo_fading_channel;
    py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(
        m, "mimo_fading_channel",
        "Tapped-delay-line MIMO channel on sample streams (CPU): nt complex inputs, nr complex outputs,\n"
        "y_r[n] = e^(j 2 pi cfo n) sum_t sum_l h_rtl x_t(n - d_l - delay) + w_r[n]; h_rtl independent\n"
        "CN(0, p_l), new every block_samples samples (0: one set); the true channel of each fading block\n"
        "as a PDU on message port \"H\" (fft_len row-major nr x nt matrices H[k], k in FFT order; metadata\n"
        "block, offset, nt, nr, fft_len, delays, taps) and a \"fading_block\" tag on its first sample.")
        .def(py::init(&cls::make),
             py::arg("nt"),
             py::arg("nr"),
             py::arg("profile") = "epa",
             py::arg("sample_rate") = 15.36e6,
             py::arg("num_taps") = 8,
             py::arg("decay_db") = 3.0,
             py::arg("block_samples") = 0,
             py::arg("fft_len") = 1024,
             py::arg("cfo") = 0.0,
             py::arg("delay") = 0.0,
             py::arg("noise_var") = 0.0f,
             py::arg("seed") = 0,
             "nt: transmit antennas (inputs), 1..8\n"
             "nr: receive antennas (outputs), 1..8\n"
             "profile: power-delay profile: \"flat\", \"exponential\", \"epa\" or \"eva\" (3GPP TS 36.104 B.2)\n"
             "sample_rate: Hz, > 0: the EPA / EVA delays in samples (rounded to the nearest)\n"
             "num_taps: \"exponential\": taps at delays 0..num_taps-1, 1..256\n"
             "decay_db: \"exponential\": power decay per tap in dB, >= 0\n"
             "block_samples: new independent taps every block_samples samples, >= 0 (0: one set for the run)\n"
             "fft_len: subcarriers of the reported H[k], 1..65536, more than the longest tap delay\n"
             "cfo: carrier frequency offset, cycles per sample, [-0.5, 0.5], common to all receive antennas\n"
             "delay: sampling offset (fractional delay of every stream), samples, [0, 4096]\n"
             "noise_var: N0 per receive antenna, >= 0\n"
             "seed: fixes the taps (the same at every noise_var) and the noise")
        .def("tap_delays", &cls::tap_delays)
        .def("tap_powers", &cls::tap_powers)
        .def("lookahead", &cls::lookahead)
        .def("noise_var", &cls::noise_var)
        .def("set_noise_var", &cls::set_noise_var, py::arg("noise_var"))
        .def("cfo", &cls::cfo)
        .def("set_cfo", &cls::set_cfo, py::arg("cfo"));
}
