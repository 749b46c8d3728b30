#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpurx-worker: one decoding worker of a scale-out deployment
(docs/scale-out.md). Binds a ZMQ PULL at --listen, decodes the transport
block PDUs that arrive with lte_sch_decoder_pdu, PUSHes the decoded PDUs
(their metadata keeps seq and shard_key, plus "worker" = --name, by
default --listen, and "decoder", the index of the decoder that took it) to
--send, where the collector binds. On CUDA it runs one decoder per GPU of
--devices ("all": every usable GPU), on the CPU one (--decoders N: N);
every PDU of a HARQ key goes to the same decoder (its shard key modulo the
number of decoders), which holds that key's soft buffer. With --heartbeat,
publishes a heartbeat (its name and a random id of this process) every
--heartbeat-interval-ms on a ZMQ PUB there, for the front end's
worker_monitor. A PDU arriving while --max-queue PDUs wait for the decoder
is dropped, and a notice sent to the collector in its place. Logs its rate
every --log-interval seconds on stderr; runs until SIGINT or SIGTERM."""
import argparse
import os
import signal
import sys
import threading
import time


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="gpurx-worker", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--listen", required=True,
                   help="ZMQ endpoint this worker's PULL binds, e.g. tcp://0.0.0.0:5601 "
                        "(also its name in the \"worker\" field)")
    p.add_argument("--send", required=True,
                   help="ZMQ endpoint of the collector's PULL (it binds), e.g. tcp://collector:5700")
    p.add_argument("--name", default=None,
                   help="this worker's name in the \"worker\" field (default: --listen)")
    p.add_argument("--channel", default="dlsch", choices=("dlsch", "ulsch"))
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    p.add_argument("--devices", default="0",
                   help="GPUs: \"0\", \"0,1\" or \"all\" (every usable GPU); one decoder per GPU "
                        "(default 0)")
    p.add_argument("--decoders", type=int, default=None,
                   help="decoders, 1..64 (default: one per GPU of --devices on CUDA, 1 on the "
                        "CPU, each with --cpu-threads threads); on CUDA decoder i goes on the "
                        "i-th GPU, cycling")
    p.add_argument("--harq-buffers", type=int, default=16,
                   help="HARQ soft buffers of each decoder, 0..65536 (default 16)")
    p.add_argument("--input", default="float", choices=("float", "int8"),
                   help="LLRs arriving as f32vector (float) or s8vector (int8, L = value / 8)")
    p.add_argument("--iterations", type=int, default=6, help="turbo iterations, 1..16")
    p.add_argument("--cpu-threads", type=int, default=0,
                   help="CPU backend threads of each decoder (0: one per hardware thread)")
    p.add_argument("--max-batch", type=int, default=64)
    p.add_argument("--max-tbs", type=int, default=97896)
    p.add_argument("--max-g", type=int, default=262144)
    p.add_argument("--no-early-termination", action="store_true",
                   help="run every turbo iteration (fixed work per TB; default: stop at the CRC)")
    p.add_argument("--max-queue", type=int, default=1024,
                   help="PDUs waiting for the decoder beyond which a PDU is dropped and "
                        "reported to the collector (0: unbounded; default 1024)")
    p.add_argument("--heartbeat", default=None,
                   help="ZMQ endpoint of the front end's heartbeat SUB, e.g. tcp://frontend:5690 "
                        "(this PUB connects; --heartbeat-bind: binds). Default: no heartbeats")
    p.add_argument("--heartbeat-bind", action="store_true",
                   help="bind the heartbeat PUB at --heartbeat instead of connecting")
    p.add_argument("--heartbeat-interval-ms", type=float, default=200,
                   help="milliseconds between heartbeats (default 200)")
    p.add_argument("--malloc-default", action="store_true",
                   help="leave glibc's malloc settings alone (default: keep freed memory for "
                        "reuse and back the heaps with transparent huge pages, which saves "
                        "page faults on every TB)")
    p.add_argument("--log-interval", type=float, default=5.0,
                   help="seconds between rate lines (0: none)")
    return p.parse_args(argv)


# glibc (2.35 and later) backs malloc's heaps with transparent huge pages
# when this tunable is 1. A worker behind its input holds many PDUs at once
# (ZMQ messages, deserialized LLRs), all fresh memory: with 4 kB pages each
# 86 kB of LLRs faults in some 21 times, with huge pages the heap faults in
# 2 MiB at a time (docs/scale-out.md, "Cost of a worker"). Tunables are read
# when a process starts, so the worker runs itself again with it set.
HUGE_PAGE_TUNABLE = "glibc.malloc.hugetlb"


def with_huge_page_malloc(env):
    """A copy of env whose GLIBC_TUNABLES asks for glibc.malloc.hugetlb=1,
    or None where GLIBC_TUNABLES names that tunable already (the user's
    value stands)."""
    tunables = env.get("GLIBC_TUNABLES", "")
    if any(t.split("=")[0] == HUGE_PAGE_TUNABLE for t in tunables.split(":") if t):
        return None
    out = dict(env)
    out["GLIBC_TUNABLES"] = (tunables + ":" if tunables else "") + HUGE_PAGE_TUNABLE + "=1"
    return out


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if argv is None and not a.malloc_default:
        env = with_huge_page_malloc(os.environ)
        if env is not None:
            # sys.orig_argv keeps the interpreter's own options (-B, -u).
            os.execve(sys.executable, [sys.executable] + sys.orig_argv[1:], env)
    from gnuradio.gpurx.scale_out import keep_freed_memory, worker_flowgraph
    if not a.malloc_default:
        keep_freed_memory()
    from gnuradio import gpurx
    try:
        fg = worker_flowgraph(a.listen, a.send, channel=a.channel, backend=a.backend,
                              devices=a.devices, harq_buffers=a.harq_buffers, input=a.input,
                              iterations=a.iterations, cpu_threads=a.cpu_threads,
                              max_batch=a.max_batch, max_tbs=a.max_tbs, max_g=a.max_g,
                              name=a.name, heartbeat=a.heartbeat,
                              heartbeat_interval_ms=a.heartbeat_interval_ms,
                              heartbeat_bind=a.heartbeat_bind, max_queue=a.max_queue,
                              early_termination=not a.no_early_termination,
                              decoders=a.decoders)
    except (ValueError, RuntimeError) as e:
        sys.stderr.write("gpurx-worker: %s\n" % e)
        return 2
    done = threading.Event()

    def on_signal(signum, frame):
        done.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    fg.start()
    sys.stderr.write("gpurx-worker %s: listening, sending to %s, %s on %s, %s LLRs, %d HARQ "
                     "buffers each, instance %016x%s, malloc: %s (gr-gpurx %s)\n"
                     % (fg.name, a.send, a.channel, fg.describe(), a.input, a.harq_buffers,
                        fg.instance, ", heartbeats to %s" % a.heartbeat if a.heartbeat else "",
                        "glibc's defaults" if a.malloc_default else
                        "keeps freed memory, GLIBC_TUNABLES=%s" % os.environ.get("GLIBC_TUNABLES", ""),
                        gpurx.version()))
    sys.stderr.flush()
    t0 = last_t = time.monotonic()
    cpu0 = time.process_time()
    last_n = 0
    interval = a.log_interval if a.log_interval > 0 else 3600.0
    while not done.wait(interval):
        if a.log_interval <= 0:
            continue
        now, n = time.monotonic(), fg.decoded()
        sys.stderr.write("gpurx-worker %s: %d TBs decoded, %.1f TB/s over the last %.1f s, "
                         "%d dropped (queue full), %d stale\n"
                         % (fg.name, n, (n - last_n) / (now - last_t), now - last_t,
                            fg.dropped(), fg.stale()))
        sys.stderr.flush()
        last_t, last_n = now, n
    fg.stop()
    fg.wait()
    n = fg.decoded()
    by = fg.decoded_by()
    sys.stderr.write("gpurx-worker %s: stopped, %d TBs decoded%s in %.1f s, %d dropped, %d stale, "
                     "CPU %.2f s since it listened\n"
                     % (fg.name, n, " (by decoder: %s)" % ", ".join(map(str, by)) if len(by) > 1
                        else "", time.monotonic() - t0, fg.dropped(), fg.stale(),
                        time.process_time() - cpu0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
