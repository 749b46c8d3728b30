#!/usr/bin/env python3
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
import argparse
import math
import sys
import time

from gnuradio import analog, blocks, channels, filter, gr

from gnuradio import gpurx

# Sample-spaced; normalised below so that the shaped signal's power is kept.
MULTIPATH = [1.0, 0.3j, 0.15 - 0.1j]


def in_band_unit_power(taps, pulse):
    """taps scaled so that the pulse-shaped signal leaves them with the power
    it came with: Es/N0 is then the received one. (Unit tap energy is not
    enough: the signal occupies part of the band only, where these taps
    gain 0.48 dB.)"""
    def r(d):
        d = abs(d)
        return sum(pulse[n] * pulse[n + d] for n in range(len(pulse) - d))
    g = sum((taps[k] * taps[l].conjugate() * r(k - l)).real
            for k in range(len(taps)) for l in range(len(taps))) / r(0)
    return [t / math.sqrt(g) for t in taps]


class impaired_channel(gr.hier_block2):
    """Delay (integer and fractional), phase noise (a low-pass random walk
    of phase_noise radians rms, correlation time about 1000 samples), then
    GNU Radio's channel_model: multipath, frequency offset, sampling-rate
    offset and noise."""

    def __init__(self, snr_db, cfo, sro_ppm, delay, phase_noise, multipath, seed, sps=4, amplitude=1.0):
        gr.hier_block2.__init__(self, "impaired_channel",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        whole = int(math.floor(delay))
        frac = delay - whole
        self.delay = blocks.delay(gr.sizeof_gr_complex, whole)
        self.frac = filter.mmse_resampler_cc(frac, 1.0)
        alpha = 1e-3
        self.pn_source = analog.noise_source_f(analog.GR_GAUSSIAN, phase_noise * math.sqrt(2.0 / alpha), seed + 1)
        self.pn_filter = filter.single_pole_iir_filter_ff(alpha)
        self.pn_mod = analog.phase_modulator_fc(1.0)
        self.pn_mix = blocks.multiply_cc()
        taps = in_band_unit_power(MULTIPATH, gpurx.rrc_taps(sps, 0.35)) if multipath else [1.0]
        self.model = channels.channel_model(
            noise_voltage=amplitude * 10.0 ** (-snr_db / 20.0),
            frequency_offset=cfo,
            epsilon=1.0 + sro_ppm * 1e-6,
            taps=taps,
            noise_seed=seed,
            block_tags=False)
        self.connect(self, self.delay, self.frac, (self.pn_mix, 0))
        self.connect(self.pn_source, self.pn_filter, self.pn_mod, (self.pn_mix, 1))
        self.connect(self.pn_mix, self.model, self)


def arguments(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--snr-db", type=float, default=3.0, help="Es/N0 at the receiver, dB")
    p.add_argument("--cfo", type=float, default=1e-3, help="carrier frequency offset, cycles/sample")
    p.add_argument("--sro-ppm", type=float, default=50.0, help="sampling-rate offset, ppm")
    p.add_argument("--delay", type=float, default=123.4, help="delay, samples (fractional allowed)")
    p.add_argument("--phase-noise", type=float, default=0.05, help="phase noise, radians rms")
    p.add_argument("--no-multipath", action="store_true", help="a single path instead of three")
    p.add_argument("--packets", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--modulation", default="qpsk", choices=sorted(gpurx.packet_link.BITS_PER_SYMBOL))
    p.add_argument("--payload-bytes", type=int, default=128)
    p.add_argument("--code-rate", type=float, default=0.5)
    p.add_argument("--sps", type=int, default=4)
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    p.add_argument("--genie", action="store_true",
                   help="the genie receiver instead (perfect synchronisation, known N0, AWGN only)")
    return p.parse_args(argv)


class loopback(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "packet_link_loopback")
        self.source = gpurx.payload_source(a.payload_bytes, a.packets, a.seed)
        self.tx = gpurx.packet_link_tx(a.modulation, a.payload_bytes, a.code_rate, a.sps)
        self.channel = impaired_channel(a.snr_db, a.cfo, a.sro_ppm, a.delay, a.phase_noise,
                                        not a.no_multipath, a.seed, a.sps)
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
    a = arguments(argv)
    if a.genie:
        tb = genie(a)
        tb.run()
        sent, decoded, fail = tb.source.sent(), tb.rx.decoded(), tb.rx.crc_fail()
        print("genie receiver: backend %s" % tb.rx.backend())
        print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
              % (sent, decoded, fail, max(0, sent - decoded - fail)))
        return 0
    tb = loopback(a)
    t0 = time.time()
    tb.run()
    seconds = time.time() - t0
    sent, decoded, fail = tb.source.sent(), tb.rx.decoded(), tb.rx.crc_fail()
    print("receiver: backend %s, %d bursts, %d false alarms, mean snr %.2f dB, mean cfo %.3g, %.1f s"
          % (tb.rx.backend(), tb.rx.bursts(), tb.rx.false_alarms(), tb.rx.snr_db(), tb.rx.cfo(), seconds))
    print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
          % (sent, decoded, fail, max(0, sent - decoded - fail)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
