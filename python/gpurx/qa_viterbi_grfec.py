#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpurx.viterbi_decoder against GNU Radio's own Viterbi (gr-fec cc_decoder)
on the SAME noisy frames, in one flowgraph run:

bits -> gr-fec cc_encoder (K=7, r1/2, [109, 79], terminated) -> BPSK ->
AWGN -> y -+-> gr-fec cc_decoder (extended_decoder: y itself, 8-bit)
           +-> LLR = 4 Es/N0 y -> gpurx.viterbi_decoder, gr-fec's polynomial order
           +-> LLR = 4 Es/N0 y -> gpurx.viterbi_decoder, the standards' order

Pass: the two gpurx decoders agree bit for bit, gr-fec's decoder makes
enough errors for the comparison to mean something, and gpurx's BER is not
worse than gr-fec's beyond a 3-sigma margin of the PAIRED per-frame
difference (both decode the same frames, so the noise of the comparison is
only where they differ). gpurx decodes float LLRs, gr-fec 8-bit values
saturating at |y| = 2.67, so gpurx is expected to be equal or a little better.
"""
import math
import time

import numpy as np
from gnuradio import analog, blocks, fec, gr, gr_unittest, gpurx

from qa_helpers import options, require_backend_or_skip

require_backend_or_skip()

N = 2048                  # information bits per frame
K = 7
GRFEC_POLYS = [109, 79]   # gr-fec's order (LSB taps the current bit) ...
STD_POLYS = [0o133, 0o171]  # ... of the standards' 133, 171
FRAMES = 160
EBN0_DB = 2.5             # BER ~1e-3: hundreds of bit errors in 0.33 Mbit


class same_frames_link(gr.top_block):
    def __init__(self, bits, ebn0_db, seed):
        gr.top_block.__init__(self, "gpurx vs gr-fec Viterbi")
        esn0 = 10 ** (ebn0_db / 10) * 0.5    # Es/N0 = R Eb/N0, R = 1/2 (tail not charged)
        sigma = math.sqrt(1 / (2 * esn0))    # N0/2 with Es = 1
        n_coded = 2 * (N + K - 1)
        src = blocks.vector_source_b(bits.tolist(), False)
        enc = fec.extended_encoder(fec.cc_encoder_make(N, K, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED),
                                   None, "11")
        to_f = blocks.char_to_float(1, 0.5)  # 0/1 -> 0/2
        bpsk = blocks.add_const_ff(-1.0)     # bit 1 -> +1
        noise = analog.noise_source_f(analog.GR_GAUSSIAN, sigma, seed)
        add = blocks.add_ff()
        self.connect(src, enc, to_f, bpsk, (add, 0))
        self.connect(noise, (add, 1))
        # gr-fec: the channel values themselves (it scales them to bytes).
        dec = fec.cc_decoder.make(N, K, 2, GRFEC_POLYS, 0, -1, fec.CC_TERMINATED)
        grfec = fec.extended_decoder(dec, threading=None, ann=None, puncpat="11",
                                     integration_period=10000)
        self.grfec_sink = blocks.vector_sink_b()
        self.connect(add, grfec, self.grfec_sink)
        # gpurx: true LLRs, ln P(1|y)/P(0|y) = 2y/sigma^2 = 4 Es/N0 y.
        llr = blocks.multiply_const_ff(4 * esn0)
        s2v = blocks.stream_to_vector(gr.sizeof_float, n_coded)
        self.connect(add, llr, s2v)
        self.sinks = []
        for polys, gr_fec_order in ((GRFEC_POLYS, True), (STD_POLYS, False)):
            d = gpurx.viterbi_decoder(N, K, polys, "terminated", gr_fec_order=gr_fec_order,
                                      options=options())
            snk = blocks.vector_sink_b(N)
            self.connect(s2v, d, snk)
            self.sinks.append(snk)


def frame_errors(out, bits):
    out = np.asarray(out, dtype=np.uint8)
    assert out.size >= bits.size, "decoder returned %d of %d bits" % (out.size, bits.size)
    return np.count_nonzero((out[:bits.size] != bits).reshape(-1, N), axis=1)


class qa_viterbi_grfec(gr_unittest.TestCase):
    def test_ber_not_worse_than_grfec_on_the_same_frames(self):
        bits = np.random.default_rng(2026).integers(0, 2, N * FRAMES).astype(np.uint8)
        tb = same_frames_link(bits, EBN0_DB, seed=5)
        t0 = time.time()
        tb.run()
        secs = time.time() - t0
        ours = frame_errors(tb.sinks[0].data(), bits)
        std_order = frame_errors(tb.sinks[1].data(), bits)
        theirs = frame_errors(tb.grfec_sink.data(), bits)
        d = ours.astype(np.float64) - theirs
        se = d.std(ddof=1) / math.sqrt(d.size)
        print("Eb/N0 %.1f dB, %d frames of %d bits (%.1f s): gpurx BER %.3e (%d bit, %d frame errors), "
              "gr-fec cc_decoder BER %.3e (%d bit, %d frame errors); paired difference %.2f +- %.2f "
              "bits per frame"
              % (EBN0_DB, FRAMES, N, secs, ours.sum() / bits.size, ours.sum(), np.count_nonzero(ours),
                 theirs.sum() / bits.size, theirs.sum(), np.count_nonzero(theirs), d.mean(), se))
        # The polynomial order is only notation: the same decoder either way.
        np.testing.assert_array_equal(ours, std_order)
        # Enough errors to compare: tens of error events on each side.
        self.assertGreaterEqual(int(np.count_nonzero(theirs)), 20)
        self.assertGreaterEqual(int(theirs.sum()), 100)
        self.assertGreater(int(ours.sum()), 0)  # the channel is noisy enough to test ours too
        # Not worse than gr-fec beyond 3 standard errors of the paired difference.
        self.assertLessEqual(d.mean(), 3 * se, "gpurx makes more errors than gr-fec's cc_decoder")


if __name__ == "__main__":
    gr_unittest.run(qa_viterbi_grfec)
