#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How many samples per second and antenna the MIMO-OFDM link's receiver
takes without a throttle (docs/mimo-ofdm.md): --frames frames through the
twin's channel at --snr-db, one file per receive antenna, read --repeats
times; stages: the files into null sinks (the ceiling), mimo_ofdm_sync
alone, the synchroniser and the channel estimator, the whole mimo_ofdm_rx
(detector and decoder on --backend), each read in a new flowgraph.

Checks before printing: every frame of every read decoded, and no stage
faster than the ceiling measured in the same run.
"""
import argparse
import os
import sys
import tempfile
import time

# GNU Radio's per-block performance counters, read from its preferences at
# the first block: each block's time in work() says which one bounds the
# receiver.
os.environ.setdefault("GR_CONF_PERFCOUNTERS_ON", "True")
from gnuradio import blocks, gr  # noqa: E402

from gnuradio import gpurx
from gnuradio.gpurx import mimo_ofdm_link as link

from bench_checks import fail


def capture(a, d):
    num = link.ofdm_numerology(a.fft_len, a.cp_len, a.used)
    tb = gr.top_block()
    src = gpurx.payload_source(a.payload_bytes, a.frames, 1)
    tx = link.mimo_ofdm_tx(a.nt, a.modulation, a.payload_bytes, a.code_rate, num)
    ch = link.mimo_ofdm_channel(a.nt, a.nr, "exponential", 10.0 ** (-a.snr_db / 10.0), 0.128 / a.fft_len, 37, 1)
    tb.connect(src, tx)
    paths = []
    for j in range(a.nt):
        tb.connect((tx, j), (ch, j))
    for r in range(a.nr):
        p = os.path.join(d, "rx%d.c64" % r)
        sink = blocks.file_sink(gr.sizeof_gr_complex, p)
        sink.set_unbuffered(False)
        tb.connect((ch, r), sink)
        paths.append(p)
    tb.run()
    return paths, os.path.getsize(paths[0]) // gr.sizeof_gr_complex


def build(a, paths, what):
    """One flowgraph of the stage; returns (tb, sources, named blocks, rx)."""
    num = link.ofdm_numerology(a.fft_len, a.cp_len, a.used)
    p = link.mimo_link_parameters(a.nt, a.modulation, a.payload_bytes, a.code_rate, num)
    tb = gr.top_block()
    srcs = [blocks.file_source(gr.sizeof_gr_complex, path, False) for path in paths]
    rx, named = None, {}
    if what == "ceiling":
        for s in srcs:
            tb.connect(s, blocks.null_sink(gr.sizeof_gr_complex))
    elif what == "sync":
        sync = gpurx.mimo_ofdm_sync(a.nt, a.nr, num.fft_len, num.cp_len, num.used, num.repeats, p["data_symbols"],
                                    threads=a.sync_threads)
        sync.set_min_output_buffer(a.frames_in_flight * (num.repeats * a.nt + p["data_symbols"]))
        named["sync"] = sync
        for r, s in enumerate(srcs):
            tb.connect(s, (sync, r))
            tb.connect((sync, r), blocks.null_sink(gr.sizeof_gr_complex * num.fft_len))
    elif what == "estimator":
        sync = gpurx.mimo_ofdm_sync(a.nt, a.nr, num.fft_len, num.cp_len, num.used, num.repeats, p["data_symbols"],
                                    threads=a.sync_threads)
        sync.set_min_output_buffer(a.frames_in_flight * (num.repeats * a.nt + p["data_symbols"]))
        backend = "cpu" if a.backend == "cpu" else a.estimator
        est = gpurx.mimo_ofdm_channel_estimator(
            a.nt, a.nr, num.fft_len, num.used, num.repeats, p["data_symbols"], 1, "auto", num.cp_len,
            options=gpurx.pipeline_options(max(2, a.frames_in_flight // 2), 3, a.flush_us, backend),
            pilots=num.pilots, track_slope=num.pilots >= 16)
        est.set_min_output_buffer(a.frames_in_flight * num.data_carriers * p["data_symbols"])
        named["sync"], named["estimator"] = sync, est
        for r, s in enumerate(srcs):
            tb.connect(s, (sync, r))
            tb.connect((sync, r), (est, r))
        tb.connect((est, 0), blocks.null_sink(gr.sizeof_gr_complex * a.nr))
        tb.connect((est, 1), blocks.null_sink(gr.sizeof_gr_complex * a.nr * a.nt))
        tb.connect((est, 2), blocks.null_sink(gr.sizeof_float))
    else:
        rx = link.mimo_ofdm_rx(a.nt, a.nr, a.modulation, a.payload_bytes, a.code_rate, num, a.algorithm, a.backend,
                               frames_in_flight=a.frames_in_flight, detector_batch_frames=a.detector_batch_frames,
                               flush_us=a.flush_us, sync_threads=a.sync_threads)
        for r, s in enumerate(srcs):
            tb.connect(s, (rx, r))
        for name in ("sync", "estimator", "detector", "v2s", "packets", "tagger", "decoder", "counter"):
            named[name] = getattr(rx, name)
    return tb, rx, named


def stage(a, paths, what):
    """Runs the stage on the files a.repeats times, a new flowgraph each
    time: GNU Radio 3.10 gives a flowgraph run again its blocks' default
    buffers where they had asked for more (its stock blocks cannot put
    their limits back; docs/mimo-ofdm.md), and a receiver is run once.
    Returns (seconds, decoded frames, the last rx, busy shares)."""
    seconds, decoded, busy_time = 0.0, 0, {}
    rx = None
    for _ in range(a.repeats):
        tb, rx, named = build(a, paths, what)
        t0 = time.perf_counter()
        tb.run()
        dt = time.perf_counter() - t0
        seconds += dt
        if rx is not None:
            decoded += rx.decoded()
        for name, blk in named.items():
            try:
                busy_time[name] = busy_time.get(name, 0.0) + blk.pc_work_time_total() / 1e9
            except (AttributeError, RuntimeError):
                pass
    if busy_time:
        print("%s: time in work() per second of the run: " % what +
              ", ".join("%s %.2f" % (n, b / seconds) for n, b in busy_time.items()))
    return seconds, decoded, rx


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nt", type=int, default=2)
    ap.add_argument("--nr", type=int, default=2)
    ap.add_argument("--modulation", default="16qam")
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=4)
    ap.add_argument("--snr-db", type=float, default=20.0)
    ap.add_argument("--fft-len", type=int, default=64)
    ap.add_argument("--cp-len", type=int, default=16)
    ap.add_argument("--used", type=int, default=48)
    ap.add_argument("--payload-bytes", type=int, default=128)
    ap.add_argument("--code-rate", type=float, default=0.5)
    ap.add_argument("--algorithm", default="mtt")
    ap.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--frames-in-flight", type=int, default=8,
                    help="OFDM frames every buffer of the receiver holds (mimo_ofdm_rx's frames_in_flight)")
    ap.add_argument("--detector-batch-frames", type=int, default=1,
                    help="OFDM frames per detector batch (mimo_ofdm_rx's detector_batch_frames)")
    ap.add_argument("--flush-us", type=int, default=1000,
                    help="the detector's and decoder's pipeline_options flush_us (mimo_ofdm_rx's flush_us)")
    ap.add_argument("--sync-threads", type=int, default=-1,
                    help="mimo_ofdm_sync's worker threads (-1: its default)")
    ap.add_argument("--estimator", default="auto", choices=("auto", "cpu", "cuda"),
                    help="the sync-and-estimator stage's estimator backend (auto: CUDA when usable, unless --backend cpu)")
    ap.add_argument("--stages", default="ceiling,sync,estimator,receiver",
                    help="which stages to run, comma-separated (ceiling always runs)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        paths, n = capture(a, d)
        print("capture: %dx%d %s, %d frames, %d samples per antenna, FFT %d, read %d times; "
              "receiver: %d frames in flight, detector batches of %d frames"
              % (a.nt, a.nr, a.modulation, a.frames, n, a.fft_len, a.repeats, a.frames_in_flight,
                 a.detector_batch_frames))
        rates = {}
        stages = ["ceiling"] + [x for x in ("sync", "estimator", "receiver") if x in a.stages.split(",")]
        for what in stages:
            secs, decoded, rx = stage(a, paths, what)
            rates[what] = n * a.repeats / secs
            if rx is not None and decoded != a.frames * a.repeats:
                fail("receiver: %d of %d frames decoded (last read: %d failed their CRC, %d found)"
                     % (decoded, a.frames * a.repeats, rx.crc_fail(), rx.frames()))
            if rx is not None:
                backend = rx.backend()
        for what in stages[1:]:
            if rates[what] > 1.05 * rates["ceiling"]:
                fail("%s above the stream's own rate" % what)
        for what in stages:
            print("%-9s %8.2f MS/s per antenna%s" % (what, rates[what] / 1e6,
                                                     " (detector and decoder: %s)" % backend if what == "receiver" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
