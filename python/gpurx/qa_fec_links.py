#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The gr-fec coder objects in gr-fec's own stream deployment,
fec.extended_encoder -> +-1 (+ AWGN) -> fec.extended_decoder:

- the LTE turbo encoder and decoder objects: exact without noise, for
  several K, with gr-fec's serial and capillary (two objects) threading;
  with noise, far fewer errors than the channel makes;
- the Viterbi object beside gr-fec's own cc_encoder: exact without noise in
  every termination, with polys in gr-fec's order or the standards'; with
  noise, not worse than gr-fec's cc_decoder on the same values.
"""
import math

import numpy as np
from gnuradio import analog, blocks, fec, gr, gr_unittest, gpurx

from qa_fec_helpers import noise_sigma, random_bits, run_link, turbo_decoder, viterbi_decoder
from qa_helpers import options, require_backend_or_skip, run_with_timeout

require_backend_or_skip()

GRFEC_POLYS = [109, 79]       # K=7 in cc_encoder's order ...
STD_POLYS = [0o133, 0o171]    # ... and as the standards print it
CC_MODES = {"terminated": fec.CC_TERMINATED, "truncated": fec.CC_TRUNCATED,
            "tail-biting": fec.CC_TAILBITING}


def q(x):
    return 0.5 * math.erfc(x / math.sqrt(2))


class qa_fec_links(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def test_turbo_noiseless_exact(self):
        for K in (40, 1024, 6144):
            bits = random_bits(self.rng, 4 * K)
            enc = gpurx.lte_turbo_fec_encoder.make(K)
            out = run_link(bits, enc, turbo_decoder(K))
            np.testing.assert_array_equal(out, bits, err_msg="K=%d" % K)

    def test_turbo_capillary_two_objects(self):
        # gr-fec's "capillary" threading: one object per branch, frames dealt
        # out between them and gathered back in order.
        K = 512
        bits = random_bits(self.rng, 8 * K)
        encs = [gpurx.lte_turbo_fec_encoder.make(K) for _ in range(2)]
        decs = [turbo_decoder(K) for _ in range(2)]
        out = run_link(bits, encs, decs, threading="capillary")
        np.testing.assert_array_equal(out, bits)

    def test_turbo_noisy_far_below_channel(self):
        # Es/N0 = -3 dB (Eb/N0 1.8 dB at rate 1/3): the channel's hard
        # decisions err with Q(sqrt(2 Es/N0)) = 16 %, the turbo code a
        # thousand times less.
        K, frames, esn0_db = 1024, 60, -3.0
        bits = random_bits(self.rng, frames * K)
        dec = turbo_decoder(K)
        out = run_link(bits, gpurx.lte_turbo_fec_encoder.make(K), dec, esn0_db=esn0_db, seed=7)
        raw = q(math.sqrt(2 * 10 ** (esn0_db / 10)))
        ber = np.count_nonzero(out != bits) / bits.size
        print("turbo K=%d, Es/N0 %.1f dB: BER %.2e (channel %.3f), %g iterations last frame"
              % (K, esn0_db, ber, raw, dec.get_iterations()))
        self.assertGreater(raw, 0.15)
        self.assertLess(ber, raw / 1000)

    def test_turbo_decodes_as_the_block_on_scaled_values(self):
        # llr_scale means what it says: the object on noisy +-1 values y
        # decides exactly as gpurx.lte_turbo_decoder on the LLRs 4 y.
        K, frames = 512, 12
        bits = random_bits(self.rng, frames * K)
        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist(), False)
        enc = fec.extended_encoder(gpurx.lte_turbo_fec_encoder.make(K), threading=None,
                                   puncpat="11")
        to_pm1, shift = blocks.char_to_float(1, 0.5), blocks.add_const_ff(-1.0)
        noise = analog.noise_source_f(analog.GR_GAUSSIAN, noise_sigma(-4.5), 3)
        add = blocks.add_ff()
        tb.connect(src, enc, to_pm1, shift, (add, 0))
        tb.connect(noise, (add, 1))
        obj_sink, blk_sink = blocks.vector_sink_b(), blocks.vector_sink_b(K)
        tb.connect(add, fec.extended_decoder(turbo_decoder(K, llr_scale=4.0), threading=None,
                                             ann=None, puncpat="11"), obj_sink)
        tb.connect(add, blocks.multiply_const_ff(4.0),
                   blocks.stream_to_vector(gr.sizeof_float, 3 * K + 12),
                   gpurx.lte_turbo_decoder(K, options=options()), blk_sink)
        run_with_timeout(tb, 120)
        a = np.array(obj_sink.data(), dtype=np.uint8)
        b = np.array(blk_sink.data(), dtype=np.uint8)
        self.assertEqual(a.size, bits.size)
        self.assertGreater(np.count_nonzero(a != bits), 0)  # noisy enough to tell apart
        np.testing.assert_array_equal(a, b)

    def test_viterbi_noiseless_exact_beside_cc_encoder(self):
        N = 200
        for term, mode in CC_MODES.items():
            for polys, order in ((GRFEC_POLYS, True), (STD_POLYS, False)):
                bits = random_bits(self.rng, 5 * N)
                enc = fec.cc_encoder_make(N, 7, 2, GRFEC_POLYS, 0, mode)
                dec = viterbi_decoder(N, K=7, polys=polys, termination=term, gr_fec_order=order)
                out = run_link(bits, enc, dec)
                np.testing.assert_array_equal(out, bits, err_msg="%s %s" % (term, polys))

    def test_viterbi_rate_third_k9(self):
        # Another code: K=9, rate 1/3 (3GPP's), cc_encoder's order.
        N = 300
        polys = [int(format(p, "09b")[::-1], 2) for p in (0o557, 0o663, 0o711)]
        bits = random_bits(self.rng, 4 * N)
        enc = fec.cc_encoder_make(N, 9, 3, polys, 0, fec.CC_TERMINATED)
        out = run_link(bits, enc, viterbi_decoder(N, K=9, polys=polys, gr_fec_order=True))
        np.testing.assert_array_equal(out, bits)

    def test_viterbi_noisy_not_worse_than_cc_decoder(self):
        # The same noisy values (same seed) into gr-fec's cc_decoder and
        # into gpurx's object. Eb/N0 = 3 dB at rate 1/2: Es/N0 = 0 dB.
        N, frames, esn0_db = 1024, 60, 0.0
        bits = random_bits(self.rng, frames * N)
        ours = run_link(bits, fec.cc_encoder_make(N, 7, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED),
                        viterbi_decoder(N, polys=GRFEC_POLYS, gr_fec_order=True),
                        esn0_db=esn0_db, seed=11)
        theirs = run_link(bits, fec.cc_encoder_make(N, 7, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED),
                          fec.cc_decoder.make(N, 7, 2, GRFEC_POLYS, 0, -1, fec.CC_TERMINATED),
                          esn0_db=esn0_db, seed=11)
        e_ours, e_theirs = np.count_nonzero(ours != bits), np.count_nonzero(theirs != bits)
        raw = q(math.sqrt(2 * 10 ** (esn0_db / 10)))
        print("Viterbi K=7, Es/N0 %.1f dB: gpurx %d, gr-fec cc_decoder %d bit errors of %d "
              "(channel %.3f)" % (esn0_db, e_ours, e_theirs, bits.size, raw))
        self.assertGreater(e_theirs, 0)          # noisy enough to compare
        self.assertLess(e_ours / bits.size, raw / 20)
        # Float LLRs against cc_decoder's 8-bit values: not worse, with the
        # noise of a count (3 sigma of a Poisson count) as margin.
        self.assertLessEqual(e_ours, e_theirs + 3 * math.sqrt(e_theirs) + 3)


if __name__ == "__main__":
    gr_unittest.run(qa_fec_links)
