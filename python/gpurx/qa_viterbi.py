#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpurx.viterbi_decoder with GNU Radio's own FEC: gr-fec's cc_encoder output
(K=7, rate 1/2, polynomials in gr-fec's bit-reversed order) decodes bit for
bit in every termination, and over a noisy channel the decoder's BER is at
least as good as gr-fec's cc_decoder on the same frames."""
import os

import numpy as np
from gnuradio import blocks, fec, gr, gr_unittest, gpurx

from qa_helpers import BACKEND, options, require_backend_or_skip

require_backend_or_skip()

N = 2048           # information bits per frame
GRFEC_POLYS = [109, 79]  # gr-fec's order for 0o133, 0o171


def cc_encode(bits, mode):
    enc = fec.cc_encoder_make(N, 7, 2, GRFEC_POLYS, 0, mode)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    e = fec.extended_encoder(enc, None, "11")
    snk = blocks.vector_sink_b()
    tb.connect(src, e, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def gpurx_decode(llr, nframes, termination, **kw):
    tb = gr.top_block()
    src = blocks.vector_source_f(llr.tolist(), False, len(llr) // nframes)
    dec = gpurx.viterbi_decoder(N, 7, GRFEC_POLYS, termination, gr_fec_order=True,
                                options=options(), **kw)
    snk = blocks.vector_sink_b(N)
    tb.connect(src, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


class qa_viterbi(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(11)

    def test_grfec_encoder_output_decodes(self):
        nframes = 8
        bits = self.rng.integers(0, 2, N * nframes).astype(np.uint8)
        for mode, term in ((fec.CC_TERMINATED, "terminated"), (fec.CC_TRUNCATED, "truncated"),
                           (fec.CC_TAILBITING, "tail-biting")):
            coded = cc_encode(bits, mode)
            llr = np.where(coded > 0, 4.0, -4.0).astype(np.float32)  # positive for bit 1
            out = gpurx_decode(llr, nframes, term)
            np.testing.assert_array_equal(out, bits, term)

    def test_frame_bits_too_long_for_the_stream_form_is_named(self):
        # A 2**24-bit frame is a stream vector of 134217776 bytes, which
        # GNU Radio buffers in whole pages of whole items: 256 items, 32 GiB.
        # Where that passes the machine's memory the block is refused first
        # for that, naming frame_bits (it used to name max_batch).
        ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        if ram >= 256 * 134217776 + 2 * (1 << 24):
            self.skipTest("this machine holds GNU Radio's buffers of 2**24-bit frames")
        with self.assertRaises(ValueError) as ctx:
            gpurx.viterbi_decoder(1 << 24)
        self.assertIn("frame_bits", str(ctx.exception))
        self.assertNotIn("max_batch", str(ctx.exception))
        # The tagged and PDU forms take such frames as single values.
        gpurx.viterbi_decoder_tagged(max_frame_bits=1 << 24, options=gpurx.pipeline_options(
            max_batch=1, slots=1, backend=BACKEND))

    def test_int8_input_decodes(self):
        # int8 LLRs (two's complement bytes), positive for bit 1.
        nframes = 4
        bits = self.rng.integers(0, 2, N * nframes).astype(np.uint8)
        coded = cc_encode(bits, fec.CC_TERMINATED)
        q = np.where(coded > 0, 20, -20).astype(np.int8).view(np.uint8)
        tb = gr.top_block()
        src = blocks.vector_source_b(q.tolist(), False, len(q) // nframes)
        dec = gpurx.viterbi_decoder(N, 7, GRFEC_POLYS, "terminated", input="int8",
                                    gr_fec_order=True, options=options())
        snk = blocks.vector_sink_b(N)
        tb.connect(src, dec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)

    def test_ber_at_least_as_good_as_grfec_cc_decoder(self):
        nframes = 60
        bits = self.rng.integers(0, 2, N * nframes).astype(np.uint8)
        coded = cc_encode(bits, fec.CC_TERMINATED)
        ebn0_db = 3.0
        sigma = np.sqrt(1.0 / (2 * 0.5 * 10 ** (ebn0_db / 10)))
        y = np.where(coded > 0, 1.0, -1.0) + self.rng.normal(0, sigma, coded.size)
        llr = (2 * y / sigma ** 2).astype(np.float32)
        ours = gpurx_decode(llr, nframes, "terminated")
        # gr-fec's decoder on the same received values (its soft input: the
        # channel values, positive for bit 1).
        dec = fec.cc_decoder.make(N, 7, 2, GRFEC_POLYS, 0, -1, fec.CC_TERMINATED)
        tb = gr.top_block()
        src = blocks.vector_source_f(y.astype(np.float32).tolist(), False)
        d = fec.extended_decoder(dec, threading=None, ann=None, puncpat="11", integration_period=10000)
        snk = blocks.vector_sink_b()
        tb.connect(src, d, snk)
        tb.run()
        theirs = np.array(snk.data(), dtype=np.uint8)[:bits.size]
        self.assertEqual(theirs.size, bits.size)
        e_ours = int(np.sum(ours != bits))
        e_theirs = int(np.sum(theirs != bits))
        print("Eb/N0 %.1f dB, %d bits: gpurx %d errors, gr-fec cc_decoder %d errors"
              % (ebn0_db, bits.size, e_ours, e_theirs))
        raw = int(np.sum((y[:2 * bits.size] > 0) != coded[:2 * bits.size]))
        self.assertGreater(raw, 1000)        # the channel does flip bits
        self.assertLessEqual(e_ours, e_theirs)


if __name__ == "__main__":
    gr_unittest.run(qa_viterbi)
