#!/usr/bin/python3
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

Checked (bench_checks.py) before a figure is printed, for every chain of
every run: all its frames reached its sink, and one frame in 61 (tapped
beside the sink) carries the transmitted bits within --max-ber (1e-3 by
default: at Eb/N0 4 dB K=7 decodes to about 1e-5, an undecoded frame has
some 5e-2; the sources are checked finite, so no frame is rejected). Bounds:
gpurx on CUDA, PCIe for the bytes each frame moves at --pcie-gbs (pinned,
each way; bench_pipeline measures it) and --pcie-both-gbs (both at once);
gpurx on the CPU and gr-fec, the hardware threads' vector issue for an 8-bit
lane per state and trellis step (64 per bit). A failed check prints an error
and exits 1.
"""
import argparse
import math
import sys
import time

import numpy as np
from gnuradio import blocks, fec, gr, gpurx

import bench_checks as bc

K = 7
GRFEC_POLYS = [109, 79]
VITERBI_PARAM_BYTES, VITERBI_RESULT_BYTES = 8, 12  # viterbi/viterbi_frame.h: frame_params, frame_result


def noisy_frames(frames, frame_bits, ebn0_db, seed=1):
    """(y, llr, bits): channel values, LLRs and information bits of `frames` encoded frames."""
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
    return y.astype(np.float32), (4 * esn0 * y).astype(np.float32), bits.reshape(frames, frame_bits)


class chain:
    """A source of repeated frames, a decoder, a null sink; `total` frames.
    One frame in bench_checks.SAMPLE_EVERY also goes to a vector sink, to be
    checked after the run."""

    def __init__(self, tb, name, src, dec, sink, frame_bits, total):
        self.name, self.sink, self.frame_bits, self.total = name, sink, frame_bits, total
        self.items_per_frame = 1 if name.startswith("gpurx") else frame_bits
        tb.connect(src, dec, sink)
        if self.items_per_frame == 1:  # a vector of frame_bits bytes per frame
            self.tap = bc.sampled(blocks, frame_bits)
        else:  # one byte per bit: a frame is frame_bits items
            self.tap = bc.sampled(blocks, 1, m=frame_bits)
        self.sample = blocks.vector_sink_b(frame_bits if self.items_per_frame == 1 else 1)
        tb.connect(dec, self.tap, self.sample)
        self.done_at = None

    def done(self):
        return self.sink.nitems_read(0) >= self.total * self.items_per_frame

    def check(self, sent, max_ber):
        """Fails unless every frame arrived and the sampled ones decoded."""
        if self.sink.nitems_read(0) != self.total * self.items_per_frame:
            bc.fail("%s: %d frames in, %d items of %d reached the sink: no figure"
                    % (self.name, self.total, self.sink.nitems_read(0), self.total * self.items_per_frame))
        got = np.array(self.sample.data(), dtype=np.uint8).reshape(-1, self.frame_bits)
        return bc.check_frames(self.name, got, sent, max_ber=max_ber,
                               expected_count=self.total // bc.SAMPLE_EVERY)


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
    ap.add_argument("--max-ber", type=float, default=1e-3,
                    help="bit error rate the sampled frames may show at most (1e-3: for Eb/N0 >= 3 dB)")
    ap.add_argument("--pcie-gbs", type=float, default=55.0,
                    help="pinned GB/s each way for the PCIe bound (bench_pipeline measures it; H100 host: 55)")
    ap.add_argument("--pcie-both-gbs", type=float, default=97.0,
                    help="pinned GB/s both ways at once (H100 host: 97)")
    a = ap.parse_args()
    if a.chains < 1 or a.mbit <= 0 or a.frame_bits < 1 or a.frames < 1:
        ap.error("--chains, --mbit, --frame-bits and --frames must be positive")
    y, llr, sent = noisy_frames(a.frames, a.frame_bits, a.ebn0)
    bc.check_finite("LLRs", llr)
    bc.check_finite("channel values", y)
    total = max(1, int(a.mbit * 1e6 / a.frame_bits))
    if total < bc.SAMPLE_EVERY:
        ap.error("--mbit must give at least %d frames (one in %d is checked)" % (bc.SAMPLE_EVERY, bc.SAMPLE_EVERY))
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
    print("| run | gpurx Mbit/s | gr-fec Mbit/s (all chains) | gpurx / gr-fec | bounds (gpurx / gr-fec) |")
    print("|---|---|---|---|---|")
    n = 2 * (a.frame_bits + K - 1)
    # 2^(K-1) = 64 states per trellis step, an 8-bit lane each at least.
    lane = 64.0
    checked = []
    modes = (["together"] if a.mode == "together" else []) + ["alone"]
    for mode in modes:
        if mode == "together":
            tb, cs = build(("gpurx", "grfec"))
            r = run(cs, tb)
            backend = cs[0].dec.backend()
            cs_all = cs
        else:
            tb, cs = build(("gpurx",))
            r = run(cs, tb)
            backend = cs[0].dec.backend()
            cs_all = list(cs)
            tb, cs = build(("grfec",))
            r.update(run(cs, tb))
            cs_all += cs
        for c in cs_all:
            checked.append(c.check(sent, a.max_ber))
        ours = r["gpurx viterbi_decoder"]
        theirs = sum(v for k, v in r.items() if k.startswith("gr-fec"))
        if backend == "cuda":
            ours_bound, ours_why = bc.pcie_bound_gbps(a.frame_bits, 4 * n, a.frame_bits, VITERBI_PARAM_BYTES,
                                                      VITERBI_RESULT_BYTES, a.pcie_gbs, a.pcie_both_gbs)
        else:
            ours_bound, ours_why = bc.cpu_bound_gbps(a.cpu_threads, lane)
        theirs_bound, theirs_why = bc.cpu_bound_gbps(0, lane)
        bc.check_bound("gpurx viterbi_decoder (%s), %s" % (backend, mode), ours / 1e3, ours_bound, "Gbit/s", ours_why)
        bc.check_bound("gr-fec, %d chain(s), %s" % (a.chains, mode), theirs / 1e3, theirs_bound, "Gbit/s", theirs_why)
        print("| %s (gpurx on %s) | %.1f | %.1f | %.2f | %.0f / %.0f |" % (
            "one flowgraph, both running" if mode == "together" else "each alone", backend, ours, theirs,
            ours / theirs, ours_bound * 1e3, theirs_bound * 1e3))
        sys.stdout.flush()
    print("Checked: every chain's frames all reached its sink; one frame in %d of each compared with the transmitted "
          "bits (BER at most %g): %s. Bounds in Mbit/s: gpurx %s; gr-fec %s."
          % (bc.SAMPLE_EVERY, a.max_ber, "; ".join(checked), ours_why, theirs_why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
