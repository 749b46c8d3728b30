#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Latency of the LTE turbo decoder in a live flowgraph (docs/latency.md).

A transmitter's TTIs are imitated: every --tti-us, --per-tti codewords of K
bits are posted to gpurx.lte_turbo_decoder_pdu at once; each decoded PDU's
arrival is timed by a message handler. Reported per pipeline setting: the
latency from posting to arrival (median, 99th percentile, max) and whether
the decoder kept up (the last codeword's latency stays bounded).

  latency_turbo.py [--backend cpu] [--K 6144] [--per-tti 4] [--tti-us 1000]
                   [--ttis 200] [--iterations 6] [--settings MB:SLOTS:FLUSH ...]

Each setting is max_batch:slots:flush_us, e.g. 1:3:0 8:3:200 64:3:1000.
"""
import argparse
import threading
import time

import numpy as np
import pmt
from gnuradio import gr, gpurx


class arrival_clock(gr.basic_block):
    """Records time.perf_counter() of every PDU on its "in" port, by its seq."""

    def __init__(self):
        gr.basic_block.__init__(self, "arrival_clock", None, None)
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)
        self.arrivals = {}
        self.lock = threading.Lock()

    def handle(self, msg):
        t = time.perf_counter()
        seq = pmt.to_long(pmt.dict_ref(pmt.car(msg), pmt.intern("seq"), pmt.from_long(-1)))
        with self.lock:
            self.arrivals[seq] = t


def measure(a, max_batch, slots, flush_us, llrs):
    opts = gpurx.pipeline_options(max_batch=max_batch, slots=slots, flush_us=flush_us,
                                  backend=a.backend, cpu_threads=a.cpu_threads)
    dec = gpurx.lte_turbo_decoder_pdu(a.iterations, "scaled-max-log-map", options=opts)
    clk = arrival_clock()
    tb = gr.top_block()
    tb.msg_connect(dec, "pdus", clk, "in")
    tb.start()
    posted = {}
    seq = 0
    vec = pmt.init_f32vector(len(llrs), llrs.tolist())
    port = pmt.intern("pdus")
    t0 = time.perf_counter()
    for tti in range(a.ttis):
        # Wait for this TTI's start, then post its codewords at once. Sleep,
        # never spin: a spinning thread holds the GIL, and the arrival handler
        # would then wait up to Python's 5 ms switch interval to run.
        wait = t0 + tti * a.tti_us * 1e-6 - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        for _ in range(a.per_tti):
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(seq))
            posted[seq] = time.perf_counter()
            dec.to_basic_block()._post(port, pmt.cons(meta, vec))
            seq += 1
    deadline = time.perf_counter() + 30
    while len(clk.arrivals) < seq and time.perf_counter() < deadline:
        time.sleep(0.001)
    tb.stop()
    tb.wait()
    lat = np.array([clk.arrivals[s] - posted[s] for s in range(seq) if s in clk.arrivals]) * 1e6
    return dec.backend(), lat, seq


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cpu", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--K", type=int, default=6144)
    ap.add_argument("--per-tti", type=int, default=4, help="codewords per TTI")
    ap.add_argument("--tti-us", type=int, default=1000)
    ap.add_argument("--ttis", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--cpu-threads", type=int, default=0)
    ap.add_argument("--settings", nargs="+", default=["1:3:0", "4:3:0", "4:3:200", "64:3:1000"])
    a = ap.parse_args()
    n = 3 * a.K + 12
    rng = np.random.default_rng(1)
    # Noisy LLRs of a random codeword at about 1 dB: the decoder works as hard
    # as on a real signal near its threshold (all iterations, no early stop).
    llrs = (4.0 * (rng.integers(0, 2, n) * 2 - 1 + rng.normal(0, 0.9, n))).astype(np.float32)
    print("K=%d, %d codewords every %d us, %d TTIs, %d iterations"
          % (a.K, a.per_tti, a.tti_us, a.ttis, a.iterations))
    print("| max_batch | slots | flush_us | backend | median (us) | p99 (us) | max (us) | out of |")
    print("|---|---|---|---|---|---|---|---|")
    for s in a.settings:
        mb, sl, fl = (int(x) for x in s.split(":"))
        backend, lat, sent = measure(a, mb, sl, fl, llrs)
        if len(lat) == 0:
            print("| %d | %d | %d | %s | - | - | - | 0 of %d |" % (mb, sl, fl, backend, sent))
            continue
        print("| %d | %d | %d | %s | %.0f | %.0f | %.0f | %d of %d |"
              % (mb, sl, fl, backend, np.median(lat), np.percentile(lat, 99), lat.max(),
                 len(lat), sent))


if __name__ == "__main__":
    main()
