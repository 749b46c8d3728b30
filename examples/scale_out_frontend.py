#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The front end of a scale-out site (docs/scale-out.md, "Front end and
collector"): a capture of transport-block symbols (scale_out_capture.py's
format: capture.c64 + capture.jsonl) -> capture_tagger -> qam_demapper ->
pdu.tagged_stream_to_pdu (one LLR PDU per transmission, its metadata from
the tags) -> [llr_pdu_to_int8] -> pdu_sequencer("harq") ->
pdu_shard_sink(--workers); with --heartbeat, the workers' heartbeats ->
worker_monitor -> the shard sink's control. Reports (the sequencer's, the
shard sink's and the monitor's) go to stderr, one JSON line each.

With --heartbeat it reads nothing until every worker of --workers has sent
a heartbeat (a worker takes seconds to start: importing GNU Radio, making
its decoders), for at most --wait-workers-ms; it exits 3 naming the
workers not heard from by then. Without --heartbeat it cannot know: the
PDUs of a worker not yet listening wait in ZMQ, then in its lane of the
shard sink up to --max-queue, beyond which they are dropped (reported).

It exits once every transmission of the capture has been handed to the
workers' sockets, plus --linger-ms for ZMQ to deliver them (gr-zeromq's
push sink does not linger on close), or on SIGINT / SIGTERM.

A live source with the same tags (n0, packet_len, the TB metadata on each
transmission's first symbol) takes the capture's place ahead of
qam_demapper; examples/scale_out_frontend.grc is this flowgraph in GRC."""
import argparse
import json
import os
import signal
import sys
import threading
import time

import pmt
from gnuradio import blocks, gr, pdu, zeromq
from gnuradio import gpurx
from gnuradio.gpurx.capture import check_capture, read_sidecar
from gnuradio.gpurx.scale_out import check_endpoint, zmq_block

MODULATION = {2: "qpsk", 4: "16qam", 6: "64qam", 8: "256qam"}
PDUS = pmt.intern("pdus")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--capture", default=None,
                   help="folder holding capture.c64 and capture.jsonl")
    p.add_argument("--symbols", default=None, help="the complex64 symbol file (instead of --capture)")
    p.add_argument("--sidecar", default=None, help="its JSON-lines sidecar (instead of --capture)")
    p.add_argument("--workers", required=True,
                   help="the workers' endpoints, comma-separated (tcp://host:port, as each "
                        "worker's --name)")
    p.add_argument("--llr", default="int8", choices=("int8", "float"),
                   help="LLRs sent as int8 (u8vector, value = round(8 L); workers --input int8) "
                        "or float (f32vector; workers --input float). Default int8")
    p.add_argument("--heartbeat", default=None,
                   help="ZMQ endpoint the heartbeat SUB binds (e.g. tcp://0.0.0.0:5690): a "
                        "worker_monitor then removes and adds workers")
    p.add_argument("--monitor-timeout-ms", type=int, default=1000,
                   help="with --heartbeat: a worker silent this long after its first heartbeat "
                        "is removed (its keys move to the others)")
    p.add_argument("--wait-workers-ms", type=int, default=60000,
                   help="with --heartbeat: how long to wait for every worker's first heartbeat "
                        "before reading the capture (exit 3 after; 0: do not wait; default "
                        "60000)")
    p.add_argument("--max-queue", type=int, default=1024,
                   help="PDUs a worker's lane holds before it drops (0: unbounded)")
    p.add_argument("--balance", default="bounded", choices=("bounded", "ring"))
    p.add_argument("--sample-rate", type=float, default=0.0,
                   help="symbols a second (a throttle, as a live source; 0: as fast as it goes)")
    p.add_argument("--linger-ms", type=int, default=1000,
                   help="after the last PDU left for the sockets, how long ZMQ gets to send it")
    a = p.parse_args(argv)
    if a.capture:
        a.symbols = a.symbols or os.path.join(a.capture, "capture.c64")
        a.sidecar = a.sidecar or os.path.join(a.capture, "capture.jsonl")
    if not a.symbols or not a.sidecar:
        p.error("give --capture DIR, or --symbols and --sidecar")
    return a


class report_log(gr.basic_block):
    """Prints each report (a dict) on "in" as a JSON line on stderr; counts them."""

    def __init__(self):
        gr.basic_block.__init__(self, "report_log", None, None)
        self.n = 0
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)

    def handle(self, msg):
        from gnuradio.gpurx.collector import plain
        self.n += 1
        sys.stderr.write("frontend: %s\n" % json.dumps(plain(msg), sort_keys=True))
        sys.stderr.flush()


class bridge(gr.basic_block):
    """Posts each PDU on "pdus" to a block of another flowgraph (the
    message flowgraph, which runs until stopped, so that the stream
    flowgraph ending at the end of the file does not stop the shard sink's
    lanes with PDUs still queued)."""

    def __init__(self, target):
        gr.basic_block.__init__(self, "bridge", None, None)
        self.target = target.to_basic_block()
        self.n = 0
        self.message_port_register_in(PDUS)
        self.set_msg_handler(PDUS, self.handle)

    def handle(self, msg):
        self.n += 1
        self.target._post(PDUS, msg)


def lanes_idle(shard):
    """True when every lane's push sink has handed its queued PDUs to ZMQ
    (pdu_shard_sink.pending())."""
    return not any(shard.pending().values())


def wait_for_workers(monitor, timeout_s, stop):
    """Waits for every worker's first heartbeat (worker_monitor.pending()),
    at most timeout_s or until stop is set; the workers not heard from."""
    left = monitor.pending()
    if left:
        sys.stderr.write("frontend: waiting for the first heartbeat of %d worker(s): %s\n"
                         % (len(left), ", ".join(left)))
        sys.stderr.flush()
    t0 = time.monotonic()
    deadline = t0 + timeout_s
    while left and time.monotonic() < deadline and not stop.wait(0.05):
        left = monitor.pending()
    if not left:
        sys.stderr.write("frontend: every worker is up (%.1f s)\n" % (time.monotonic() - t0))
        sys.stderr.flush()
    return left


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        entries = read_sidecar(a.sidecar)
        if not entries:
            raise ValueError("sidecar %s: no transmissions" % a.sidecar)
        check_capture(a.symbols, entries)
        qms = {e["qm"] for e in entries}
        if len(qms) != 1:
            raise ValueError("the capture mixes qm %s: one demapper takes one modulation"
                             % sorted(qms))
        workers = [w.strip() for w in a.workers.split(",") if w.strip()]
        qm = qms.pop()
        if a.wait_workers_ms < 0:
            raise ValueError("--wait-workers-ms must be >= 0, got %d" % a.wait_workers_ms)

        # The message flowgraph: runs until stopped.
        msg_tb = gr.top_block("scale_out_frontend messages")
        seqr = gpurx.pdu_sequencer("harq")
        shard = gpurx.pdu_shard_sink(workers, max_queue=a.max_queue, balance=a.balance)
        reports, seq_reports = report_log(), report_log()
        msg_tb.msg_connect(seqr, "pdus", shard, "pdus")
        msg_tb.msg_connect(seqr, "errors", seq_reports, "in")
        msg_tb.msg_connect(shard, "errors", reports, "in")
        head = seqr
        if a.llr == "int8":
            head = gpurx.llr_pdu_to_int8()
            msg_tb.msg_connect(head, "pdus", seqr, "pdus")
        monitor = None
        if a.heartbeat:
            check_endpoint("frontend", "--heartbeat", a.heartbeat, bind=True)
            beats = zmq_block("frontend", "--heartbeat", a.heartbeat,
                              lambda: zeromq.sub_msg_source(a.heartbeat, 100, True))
            # A worker that has not sent its first heartbeat stays on the
            # ring as long as the front end waits for it.
            monitor = gpurx.worker_monitor(a.monitor_timeout_ms, workers,
                                           startup_ms=a.wait_workers_ms or 30000)
            msg_tb.msg_connect(beats, "out", monitor, "heartbeats")
            msg_tb.msg_connect(monitor, "control", shard, "control")
            msg_tb.msg_connect(monitor, "errors", reports, "in")

        # The stream flowgraph: ends at the end of the file.
        tb = gr.top_block("scale_out_frontend stream")
        src = blocks.file_source(gr.sizeof_gr_complex, a.symbols, False)
        tagger = gpurx.capture_tagger(entries, "packet_len")
        demap = gpurx.qam_demapper(MODULATION[qm], entries[0]["n0"])
        to_pdu = pdu.tagged_stream_to_pdu(gr.types.float_t, "packet_len")
        out = bridge(head)
        if a.sample_rate > 0:
            thr = blocks.throttle(gr.sizeof_gr_complex, a.sample_rate)
            tb.connect(src, thr, tagger)
        else:
            tb.connect(src, tagger)
        tb.connect(tagger, demap, to_pdu)
        tb.msg_connect(to_pdu, "pdus", out, "pdus")
    except (ValueError, RuntimeError, OSError) as e:
        sys.stderr.write("scale_out_frontend: %s\n" % e)
        return 2

    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *args: stop.set())
    signal.signal(signal.SIGTERM, lambda *args: stop.set())
    n = len(entries)
    sys.stderr.write("frontend: %d transmissions (%s, %s LLRs) to %d workers: %s\n"
                     % (n, MODULATION[qm], a.llr, len(workers), ", ".join(workers)))
    sys.stderr.flush()
    t0 = time.monotonic()
    msg_tb.start()
    if monitor is not None and a.wait_workers_ms > 0:
        missing = wait_for_workers(monitor, a.wait_workers_ms / 1e3, stop)
        if missing:
            msg_tb.stop()
            msg_tb.wait()
            if stop.is_set():
                return 0
            sys.stderr.write(
                "frontend: no heartbeat from %s within %d ms: is each started, with "
                "--heartbeat aimed at this front end's --heartbeat and --name as given in "
                "--workers? Nothing was sent (--wait-workers-ms 0: send without waiting)\n"
                % (", ".join(missing), a.wait_workers_ms))
            return 3
    tb.start()
    ended = threading.Event()
    threading.Thread(target=lambda: (tb.wait(), ended.set()), daemon=True).start()

    def handled():
        # Every PDU made is stamped (or reported by the sequencer), and every
        # stamped one went to a lane or was dropped (and reported).
        s = shard.stats()
        routed = sum(shard.sent().values()) + s["queue_full"] + s["no_endpoint"]
        return (out.n == n and seqr.next_seq() + seq_reports.n >= n
                and routed >= seqr.next_seq() and lanes_idle(shard))

    complete = False
    while not stop.wait(0.02):
        if ended.is_set() and handled():
            complete = True
            break
    if complete:
        stop.wait(a.linger_ms / 1000.0)
    tb.stop()
    tb.wait()
    msg_tb.stop()
    msg_tb.wait()
    sent = shard.sent()
    s = shard.stats()
    sys.stderr.write("frontend: %s: %d transmissions made, %d sent (%s), %d dropped, %d reports, "
                     "%.2f s\n"
                     % ("done" if complete else "stopped", out.n, sum(sent.values()),
                        ", ".join("%s %d" % kv for kv in sorted(sent.items())),
                        s["queue_full"] + s["no_endpoint"], reports.n + seq_reports.n,
                        time.monotonic() - t0))
    sys.stderr.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
