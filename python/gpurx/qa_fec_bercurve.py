#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-fec's BER curve generator (gnuradio.fec.bercurve_generator, GRC's
"BER Curve Gen.") with the gpurx coder objects, as GRC's "Decoder
Definition" variables with Parallelism 2 build them: one list of two
objects per Es/N0 point, threading "capillary".

For the LTE turbo code (gpurx encoder and decoder objects) and the K=7
convolutional code (gr-fec's cc_encoder, gpurx's Viterbi object), the bit
errors counted over the same number of bits at each point must fall as
Es/N0 rises and reach zero at the highest point.
"""
import numpy as np
from gnuradio import blocks, fec, gr, gr_unittest, gpurx

from qa_fec_helpers import turbo_decoder, viterbi_decoder
from qa_helpers import require_backend_or_skip, run_with_timeout

require_backend_or_skip()

THREADS = 2   # objects per point (the "Parallelism" dimension 2)


def bit_errors(esno, enc_list, dec_list, nbytes):
    """Bit errors at each Es/N0 point over the first nbytes bytes."""
    tb = gr.top_block()
    gen = fec.bercurve_generator(enc_list, dec_list, esno, samp_rate=3200000,
                                 threading="capillary", puncpat="11", seed=0)
    sinks = []
    for i in range(2 * len(esno)):   # per point: decoded, sent (packed bytes)
        snk = blocks.vector_sink_b()
        tb.connect((gen, i), blocks.head(gr.sizeof_char, nbytes), snk)
        sinks.append(snk)
    run_with_timeout(tb, 300)
    errors = []
    for i in range(len(esno)):
        got = np.array(sinks[2 * i].data(), dtype=np.uint8)
        sent = np.array(sinks[2 * i + 1].data(), dtype=np.uint8)
        assert got.size == sent.size == nbytes, (got.size, sent.size)
        errors.append(int(np.unpackbits(got ^ sent).sum()))
    return errors


class qa_fec_bercurve(gr_unittest.TestCase):

    def check_curve(self, name, esno, errors, nbits):
        print("%s: Es/N0 %s dB -> bit errors %s of %d bits each" % (name, esno, errors, nbits))
        self.assertGreater(errors[0], nbits // 1000)        # the lowest point is noisy
        for i in range(len(esno) - 1):
            self.assertLess(errors[i + 1], errors[i], "%s: %g -> %g dB" % (name, esno[i], esno[i + 1]))
        self.assertEqual(errors[-1], 0, "%s at %g dB" % (name, esno[-1]))

    def test_turbo_curve(self):
        K, frames = 512, 160
        esno = [-6.0, -5.0, -3.0]   # rate 1/3: Eb/N0 -1.2, -0.2, 1.8 dB
        enc = [[gpurx.lte_turbo_fec_encoder.make(K) for _ in range(THREADS)] for _ in esno]
        dec = [[turbo_decoder(K) for _ in range(THREADS)] for _ in esno]
        nbytes = frames * K // 8
        self.check_curve("LTE turbo K=%d" % K, esno, bit_errors(esno, enc, dec, nbytes), 8 * nbytes)

    def test_viterbi_curve_beside_cc_encoder(self):
        N, frames, polys = 1024, 60, [109, 79]
        esno = [-3.0, -1.0, 4.0]    # rate 1/2: Eb/N0 0, 2, 7 dB
        enc = [[fec.cc_encoder_make(N, 7, 2, polys, 0, fec.CC_TERMINATED) for _ in range(THREADS)]
               for _ in esno]
        dec = [[viterbi_decoder(N, polys=polys, gr_fec_order=True) for _ in range(THREADS)]
               for _ in esno]
        nbytes = frames * N // 8
        self.check_curve("Viterbi K=7", esno, bit_errors(esno, enc, dec, nbytes), 8 * nbytes)


if __name__ == "__main__":
    gr_unittest.run(qa_fec_bercurve)
