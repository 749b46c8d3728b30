#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The packet link's loopback twin (docs/radio-link.md): the transmitter and
receiver of the USRP flowgraphs, joined by a channel with a carrier
frequency offset, a sampling-rate offset, a fractional delay, three-path
multipath, phase noise and white noise. Headless; ends after --packets and
prints

    packets: sent N, decoded M, crc_fail F, missed D

Es/N0 (--snr-db) is the energy per symbol over the noise density at the
receiver's input (the multipath taps have unit energy).
"""
import sys
import time

from gnuradio import gr

from gnuradio import gpurx
from gnuradio.gpurx import cli


def parser():
    p = cli.parser(__doc__)
    p.add_argument("--snr-db", type=float, default=3.0, help="Es/N0 at the receiver, dB")
    p.add_argument("--cfo", type=float, default=1e-3, help="carrier frequency offset, cycles/sample")
    p.add_argument("--sro-ppm", type=float, default=50.0, help="sampling-rate offset, ppm")
    p.add_argument("--delay", type=float, default=123.4, help="delay, samples (fractional allowed)")
    p.add_argument("--phase-noise", type=float, default=0.05, help="phase noise, radians rms")
    p.add_argument("--no-multipath", action="store_true", help="a single path instead of three")
    p.add_argument("--dc", type=cli.nonnegative_float, default=0.0,
                   help="receiver DC offset, relative to the symbols' rms")
    p.add_argument("--iq-imbalance", type=cli.iq_pair, default=(0.0, 0.0), metavar="AMP_DB,PHASE_DEG")
    p.add_argument("--gain-step", type=cli.gain_step, default=(0.0, 0), metavar="DB,PERIOD",
                   help="receive gain moving between 0 dB and DB every PERIOD samples (an AGC's steps)")
    p.add_argument("--packets", type=cli.positive_int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--modulation", default="qpsk", choices=sorted(gpurx.packet_link.BITS_PER_SYMBOL))
    p.add_argument("--payload-bytes", type=cli.positive_int, default=128)
    p.add_argument("--code-rate", type=float, default=0.5)
    p.add_argument("--sps", type=cli.positive_int, default=4)
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    p.add_argument("--genie", action="store_true",
                   help="the genie receiver instead (perfect synchronisation, known N0, AWGN only)")
    return p


class loopback(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "packet_link_loopback")
        self.source = gpurx.payload_source(a.payload_bytes, a.packets, a.seed)
        self.tx = gpurx.packet_link_tx(a.modulation, a.payload_bytes, a.code_rate, a.sps)
        self.channel = gpurx.impaired_channel(a.snr_db, a.cfo, a.sro_ppm, a.delay, a.phase_noise,
                                              not a.no_multipath, a.seed, a.sps, dc=a.dc,
                                              iq_imbalance=a.iq_imbalance, gain_step=a.gain_step)
        self.rx = gpurx.packet_link_rx(a.modulation, a.payload_bytes, a.code_rate, a.sps, backend=a.backend)
        self.connect(self.source, self.tx, self.channel, self.rx)


class genie(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "packet_link_genie")
        self.source = gpurx.payload_source(a.payload_bytes, a.packets, a.seed)
        self.rx = gpurx.packet_link_genie(a.modulation, a.payload_bytes, a.code_rate, a.snr_db, a.seed,
                                          backend=a.backend)
        self.connect(self.source, self.rx)


def main(argv=None):
    a = parser().parse_args(argv)
    if a.genie:
        tb = genie(a)
        tb.run()
        sent, decoded, fail = tb.source.sent(), tb.rx.decoded(), tb.rx.crc_fail()
        print("genie receiver: backend %s" % tb.rx.backend())
        print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
              % (sent, decoded, fail, max(0, sent - decoded - fail)))
        return 0
    warning = gpurx.packet_link.cfo_warning(a.cfo, a.sps)
    if warning:
        print(warning, file=sys.stderr)
    tb = loopback(a)
    t0 = time.time()
    tb.run()
    seconds = time.time() - t0
    sent, decoded, fail = tb.source.sent(), tb.rx.decoded(), tb.rx.crc_fail()
    found = tb.rx.bursts() > 0
    print("receiver: backend %s, %d bursts, %d false alarms, mean snr %s dB, mean cfo %s, %.1f s"
          % (tb.rx.backend(), tb.rx.bursts(), tb.rx.false_alarms(), cli.estimate(tb.rx.snr_db(), found, "%.2f"),
             cli.estimate(tb.rx.cfo(), found), seconds))
    print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
          % (sent, decoded, fail, max(0, sent - decoded - fail)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
