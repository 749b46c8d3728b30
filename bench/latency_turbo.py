#!/usr/bin/python3
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

Checked (bench_checks.py) before a setting's figures are printed: the posted
codeword is a real LTE turbo codeword of random bits (Eb/N0 about 2.7 dB,
where it decodes), and every PDU that arrives carries exactly its bits, with
all --iterations run, and no frame is reported on the "errors" port; the
latencies are those of these PDUs ("out of" counts them). A failed check
prints an error and exits 1. (A latency has no physical upper bound to check.)
"""
import argparse
import threading
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx

import bench_checks as bc


class arrival_clock(gr.basic_block):
    """Records time.perf_counter() of every PDU on its "in" port, by its seq,
    and keeps the PDU (checked after the run, not while latencies are timed)."""

    def __init__(self):
        gr.basic_block.__init__(self, "arrival_clock", None, None)
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)
        self.arrivals = {}
        self.pdus = {}
        self.lock = threading.Lock()

    def handle(self, msg):
        t = time.perf_counter()
        seq = pmt.to_long(pmt.dict_ref(pmt.car(msg), pmt.intern("seq"), pmt.from_long(-1)))
        with self.lock:
            self.arrivals[seq] = t
            self.pdus[seq] = msg


def check_pdus(what, clk, bits, iterations):
    """Fails unless every PDU that arrived carries `bits` after all iterations."""
    key = pmt.intern("iterations")
    for seq, msg in clk.pdus.items():
        got = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)
        if got.shape != bits.shape or np.count_nonzero(got != bits):
            bc.fail("%s: codeword %d decoded to other bits than were sent (%d of %d differ): no figure"
                    % (what, seq, np.count_nonzero(got != bits) if got.shape == bits.shape else -1, bits.size))
        it = pmt.to_long(pmt.dict_ref(pmt.car(msg), key, pmt.from_long(-1)))
        if it != iterations:
            bc.fail("%s: codeword %d ran %d iterations, not %d: no figure" % (what, seq, it, iterations))


def measure(a, max_batch, slots, flush_us, llrs, bits):
    opts = gpurx.pipeline_options(max_batch=max_batch, slots=slots, flush_us=flush_us,
                                  backend=a.backend, cpu_threads=a.cpu_threads)
    dec = gpurx.lte_turbo_decoder_pdu(a.iterations, "scaled-max-log-map", options=opts)
    clk = arrival_clock()
    errors = blocks.message_debug()
    tb = gr.top_block()
    tb.msg_connect(dec, "pdus", clk, "in")
    tb.msg_connect(dec, "errors", errors, "store")
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
    what = "max_batch %d, slots %d, flush_us %d" % (max_batch, slots, flush_us)
    if errors.num_messages():
        bc.fail("%s: %d codeword(s) reported on the errors port: no figure" % (what, errors.num_messages()))
    check_pdus(what, clk, bits, a.iterations)
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
    # Noisy LLRs of a codeword of random bits, noise sigma 0.9 per +-1 (Eb/N0
    # about 2.7 dB at rate 1/3): the decoder works as hard as on any signal
    # (all iterations, no early stop), and the codeword decodes, so every
    # arrival can be checked.
    bits = rng.integers(0, 2, a.K).astype(np.uint8)
    tb = gr.top_block()
    enc_src = blocks.vector_source_b(bits.tolist(), False, a.K)
    enc = gpurx.lte_turbo_encoder(a.K)
    enc_snk = blocks.vector_sink_b(n)
    tb.connect(enc_src, enc, enc_snk)
    tb.run()
    coded = np.array(enc_snk.data(), dtype=np.uint8)
    llrs = (4.0 * (np.where(coded > 0, 1.0, -1.0) + rng.normal(0, 0.9, n))).astype(np.float32)
    print("K=%d, %d codewords every %d us, %d TTIs, %d iterations"
          % (a.K, a.per_tti, a.tti_us, a.ttis, a.iterations))
    print("| max_batch | slots | flush_us | backend | median (us) | p99 (us) | max (us) | out of |")
    print("|---|---|---|---|---|---|---|---|")
    for s in a.settings:
        mb, sl, fl = (int(x) for x in s.split(":"))
        backend, lat, sent = measure(a, mb, sl, fl, llrs, bits)
        if len(lat) == 0:
            print("| %d | %d | %d | %s | - | - | - | 0 of %d |" % (mb, sl, fl, backend, sent))
            continue
        print("| %d | %d | %d | %s | %.0f | %.0f | %.0f | %d of %d |"
              % (mb, sl, fl, backend, np.median(lat), np.percentile(lat, 99), lat.max(),
                 len(lat), sent))
    print("Checked: every codeword that arrived carried the sent bits after %d iterations; none was reported "
          "on the errors port." % a.iterations)


if __name__ == "__main__":
    main()
