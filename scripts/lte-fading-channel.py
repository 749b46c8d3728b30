#!/usr/bin/env python3
# Run with GNU Radio's Python (/usr/bin/python3).
"""A frequency-selective Rayleigh fading channel with AWGN for LTE captures,
as a GNU Radio flowgraph: the per-port files of lte_dl_gen (-o, no channel,
no noise) in, one file per receive antenna out.

    rx_a = sum over ports p of fading_{a,p}(port_p) + noise_a

Each (a, p) path is an independent channels.selective_fading_model (GNU
Radio's sum-of-sinusoids Rayleigh fader per tap, taps placed at fractional
delays by sinc interpolation) with the 3GPP TS 36.101 Annex B.2 delay
profile (EPA, EVA, ETU) at the given maximum Doppler, or one tap (flat:
Rayleigh flat fading; flat at --doppler 0 is h = 1, no fading). The tap
powers of a path add up to 1 on average (the truncated sinc's energy per tap
included), so every path has unit mean power gain, as each entry of the
generator's own 2x2 channel (-R) has.

SNR: the generator's per-RE SNR (-N): Es/N0 of a unit-power RE of one port
at unit gain. The noise added to each antenna file is complex AWGN of
variance 10^(-snr/10) * N / (12 nof_prb) per sample (N the FFT size), the
variance lte_dl_gen -N adds (a port whose REs all carry unit power has mean
power 1 at its amplitude; a loaded port measures about 0.88). With one port
at flat gain 1 the output is the generator's -N capture; through fading,
the mean received SNR per RE per antenna per port is the asked one (each
path has unit mean gain), and through two ports each antenna receives the
sum of both, as through the generator's -R.

The output is delayed by --lead samples (default 8, so that the sinc of a
tap near delay 0 is not cut off) and is longer than the input by lead plus
the filter length (zeros in, the channel's tail out), so every subframe of
the input is whole in the output wherever a receiver puts its timing (both
receivers search for the cell and its timing).

--measure also writes the noiseless signal and the noise per antenna and
prints the measured channel power gain per antenna (received signal power
over the sum of the port powers) and the measured SNR: noise-defined
(10 log10(N / (12 nof_prb) / noise power), to compare with --snr) and as
received (that plus the realised channel gain in dB).
"""
import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np
from gnuradio import analog, blocks, channels, gr

# 3GPP TS 36.101 Table B.2.1-2/3/4: excess tap delay (ns), relative power (dB).
PROFILES = {
    "EPA": ([0, 30, 70, 90, 110, 190, 410],
            [0.0, -1.0, -2.0, -3.0, -8.0, -17.2, -20.8]),
    "EVA": ([0, 30, 150, 310, 370, 710, 1090, 1730, 2510],
            [0.0, -1.5, -1.4, -3.6, -0.6, -9.1, -7.0, -12.0, -16.9]),
    "ETU": ([0, 50, 120, 200, 230, 500, 1600, 2300, 5000],
            [-1.0, -1.0, -1.0, 0.0, 0.0, 0.0, -3.0, -5.0, -7.0]),
    "flat": ([0], [0.0]),
}
# FFT size -> PRB at the standard LTE rates (srsRAN's reduced rates: --prb).
PRB_OF_FFT = {128: 6, 256: 15, 384: 25, 512: 25, 768: 50, 1024: 50, 1536: 75, 2048: 100}
SINUSOIDS = 8  # GNU Radio's default for its sum-of-sinusoids fader
SINC_HALF = 16  # taps after the last delay (the sinc's tail)


def sinc_energy(delay, ntaps):
    """Energy of the sinc taps sinc(k - delay), k = 0..ntaps-1, that the
    block builds for one tap of unit amplitude."""
    k = np.arange(ntaps)
    return float(np.sum(np.sinc(k - delay) ** 2))


def path_taps(profile, rate, lead):
    """Fractional delays in samples (offset by lead), tap amplitudes
    normalised so that the path's mean power gain is 1, and ntaps."""
    delays_ns, powers_db = PROFILES[profile]
    delays = [lead + d * 1e-9 * rate for d in delays_ns]
    p = np.array([10 ** (x / 10) for x in powers_db])
    p /= p.sum()
    ntaps = int(math.ceil(max(delays))) + SINC_HALF + 1
    mags = [float(math.sqrt(pi / sinc_energy(d, ntaps))) for pi, d in zip(p, delays)]
    return delays, mags, ntaps


def path_seed(seed, a, p):
    # Each fader of a path takes seeds s + tap and s + tap + 1: 100 apart.
    return 100000 + 1000 * seed + 100 * (2 * a + p)


class fading_channel(gr.top_block):
    def __init__(self, ports_in, out, rx, rate, profile, doppler, snrs, seed,
                 nof_prb, lead, measure_dir=None):
        gr.top_block.__init__(self, "lte_fading_channel")
        fft = int(round(rate / 15e3))
        if nof_prb is None:
            nof_prb = PRB_OF_FFT[fft]
        self.fft, self.nof_prb = fft, nof_prb
        self.outputs, self.signal_files, self.noise_files = [], [], []
        fdts = doppler / rate
        delays, mags, ntaps = path_taps(profile, rate, lead)
        fading = not (profile == "flat" and doppler == 0)
        pad = lead + ntaps  # the whole delay spread and more
        sources = []
        for f in ports_in:
            x = np.fromfile(f, dtype=np.complex64)
            self.nsamples = len(x) + pad
            sources.append(blocks.vector_source_c(
                np.concatenate([x, np.zeros(pad, np.complex64)]), False))
        for a in range(rx):
            paths = []
            for p, src in enumerate(sources):
                if fading:
                    ch = channels.selective_fading_model(
                        SINUSOIDS, fdts, False, 1.0, path_seed(seed, a, p),
                        delays, mags, ntaps)
                else:  # h = 1 after the same lead
                    ch = blocks.delay(gr.sizeof_gr_complex, lead)
                self.connect(src, ch)
                paths.append(ch)
            sig = paths[0]
            if len(paths) > 1:
                sig = blocks.add_cc()
                for i, ch in enumerate(paths):
                    self.connect(ch, (sig, i))
            for k, snr in enumerate(snrs):
                var = 0.0 if snr is None else 10 ** (-snr / 10) * fft / (12 * nof_prb)
                # the noise's seed from (seed, antenna, SNR): the same noise for an SNR
                # whatever the list it is in
                ks = 0 if snr is None else int(round(snr * 4)) + 400
                noise = analog.noise_source_c(analog.GR_GAUSSIAN, math.sqrt(var),
                                              1 + 2 * seed + 1000 * ks + 10 ** 7 * a)
                noise_head = blocks.head(gr.sizeof_gr_complex, self.nsamples)
                total = blocks.add_cc()
                self.connect(noise, noise_head)
                self.connect(sig, (total, 0))
                self.connect(noise_head, (total, 1))
                name = out if len(snrs) == 1 else "%s_%g" % (out, snr)
                if rx == 2:
                    name += ".%d" % a
                self.connect(total, blocks.file_sink(gr.sizeof_gr_complex, name, False))
                self.outputs.append(name)
                if measure_dir:
                    fn = os.path.join(measure_dir, "noise.%d.%d" % (a, k))
                    self.connect(noise_head, blocks.file_sink(gr.sizeof_gr_complex, fn, False))
                    self.noise_files.append((a, snr, fn))
            if measure_dir:
                fs = os.path.join(measure_dir, "sig.%d" % a)
                self.connect(sig, blocks.file_sink(gr.sizeof_gr_complex, fs, False))
                self.signal_files.append(fs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ports-in", required=True, help="FILE[,FILE2]: one file per tx port")
    ap.add_argument("--out", required=True, help="output: PREFIX (1 rx) or PREFIX.0, PREFIX.1")
    ap.add_argument("--rx", type=int, choices=(1, 2), default=1)
    ap.add_argument("--rate", type=float, default=7.68e6)
    ap.add_argument("--prb", type=int, default=None, help="nof_prb (default: from the rate)")
    ap.add_argument("--profile", choices=sorted(PROFILES), default="EPA")
    ap.add_argument("--doppler", type=float, default=5.0, help="maximum Doppler, Hz")
    ap.add_argument("--snr", default=None,
                    help="per-RE SNR, dB (default: no noise); a list X,Y,..: one output per SNR, "
                         "PREFIX_X (1 rx) or PREFIX_X.0, PREFIX_X.1, the same fading, new noise")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lead", type=int, default=8, help="samples of delay before the first tap")
    ap.add_argument("--measure", action="store_true",
                    help="print the measured channel power gain and SNR per antenna")
    args = ap.parse_args()
    ports = args.ports_in.split(",")
    t0 = time.time()
    tmpd = tempfile.mkdtemp() if args.measure else None
    snrs = [None] if args.snr is None else [float(x) for x in args.snr.split(",")]
    tb = fading_channel(ports, args.out, args.rx, args.rate, args.profile, args.doppler,
                        snrs, args.seed, args.prb, args.lead, tmpd)
    tb.run()
    if args.measure:
        pin = sum(float(np.mean(np.abs(np.fromfile(f, np.complex64)) ** 2)) for f in ports)
        for a in range(args.rx):
            s = np.fromfile(tb.signal_files[a], np.complex64)
            g = float(np.mean(np.abs(s) ** 2)) / pin
            print("rx %d: channel power gain %.3f (%+.2f dB)" % (a, g, 10 * math.log10(g)))
            os.remove(tb.signal_files[a])
            for a2, snr, fn in tb.noise_files:
                if a2 != a:
                    continue
                if snr is not None:
                    pn = float(np.mean(np.abs(np.fromfile(fn, np.complex64)) ** 2))
                    snr_n = 10 * math.log10(tb.fft / (12 * tb.nof_prb) / pn)
                    print("rx %d: SNR asked %.2f dB, measured %.2f dB (noise), %.2f dB (received)" % (
                        a, snr, snr_n, snr_n + 10 * math.log10(g)))
                os.remove(fn)
        os.rmdir(tmpd)
    print("lte-fading-channel: %s %g Hz, %d port(s) -> %d rx, %.1f s" % (
        args.profile, args.doppler, len(ports), args.rx, time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
