#!/usr/bin/env python3
# Run with GNU Radio's Python (/usr/bin/python3), from the checkout's root.
"""Self-check of scripts/lte-fading-channel.py.

1. Channel power gain: unit-power white noise through the fading block of
   every (seed, rx, port) path of seeds 1..S (the seeds the channel script
   gives them), EPA/EVA/ETU at their Doppler and 7.68 MS/s; the mean output
   power over a short window (a snapshot of the channel) averaged over the
   paths must be 1 within 3 standard errors.
2. Noise: lte_dl_gen -N 10 minus the same capture without -N gives the
   generator's noise; its power beside the variance the channel script adds
   at --snr 10 (10^(-1) N / (12 nof_prb)); the channel script's measured
   noise-defined SNR (--measure) within 0.2 dB of the asked one on a TM3
   capture through EPA 5 Hz, and the realised channel gain per antenna.
3. Decoding: TM1 MCS 16 and TM3 2x2 MCS 16 captures (200 subframes) through
   EPA 5 Hz at 30 dB: gpurx-lte-dl (CPU) must decode every TB equal to the
   truth (scripts/lte-dl-compare.py), lte_dl_rx every TB.

Environment: GPURX_LTE_DL_GEN (default ../shared/peers/lte_dl_gen; lte_dl_rx
beside it), GPURX_LTE_DL (default build/apps/gpurx-lte-dl).
Exit status 0 when every check passes.
"""
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from gnuradio import analog, blocks, channels, gr

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fading", os.path.join(here, "lte-fading-channel.py"))
fading = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fading)

gen = os.environ.get("GPURX_LTE_DL_GEN", "../shared/peers/lte_dl_gen")
peer_rx = os.path.join(os.path.dirname(gen), "lte_dl_rx")
ours = os.environ.get("GPURX_LTE_DL", "build/apps/gpurx-lte-dl")
failures = []


def check(ok, what):
    print("%s: %s" % ("ok  " if ok else "FAIL", what))
    if not ok:
        failures.append(what)


def gain_check(profile, doppler, seeds, rate=7.68e6, window=4096):
    delays, mags, ntaps = fading.path_taps(profile, rate, 8)
    tb = gr.top_block()
    src = analog.noise_source_c(analog.GR_GAUSSIAN, 1.0, 7)
    head = blocks.head(gr.sizeof_gr_complex, window + ntaps)
    tb.connect(src, head)
    sinks = []
    for s in range(1, seeds + 1):
        for a in range(2):
            for p in range(2):
                ch = channels.selective_fading_model(fading.SINUSOIDS, doppler / rate, False, 1.0,
                                                     fading.path_seed(s, a, p), delays, mags, ntaps)
                skip = blocks.skiphead(gr.sizeof_gr_complex, ntaps)  # the filter's start
                sink = blocks.vector_sink_c()
                tb.connect(head, ch, skip, sink)
                sinks.append(sink)
    tb.run()
    x = np.array([s.data() for s in sinks])
    pin = 1.0
    g = np.mean(np.abs(x) ** 2, axis=1) / pin
    m, se = float(np.mean(g)), float(np.std(g) / math.sqrt(len(g)))
    check(abs(m - 1) < 3 * se + 0.01,
          "%s %g Hz: mean channel power gain %.3f (standard error %.3f) over %d paths, "
          "min %.3f max %.3f" % (profile, doppler, m, se, len(g), g.min(), g.max()))


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    print("1. channel power gain (snapshots of 4096 samples, 7.68 MS/s)")
    for profile, doppler in (("EPA", 5), ("EVA", 70), ("ETU", 300), ("flat", 5)):
        gain_check(profile, doppler, 50)

    with tempfile.TemporaryDirectory() as d:
        j = lambda *p: os.path.join(d, *p)
        print("2. noise and SNR")
        run([gen, "-p", "25", "-x", "1", "-m", "9", "-n", "200", "-s", "1", "-o", j("a"), "-j", j("a.jsonl")])
        run([gen, "-p", "25", "-x", "1", "-m", "9", "-n", "200", "-s", "1", "-N", "10", "-o", j("b"),
             "-j", j("b.jsonl")])
        a = np.fromfile(j("a"), np.complex64)
        b = np.fromfile(j("b"), np.complex64)
        pn_gen = float(np.mean(np.abs(b - a) ** 2))
        want = 10 ** -1 * 512 / 300
        check(abs(10 * math.log10(pn_gen / want)) < 0.05,
              "lte_dl_gen -N 10 adds noise of power %.4f per sample; the channel script adds "
              "10^(-1) * 512/300 = %.4f at --snr 10 (port power %.4f)" % (pn_gen, want,
                                                                         float(np.mean(np.abs(a) ** 2))))
        run([gen, "-p", "25", "-x", "3", "-m", "16", "-n", "200", "-s", "1", "-o", j("t3"),
             "-j", j("t3.jsonl")])
        for seed in (1, 2, 3):
            out = run([sys.executable, os.path.join(here, "lte-fading-channel.py"), "--ports-in",
                       j("t3.0") + "," + j("t3.1"), "--out", j("f"), "--rx", "2", "--snr", "10",
                       "--seed", str(seed), "--measure"])
            for line in out.splitlines():
                if "asked" not in line:
                    print("      TM3 EPA 5 Hz seed %d %s" % (seed, line))
                    continue
                m = re.search(r"asked ([-\d.]+) dB, measured ([-\d.]+) dB \(noise\)", line)
                check(m is not None and abs(float(m.group(1)) - float(m.group(2))) < 0.2,
                      "TM3 EPA 5 Hz seed %d %s" % (seed, line))

        print("3. decoding at 30 dB through EPA 5 Hz")
        for tm, mcs in ((1, 16), (3, 16)):
            rx = 1 if tm == 1 else 2
            opt = ["-o", j("p")]
            run([gen, "-p", "25", "-x", str(tm), "-m", str(mcs), "-n", "200", "-s", "1",
                 "-j", j("p.jsonl")] + opt)
            ports = j("p") if tm == 1 else j("p.0") + "," + j("p.1")
            run([sys.executable, os.path.join(here, "lte-fading-channel.py"), "--ports-in", ports,
                 "--out", j("r"), "--rx", str(rx), "--snr", "30", "--seed", "1"])
            inp = j("r") if rx == 1 else j("r.0") + "," + j("r.1")
            run([ours, "--quiet", "--input", inp, "--rate", "7.68e6", "--rnti", "0x1234",
                 "--backend", "cpu", "--front-end", "cpu", "--jsonl", j("o.jsonl")])
            cmp_line = run([sys.executable, os.path.join(here, "lte-dl-compare.py"), j("p.jsonl"),
                            j("o.jsonl")]).strip()
            m = re.match(r"truth TBs (\d+): (\d+) decoded equal", cmp_line)
            check(m is not None and m.group(1) == m.group(2),
                  "TM%d MCS %d gpurx-lte-dl: %s" % (tm, mcs, cmp_line))
            peer = run([peer_rx, "-i", j("r"), "-a", str(rx), "-p", "25", "-c", "0", "-x", str(tm),
                        "-j", j("p.jsonl"), "-q"])
            m = re.search(r"^decoded (\d+) of (\d+) TBs.*", peer, re.M)
            check(m is not None and m.group(1) == m.group(2),
                  "TM%d MCS %d lte_dl_rx: %s" % (tm, mcs, m.group(0) if m else peer[-200:]))
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
