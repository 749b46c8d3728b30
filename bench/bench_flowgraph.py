#!/usr/bin/python3
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
                     [--pcie-gbs 55] [--pcie-both-gbs 97]

Each flowgraph runs --repeat times (alternating), and the median rate is
reported, so start-up costs and noise weigh little.

Checked (bench_checks.py) before a figure is printed: the source repeats 64
LTE turbo codewords of random bits at Eb/N0 3.7 dB (the decoder runs all its
iterations whatever the SNR; there it decodes every codeword), every frame
reaches the sink, and one frame in 61 (tapped beside the sink) is compared:
the decoder's with the transmitted bits (no bit error allowed), the copy's
with its input. Bounds: the decoder on CUDA, PCIe for the bytes each codeword
moves at --pcie-gbs (pinned, each way; bench_pipeline measures it) and
--pcie-both-gbs (both at once); on the CPU, and the copy flowgraphs, the
hardware threads' vector issue. A failed check prints an error and exits 1.
"""
import argparse
import time

import numpy as np
from gnuradio import blocks, gr, gpurx

import bench_checks as bc

TURBO_PARAM_BYTES, TURBO_RESULT_BYTES = 16, 8  # turbo/turbo_frame.h: frame_params, frame_result


def run(make_block, K, frames, data, sent, what, int8=False, copy_of=None):
    """Gbit/s of information bits; the output checked. copy_of: the input
    frames when the block is a copy (its output must equal them)."""
    n = 3 * K + 12
    tb = gr.top_block()
    src = (blocks.vector_source_b if int8 else blocks.vector_source_f)(data, True, n)
    head = blocks.head((1 if int8 else gr.sizeof_float) * n, frames)
    blk = make_block()
    size = blk.output_signature().sizeof_stream_item(0)
    snk = blocks.null_sink(size)
    tap = bc.sampled(blocks, size)
    sample = blocks.vector_sink_b(size)
    tb.connect(src, head, blk, snk)
    tb.connect(blk, tap, sample)
    t0 = time.time()
    tb.run()
    gbps = frames * K / (time.time() - t0) / 1e9
    if snk.nitems_read(0) != frames:
        bc.fail("%s: %d frames in, %d reached the sink: no figure" % (what, frames, snk.nitems_read(0)))
    got = np.array(sample.data(), dtype=np.uint8).reshape(-1, size)
    count = frames // bc.SAMPLE_EVERY
    if copy_of is not None:
        want = np.asarray(copy_of)[(np.arange(got.shape[0]) * bc.SAMPLE_EVERY) % len(copy_of)]
        if got.shape[0] != count or not np.array_equal(got, want):
            bc.fail("%s: the copy's sampled frames differ from its input: no figure" % what)
    else:
        bc.check_frames(what, got, sent, max_ber=0.0, expected_count=count)
    return gbps, getattr(blk, "backend", lambda: "cpu")()


def codewords(K, count, ebn0_db, rng):
    """`count` LTE turbo codewords of random bits, BPSK over AWGN at ebn0_db:
    (information bits, float32 LLRs L = 2y/sigma^2, positive for a 1)."""
    bits = rng.integers(0, 2, (count, K)).astype(np.uint8)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.ravel().tolist(), False, K)
    enc = gpurx.lte_turbo_encoder(K)
    snk = blocks.vector_sink_b(3 * K + 12)
    tb.connect(src, enc, snk)
    tb.run()
    coded = np.array(snk.data(), dtype=np.uint8).reshape(count, 3 * K + 12)
    rate = K / (3 * K + 12)
    sigma2 = 1.0 / (2 * rate * 10 ** (ebn0_db / 10))
    y = np.where(coded > 0, 1.0, -1.0) + rng.normal(0, np.sqrt(sigma2), coded.shape)
    return bits, (2 * y / sigma2).astype(np.float32)


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
    ap.add_argument("--pcie-gbs", type=float, default=55.0,
                    help="pinned GB/s each way for the PCIe bound (bench_pipeline measures it; H100 host: 55)")
    ap.add_argument("--pcie-both-gbs", type=float, default=97.0,
                    help="pinned GB/s both ways at once (H100 host: 97)")
    a = ap.parse_args()
    if a.frames < bc.SAMPLE_EVERY:
        ap.error("--frames must be at least %d (one frame in %d is checked)" % (bc.SAMPLE_EVERY, bc.SAMPLE_EVERY))
    K, n = a.K, 3 * a.K + 12
    iterations = 6
    rng = np.random.default_rng(1)
    sent, llr = codewords(K, 64, 3.7, rng)
    bc.check_finite("LLRs", llr)
    data = llr.ravel().tolist()
    # int8: v = round(8 L) saturated to +-127, the decoder's documented scale;
    # vector_source_b takes unsigned bytes, the block reads them as int8.
    q8 = np.clip(np.rint(8 * llr), -127, 127).astype(np.int8).view(np.uint8)
    data8 = q8.ravel().tolist()
    copy_f = llr.view(np.uint8).reshape(64, -1)  # the float frames as bytes
    opts = gpurx.pipeline_options(max_batch=a.max_batch, slots=a.slots, backend=a.backend,
                                  devices=a.devices, cpu_threads=a.cpu_threads)
    dec = lambda **kw: lambda: gpurx.lte_turbo_decoder(K, iterations, "scaled-max-log-map", 0, options=opts, **kw)
    decs, cps, decs8, cps8 = [], [], [], []
    backend = "cpu"
    for r in range(a.repeat):
        g, backend = run(dec(), K, a.frames, data, sent, "decoder, float32, run %d" % r)
        decs.append(g)
        cps.append(run(lambda: blocks.copy(gr.sizeof_float * n), K, a.frames, data, None, "copy, float32",
                       copy_of=copy_f)[0])
    for r in range(a.repeat):
        decs8.append(run(dec(input="int8"), K, a.frames, data8, sent, "decoder, int8, run %d" % r, True)[0])
        cps8.append(run(lambda: blocks.copy(n), K, a.frames, data8, None, "copy, int8", True, copy_of=q8)[0])
    dec, cp = float(np.median(decs)), float(np.median(cps))
    dec8, cp8 = float(np.median(decs8)), float(np.median(cps8))

    # Bounds, then the figures.
    def decoder_bound(in_bytes):
        if backend == "cuda":
            return bc.pcie_bound_gbps(K, in_bytes, K, TURBO_PARAM_BYTES, TURBO_RESULT_BYTES, a.pcie_gbs,
                                      a.pcie_both_gbs)
        # 2 component decoders x forward and backward x 8 states per bit and iteration, 8-bit lanes at least.
        return bc.cpu_bound_gbps(a.cpu_threads, 32.0 * iterations)

    b, why = decoder_bound(4 * n)
    bc.check_bound("decoder (%s), float32" % backend, max(decs), b, "Gbit/s", why)
    b8, why8 = decoder_bound(n)
    bc.check_bound("decoder (%s), int8" % backend, max(decs8), b8, "Gbit/s", why8)
    # The copy reads and writes its item: at least that many lane bytes per information bit.
    bcp, whycp = bc.cpu_bound_gbps(0, 2.0 * 4 * n / K)
    bc.check_bound("copy, float32", max(cps), bcp, "Gbit/s", whycp)
    bcp8, whycp8 = bc.cpu_bound_gbps(0, 2.0 * n / K)
    bc.check_bound("copy, int8", max(cps8), bcp8, "Gbit/s", whycp8)

    print("| flowgraph | Gbit/s (information bits) | bound |\n|---|---|---|")
    print("| vector_source -> lte_turbo_decoder (%s) -> null_sink | %.2f | %.2f |" % (backend, dec, b))
    print("| vector_source -> copy -> null_sink | %.2f | %.0f |" % (cp, bcp))
    print("| ratio decoder / copy (medians of %d runs of %d frames) | %.2f | |" % (a.repeat, a.frames, dec / cp))
    print("| vector_source_b -> lte_turbo_decoder (%s, input=\"int8\") -> null_sink | %.2f | %.2f |"
          % (backend, dec8, b8))
    print("| vector_source_b -> copy -> null_sink (int8) | %.2f | %.0f |" % (cp8, bcp8))
    print("| ratio int8 / float decoder | %.2f | |" % (dec8 / dec))
    print("\nDecoder: %r" % (opts,))
    print("Checked: every frame reached the sink; one in %d (%d per run) compared: the decoder's equal to the "
          "transmitted bits, the copy's to its input. Bounds: %s; %s."
          % (bc.SAMPLE_EVERY, a.frames // bc.SAMPLE_EVERY, why, whycp))


if __name__ == "__main__":
    main()
