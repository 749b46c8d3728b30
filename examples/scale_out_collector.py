#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The collector of a scale-out site (docs/scale-out.md, "Front end and
collector"): zeromq.pull_msg_source (binds --listen; every worker's --send
connects) -> pdu_reorder(--window, --timeout-ms) -> decoded_tb_sink, which
writes each decoded TB, in seq order, as a JSON line to --out (seq, rnti,
harq_process, ndi, rv, tbs, crc_ok, transmissions, iterations, worker,
decoder, harq_reset when set, and "bits" in hex) and counts; pdu_reorder's
reports (missing seqs: timeout, window_full, dropped) go to stderr.

With --expect N it exits once N seqs were delivered or reported missing,
otherwise on SIGINT / SIGTERM; either way it prints
`collector: N delivered, M missing, crc_fail F, errors E`.
examples/scale_out_collector.grc is this flowgraph in GRC."""
import argparse
import signal
import sys
import threading
import time

from gnuradio import gr, zeromq
from gnuradio import gpurx


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--listen", required=True,
                   help="ZMQ endpoint the PULL binds, e.g. tcp://0.0.0.0:5700 (workers' --send)")
    p.add_argument("--out", default="", help="JSON-lines file of the decoded TBs (default: none)")
    p.add_argument("--window", type=int, default=4096)
    p.add_argument("--timeout-ms", type=int, default=500,
                   help="how long a PDU waits for the seqs before it (pdu_reorder)")
    p.add_argument("--expect", type=int, default=0,
                   help="exit once this many seqs were delivered or reported missing (0: run "
                        "until SIGINT / SIGTERM)")
    p.add_argument("--idle-exit-ms", type=int, default=0,
                   help="with --expect: when nothing arrived for this long, emit what the "
                        "reorder holds (its gaps reported), count the seqs that never came as "
                        "missing and exit (0: wait for all)")
    return p.parse_args(argv)


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        tb = gr.top_block("scale_out_collector")
        src = zeromq.pull_msg_source(a.listen, 100, True)
        reorder = gpurx.pdu_reorder(a.window, a.timeout_ms)
        sink = gpurx.decoded_tb_sink(a.out)
        tb.msg_connect(src, "out", reorder, "pdus")
        tb.msg_connect(reorder, "pdus", sink, "pdus")
        tb.msg_connect(reorder, "errors", sink, "errors")
    except (ValueError, RuntimeError, OSError) as e:
        sys.stderr.write("scale_out_collector: %s\n" % e)
        return 2
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *args: stop.set())
    signal.signal(signal.SIGTERM, lambda *args: stop.set())
    tb.start()
    sys.stderr.write("collector: listening at %s%s\n"
                     % (a.listen, ", expecting %d" % a.expect if a.expect else ""))
    sys.stderr.flush()
    t0 = time.monotonic()
    last, last_t = -1, time.monotonic()
    never = 0
    while not stop.wait(0.02):
        if a.expect and sink.done(a.expect):
            break
        c = sink.counts()
        seen = c["delivered"] + c["errors"]
        if seen != last:
            last, last_t = seen, time.monotonic()
        elif a.expect and a.idle_exit_ms and time.monotonic() - last_t > a.idle_exit_ms / 1e3:
            # A missing seq is only known once a later one comes: with none
            # coming, flush() emits what is held (reporting its gaps), and
            # the seqs after the last that came never will.
            reorder.flush()
            time.sleep(0.1)
            c = sink.counts()
            never = max(0, a.expect - c["delivered"] - c["missing"])
            sys.stderr.write("collector: nothing for %d ms: %d seqs never came\n"
                             % (a.idle_exit_ms, never))
            break
    tb.stop()
    tb.wait()
    c = sink.counts()
    c["missing"] += never
    sink.close()
    sys.stderr.write("collector: %d delivered, %d missing, crc_fail %d, errors %d (%s) in %.2f s\n"
                     % (c["delivered"], c["missing"], c["crc_fail"], c["errors"],
                        ", ".join("%s %d" % kv for kv in sorted(c["reasons"].items())) or "none",
                        time.monotonic() - t0))
    sys.stderr.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
