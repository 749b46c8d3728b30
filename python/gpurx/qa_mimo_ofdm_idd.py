#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Iterative detection and decoding in the MIMO-OFDM twin
(examples/mimo_ofdm_link_loopback.py --idd-passes P --idd-block,
docs/mimo-ofdm.md) on the backend named by GPURX_TEST_BACKEND: 2x2 16-QAM
over the exponential profile, seed 1 (the same channel, noise and packets
for every pass count, so every run sees the same received signal), 100
packets per run.

A packet that one pass decodes, more passes decode too (their first pass is
the same), so the counts of 1, 2 and 3 passes can only grow. At the points
here one pass loses most packets; measured with 200 packets on the CPU,
the frame with 4 pilots of 48 used subcarriers (between the points of
docs/results/mimo_ofdm_idd_cpu.txt): MTT rate 1/3 at 6.25 dB 30 / 117 /
149, LMMSE rate 2/3 at 12.75 dB 92 / 122 / 133 of 200. The assertion asks 3 passes for at least
25 (MTT) and 10 (LMMSE) packets of 100 more than one pass: under half the
measured gain (about 60 and 20 per 100).
"""
import os
import sys

from gnuradio import gr_unittest

from qa_helpers import BACKEND, require_backend_or_skip

require_backend_or_skip()

EXAMPLES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
sys.path.insert(0, EXAMPLES)
import mimo_ofdm_link_loopback as twin  # noqa: E402

PACKETS = 100


def decoded(algorithm, rate, snr, passes):
    a = twin.parser().parse_args(["--algorithm", algorithm, "--code-rate", str(rate), "--snr-db", str(snr),
                                  "--packets", str(PACKETS), "--seed", "1", "--backend", BACKEND,
                                  "--idd-passes", str(passes), "--idd-block"])
    tb = twin.loopback(a)
    tb.run()
    return tb.rx.decoded(), tb.rx.crc_fail()


class qa_mimo_ofdm_idd(gr_unittest.TestCase):

    def check(self, algorithm, rate, snr, margin):
        got = []
        for passes in (1, 2, 3):
            ok, fail = decoded(algorithm, rate, snr, passes)
            self.assertEqual(ok + fail, PACKETS, "%d passes: every frame must come out" % passes)
            got.append(ok)
        print("%s rate %.3f at %.2f dB: decoded %d / %d / %d of %d with 1 / 2 / 3 passes"
              % (algorithm, rate, snr, got[0], got[1], got[2], PACKETS))
        self.assertLessEqual(got[0], PACKETS * 3 // 4, "one pass loses too few here for the test to mean much")
        self.assertGreaterEqual(got[1], got[0])
        self.assertGreaterEqual(got[2], got[1])
        self.assertGreaterEqual(got[2], got[0] + margin)

    def test_01_mtt_rate_one_third(self):
        self.check("mtt", 0.333, 6.25, 25)

    def test_02_lmmse_rate_two_thirds(self):
        self.check("lmmse", 0.667, 12.75, 10)

    def test_03_one_pass_block_matches_plain_chain(self):
        # The plain chain (fixed-point turbo decoder) and one IDD pass (float)
        # decode the same packets up to the decoders' arithmetic: at a point
        # where both decode most, within 5 of 100.
        plain = twin.loopback(twin.parser().parse_args(["--code-rate", "0.333", "--snr-db", "6.5", "--packets",
                                                        str(PACKETS), "--seed", "1", "--backend", BACKEND]))
        plain.run()
        one, _ = decoded("mtt", 0.333, 6.5, 1)
        self.assertLessEqual(abs(plain.rx.decoded() - one), 5, "plain %d, one IDD pass %d"
                             % (plain.rx.decoded(), one))


if __name__ == "__main__":
    gr_unittest.run(qa_mimo_ofdm_idd)
