#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How many samples per second the packet link's receiver takes without a
throttle (docs/radio-link.md, docs/benchmarks.md).

A capture of --bursts distinct bursts (QPSK or 16-QAM, sps 4, through the
loopback twin's channel at --snr-db) is written once to a file; each stage
then reads it --repeats times from the file (a recorded capture, from the
page cache) without a throttle:

  ceiling:  file source -> null sink (GNU Radio's own streaming rate here)
  filter:   + the root-raised-cosine matched filter (fft_filter_ccf)
  front:    + burst_sync (detection, timing, equaliser, pilots, N0)
  receiver: the whole packet_link_rx (front end, demapper, decoder on
            --backend, packet counter)

Checks before printing: every burst of every repeat decoded (the capture's
SNR is well above the threshold), and no stage faster than the ceiling
measured in the same run (the stream itself bounds them all).
"""
import argparse
import os
import sys
import tempfile
import time

from gnuradio import blocks, filter, gr

from gnuradio import gpurx

from bench_checks import fail


def make_capture(a, path):
    tb = gr.top_block()
    src = gpurx.payload_source(a.payload_bytes, a.bursts, 1)
    tx = gpurx.packet_link_tx(a.modulation, a.payload_bytes, 0.5, 4)
    ch = gpurx.impaired_channel(a.snr_db, 1e-3, 50.0, 10.5, 0.05, True, 1)
    sink = blocks.file_sink(gr.sizeof_gr_complex, path)
    sink.set_unbuffered(False)
    tb.connect(src, tx, ch, sink)
    tb.run()
    sink.close()
    return os.path.getsize(path) // gr.sizeof_gr_complex


def timed(tb):
    t0 = time.perf_counter()
    tb.run()
    return time.perf_counter() - t0


def stage(a, path, samples, what):
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_gr_complex, path, False, 0, 0)
    chain = [src]
    rx = None
    if what in ("filter", "front"):
        chain.append(filter.fft_filter_ccf(1, gpurx.rrc_taps(4, 0.35)))
    if what == "front":
        p = gpurx.link_parameters(a.modulation, a.payload_bytes, 0.5)
        chain.append(gpurx.burst_sync(4, p["data_symbols"]))
    if what == "receiver":
        rx = gpurx.packet_link_rx(a.modulation, a.payload_bytes, 0.5, 4, backend=a.backend)
        chain.append(rx)
    else:
        chain.append(blocks.null_sink(gr.sizeof_gr_complex))
    tb.connect(*chain)
    seconds = sum(timed_repeat(tb, src, path, a.repeats))
    return samples * a.repeats / seconds, rx, chain


def timed_repeat(tb, src, path, repeats):
    # One run per repeat of the file (the source re-opened each time): the
    # flowgraph's blocks, and the receiver's state, stay.
    times = []
    for _ in range(repeats):
        src.open(path, False)
        times.append(timed(tb))
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--modulation", default="qpsk", choices=("qpsk", "16qam"))
    p.add_argument("--payload-bytes", type=int, default=128)
    p.add_argument("--bursts", type=int, default=500)
    p.add_argument("--repeats", type=int, default=8)
    p.add_argument("--snr-db", type=float, default=8.0)
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "capture.c64")
        samples = make_capture(a, path)
        print("capture: %d bursts, %d samples (%.1f MB), %s, Es/N0 %.1f dB, read %d times"
              % (a.bursts, samples, samples * 8 / 1e6, a.modulation, a.snr_db, a.repeats))
        rates = {}
        for what in ("ceiling", "filter", "front", "receiver"):
            rate, rx, chain = stage(a, path, samples, what)
            rates[what] = rate
            if what == "front" and chain[-2].bursts() != a.bursts * a.repeats:
                fail("front end: %d bursts found of %d" % (chain[-2].bursts(), a.bursts * a.repeats))
            if what == "receiver":
                if rx.decoded() != a.bursts * a.repeats:
                    fail("receiver: %d of %d bursts decoded" % (rx.decoded(), a.bursts * a.repeats))
                backend = rx.backend()
        for what in ("filter", "front", "receiver"):
            if rates[what] > rates["ceiling"] * 1.05:
                fail("%s: %.1f MS/s above the stream's own %.1f MS/s" % (what, rates[what] / 1e6,
                                                                          rates["ceiling"] / 1e6))
        print("%-9s %10s %s" % ("stage", "MS/s", ""))
        for what in ("ceiling", "filter", "front", "receiver"):
            note = "decoder backend %s" % backend if what == "receiver" else ""
            print("%-9s %10.2f %s" % (what, rates[what] / 1e6, note))
        slowest = min(("filter", "front", "receiver"), key=lambda w: rates[w])
        print("receiver: %.2f MS/s = %.2f Msymbols/s at 4 samples per symbol (decoder backend %s)"
              % (rates["receiver"] / 1e6, rates["receiver"] / 4e6, backend))
    return 0


if __name__ == "__main__":
    sys.exit(main())
