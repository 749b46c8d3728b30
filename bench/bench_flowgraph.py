#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Turbo decoder throughput inside a flowgraph:
vector_source (repeat) -> head -> lte_turbo_decoder -> null_sink, against the
same flowgraph with blocks.copy in the decoder's place (the flowgraph's own
ceiling); and the same pair with int8 LLRs (char items, input="int8": a
quarter of the bytes). K=6144, 6 iterations, scaled max-log-MAP, automatic P (128 for K=6144).

  bench_flowgraph.py [--backend cuda] [--devices 0] [--max-batch 264] [--slots 3]
                     [--cpu-threads 0] [--frames 60000] [--repeat 3] [--K 6144]

Each flowgraph runs --repeat times (alternating), and the median rate is
reported, so start-up costs and noise weigh little.
"""
import argparse
import time

import numpy as np
from gnuradio import blocks, gr, gpurx


def run(make_block, K, frames, data, int8=False):
    n = 3 * K + 12
    tb = gr.top_block()
    src = (blocks.vector_source_b if int8 else blocks.vector_source_f)(data, True, n)
    head = blocks.head((1 if int8 else gr.sizeof_float) * n, frames)
    blk = make_block()
    snk = blocks.null_sink(blk.output_signature().sizeof_stream_item(0))
    tb.connect(src, head, blk, snk)
    t0 = time.time()
    tb.run()
    return frames * K / (time.time() - t0) / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="auto", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--devices", default="0", help='GPUs: "0", "0,1" or "all"')
    ap.add_argument("--max-batch", type=int, default=264)
    ap.add_argument("--slots", type=int, default=3)
    ap.add_argument("--cpu-threads", type=int, default=0)
    ap.add_argument("--frames", type=int, default=60000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--K", type=int, default=6144)
    a = ap.parse_args()
    K, n = a.K, 3 * a.K + 12
    rng = np.random.default_rng(1)
    llr = rng.standard_normal(64 * n) * 2 + 1
    data = llr.astype(np.float32).tolist()
    # int8: v = round(8 L) saturated to +-127, the decoder's documented scale;
    # vector_source_b takes unsigned bytes, the block reads them as int8.
    data8 = (np.clip(np.rint(8 * llr), -127, 127).astype(np.int8).view(np.uint8)).tolist()
    opts = gpurx.pipeline_options(max_batch=a.max_batch, slots=a.slots, backend=a.backend,
                                  devices=a.devices, cpu_threads=a.cpu_threads)
    decs, cps = [], []
    for _ in range(a.repeat):
        decs.append(run(lambda: gpurx.lte_turbo_decoder(K, 6, "scaled-max-log-map", 0,
                                                        options=opts), K, a.frames, data))
        cps.append(run(lambda: blocks.copy(gr.sizeof_float * n), K, a.frames, data))
    decs8, cps8 = [], []
    for _ in range(a.repeat):
        decs8.append(run(lambda: gpurx.lte_turbo_decoder(K, 6, "scaled-max-log-map", 0, options=opts,
                                                         input="int8"), K, a.frames, data8, True))
        cps8.append(run(lambda: blocks.copy(n), K, a.frames, data8, True))
    dec, cp = float(np.median(decs)), float(np.median(cps))
    dec8, cp8 = float(np.median(decs8)), float(np.median(cps8))
    print("| flowgraph | Gbit/s (information bits) |\n|---|---|")
    print("| vector_source -> lte_turbo_decoder (%s) -> null_sink | %.2f |" % (a.backend, dec))
    print("| vector_source -> copy -> null_sink | %.2f |" % cp)
    print("| ratio decoder / copy (medians of %d runs of %d frames) | %.2f |" % (a.repeat, a.frames, dec / cp))
    print("| vector_source_b -> lte_turbo_decoder (%s, input=\"int8\") -> null_sink | %.2f |" % (a.backend, dec8))
    print("| vector_source_b -> copy -> null_sink (int8) | %.2f |" % cp8)
    print("| ratio int8 / float decoder | %.2f |" % (dec8 / dec))
    print("\nDecoder: %r" % (opts,))


if __name__ == "__main__":
    main()
