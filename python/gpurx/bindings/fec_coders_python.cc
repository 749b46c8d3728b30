/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Written by hand in the layout gr_modtool bind generates; hash 0 disables
// the out-of-sync check, which only applies to generated bindings.
// BINDTOOL_GEN_AUTOMATIC(0)
// BINDTOOL_USE_PYGCCXML(0)
// BINDTOOL_HEADER_FILE(lte_turbo_fec_decoder.h)
// BINDTOOL_HEADER_FILE_HASH(0)
//
// The gr-fec coder objects. Their Python classes derive from gnuradio.fec's
// generic_decoder / generic_encoder, so every gr-fec deployment (which
// takes those) accepts them; python_bindings.cc imports gnuradio.fec first.
// The C++ classes derive virtually, as gr-fec's own coders do, so the base
// is not at offset 0: py::multiple_inheritance() makes pybind11 apply the
// real upcast instead of reusing the pointer (which crashes).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpurx/lte_turbo_fec_decoder.h>
#include <gnuradio/gpurx/lte_turbo_fec_encoder.h>
#include <gnuradio/gpurx/viterbi_fec_decoder.h>

namespace {
const char* soft_doc =
    "Soft values: LLRs L = ln P(b=1)/P(b=0), positive for bit 1 (GNU Radio's and gr-fec's\n"
    "convention: its BER tools send bit 1 as +1). Each input value y is decoded as the LLR\n"
    "llr_scale * y; for BPSK y = +-1 + n with noise variance sigma^2 per real dimension the\n"
    "exact LLR is 2 y / sigma^2 = 4 y Es/N0.\n"
    "One frame per generic_work() call, as a batch of one on gr-gpurx's pipeline (backend\n"
    "'auto', 'cuda' or 'cpu'): for gr-fec interoperability; the gpurx blocks batch frames\n"
    "and are the throughput path. A frame holding NaN or Inf decodes to zeros (logged).\n"
    "input_conversion='uchar' for a puncpat other than '11' in fec.extended_decoder and\n"
    "fec.extended_tagged_decoder, which depuncture bytes: the object then takes gr-fec's\n"
    "8-bit soft values (48 y + 128, as cc_decoder), clipping at |y| = 2.67; not for\n"
    "fec.async_decoder, which wraps values beyond that range. Default 'none': floats.";
} // namespace

void bind_fec_coders(py::module& m)
{
    using gr::fec::generic_decoder;
    using gr::fec::generic_encoder;
    {
        using cls = ::gr::gpurx::lte_turbo_fec_decoder;
        py::class_<cls, generic_decoder, std::shared_ptr<cls>>(
            m,
            "lte_turbo_fec_decoder",
            (std::string(
                 "LTE turbo decoder as a gr-fec decoder object (fec.extended_decoder, tagged and\n"
                 "async decoders, fec_bercurve_generator): 3K+12 float soft values in the layout\n"
                 "c[3k+i] = d(i)_k in, K unpacked bits out; rate() = 1/3; set_frame_size() takes\n"
                 "any LTE block size K.\n"
                 "llr_scale defaults to 2, the exact LLR at Es/N0 = -3 dB (sigma^2 = 1), where the\n"
                 "code starts to decode well: max-log-MAP decodes any scale near it alike, in\n"
                 "fixed point (steps of 1/8, saturating at +-15.9: +-1 unscaled would keep only\n"
                 "8 steps); log-MAP wants the exact 2 / sigma^2. LLR inputs take llr_scale=1.\n") +
             soft_doc)
                .c_str(),
            py::multiple_inheritance())
            .def_static("make",
                        &cls::make,
                        py::arg("K"),
                        py::arg("iterations") = 6,
                        py::arg("algorithm") = "scaled-max-log-map",
                        py::arg("subblocks") = 0,
                        py::arg("scaling") = 0.75f,
                        py::arg("early_termination") = "none",
                        py::arg("llr_scale") = 2.0f,
                        py::arg("backend") = "auto",
                        py::arg("input_conversion") = "none",
                        "K: TS 36.212 block size; iterations 1..16; algorithm 'log-map', 'max-log-map'\n"
                        "or 'scaled-max-log-map'; subblocks P (0: auto); scaling (0, 1];\n"
                        "early_termination 'none', 'crc24a', 'crc24b' or 'hard-decision'; llr_scale > 0;\n"
                        "backend 'auto', 'cuda' or 'cpu'; input_conversion 'none' (floats) or 'uchar'\n"
                        "(for puncpat). Raises ValueError naming a bad parameter.")
            .def("block_size", &cls::block_size, "The current block size K.")
            .def("llr_scale", &cls::llr_scale)
            .def("backend", &cls::backend, "'cuda' or 'cpu': where this object decodes.");
    }
    {
        using cls = ::gr::gpurx::lte_turbo_fec_encoder;
        py::class_<cls, generic_encoder, std::shared_ptr<cls>>(
            m,
            "lte_turbo_fec_encoder",
            "LTE turbo encoder (TS 36.212 5.1.3.2) as a gr-fec encoder object\n"
            "(fec.extended_encoder, tagged and async encoders, fec_bercurve_generator): K\n"
            "unpacked bits in, 3K+12 unpacked bits out in the layout c[3k+i] = d(i)_k that\n"
            "every gpurx turbo decoder takes; rate() = 3; set_frame_size() takes any LTE K.\n"
            "fec.async_encoder(packed=True) packs get_output_size() // 8 bytes, which drops the\n"
            "last 4 of the 3K+12 bits: pad_to_bytes=True appends 4 zero bits (3K+16 bits out,\n"
            "in every deployment), so that packed PDUs hold every coded bit; strip them before\n"
            "a decoder. The async encoder's mtu must then be at least K/8 + 1 bytes.",
            py::multiple_inheritance())
            .def_static("make",
                        &cls::make,
                        py::arg("K"),
                        py::arg("pad_to_bytes") = false,
                        "K: TS 36.212 block size (gpurx.lte_turbo_block_sizes()); raises ValueError "
                        "naming K otherwise. pad_to_bytes: 4 zero bits after each codeword.")
            .def("block_size", &cls::block_size, "The current block size K.");
    }
    {
        using cls = ::gr::gpurx::viterbi_fec_decoder;
        py::class_<cls, generic_decoder, std::shared_ptr<cls>>(
            m,
            "viterbi_fec_decoder",
            (std::string(
                 "Viterbi decoder as a gr-fec decoder object, beside gr-fec's cc_encoder: the code\n"
                 "of gpurx.viterbi_decoder (K 3..9, rate 1/len(polys), termination 'terminated',\n"
                 "'truncated' or 'tail-biting'); the coded bits of a frame as float soft values\n"
                 "in, frame_bits unpacked bits out; rate() = 1/n (puncturing: gr-fec's puncpat,\n"
                 "with input_conversion='uchar').\n"
                 "polys in the standards' octal ([0o133, 0o171]), or with gr_fec_order=True\n"
                 "bit-reversed as cc_encoder takes them ([109, 79]): against\n"
                 "fec.cc_encoder_make(frame_bits, K, n, polys, 0, fec.CC_TERMINATED) use the same\n"
                 "polys with gr_fec_order=True and termination='terminated' (CC_TRUNCATED,\n"
                 "CC_TAILBITING: 'truncated', 'tail-biting').\n"
                 "frame_bits is the largest frame: set_frame_size() takes smaller ones and clamps\n"
                 "larger ones, as cc_decoder. The path does not depend on llr_scale (default 1).\n") +
             soft_doc)
                .c_str(),
            py::multiple_inheritance())
            .def_static("make",
                        &cls::make,
                        py::arg("frame_bits"),
                        py::arg("K") = 7,
                        py::arg("polys") = std::vector<int>{ 0133, 0171 },
                        py::arg("termination") = "terminated",
                        py::arg("gr_fec_order") = false,
                        py::arg("chunk") = 64,
                        py::arg("llr_scale") = 1.0f,
                        py::arg("backend") = "auto",
                        py::arg("input_conversion") = "none",
                        "frame_bits: information bits per frame (the largest); K 3..9; polys; termination;\n"
                        "gr_fec_order; chunk 1..65536 (tile length); llr_scale > 0; backend 'auto',\n"
                        "'cuda' or 'cpu'; input_conversion 'none' (floats) or 'uchar' (for puncpat).\n"
                        "Raises ValueError naming a bad parameter.")
            .def("frame_bits", &cls::frame_bits, "The current frame size in information bits.")
            .def("llr_scale", &cls::llr_scale)
            .def("backend", &cls::backend, "'cuda' or 'cpu': where this object decodes.");
    }
}
