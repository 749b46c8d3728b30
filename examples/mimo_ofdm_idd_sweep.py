#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""PER of the MIMO-OFDM twin (mimo_ofdm_link_loopback.py) with 1, 2 and 3
passes of iterative detection and decoding (mimo_idd_decoder, --idd-block:
one pass runs the same block), per algorithm, code rate and SNR. Each
(algorithm, rate, SNR) sends the same packets through the same channel and
noise (--seed) for every pass count, so the counts compare the receivers on
the same received signal. Prints one line per point:

    algorithm rate snr_db packets decoded_1 decoded_2 decoded_3
"""
import sys
import time

import mimo_ofdm_link_loopback as twin
from gnuradio.gpurx import cli


def main(argv=None):
    p = cli.parser(__doc__)
    p.add_argument("--nt", type=cli.positive_int, default=2)
    p.add_argument("--nr", type=cli.positive_int, default=2)
    p.add_argument("--modulation", default="16qam")
    p.add_argument("--profile", default="exponential")
    p.add_argument("--algorithms", default="mtt,lmmse")
    p.add_argument("--points", required=True,
                   help="rate:snr,snr,...;rate:snr,... e.g. '0.333:4,5,6;0.667:11,12,13'")
    p.add_argument("--packets", type=cli.positive_int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--backend", default="cpu", choices=("auto", "cpu", "cuda"))
    a = p.parse_args(argv)
    print("# %dx%d %s, %s profile, seed %d, %d packets per point, backend %s"
          % (a.nt, a.nr, a.modulation, a.profile, a.seed, a.packets, a.backend))
    print("# algorithm rate snr_db packets decoded_1pass decoded_2pass decoded_3pass")
    for alg in a.algorithms.split(","):
        for group in a.points.split(";"):
            rate, snrs = group.split(":")
            for snr in snrs.split(","):
                got = []
                t0 = time.time()
                for passes in (1, 2, 3):
                    args = ["--nt", str(a.nt), "--nr", str(a.nr), "--modulation", a.modulation,
                            "--profile", a.profile, "--algorithm", alg, "--code-rate", rate, "--snr-db", snr,
                            "--packets", str(a.packets), "--seed", str(a.seed), "--backend", a.backend,
                            "--idd-passes", str(passes), "--idd-block"]
                    tb = twin.loopback(twin.parser().parse_args(args))
                    tb.run()
                    got.append(tb.rx.decoded())
                print("%s %s %s %d %d %d %d  (%.0f s)" % (alg, rate, snr, a.packets, got[0], got[1], got[2],
                                                           time.time() - t0))
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
