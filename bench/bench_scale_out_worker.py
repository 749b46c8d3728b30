#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""CPU time per transport block of one gpurx-worker process against one
in-process lte_sch_decoder_pdu (docs/scale-out.md, "Cost of a worker").

The heavy traffic of qa_scale_out.py --bench (TBS 75376 in G 86400 int8
LLRs sent as u8vector, a fixed number of iterations, every TB new). The
worker gets the serialized PDUs (metadata with seq and shard_key, as a
shard sink sends them) from a plain pyzmq PUSH, and its outputs go to a
plain pyzmq PULL that only counts them: nothing but the worker spends CPU
on the transport, so its CPU time (user + system, from /proc, sampled
before the first PDU is sent and after the last output came) over the TBs
is what one worker costs per TB. CPU time, not wall time: the figures hold
on a loaded machine. The worker's idle CPU (its threads with nothing to
do) is sampled over --idle seconds first and given as cores.

The in-process decoder's CPU time is this process's over the same number of
TBs posted at once (the PDUs made beforehand). Each output is checked: the
worker's must be bit-exact and in order (a wrong run exits 1).

  PYTHONPATH=build/test_modules:python/gpurx \\
  LD_LIBRARY_PATH=build/lib:build/lib/blocks \\
  /usr/bin/python3 bench/bench_scale_out_worker.py [--transmissions 2000]
      [--threads 1] [--runs 2] [--idle 1.0] [--perf-record FILE]
      [--worker PROGRAM] [--worker-pythonpath DIR] [--worker-arg=--flag ...]

--perf-record FILE: perf record -g of the worker while it decodes (then
perf report -i FILE).
"""
import argparse
import os
import resource
import signal
import subprocess
import sys
import time

import pmt
import zmq

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "..", "apps", "gpurx_worker.py")
sys.path.insert(0, os.path.join(HERE, "..", "python", "gpurx"))

from qa_scale_out import (HEAVY_TBS, cycled, make_pool, run_in_process,  # noqa: E402
                          free_ports)

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU seconds of a process and its threads (/proc)."""
    return proc_stat(pid)[0]


def proc_stat(pid):
    """(user + system CPU seconds, minor page faults) of a process (/proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK, int(fields[7])


def thread_cpu(pid):
    """{thread name: CPU seconds} of a process's threads (/proc), summed by name."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / TICK
    return out


def wire_pdus(pool, n):
    """Transmission i as the shard sink sends it (serialized, seq and
    shard_key added)."""
    out = []
    for i in range(n):
        p = cycled(pool, i)
        meta = pmt.dict_add(pmt.car(p), pmt.intern("seq"), pmt.from_uint64(i))
        meta = pmt.dict_add(meta, pmt.intern("shard_key"), pmt.from_uint64(i % 512))
        out.append(pmt.serialize_str(pmt.cons(meta, pmt.cdr(p))))
    return out


def run_worker(wire, payloads, a):
    listen, send = ["tcp://127.0.0.1:%d" % p for p in free_ports(2)]
    ctx = zmq.Context()
    pull = ctx.socket(zmq.PULL)
    pull.bind(send)
    cmd = [sys.executable, "-B", a.worker, "--listen", listen, "--send", send, "--backend", "cpu",
           "--cpu-threads", str(a.threads), "--input", "int8", "--harq-buffers", "0",
           "--no-early-termination", "--iterations", str(a.iterations), "--max-tbs",
           str(HEAVY_TBS), "--max-queue", "0", "--log-interval", "0"] + a.worker_arg
    env = dict(os.environ)
    if a.worker_pythonpath:
        env["PYTHONPATH"] = a.worker_pythonpath
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stderr.readline()
        while line and ": listening" not in line:
            line = proc.stderr.readline()
        if not line:
            raise SystemExit("the worker did not start: %s" % proc.stderr.read())
        push = ctx.socket(zmq.PUSH)
        push.setsockopt(zmq.SNDHWM, 0)
        push.connect(listen)
        time.sleep(0.2)
        c0 = cpu_seconds(proc.pid)
        time.sleep(a.idle)
        idle = (cpu_seconds(proc.pid) - c0) / a.idle
        perf = None
        if a.perf_record:
            perf = subprocess.Popen(["perf", "record"] + os.environ.get("PERF_CG", "-g").split() + ["-q", "-o", a.perf_record, "-p",
                                     str(proc.pid)], stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        (c0, f0), t0, th0 = proc_stat(proc.pid), time.monotonic(), thread_cpu(proc.pid)
        for w in wire:
            push.send(w, copy=False)
        bad = 0
        for i in range(len(wire)):
            msg = pmt.deserialize_str(pull.recv())
            meta = pmt.car(msg)
            seq = pmt.to_uint64(pmt.dict_ref(meta, pmt.intern("seq"), pmt.PMT_NIL))
            if seq != i or pmt.serialize_str(pmt.cdr(msg)) != payloads[i % len(payloads)]:
                bad += 1
        (c1, f1), t1, th1 = proc_stat(proc.pid), time.monotonic(), thread_cpu(proc.pid)
        threads = {k: (v - th0.get(k, 0.0)) / len(wire) for k, v in th1.items()}
        if perf is not None:
            perf.send_signal(signal.SIGINT)
            perf.wait()
        return (c1 - c0) / len(wire), idle, (f1 - f0) / len(wire), threads, bad
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        ctx.destroy(linger=0)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--transmissions", type=int, default=2000)
    p.add_argument("--pool", type=int, default=64)
    p.add_argument("--threads", type=int, default=1, help="CPU threads of each decoder")
    p.add_argument("--iterations", type=int, default=6)
    p.add_argument("--runs", type=int, default=2, help="runs of each (default 2)")
    p.add_argument("--idle", type=float, default=1.0, help="seconds of idle CPU sampling")
    p.add_argument("--perf-record", default=None)
    p.add_argument("--worker", default=WORKER,
                   help="the worker program (default: apps/gpurx_worker.py of this tree)")
    p.add_argument("--worker-pythonpath", default=None,
                   help="PYTHONPATH of the worker process (default: this one's), e.g. a copy "
                        "of build/test_modules with another scale_out.py, to compare versions")
    p.add_argument("--worker-arg", action="append", default=[],
                   help="an extra gpurx-worker argument (repeat; --worker-arg=--flag)")
    a = p.parse_args()
    n = a.transmissions
    pool, bits = make_pool(a.pool)
    payloads = [pmt.serialize_str(pmt.init_u8vector(HEAVY_TBS, b.tolist())) for b in bits]
    pdus = [cycled(pool, i) for i in range(n)]
    wire = wire_pdus(pool, n)
    print("one worker against one in-process decoder: %d transmissions of TBS %d (G 86400 "
          "int8 LLRs as u8vector, %d iterations fixed), %d CPU thread(s) each; CPU ms per TB"
          % (n, HEAVY_TBS, a.iterations, a.threads))
    print("| run | in process | worker | worker / in process | worker idle (cores) | "
          "page faults per TB: in process, worker |")
    print("|---|---|---|---|---|---|")
    status = 0
    for r in range(a.runs):
        u0 = resource.getrusage(resource.RUSAGE_SELF)
        _, chk = run_in_process(lambda i: pdus[i], n, lambda i: (payloads[i % a.pool], True, None, 1),
                                a.threads, max_tbs=HEAVY_TBS, harq_buffers=0,
                                iterations=a.iterations, early_termination=False)
        u1 = resource.getrusage(resource.RUSAGE_SELF)
        inproc = (u1.ru_utime + u1.ru_stime - u0.ru_utime - u0.ru_stime) / n
        inproc_faults = (u1.ru_minflt - u0.ru_minflt) / n
        if chk.bad:
            print("FAILED: in process: %s" % chk.bad)
            return 1
        worker, idle, faults, threads, bad = run_worker(wire, payloads, a)
        if bad:
            print("FAILED: %d of %d worker outputs out of order or wrong" % (bad, n))
            status = 1
        print("| %d | %.2f | %.2f | %.2f | %.3f | %.0f, %.0f |"
              % (r + 1, inproc * 1e3, worker * 1e3, worker / inproc, idle, inproc_faults, faults))
        print("  the worker's threads, CPU ms per TB: %s" % ", ".join(
            "%s %.2f" % (k, v * 1e3) for k, v in sorted(threads.items(), key=lambda kv: -kv[1])
            if v >= 5e-6))
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
