#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Throughput of gpurx.viterbi_decoder and of GNU Radio's own Viterbi (gr-fec
cc_decoder through fec.extended_decoder) in GNU Radio flowgraphs, measured in
one run on the same noisy frames, with the ratio.

K=7 rate 1/2 (133, 171; gr-fec's 109, 79), terminated frames, BPSK/AWGN at
--ebn0. Each decoder is fed from a repeating vector source of --frames
distinct frames (gr-fec: the channel values y, which it quantises to bytes;
gpurx: LLRs 4 Es/N0 y) and drops its output in a null sink. Mbit/s are
information bits.

Modes (--mode):
  together  (default) both decoder chains in ONE flowgraph, started together;
            each chain's rate is its frames over the time until its sink had
            them all (they share the CPU while both run, as they would in a
            receiver); then each chain alone, in its own flowgraph
  alone     only the separate runs

  bench_viterbi_grfec.py [--backend cpu] [--cpu-threads 0] [--chains 1]
      [--mbit 40] [--frame-bits 2048] [--ebn0 4.0] [--mode together|alone]

--chains N runs N gr-fec decoder chains side by side (gr-fec decodes one
frame at a time per chain); gpurx's one block spreads its batches over
--cpu-threads workers (0: all) or the GPU (--backend cuda).
"""
import argparse
import math
import sys
import time

import numpy as np
from gnuradio import blocks, fec, gr, gpurx

K = 7
GRFEC_POLYS = [109, 79]


def noisy_frames(frames, frame_bits, ebn0_db, seed=1):
    """(y, llr): channel values and LLRs of `frames` encoded frames."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, frames * frame_bits).astype(np.uint8)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    enc = fec.extended_encoder(fec.cc_encoder_make(frame_bits, K, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED),
                               None, "11")
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    coded = np.array(snk.data(), dtype=np.uint8)
    esn0 = 0.5 * 10 ** (ebn0_db / 10)
    y = np.where(coded > 0, 1.0, -1.0) + rng.normal(0, math.sqrt(1 / (2 * esn0)), coded.size)
    return y.astype(np.float32), (4 * esn0 * y).astype(np.float32)


class chain:
    """A source of repeated frames, a decoder, a null sink; `total` frames."""

    def __init__(self, tb, name, src, dec, sink, frame_bits, total):
        self.name, self.sink, self.frame_bits, self.total = name, sink, frame_bits, total
        self.items_per_frame = 1 if name.startswith("gpurx") else frame_bits
        tb.connect(src, dec, sink)
        self.done_at = None

    def done(self):
        return self.sink.nitems_read(0) >= self.total * self.items_per_frame


def grfec_chain(tb, y, frame_bits, total, i):
    n = 2 * (frame_bits + K - 1)
    src = blocks.vector_source_f(y.tolist(), True)
    head = blocks.head(gr.sizeof_float, total * n)
    tb.connect(src, head)
    dec = fec.extended_decoder(fec.cc_decoder.make(frame_bits, K, 2, GRFEC_POLYS, 0, -1, fec.CC_TERMINATED),
                               threading=None, ann=None, puncpat="11", integration_period=10000)
    return chain(tb, "gr-fec cc_decoder #%d" % i, head, dec, blocks.null_sink(gr.sizeof_char), frame_bits, total)


def gpurx_chain(tb, llr, frame_bits, total, options):
    n = 2 * (frame_bits + K - 1)
    src = blocks.vector_source_f(llr.tolist(), True, n)
    head = blocks.head(gr.sizeof_float * n, total)
    tb.connect(src, head)
    dec = gpurx.viterbi_decoder(frame_bits, K, GRFEC_POLYS, "terminated", gr_fec_order=True, options=options)
    c = chain(tb, "gpurx viterbi_decoder", head, dec, blocks.null_sink(frame_bits), frame_bits, total)
    c.dec = dec
    return c


def run(chains, tb):
    """Start, note when each chain's sink has everything, wait; Mbit/s per chain."""
    t0 = time.perf_counter()
    tb.start()
    pending = list(chains)
    while pending:
        time.sleep(0.002)
        now = time.perf_counter()
        for c in list(pending):
            if c.done():
                c.done_at = now - t0
                pending.remove(c)
    tb.wait()
    return {c.name: c.total * c.frame_bits / c.done_at / 1e6 for c in chains}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="cpu", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--cpu-threads", type=int, default=0)
    ap.add_argument("--chains", type=int, default=1, help="gr-fec decoder chains side by side")
    ap.add_argument("--mbit", type=float, default=40.0, help="information Mbit per decoder chain")
    ap.add_argument("--frame-bits", type=int, default=2048)
    ap.add_argument("--ebn0", type=float, default=4.0)
    ap.add_argument("--frames", type=int, default=64, help="distinct noisy frames, repeated")
    ap.add_argument("--mode", default="together", choices=["together", "alone"])
    a = ap.parse_args()
    if a.chains < 1 or a.mbit <= 0 or a.frame_bits < 1 or a.frames < 1:
        ap.error("--chains, --mbit, --frame-bits and --frames must be positive")
    y, llr = noisy_frames(a.frames, a.frame_bits, a.ebn0)
    total = max(1, int(a.mbit * 1e6 / a.frame_bits))
    opts = gpurx.pipeline_options(backend=a.backend, cpu_threads=a.cpu_threads,
                                  max_batch=2048 if a.backend == "cuda" else 64)

    def build(which):
        tb = gr.top_block()
        cs = []
        if "gpurx" in which:
            cs.append(gpurx_chain(tb, llr, a.frame_bits, total, opts))
        if "grfec" in which:
            cs += [grfec_chain(tb, y, a.frame_bits, total, i) for i in range(a.chains)]
        return tb, cs

    print("K=7 rate 1/2 (133, 171), terminated %d-bit frames, Eb/N0 %.1f dB, %.0f Mbit per chain; "
          "gpurx backend %s, cpu_threads %d; gr-fec chains %d" % (a.frame_bits, a.ebn0, total * a.frame_bits / 1e6,
                                                                  a.backend, a.cpu_threads, a.chains))
    print("| run | gpurx Mbit/s | gr-fec Mbit/s (all chains) | gpurx / gr-fec |")
    print("|---|---|---|---|")
    modes = (["together"] if a.mode == "together" else []) + ["alone"]
    for mode in modes:
        if mode == "together":
            tb, cs = build(("gpurx", "grfec"))
            r = run(cs, tb)
            backend = cs[0].dec.backend()
        else:
            tb, cs = build(("gpurx",))
            r = run(cs, tb)
            backend = cs[0].dec.backend()
            tb, cs = build(("grfec",))
            r.update(run(cs, tb))
        ours = r["gpurx viterbi_decoder"]
        theirs = sum(v for k, v in r.items() if k.startswith("gr-fec"))
        print("| %s (gpurx on %s) | %.1f | %.1f | %.2f |" % (
            "one flowgraph, both running" if mode == "together" else "each alone", backend, ours, theirs,
            ours / theirs))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
