#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The MIMO-OFDM link's loopback twin (docs/mimo-ofdm.md): nt transmit
antennas to nr receive antennas through a frequency-selective channel
(independent taps per antenna pair from --profile and --seed, fixed for
the run), a common delay and frequency offset, and white noise; the
receiver synchronises, estimates the channel and N0 from the frame's
training, detects (--algorithm) and decodes. Headless; prints

    packets: sent N, decoded M, crc_fail F, missed D

--idd-passes P (2..8) replaces the detector and the decoder by one
mimo_idd_decoder running P passes of iterative detection and decoding per
frame; --idd-block runs it also for P = 1 (the same float turbo decoder, one
pass: the baseline of the gain). --genie runs the genie receiver on the same channel instead (true H and N0,
no synchronisation). Es/N0 (--snr-db) is the received energy per symbol and
antenna over N0 (total transmit power 1 over the nt antennas, unit channel
power per antenna pair).

The receiver's front end (mimo_ofdm_link.rx_impairments), after the noise:
--phase-noise S (Wiener phase noise, S radians rms per sample, one
oscillator for every receive antenna), --iq-imbalance A,P (amplitude A dB,
phase P degrees), --dc M (a DC offset of magnitude M, the signal's rms
being 1), --sro-ppm E (the receiver's sample clock E ppm fast). Every data
symbol carries the numerology's pilots (4 of the 48 used subcarriers);
--no-track-phase leaves them out without turning the data symbols back by
their common phase error.
"""
import sys

from gnuradio import gr

from gnuradio import gpurx
from gnuradio.gpurx import cli
from gnuradio.gpurx import mimo_ofdm_link as link


def parser():
    p = cli.parser(__doc__)
    p.add_argument("--nt", type=cli.positive_int, default=2)
    p.add_argument("--nr", type=cli.positive_int, default=2)
    p.add_argument("--modulation", default="16qam", choices=sorted(gpurx.packet_link.BITS_PER_SYMBOL))
    p.add_argument("--algorithm", default="mtt", choices=("mtt", "kbest", "lmmse", "ml", "one-pass"))
    p.add_argument("--snr-db", type=float, default=15.0)
    p.add_argument("--cfo", type=float, default=2e-3, help="cycles/sample")
    p.add_argument("--delay", type=int, default=37, help="samples")
    p.add_argument("--profile", default="exponential", choices=("flat", "exponential", "epa"))
    p.add_argument("--packets", type=cli.positive_int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--payload-bytes", type=cli.positive_int, default=128)
    p.add_argument("--code-rate", type=float, default=0.5)
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    p.add_argument("--idd-passes", type=int, default=1, choices=range(1, 9), metavar="1..8")
    p.add_argument("--idd-block", action="store_true")
    p.add_argument("--idd-scale", type=float, default=0.75, help="extrinsic_scale of the IDD decoder")
    p.add_argument("--genie", action="store_true")
    p.add_argument("--phase-noise", type=float, default=0.0, help="Wiener phase noise, rad rms per sample")
    p.add_argument("--dc", type=float, default=0.0, help="DC offset magnitude (signal rms 1)")
    p.add_argument("--iq-imbalance", type=cli.iq_pair, default=(0.0, 0.0), metavar="AMP_DB,PHASE_DEG")
    p.add_argument("--sro-ppm", type=float, default=0.0, help="receiver's sample clock offset, ppm (>= 0)")
    p.add_argument("--gain-step", type=cli.gain_step, default=(0.0, 0), metavar="DB,PERIOD",
                   help="receive gain moving between 0 dB and DB every PERIOD samples (an AGC's steps)")
    p.add_argument("--no-track-phase", dest="track_phase", action="store_false",
                   help="leave the pilots out without tracking the common phase on them")
    return p


class loopback(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "mimo_ofdm_link_loopback")
        num = link.ofdm_numerology()
        self.source = gpurx.payload_source(a.payload_bytes, a.packets, a.seed)
        self.tx = link.mimo_ofdm_tx(a.nt, a.modulation, a.payload_bytes, a.code_rate, num)
        self.channel = link.mimo_ofdm_channel(a.nt, a.nr, a.profile, 10.0 ** (-a.snr_db / 10.0), a.cfo, a.delay,
                                              a.seed, a.phase_noise, a.dc, a.iq_imbalance, a.sro_ppm,
                                              a.gain_step)
        self.rx = link.mimo_ofdm_rx(a.nt, a.nr, a.modulation, a.payload_bytes, a.code_rate, num, a.algorithm,
                                    a.backend, idd_passes=a.idd_passes, idd_block=a.idd_block,
                                    extrinsic_scale=a.idd_scale, track_phase=a.track_phase)
        self.connect(self.source, self.tx)
        for j in range(a.nt):
            self.connect((self.tx, j), (self.channel, j))
        for r in range(a.nr):
            self.connect((self.channel, r), (self.rx, r))


def main(argv=None):
    a = parser().parse_args(argv)
    if a.genie:
        decoded, fail = link.run_genie(a.nt, a.nr, a.modulation, a.payload_bytes, a.code_rate,
                                       link.ofdm_numerology(), a.profile, a.snr_db, a.packets, a.seed,
                                       a.algorithm, a.backend)
        print("genie receiver (true H and N0)")
        print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
              % (a.packets, decoded, fail, max(0, a.packets - decoded - fail)))
        return 0
    if a.profile != "flat":
        # The channel is drawn once per run: at a given SNR a run decodes
        # (almost) all or (almost) none of its packets, by the draw.
        print("note: one %s channel realisation per run, drawn from --seed %d: a PER curve needs "
              "several seeds (examples/mimo_ofdm_idd_sweep.py)" % (a.profile, a.seed))
    tb = loopback(a)
    tb.run()
    sent, decoded, fail = tb.source.sent(), tb.rx.decoded(), tb.rx.crc_fail()
    idd = ", IDD %d pass%s" % (a.idd_passes, "" if a.idd_passes == 1 else "es") if a.idd_passes > 1 or a.idd_block else ""
    print("receiver: %dx%d %s %s%s, backend %s, %d frames, cfo %s, pilots %s"
          % (a.nt, a.nr, a.modulation, a.algorithm, idd, tb.rx.backend(), tb.rx.frames(),
             cli.estimate(tb.rx.cfo(), tb.rx.frames() > 0), "tracked" if a.track_phase else "not tracked"))
    print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
          % (sent, decoded, fail, max(0, sent - decoded - fail)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
