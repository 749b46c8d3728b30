#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Throughput of the scale-out per-PDU path (docs/scale-out.md, "Cost of
the front end and the collector"): the front end (pdu_sequencer ->
pdu_shard_sink over --endpoints lanes), the collector (pdu_reorder) and a
worker's gate (worker_gate over --gate-decoders decoders), the C++ blocks
against the Python blocks they replace, in the same run.

Small TBs (--bytes of payload, default 100) from --ues x --harq HARQ keys.
The PDUs are made beforehand and posted to the first block's queue before
the flowgraph starts; the time runs from start until the last PDU reached
its sink. Each lane's sink is a blocks.message_debug in the lane's own
flowgraph, posted to as the ZMQ push sink is (the C++ shard sink through
set_lane_sink(); the Python one through a lane of the same shape), so ZMQ
is not measured. The whole process is pinned to one core (--cpu).

Checks (a figure that fails one is refused, exit 1): every PDU reaches one
lane once, seqs 0..N-1 each once, in order within each lane, every PDU of
a key in the same lane, the first PDU of each key flagged harq_reset and no
other; the collector emits 0..N-1 in order, nothing reported; the gate
sends every PDU once, in order, to decoder shard_key % decoders, with
"worker" and "decoder", nothing dropped or reported.

The Python blocks are those of python/gpurx/scale_out.py at --before (the
commit before they became C++; default: found with git log) and, for the
gate, at --gate-before (likewise), loaded from a copy in a temporary
folder. Gate PDUs carry what the front end stamps (seq, shard_key,
worker_instance) and are posted to the gate's queue before it starts
(max_queue 0: the gate's own queue would count them all).

  PYTHONPATH=build/test_modules LD_LIBRARY_PATH=build/lib:build/lib/blocks \\
  /usr/bin/python3 bench/bench_scale_out_path.py [--pdus 200000]
      [--python-pdus 20000] [--bytes 100] [--endpoints 4] [--gate-decoders 2]
      [--cpu 0]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import pmt
from gnuradio import blocks, gr

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
PDUS = pmt.intern("pdus")
STORE = pmt.intern("store")


class refused(Exception):
    pass


def before_commit(cls="pdu_sequencer"):
    """The last commit whose scale_out.py has the Python block cls."""
    out = subprocess.run(["git", "-C", ROOT, "log", "-n1", "--format=%H", "-S",
                          "class %s(gr.basic_block)" % cls, "--",
                          "python/gpurx/scale_out.py"], capture_output=True, text=True, check=True)
    removed = out.stdout.strip()
    if not removed:
        raise SystemExit("no commit with the Python %s found (give --before / --gate-before)"
                         % cls)
    return removed + "^"


def load_python_blocks(rev, package="gpurx_before"):
    """python/gpurx/scale_out.py and shard_ring.py at rev, imported as a
    package from a temporary folder (its "from .gpurx_python import" of
    the C++ blocks served by this build's)."""
    tmp = tempfile.mkdtemp(prefix="gpurx_scale_out_before_")
    pkg = os.path.join(tmp, package)
    os.mkdir(pkg)
    for name in ("scale_out.py", "shard_ring.py"):
        text = subprocess.run(["git", "-C", ROOT, "show", "%s:python/gpurx/%s" % (rev, name)],
                              capture_output=True, text=True, check=True).stdout
        with open(os.path.join(pkg, name), "w") as f:
            f.write(text)
    with open(os.path.join(pkg, "gpurx_python.py"), "w") as f:
        f.write("from gnuradio.gpurx.gpurx_python import *  # noqa: F401,F403\n")
    open(os.path.join(pkg, "__init__.py"), "w").close()
    sys.path.insert(0, tmp)
    import importlib
    return importlib.import_module(package + ".scale_out")


def full_rev(rev):
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", rev], capture_output=True,
                          text=True, check=True).stdout.strip()


def make_pdus(n, nbytes, ues, harq, with_seq=False, order=None):
    payload = pmt.init_u8vector(nbytes, [7] * nbytes)
    rnti = [pmt.from_long(100 + u) for u in range(ues)]
    hp = [pmt.from_long(h) for h in range(harq)]
    out = []
    for i in (order if order is not None else range(n)):
        meta = pmt.make_dict()
        if with_seq:
            meta = pmt.dict_add(meta, pmt.intern("seq"), pmt.from_uint64(i))
        else:
            meta = pmt.dict_add(meta, pmt.intern("rnti"), rnti[i % ues])
            meta = pmt.dict_add(meta, pmt.intern("harq_process"), hp[(i // ues) % harq])
        out.append(pmt.cons(meta, payload))
    return out


def meta_u64(meta, key):
    v = pmt.dict_ref(meta, pmt.intern(key), pmt.PMT_NIL)
    return pmt.to_uint64(v) if pmt.is_uint64(v) else None


def wait_count(count, n, timeout):
    deadline = time.monotonic() + timeout
    while count() < n:
        if time.monotonic() > deadline:
            raise refused("only %d of %d PDUs arrived within %g s" % (count(), n, timeout))
        time.sleep(0.001)


def check_lanes(dbgs, n):
    """The front end's checks over the lanes' message_debug blocks."""
    seen = [0] * n
    lane_of_key = {}
    resets = 0
    keys = set()
    for name, dbg in dbgs.items():
        last = -1
        for i in range(dbg.num_messages()):
            meta = pmt.car(dbg.get_message(i))
            seq, key = meta_u64(meta, "seq"), meta_u64(meta, "shard_key")
            if seq is None or key is None or not 0 <= seq < n:
                raise refused("lane %s: a PDU without a valid seq / shard_key" % name)
            if seq <= last:
                raise refused("lane %s: seq %d after %d" % (name, seq, last))
            last = seq
            seen[seq] += 1
            if lane_of_key.setdefault(key, name) != name:
                raise refused("key %d in two lanes" % key)
            reset = pmt.dict_ref(meta, pmt.intern("harq_reset"), pmt.PMT_F)
            if pmt.is_true(reset):
                resets += 1
                if key in keys:
                    raise refused("key %d flagged harq_reset twice" % key)
            elif key not in keys:
                raise refused("the first PDU of key %d not flagged harq_reset" % key)
            keys.add(key)
    if any(c != 1 for c in seen):
        raise refused("seqs not each once: %d missing, %d repeated"
                      % (seen.count(0), sum(1 for c in seen if c > 1)))
    return len(keys)


def frontend_run(make_seq, make_shard, lane_sink, n, args):
    """Pushes n PDUs through sequencer -> shard sink; (rate, keys)."""
    endpoints = ["tcp://127.0.0.1:%d" % (47000 + i) for i in range(args.endpoints)]
    seqr, shard = make_seq(), make_shard(endpoints)
    dbgs = {e: lane_sink(shard, e) for e in endpoints}
    tb = gr.top_block()
    tb.msg_connect(seqr, "pdus", shard, "pdus")
    err = blocks.message_debug()
    tb.msg_connect(shard, "errors", err, "store")
    pdus = make_pdus(n, args.bytes, args.ues, args.harq)
    bb = seqr.to_basic_block()
    for p in pdus:
        bb._post(PDUS, p)
    del pdus
    t0 = time.perf_counter()
    tb.start()
    wait_count(lambda: sum(d.num_messages() for d in dbgs.values()), n, args.timeout)
    dt = time.perf_counter() - t0
    tb.stop()
    tb.wait()
    if err.num_messages():
        raise refused("front end: %d reports, the first %s"
                      % (err.num_messages(), pmt.write_string(err.get_message(0))))
    keys = check_lanes(dbgs, n)
    return n / dt, keys


def reorder_run(make_reorder, n, args):
    """Pushes n PDUs, locally out of order, through a reorder; the rate."""
    rng = random.Random(1)
    order = list(range(n))
    for i in range(0, n, args.shuffle):
        chunk = order[i:i + args.shuffle]
        rng.shuffle(chunk)
        order[i:i + args.shuffle] = chunk
    pdus = make_pdus(n, args.bytes, args.ues, args.harq, with_seq=True, order=order)
    blk = make_reorder()
    tb = gr.top_block()
    out, err = blocks.message_debug(), blocks.message_debug()
    tb.msg_connect(blk, "pdus", out, "store")
    tb.msg_connect(blk, "errors", err, "store")
    bb = blk.to_basic_block()
    for p in pdus:
        bb._post(PDUS, p)
    del pdus
    t0 = time.perf_counter()
    tb.start()
    wait_count(out.num_messages, n, args.timeout)
    dt = time.perf_counter() - t0
    tb.stop()
    tb.wait()
    if err.num_messages():
        raise refused("collector: %d reports, the first %s"
                      % (err.num_messages(), pmt.write_string(err.get_message(0))))
    for i in range(n):
        if meta_u64(pmt.car(out.get_message(i)), "seq") != i:
            raise refused("collector: output %d is not seq %d" % (i, i))
    return n / dt


def gate_run(make_gate, n, args):
    """Pushes n PDUs, as the front end sends them, through a worker's gate
    into args.gate_decoders message_debug blocks; the rate."""
    from gnuradio.gpurx.scale_out import harq_shard_key
    instance = 12345
    payload = pmt.init_u8vector(args.bytes, [7] * args.bytes)
    keys = [(harq_shard_key(100 + u, h, 0), pmt.from_long(100 + u), pmt.from_long(h))
            for h in range(args.harq) for u in range(args.ues)]
    inst = pmt.from_uint64(instance)
    pdus = []
    for i in range(n):
        key, rnti, hp = keys[i % len(keys)]
        meta = pmt.make_dict()
        meta = pmt.dict_add(meta, pmt.intern("rnti"), rnti)
        meta = pmt.dict_add(meta, pmt.intern("harq_process"), hp)
        meta = pmt.dict_add(meta, pmt.intern("seq"), pmt.from_uint64(i))
        meta = pmt.dict_add(meta, pmt.intern("shard_key"), pmt.from_uint64(key))
        meta = pmt.dict_add(meta, pmt.intern("worker_instance"), inst)
        pdus.append(pmt.cons(meta, payload))
    d = args.gate_decoders
    gate = make_gate("tcp://127.0.0.1:5601", d, 0, instance)
    tb = gr.top_block()
    outs = [blocks.message_debug() for _ in range(d)]
    err, dropped = blocks.message_debug(), blocks.message_debug()
    for i, o in enumerate(outs):
        tb.msg_connect(gate, "pdus%d" % i, o, "store")
    tb.msg_connect(gate, "errors", err, "store")
    tb.msg_connect(gate, "dropped", dropped, "store")
    bb = gate.to_basic_block()
    for p in pdus:
        bb._post(PDUS, p)
    del pdus
    t0 = time.perf_counter()
    tb.start()
    wait_count(lambda: sum(o.num_messages() for o in outs), n, args.timeout)
    dt = time.perf_counter() - t0
    tb.stop()
    tb.wait()
    if err.num_messages() or dropped.num_messages():
        raise refused("gate: %d reports, %d dropped" % (err.num_messages(),
                                                        dropped.num_messages()))
    seen = [0] * n
    for i, o in enumerate(outs):
        last = -1
        for j in range(o.num_messages()):
            meta = pmt.car(o.get_message(j))
            seq, key = meta_u64(meta, "seq"), meta_u64(meta, "shard_key")
            dec = pmt.dict_ref(meta, pmt.intern("decoder"), pmt.PMT_NIL)
            worker = pmt.dict_ref(meta, pmt.intern("worker"), pmt.PMT_NIL)
            if seq is None or not 0 <= seq < n or seq <= last:
                raise refused("gate: decoder %d: seq %s after %d" % (i, seq, last))
            last = seq
            seen[seq] += 1
            if key % d != i or not pmt.is_integer(dec) or pmt.to_long(dec) != i:
                raise refused("gate: seq %d (key %d) at decoder %d" % (seq, key, i))
            if not pmt.is_symbol(worker) or pmt.symbol_to_string(worker) != "tcp://127.0.0.1:5601":
                raise refused("gate: seq %d without its worker" % seq)
    if any(c != 1 for c in seen):
        raise refused("gate: seqs not each once")
    return n / dt


def cpp_lane_sink(shard, endpoint):
    dbg = blocks.message_debug()
    shard.set_lane_sink(endpoint, dbg, "store")
    return dbg


def python_lane_class(old):
    """A lane of the Python shard sink of the same shape as its own (a relay
    and a sink in a flowgraph of its own, PDUs posted to the sink's queue),
    its sink a message_debug instead of a zeromq.push_msg_sink."""

    class lane:
        sinks = {}

        def __init__(self, endpoint, timeout_ms):
            self.endpoint = endpoint
            self.tb = gr.top_block("lane " + endpoint)
            self.relay = old._relay()
            self.sink = blocks.message_debug()
            self.tb.msg_connect(self.relay, "pdus", self.sink, "store")
            self._bb = self.sink.to_basic_block()
            self.running = False
            self.sent = 0
            lane.sinks[endpoint] = self.sink

        def start(self):
            if not self.running:
                self.tb.start()
                self.running = True

        def stop(self, timeout_s=2.0):
            if self.running:
                self.tb.stop()
                self.tb.wait()
                self.running = False
            return True

        def depth(self):
            return self._bb.nmsgs(STORE)

        def post(self, msg):
            self.sent += 1
            self._bb._post(STORE, msg)

    return lane


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pdus", type=int, default=200000, help="PDUs per C++ run")
    p.add_argument("--python-pdus", type=int, default=20000, help="PDUs per Python run")
    p.add_argument("--bytes", type=int, default=100)
    p.add_argument("--ues", type=int, default=32)
    p.add_argument("--harq", type=int, default=8)
    p.add_argument("--endpoints", type=int, default=4)
    p.add_argument("--shuffle", type=int, default=64,
                   help="the collector's input is shuffled within runs of this many seqs")
    p.add_argument("--cpu", type=int, default=0, help="the core to pin to (-1: none)")
    p.add_argument("--gate-decoders", type=int, default=2, help="the gate's decoders")
    p.add_argument("--before", default=None, help="the commit of the Python blocks")
    p.add_argument("--gate-before", default=None, help="the commit of the Python worker_gate")
    p.add_argument("--skip-python", action="store_true")
    p.add_argument("--timeout", type=float, default=300.0)
    args = p.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    from gnuradio import gpurx

    head = full_rev("HEAD")
    print("scale-out per-PDU path: %d-byte PDUs, %d HARQ keys, %d lanes, pinned to %s"
          % (args.bytes, args.ues * args.harq, args.endpoints,
             "core %d" % args.cpu if args.cpu >= 0 else "no core"))
    rows = []
    failed = False
    impls = [("C++ (%s)" % head, gpurx, cpp_lane_sink, args.pdus, ("front end", "collector"))]
    if not args.skip_python:
        rev = args.before or before_commit()
        old = load_python_blocks(rev)
        lane = python_lane_class(old)
        old._lane = lane
        impls.append(("Python (%s)" % full_rev(rev), old,
                      lambda shard, e: lane.sinks[e], args.python_pdus, ("front end", "collector")))
    impls.append(("C++ (%s)" % head, gpurx, None, args.pdus, ("gate",)))
    if not args.skip_python:
        gate_rev = args.gate_before or before_commit("worker_gate")
        old_gate = load_python_blocks(gate_rev, "gpurx_gate_before")
        impls.append(("Python (%s)" % full_rev(gate_rev), old_gate, None, args.python_pdus,
                      ("gate",)))
    for label, mod, lane_sink, n, whats in impls:
        for what in whats:
            try:
                if what == "front end":
                    rate, keys = frontend_run(lambda: mod.pdu_sequencer("harq"),
                                              lambda eps: mod.pdu_shard_sink(eps, max_queue=0),
                                              lane_sink, n, args)
                elif what == "gate":
                    rate = gate_run(mod.worker_gate, n, args)
                else:
                    rate = reorder_run(lambda: mod.pdu_reorder(4096, 60000), n, args)
                rows.append((what, label, n, "%.0f" % rate))
            except refused as e:
                failed = True
                rows.append((what, label, n, "refused: %s" % e))
            print("  %-10s %-22s %8d PDUs  %s TB/s" % rows[-1], flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
