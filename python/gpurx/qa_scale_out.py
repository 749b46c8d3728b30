#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Scale-out (docs/scale-out.md): pdu_sequencer, pdu_shard_sink (consistent
hashing), worker_monitor, pdu_reorder, and gpurx-worker processes.

- the hash ring: removing an endpoint moves only its keys, adding one takes
  only keys that move to it;
- the sequencer's seq and shard_key; the reorder's order, timeout, window,
  duplicates, late PDUs and workers' drop notices; the shard sink over real
  ZMQ sockets, an endpoint removed and added while running, the first PDU
  of each moved key flagged harq_reset and reported, a full lane's PDUs
  dropped and reported; the worker monitor's commands from heartbeats; bad
  parameters named;
- issue 35: a bad rnti / harq_process / codeword reported and dropped by
  the sequencer and the worker gate, which go on; an exception in a
  handler reported, the block going on; a huge seq jump one "resync" at
  once; "late" told from "duplicate"; endpoints checked and named; workers
  started after the front end began sending lose nothing (pending until
  their first heartbeat), one that never starts removed at startup_ms;
- end to end on 127.0.0.1, in separate processes: a front end (this file
  with --frontend: sequencer + shard sink, + worker monitor with
  heartbeats), three gpurx-worker processes (CPU backend), and the
  collector (this process: pull_msg_source + pdu_reorder). Transport blocks
  with HARQ retransmissions (rv 0, 2, 3, 1 while the CRC fails, decided by
  the reference decoder) come out once each, in seq order, bit-exact (bits,
  crc_ok, cb_crc, iterations, transmissions) with one in-process
  lte_sch_decoder_pdu fed the same PDUs, and every transmission of a TB was
  decoded by the worker its key hashes to (so "transmissions" counts the
  combining there);
- examples/scale_out_worker.grc compiled by grcc (Skipped without it) as
  one of three workers: the same checks on 2000 transmissions
  (SCALE_OUT_GRC_TBS), and the GRC worker decoded its share; the
  worker_gate and worker_heartbeat blocks alone;
- one worker with two decoders (--decoders 2; on CUDA --devices all):
  bit-exact with the in-process decoder, each PDU decoded by decoder
  shard_key % 2, every retransmission combined there;
- a worker killed mid-run: what it had not sent is reported missing
  ("timeout"), everything else comes out in order;
- a worker killed mid-run with heartbeats: the monitor removes it, its
  keys move (reported, their first PDU flagged harq_reset and decoded
  alone: transmissions 1, right bits where the CRC passes); restarted, it
  is added back, its keys move back (reported, flagged) and it decodes
  again; gaps only for its in-flight PDUs;
- a slow worker (a small --max-queue, all PDUs at once): what it drops is
  reported by the collector ("dropped"), in order, without timeouts.

GPURX_TEST_BACKEND=cuda runs the workers and the reference on CUDA (Skipped
without a GPU). SCALE_OUT_TBS sets the number of transmissions (default
10000).

--bench measures throughput (docs/scale-out.md): one in-process decoder
against 1, 2, 3 (or given) worker processes; --bench --help lists its
options."""
import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx, zeromq

from qa_helpers import BACKEND, pmt_int, require_backend_or_skip, wait_for
from qa_sch_helpers import encode, meta_get, run_pdus, stop_or_exit, tb_meta
from gnuradio.gpurx.scale_out import (_worker_gate, bounded_ring, harq_shard_key, hash_ring,
                                      usable_gpus)
from qa_shard_model import ref_router, replay

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "..", "..", "apps", "gpurx_worker.py")
GRC_BLOCKS = os.path.abspath(os.path.join(HERE, "..", "..", "grc"))
GRC_WORKER = os.path.abspath(os.path.join(HERE, "..", "..", "examples", "scale_out_worker.grc"))
PDUS = pmt.intern("pdus")

# The traffic: 32 UEs x 8 HARQ processes (256 keys); a TB of 1000 bits in
# G = 1200 QPSK code bits per transmission, at a noise where rv 0 alone
# mostly fails and rv 0 + rv 2 mostly passes.
TBS, G, QM = 1000, 1200, 2
N_UE, N_HARQ = 32, 8
SIGMA = 0.72
RVS = (0, 2, 3, 1)
POSITION = {rv: i + 1 for i, rv in enumerate(RVS)}
HARQ_BUFFERS = 512  # more than the 256 keys: no eviction anywhere
MAX_TBS = 4000      # sizes the soft buffers (1 code block each, not 16)


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def str_of(meta, key):
    return pmt.symbol_to_string(meta_get(meta, key))


def int_of(meta, key):
    return pmt_int(meta_get(meta, key))


def flag_of(meta, key):
    v = meta_get(meta, key)
    return pmt.is_bool(v) and pmt.to_bool(v)


def py_of(v):
    """A pmt value as plain Python (dicts, str, int, bool, lists)."""
    if pmt.is_dict(v):
        items = pmt.dict_items(v)
        return {pmt.symbol_to_string(pmt.car(kv)): py_of(pmt.cdr(kv))
                for kv in (pmt.nth(i, items) for i in range(pmt.length(items)))}
    if pmt.is_bool(v):
        return pmt.to_bool(v)
    if pmt.is_symbol(v):
        return pmt.symbol_to_string(v)
    if pmt.is_uint64(v) or pmt.is_integer(v):
        return pmt_int(v)
    if pmt.is_real(v):
        return pmt.to_double(v)
    return pmt.write_string(v)


def int8_llrs(bits, sigma, rng):
    y = (2.0 * bits.astype(np.float64) - 1.0) + sigma * rng.standard_normal(len(bits))
    return np.clip(np.round(8 * 2.0 * y / sigma ** 2), -127, 127).astype(np.int8)


class pdu_server:
    """A PDU block in a running flowgraph: process(pdus) posts them and
    returns their outputs (in arrival order); last_seconds: from the first
    post to the last output."""

    def __init__(self, blk):
        self.tb = gr.top_block()
        self.blk = blk
        self.bb = blk.to_basic_block()
        self.out, self.err = blocks.message_debug(), blocks.message_debug()
        self.tb.msg_connect(blk, "pdus", self.out, "store")
        self.tb.msg_connect(blk, "errors", self.err, "store")
        self.tb.start()
        self.n = 0
        self.last_seconds = 0.0

    def process(self, pdus):
        t0 = time.monotonic()
        for p in pdus:
            self.bb._post(PDUS, p)
        self.n += len(pdus)
        if not wait_for(lambda: self.out.num_messages() >= self.n, 600, 0.0005):
            raise AssertionError("%d of %d came out" % (self.out.num_messages(), self.n))
        self.last_seconds = time.monotonic() - t0
        if self.err.num_messages():
            raise AssertionError(pmt.write_string(self.err.get_message(0)))
        return [self.out.get_message(i) for i in range(self.n - len(pdus), self.n)]

    def close(self):
        stop_or_exit(self.tb)


def reference_decoder(max_tbs=MAX_TBS, harq_buffers=HARQ_BUFFERS, iterations=6,
                      early_termination=True, cpu_threads=0, backend=None):
    return gpurx.lte_sch_decoder_pdu(
        "dlsch", iterations, "scaled-max-log-map", "int8", harq_buffers, early_termination,
        max_tbs, 262144, "auto",
        options=gpurx.pipeline_options(backend=backend or BACKEND, cpu_threads=cpu_threads))


def make_traffic(n_pdus, seed=1):
    """HARQ traffic of about n_pdus transmissions: (int8 LLR PDUs without
    seq, the number of TBs, truth) where truth[i] = (TB index, its bits) of
    PDU i. Subframe t serves every UE on HARQ process t % 8; a TB is
    retransmitted (next rv, same ndi, scrambled for its own subframe) 8
    subframes later while an in-process decoder (the HARQ controller here)
    says its CRC failed, at most 4 times; then the process takes a new TB
    (ndi toggled)."""
    rng = np.random.default_rng(seed)
    enc = pdu_server(gpurx.lte_sch_encoder_pdu("dlsch", max_tbs=MAX_TBS))
    ctl = pdu_server(reference_decoder())
    pdus, truth = [], []
    state = {}  # (ue, hp) -> [bits, tx index, ndi, TB index]
    ndis = {}
    n_tb = 0
    try:
        t = 0
        while len(pdus) < n_pdus:
            hp = t % N_HARQ
            metas, bits_in, tbs = [], [], []
            for ue in range(N_UE):
                if (ue, hp) not in state:
                    ndis[(ue, hp)] = ndis.get((ue, hp), 1) ^ 1
                    state[(ue, hp)] = [rng.integers(0, 2, TBS).astype(np.uint8), 0, ndis[(ue, hp)],
                                       n_tb]
                    n_tb += 1
                bits, k, ndi, tb = state[(ue, hp)]
                metas.append(dict(tbs=TBS, g=G, qm=QM, rv=RVS[k], rnti=100 + ue, cell_id=7,
                                  subframe=t % 10, harq_process=hp, ndi=ndi, codeword=0))
                bits_in.append(pmt.cons(tb_meta(**metas[-1]),
                                        pmt.init_u8vector(TBS, bits.tolist())))
                tbs.append((tb, bits))
            cws = enc.process(bits_in)
            round_pdus = []
            for m, cw in zip(metas, cws):
                llr = int8_llrs(np.array(pmt.u8vector_elements(pmt.cdr(cw)), dtype=np.uint8),
                                SIGMA, rng)
                round_pdus.append(pmt.cons(tb_meta(**m), pmt.init_s8vector(len(llr), llr.tolist())))
            for ue, o in enumerate(ctl.process(round_pdus)):
                st = state[(ue, hp)]
                st[1] += 1
                if pmt.to_bool(meta_get(pmt.car(o), "crc_ok")) or st[1] == len(RVS):
                    del state[(ue, hp)]
            pdus += round_pdus
            truth += tbs
            t += 1
    finally:
        enc.close()
        ctl.close()
    return pdus, n_tb, truth


# Heavy traffic for the bench: TBS 75376 (13 code blocks) in G = 86400
# int8 LLRs (64-QAM), at a noise where every TB decodes at its first
# transmission; a pool of distinct TBs cycled, each transmission a new TB
# (ndi toggled per HARQ key).
HEAVY_TBS, HEAVY_G, HEAVY_QM, HEAVY_SIGMA = 75376, 86400, 6, 0.35


def make_pool(n, seed=2):
    """n int8 LLR PDUs of distinct heavy TBs (rnti 200 + i) and their bits.
    The LLRs travel as a u8vector (the decoder with input "int8" reads its
    bytes as int8): GNU Radio deserializes a u8vector with one copy, an
    s8vector element by element (13 against 103 microseconds for 86400)."""
    rng = np.random.default_rng(seed)
    bits = [rng.integers(0, 2, HEAVY_TBS).astype(np.uint8) for _ in range(n)]
    metas = [dict(tbs=HEAVY_TBS, g=HEAVY_G, qm=HEAVY_QM, rv=0, rnti=200 + i, cell_id=7,
                  subframe=i % 10, harq_process=0, ndi=0, codeword=0) for i in range(n)]
    cws = encode("dlsch", [(b, m) for b, m in zip(bits, metas)], max_tbs=HEAVY_TBS)
    pool = []
    for m, cw in zip(metas, cws):
        llr = int8_llrs(np.asarray(cw, dtype=np.uint8), HEAVY_SIGMA, rng)
        pool.append(pmt.cons(tb_meta(**m), pmt.init_u8vector(len(llr), llr.view(np.uint8).tolist())))
    return pool, bits


def cycled(pool, i):
    """Transmission i of a pool cycled: pool[i % P] as a new TB (harq
    process (i // P) % 8, ndi toggled each time its key comes back)."""
    p = len(pool)
    meta = pmt.car(pool[i % p])
    meta = pmt.dict_add(meta, pmt.intern("harq_process"), pmt.from_long((i // p) % 8))
    meta = pmt.dict_add(meta, pmt.intern("ndi"), pmt.from_long((i // (8 * p)) % 2))
    return pmt.cons(meta, pmt.cdr(pool[i % p]))


def write_pdus(path, pdus):
    with open(path, "wb") as f:
        for p in pdus:
            b = pmt.serialize_str(p)
            f.write(struct.pack(">I", len(b)))
            f.write(b)


def read_pdus(path):
    out = []
    with open(path, "rb") as f:
        data = f.read()
    i = 0
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        out.append(pmt.deserialize_str(data[i + 4:i + 4 + n]))
        i += 4 + n
    return out


class json_lines(gr.basic_block):
    """Writes each message (a dict) on "in" as a line of JSON to a file."""

    def __init__(self, path):
        gr.basic_block.__init__(self, "json_lines", None, None)
        self.f = open(path, "a")
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)

    def handle(self, msg):
        self.f.write(json.dumps(py_of(msg)) + "\n")
        self.f.flush()


def frontend_main(argv):
    """--frontend: posts a file's PDUs through pdu_sequencer ->
    pdu_shard_sink (optionally with a worker_monitor on heartbeats), then
    runs until SIGTERM."""
    p = argparse.ArgumentParser(prog="qa_scale_out.py --frontend")
    p.add_argument("--pdus", required=True)
    p.add_argument("--endpoints", required=True)
    p.add_argument("--pace", type=float, default=0.0, help="PDUs a second (0: all at once)")
    p.add_argument("--repeat", type=int, default=0,
                   help="cycle the file's PDUs to this many transmissions, each a new TB (0: once)")
    p.add_argument("--max-queue", type=int, default=1024)
    p.add_argument("--balance", default="bounded", choices=("bounded", "ring"))
    p.add_argument("--heartbeats", default=None, help="SUB endpoint (binds) for a worker_monitor")
    p.add_argument("--monitor-timeout-ms", type=int, default=1000)
    p.add_argument("--reports", default=None, help="JSON lines of the shard sink's and monitor's errors")
    p.add_argument("--hold-at", type=int, default=0,
                   help="after posting this many PDUs, wait for SIGUSR1 (0: never)")
    a = p.parse_args(argv)
    endpoints = a.endpoints.split(",")
    pdus = read_pdus(a.pdus)
    n = a.repeat or len(pdus)
    tb = gr.top_block()
    seqr = gpurx.pdu_sequencer("harq")
    shard = gpurx.pdu_shard_sink(endpoints, max_queue=a.max_queue, balance=a.balance)
    tb.msg_connect(seqr, "pdus", shard, "pdus")
    if a.reports:
        rep = json_lines(a.reports)
        tb.msg_connect(shard, "errors", rep, "in")
    if a.heartbeats:
        hb = zeromq.sub_msg_source(a.heartbeats, 100, True)
        mon = gpurx.worker_monitor(a.monitor_timeout_ms, endpoints)
        tb.msg_connect(hb, "out", mon, "heartbeats")
        tb.msg_connect(mon, "control", shard, "control")
        if a.reports:
            tb.msg_connect(mon, "errors", rep, "in")
    done = []
    go = threading.Event()
    signal.signal(signal.SIGTERM, lambda *args: (done.append(1), go.set()))
    signal.signal(signal.SIGUSR1, lambda *args: go.set())
    tb.start()
    bb = seqr.to_basic_block()
    sys.stderr.write("frontend: posting at %.6f\n" % time.time())
    sys.stderr.flush()
    t0, cpu0 = time.monotonic(), time.process_time()
    for i in range(n):
        if a.hold_at and i == a.hold_at:
            sys.stderr.write("frontend: holding after %d PDUs\n" % i)
            sys.stderr.flush()
            while not go.wait(0.05):
                pass
            t0 = time.monotonic() - i / a.pace if a.pace > 0 else t0
        if pace_wait(a.pace, i, t0, done):
            break
        bb._post(PDUS, cycled(pdus, i) if a.repeat else pdus[i])
    sys.stderr.write("frontend: %d PDUs posted in %.2f s\n" % (n, time.monotonic() - t0))
    sys.stderr.flush()
    while not done:
        time.sleep(0.05)
    sys.stderr.write("frontend: CPU %.2f s since posting\n" % (time.process_time() - cpu0))
    tb.stop()
    tb.wait()
    sys.stderr.write("frontend: sent %s, %s\n" % (shard.sent(), shard.stats()))
    sys.stderr.flush()
    return 0


def pace_wait(pace, i, t0, done):
    if pace > 0:
        ahead = i / pace - (time.monotonic() - t0)
        if ahead > 0:
            time.sleep(ahead)
    return bool(done)


class deployment:
    """Workers, a front end and the collector (this process) on 127.0.0.1.

    decoders: each worker's --decoders (None: its default, one per GPU on
    CUDA, 1 on the CPU). heartbeat: workers publish heartbeats to the front end, whose
    worker_monitor removes and adds endpoints (monitor_timeout_ms). sink: a
    block taking the reorder's PDUs on "in" instead of a message_debug.
    repeat: the front end cycles pdus (a pool) to that many transmissions.
    worker_cmds: {worker index: f(endpoint, collector endpoint) -> argv}, a
    program other than gpurx-worker for those workers (one that logs
    ": listening" or ": started, instance" once it runs)."""

    def __init__(self, pdus, n_workers=3, pace=0.0, window=4096, timeout_ms=500,
                 cpu_threads=1, devices=None, heartbeat=False, monitor_timeout_ms=1000,
                 heartbeat_interval_ms=100, worker_max_queue=1024, frontend_max_queue=1024,
                 repeat=0, sink=None, max_tbs=MAX_TBS, harq_buffers=HARQ_BUFFERS,
                 iterations=6, early_termination=True, start_timeout_s=120, hold=0,
                 backend=None, decoders=None, worker_cmds=None):
        ports = free_ports(n_workers + 2)
        self.collect = "tcp://127.0.0.1:%d" % ports[0]
        self.heartbeats = "tcp://127.0.0.1:%d" % ports[1] if heartbeat else None
        self.endpoints = ["tcp://127.0.0.1:%d" % p for p in ports[2:]]
        self.custom = {self.endpoints[i]: f for i, f in (worker_cmds or {}).items()}
        self.tmp = tempfile.TemporaryDirectory()
        self.pdu_file = os.path.join(self.tmp.name, "pdus.bin")
        self.report_file = os.path.join(self.tmp.name, "reports.jsonl")
        write_pdus(self.pdu_file, pdus)
        self.worker_opts = ["--channel", "dlsch", "--backend", backend or BACKEND, "--input", "int8",
                            "--harq-buffers", str(harq_buffers), "--cpu-threads", str(cpu_threads),
                            "--max-tbs", str(max_tbs), "--max-queue", str(worker_max_queue),
                            "--iterations", str(iterations), "--log-interval", "2"]
        if not early_termination:
            self.worker_opts.append("--no-early-termination")
        if decoders:
            self.worker_opts += ["--decoders", str(decoders)]
        if heartbeat:
            self.worker_opts += ["--heartbeat", self.heartbeats, "--heartbeat-interval-ms",
                                 str(heartbeat_interval_ms)]
        # The collector binds first.
        self.tb = gr.top_block()
        self.src = zeromq.pull_msg_source(self.collect, 100, True)
        self.reorder = gpurx.pdu_reorder(window, timeout_ms)
        self.out, self.err = blocks.message_debug(), blocks.message_debug()
        self.tb.msg_connect(self.src, "out", self.reorder, "pdus")
        if sink is None:
            self.tb.msg_connect(self.reorder, "pdus", self.out, "store")
        else:
            self.tb.msg_connect(self.reorder, "pdus", sink, "in")
        self.tb.msg_connect(self.reorder, "errors", self.err, "store")
        self.tb.start()
        self.cpu0 = 0.0
        self.procs, self.logs = [], []
        self.workers = {}
        self.devices = {}
        for i, e in enumerate(self.endpoints):
            # devices: one entry per worker (e.g. ["0", "1"] or ["all"]), the
            # CUDA workers' GPUs; cycled when shorter.
            self.devices[e] = ["--devices", devices[i % len(devices)]] if devices else []
            self.workers[e] = self._spawn(self.worker_cmd(e), "worker")
        # The front end starts once every worker listens (their start-up,
        # importing GNU Radio, is not in the figures).
        if not self.wait_listening(n_workers, start_timeout_s):
            logs = self.close(show_logs=False)
            raise AssertionError("the workers did not start:\n" + logs)
        self.t0 = time.monotonic()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.cpu0 = usage.ru_utime + usage.ru_stime
        cmd = [os.path.abspath(__file__), "--frontend", "--pdus", self.pdu_file,
               "--endpoints", ",".join(self.endpoints), "--pace", str(pace),
               "--max-queue", str(frontend_max_queue), "--reports", self.report_file]
        if repeat:
            cmd += ["--repeat", str(repeat)]
        if hold:
            cmd += ["--hold-at", str(hold)]
        if heartbeat:
            cmd += ["--heartbeats", self.heartbeats, "--monitor-timeout-ms",
                    str(monitor_timeout_ms)]
        self.frontend = self._spawn(cmd, "frontend")

    def release_hold(self):
        """Lets the front end go on after --hold-at."""
        if not wait_for(lambda: "holding after" in self.log_text("frontend"), 120, 0.05):
            raise AssertionError("the front end did not reach its hold")
        self.frontend.send_signal(signal.SIGUSR1)

    def worker_cmd(self, e):
        if e in self.custom:
            return self.custom[e](e, self.collect)
        return [WORKER, "--listen", e, "--send", self.collect] + self.worker_opts + self.devices[e]

    def wait_listening(self, n, timeout_s=120):
        ok = wait_for(lambda: self.listening() >= n or self.any_worker_exited(), timeout_s, 0.05)
        return ok and not self.any_worker_exited()

    def listening(self):
        """Workers that said they run: gpurx-worker's ": listening", a GRC
        worker's gate's ": started, instance"."""
        return len(re.findall(r": (?:listening|started, instance)", self.log_text()))

    def any_worker_exited(self):
        return any(p.poll() is not None for p in self.workers.values())

    def restart(self, e):
        """Starts a new worker process at endpoint e (the old one dead)."""
        n = self.listening()
        self.workers[e] = self._spawn(self.worker_cmd(e), "worker")
        if not self.wait_listening(n + 1):
            raise AssertionError("the restarted worker did not start")

    def _spawn(self, args, name):
        path = os.path.join(self.tmp.name, "%s%d.log" % (name, len(self.logs)))
        with open(path, "wb") as log:
            p = subprocess.Popen([sys.executable, "-B"] + args, stdout=log,
                                 stderr=subprocess.STDOUT)
        self.procs.append(p)
        self.logs.append((name, path))
        return p

    def log_text(self, only=None):
        out = []
        for name, path in self.logs:
            if only is not None and name != only:
                continue
            with open(path, "rb") as r:
                out.append("--- %s\n%s" % (name, r.read().decode(errors="replace")))
        return "".join(out)

    def posting_time(self):
        """When the front end began posting (time.time()), or None."""
        for line in self.log_text("frontend").splitlines():
            if line.startswith("frontend: posting at "):
                return float(line.split()[-1])
        return None

    def reports(self):
        """The front end's reports (shard sink and monitor), as dicts."""
        if not os.path.exists(self.report_file):
            return []
        with open(self.report_file) as f:
            return [json.loads(line) for line in f if line.strip()]

    def outputs(self):
        return [self.out.get_message(i) for i in range(self.out.num_messages())]

    def errors(self):
        return [self.err.get_message(i) for i in range(self.err.num_messages())]

    def close(self, show_logs=True):
        """Stops everything; returns the logs. cpu: CPU seconds (user +
        system) of the front end, of the workers together, and of this
        process (the collector) since the deployment started."""
        for p in self.procs:
            if p.returncode is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        stop_or_exit(self.tb)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        text = self.log_text()
        # CPU seconds during the run: the front end's while posting, the
        # workers' since they listened (start-up left out), this process's
        # (collector) since the front end started.
        self.cpu = {"frontend": sum(map(float, re.findall(r"frontend: CPU ([\d.]+) s", text))),
                    "worker": sum(map(float, re.findall(r"CPU ([\d.]+) s since it listened", text))),
                    "collector": usage.ru_utime + usage.ru_stime - self.cpu0}
        if show_logs:
            sys.stdout.write(text)
            sys.stdout.flush()
        self.tmp.cleanup()
        return text


def pdu(fields, n=4, seq=None):
    meta = tb_meta(**fields)
    if seq is not None:
        meta = pmt.dict_add(meta, pmt.intern("seq"), pmt.from_uint64(seq))
    return pmt.cons(meta, pmt.init_s8vector(n, [1] * n))


class qa_scale_out_blocks(unittest.TestCase):

    def test_001_ring_moves_only_the_removed_endpoints_keys(self):
        eps = ["tcp://10.0.0.%d:5600" % i for i in range(1, 5)]
        ring = hash_ring(eps)
        keys = [harq_shard_key(r, h, c) for r in range(100, 400) for h in range(8) for c in (0, 1)]
        before = {k: ring.lookup(k) for k in keys}
        share = {e: sum(1 for v in before.values() if v == e) / len(keys) for e in eps}
        for e in eps:  # 64 virtual nodes: every share within 0.12..0.40 of 1/4
            self.assertTrue(0.12 < share[e] < 0.40, share)
        ring.remove(eps[1])
        after = {k: ring.lookup(k) for k in keys}
        moved = [k for k in keys if before[k] != after[k]]
        self.assertTrue(moved)
        self.assertTrue(all(before[k] == eps[1] for k in moved), "a key of another endpoint moved")
        self.assertEqual(len(moved), sum(1 for v in before.values() if v == eps[1]))
        ring.add("tcp://10.0.0.9:5600")
        again = {k: ring.lookup(k) for k in keys}
        self.assertTrue(all(again[k] == "tcp://10.0.0.9:5600"
                            for k in keys if again[k] != after[k]))
        # Stable across processes: a fixed value (BLAKE2b, not Python's hash()).
        self.assertEqual(harq_shard_key(100, 3, 0), harq_shard_key(100, 3, 0))
        self.assertEqual(hash_ring(eps).lookup(12345), hash_ring(list(reversed(eps))).lookup(12345))

    def test_001a_bounded_loads_balance_and_moves(self):
        # The bench's keys: 64 UEs x 8 HARQ processes, in the order its
        # traffic brings them. For 1..8 endpoints the busiest holds at most
        # ceil(1.01 * 512 / N) keys (the plain ring: up to 1.36 x even);
        # removing an endpoint moves exactly its keys, adding one moves
        # exactly floor(keys / N) keys, all to it; and a key stays where it
        # was placed (every retransmission finds its buffer).
        keys = [harq_shard_key(200 + i % 64, (i // 64) % 8) for i in range(512)]
        for n in range(1, 9):
            eps = ["tcp://10.0.0.%d:5601" % i for i in range(1, n + 1)]
            ring = bounded_ring(eps)
            placed = {k: ring.place(k) for k in keys}
            bound = -(-101 * 512 // (100 * n))
            counts = [sum(1 for e in placed.values() if e == x) for x in eps]
            self.assertEqual(sum(counts), 512)
            self.assertLessEqual(max(counts), bound, (n, counts))
            self.assertEqual(ring.counts(), dict(zip(eps, counts)))
            self.assertEqual({k: ring.place(k) for k in keys}, placed, "a placed key moved")
            # The reference model (plain code, exact fractions) agrees.
            ref = ref_router(eps)
            self.assertEqual({k: ref.route(k) for k in keys}, placed)
            plain = hash_ring(eps)
            plain_max = max(sum(1 for k in keys if plain.lookup(k) == x) for x in eps)
            if n == 8:
                self.assertGreater(plain_max, bound)  # what bounded loads fix
            if n == 1:
                continue
            # Remove one: only its keys move, and the bound holds for N - 1.
            gone = eps[n // 2]
            moved = ring.remove(gone)
            after = {k: ring.lookup(k) for k in keys}
            changed = [k for k in keys if after[k] != placed[k]]
            self.assertEqual(len(changed), counts[n // 2])
            self.assertTrue(all(placed[k] == gone for k in changed))
            self.assertEqual(sorted(moved), sorted(changed))
            self.assertNotIn(gone, after.values())
            self.assertLessEqual(max(ring.counts().values()), -(-101 * 512 // (100 * (n - 1))))
            ref.remove(gone)
            self.assertEqual({k: ref.route(k) for k in keys}, after)
            # Add one back (a new name): it takes floor(512 / N), only keys
            # going to it move, the bound for N holds.
            new = "tcp://10.0.1.1:5601"
            taken = ring.add(new)
            again = {k: ring.lookup(k) for k in keys}
            changed = [k for k in keys if again[k] != after[k]]
            self.assertEqual(len(changed), 512 // n)
            self.assertEqual(len(taken), 512 // n)
            self.assertTrue(all(again[k] == new for k in changed))
            self.assertEqual({k: after[k] for k in changed}, taken)
            self.assertLessEqual(max(ring.counts().values()), bound, (n, ring.counts()))
            ref.add(new)
            self.assertEqual({k: ref.owner[k] for k in keys}, again)
            # A new key after the change: still within the bound.
            for k in range(1000, 1064):
                ring.place(k)
            self.assertLessEqual(max(ring.counts().values()), -(-101 * 576 // (100 * n)))
        with self.assertRaises(ValueError) as ctx:
            bounded_ring(["tcp://a:1"], eps=0)
        self.assertIn("eps", str(ctx.exception))

    def test_002_sequencer(self):
        seqr = gpurx.pdu_sequencer("harq")
        pdus = [pdu(dict(rnti=100 + i % 3, harq_process=i % 8)) for i in range(10)]
        pdus.insert(4, pdu(dict(harq_process=1)))  # no rnti: reported, takes no seq
        outs, errs = run_pdus(seqr, pdus, 10, 1)
        self.assertEqual(len(outs), 10)
        self.assertEqual([int_of(pmt.car(o), "seq") for o in outs], list(range(10)))
        self.assertTrue(pmt.is_uint64(meta_get(pmt.car(outs[0]), "seq")))
        for i, o in enumerate(outs):
            self.assertEqual(int_of(pmt.car(o), "shard_key"), harq_shard_key(100 + i % 3, i % 8, 0))
        self.assertEqual(len(errs), 1)
        self.assertIn("rnti", pmt.symbol_to_string(meta_get(errs[0], "reason")))
        rr = gpurx.pdu_sequencer("round_robin")
        outs, _ = run_pdus(rr, [pdu({}) for _ in range(5)], 5)
        self.assertEqual([int_of(pmt.car(o), "shard_key") for o in outs], list(range(5)))

    def test_003_reorder_order_duplicates_late(self):
        order = [3, 1, 0, 2, 2, 5, 4, 7, 6, 0]
        outs, errs = run_pdus(gpurx.pdu_reorder(16, 10000), [pdu({}, seq=s) for s in order], 8, 2)
        self.assertEqual([int_of(pmt.car(o), "seq") for o in outs], list(range(8)))
        self.assertEqual([(pmt.symbol_to_string(meta_get(e, "reason")), int_of(e, "seq"))
                          for e in errs], [("duplicate", 2), ("duplicate", 0)])

    def test_004_reorder_timeout_and_window(self):
        # seq 2 never comes: skipped after the timeout, the stream goes on;
        # it comes later: "late".
        blk = gpurx.pdu_reorder(16, 200)
        tb = gr.top_block()
        out, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(blk, "pdus", out, "store")
        tb.msg_connect(blk, "errors", err, "store")
        tb.start()
        try:
            post = lambda s: blk.to_basic_block()._post(pmt.intern("pdus"), pdu({}, seq=s))
            t0 = time.monotonic()
            for s in (0, 1, 3, 4):
                post(s)
            self.assertTrue(wait_for(lambda: out.num_messages() >= 2, 5))
            time.sleep(0.1)
            self.assertEqual(out.num_messages(), 2, "seq 3 came out before seq 2's timeout")
            self.assertTrue(wait_for(lambda: out.num_messages() >= 4, 5))
            waited = time.monotonic() - t0
            self.assertTrue(0.15 < waited < 2.0, waited)
            post(2)
            self.assertTrue(wait_for(lambda: err.num_messages() >= 2, 5))
            errs = [(pmt.symbol_to_string(meta_get(e, "reason")), int_of(e, "seq"))
                    for e in (err.get_message(i) for i in range(err.num_messages()))]
            self.assertEqual(errs, [("timeout", 2), ("late", 2)])
            # A PDU 16 or more beyond the next due forces the oldest gaps out.
            post(5 + 17)
            self.assertTrue(wait_for(lambda: err.num_messages() >= 4, 5))
            errs = [(pmt.symbol_to_string(meta_get(e, "reason")), int_of(e, "seq"))
                    for e in (err.get_message(i) for i in range(2, err.num_messages()))]
            self.assertEqual(errs, [("window_full", 5), ("window_full", 6)])
            self.assertEqual(blk.stats()["next_seq"], 7)
        finally:
            stop_or_exit(tb)
        self.assertEqual([int_of(pmt.car(out.get_message(i)), "seq")
                          for i in range(out.num_messages())], [0, 1, 3, 4])

    def test_005_shard_sink_routes_by_ring_and_endpoints_change_live(self):
        ports = free_ports(4)
        eps = ["tcp://127.0.0.1:%d" % p for p in ports]
        rx = gr.top_block()
        dbg = {}
        for e in eps:
            src = zeromq.pull_msg_source(e, 100, True)
            dbg[e] = blocks.message_debug()
            rx.msg_connect(src, "out", dbg[e], "store")
        rx.start()
        tx = gr.top_block()
        seqr = gpurx.pdu_sequencer("harq")
        shard = gpurx.pdu_shard_sink(eps[:3])
        tx.msg_connect(seqr, "pdus", shard, "pdus")
        tx.start()
        try:
            fields = [dict(rnti=100 + i % 40, harq_process=i % 8) for i in range(320)]
            post = lambda f: seqr.to_basic_block()._post(pmt.intern("pdus"), pdu(f))
            for f in fields[:160]:
                post(f)
            total = lambda: sum(d.num_messages() for d in dbg.values())
            self.assertTrue(wait_for(lambda: total() >= 160, 10))
            # Where each seq must go (bounded loads: by the order keys came).
            keys = [harq_shard_key(f["rnti"], f["harq_process"]) for f in fields]
            route, _, _ = replay(keys, eps[:3], [(159, "remove", eps[1]), (159, "add", eps[3])])
            for e in eps:
                for i in range(dbg[e].num_messages()):
                    meta = pmt.car(dbg[e].get_message(i))
                    self.assertEqual(route[int_of(meta, "seq")], e)
            counts = {e: dbg[e].num_messages() for e in eps}
            self.assertEqual(counts[eps[3]], 0)
            self.assertTrue(all(counts[e] > 0 for e in eps[:3]), counts)
            # eps[1] goes, eps[3] comes, while running.
            shard.remove_endpoint(eps[1])
            shard.add_endpoint(eps[3])
            for f in fields[160:]:
                post(f)
            self.assertTrue(wait_for(lambda: total() >= 320, 10))
            time.sleep(0.2)
            self.assertEqual(total(), 320)
            self.assertEqual(dbg[eps[1]].num_messages(), counts[eps[1]], "removed, still sent to")
            for e in (eps[0], eps[2], eps[3]):
                for i in range(counts[e], dbg[e].num_messages()):
                    meta = pmt.car(dbg[e].get_message(i))
                    self.assertEqual(route[int_of(meta, "seq")], e)
            self.assertGreater(dbg[eps[3]].num_messages(), 0, "the added endpoint took no keys")
            self.assertEqual(shard.sent()[eps[1]], counts[eps[1]])
            # Every PDU reached its sink: nothing pending in any lane, the
            # removed endpoint's included.
            self.assertEqual(shard.pending(), {e: 0 for e in eps})
        finally:
            stop_or_exit(tx)
            stop_or_exit(rx)

    def test_006_bad_parameters_named(self):
        for make, word in ((lambda: gpurx.pdu_sequencer("rnti"), "key"),
                           (lambda: gpurx.pdu_shard_sink([]), "endpoints"),
                           (lambda: gpurx.pdu_shard_sink(["localhost:5"]), "endpoints"),
                           (lambda: gpurx.pdu_shard_sink(["tcp://a:1", "tcp://a:1"]), "endpoints"),
                           (lambda: gpurx.pdu_shard_sink(["tcp://a:1"], vnodes=0), "vnodes"),
                           (lambda: gpurx.pdu_reorder(0), "window"),
                           (lambda: gpurx.pdu_reorder(16, 0), "timeout_ms"),
                           (lambda: gpurx.pdu_reorder(16, -5), "timeout_ms"),
                           (lambda: gpurx.pdu_shard_sink(["tcp://a:1"], max_queue=-1), "max_queue"),
                           (lambda: gpurx.pdu_shard_sink(["tcp://a:1"], max_keys=0), "max_keys"),
                           (lambda: gpurx.pdu_shard_sink(["tcp://a:1"], balance="x"), "balance"),
                           (lambda: gpurx.pdu_shard_sink(["tcp://a:1"], eps=0), "eps"),
                           (lambda: gpurx.worker_monitor(0), "timeout_ms"),
                           (lambda: gpurx.worker_monitor(100, ["a:1"]), "endpoints")):
            with self.assertRaises(ValueError) as ctx:
                make()
            self.assertIn(word, str(ctx.exception))
        # The worker's command line: a bad value exits 2 naming it.
        for args, word in ((["--listen", "x", "--send", "tcp://127.0.0.1:1"], "listen"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--harq-buffers", "-1", "--backend", "cpu"], "harq_buffers"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "y"], "send"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--heartbeat", "z"], "heartbeat"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--max-queue", "-3"], "max_queue"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--decoders", "0"], "decoders"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--decoders", "65", "--backend", "cpu"], "decoders"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--devices", "0,0"], "devices"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--devices", "1,x", "--backend", "cuda"], "devices")):
            r = subprocess.run([sys.executable, "-B", WORKER] + args, capture_output=True,
                               timeout=60)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(word, r.stderr.decode())


    def flag_scenario(self, balance):
        """48 keys over 3 endpoints through pdu_shard_sink(balance): all
        once; eps[1] removed (quiet: 2 of its keys send nothing while it is
        away); the others twice; eps[1] added back (instance 1234); all;
        eps[1] restarted (instance 5678); all. Returns what the test
        compares: eps, posted rntis, key of each rnti, eps[1]'s keys, the
        quiet ones, {seq: (endpoint, harq_reset, worker_instance)}, the
        reports, the block, and the seqs after which each change came."""
        ports = free_ports(3)
        eps = ["tcp://127.0.0.1:%d" % p for p in ports]
        rx = gr.top_block()
        dbg = {}
        for e in eps:
            src = zeromq.pull_msg_source(e, 100, True)
            dbg[e] = blocks.message_debug()
            rx.msg_connect(src, "out", dbg[e], "store")
        rx.start()
        tx = gr.top_block()
        seqr = gpurx.pdu_sequencer("harq")
        shard = gpurx.pdu_shard_sink(eps, balance=balance)
        rep = blocks.message_debug()
        tx.msg_connect(seqr, "pdus", shard, "pdus")
        tx.msg_connect(shard, "errors", rep, "store")
        tx.start()
        rntis = list(range(100, 148))
        key = {r: harq_shard_key(r, 0, 0) for r in rntis}
        ref = ref_router(eps, balance)
        mine = [r for r in rntis if ref.route(key[r]) == eps[1]]
        self.assertGreater(len(mine), 4)
        quiet = mine[:2]  # no PDU while eps[1] is away
        posted = []
        seqr_bb, shard_bb = seqr.to_basic_block(), shard.to_basic_block()

        def send(rs):
            for r in rs:
                seqr_bb._post(PDUS, pdu(dict(rnti=r, harq_process=0)))
                posted.append(r)
            self.assertTrue(wait_for(lambda: sum(d.num_messages() for d in dbg.values())
                                     >= len(posted), 10))

        def control(**fields):
            n = rep.num_messages()
            d = pmt.make_dict()
            for k, v in fields.items():
                d = pmt.dict_add(d, pmt.intern(k),
                                 pmt.from_uint64(v) if isinstance(v, int) else pmt.intern(v))
            shard_bb._post(pmt.intern("control"), d)
            self.assertTrue(wait_for(lambda: rep.num_messages() > n, 10))

        try:
            send(rntis)                                   # seq 0-47: no flags
            control(command="remove", endpoint=eps[1], cause="test")
            send([r for r in rntis if r not in quiet])    # eps[1]'s keys move: flagged
            send([r for r in rntis if r not in quiet])    # moved already: no flags
            control(command="add", endpoint=eps[1], instance=1234, cause="test")
            send(rntis)                                   # back: flagged (moved or reset)
            control(command="add", endpoint=eps[1], instance=5678, cause="test")
            send(rntis)                                   # restarted: eps[1]'s keys flagged
            time.sleep(0.2)
        finally:
            stop_or_exit(tx)
            stop_or_exit(rx)
        got = {}
        for e in eps:
            for i in range(dbg[e].num_messages()):
                meta = pmt.car(dbg[e].get_message(i))
                inst = meta_get(meta, "worker_instance")
                got[int_of(meta, "seq")] = (e, flag_of(meta, "harq_reset"),
                                            None if pmt.is_null(inst) else pmt_int(inst))
        self.assertEqual(sorted(got), list(range(len(posted))))
        reports = [py_of(rep.get_message(i)) for i in range(rep.num_messages())]
        n0 = 48
        n1 = n0 + 2 * (48 - len(quiet))
        n2 = n1 + 48
        return eps, posted, key, mine, quiet, got, reports, shard, (n0, n1, n2)

    def test_007_shard_sink_flags_and_reports_moved_keys(self):
        # Plain consistent hashing (balance "ring"), replayed by hand.
        eps, posted, key, mine, quiet, got, reports, shard, (n0, n1, n2) = \
            self.flag_scenario("ring")
        ring = hash_ring(eps)
        away = hash_ring([eps[0], eps[2]])
        want_flags, want_reports = {}, []
        for s, r in enumerate(posted):
            k = key[r]
            if s < n0:
                want = (ring.lookup(k), False, None)
            elif s < n1:
                first = s < n0 + 48 - len(quiet)
                moved = r in mine and first
                want = (away.lookup(k), moved, None)
                if moved:
                    want_reports.append(dict(reason="key_moved", seq=s, shard_key=k,
                                             **{"from": eps[1], "to": away.lookup(k)}))
            elif s < n2:
                e = ring.lookup(k)
                want = (e, r in mine, 1234 if e == eps[1] else None)
                if r in quiet:
                    want_reports.append(dict(reason="key_reset", seq=s, shard_key=k,
                                             endpoint=eps[1], cause="endpoint_removed"))
                elif r in mine:
                    want_reports.append(dict(reason="key_moved", seq=s, shard_key=k,
                                             **{"from": away.lookup(k), "to": eps[1]}))
            else:
                e = ring.lookup(k)
                want = (e, r in mine, 5678 if e == eps[1] else None)
                if r in mine:
                    want_reports.append(dict(reason="key_reset", seq=s, shard_key=k,
                                             endpoint=eps[1], cause="worker_restarted"))
            want_flags[s] = want
        self.assertEqual(got, want_flags)
        key_reports = [r for r in reports if r["reason"] in ("key_moved", "key_reset")]
        self.assertEqual(key_reports, want_reports)
        changes = [(r["reason"], r["endpoint"], r.get("instance"), r["after_seq"])
                   for r in reports if r["reason"].startswith("endpoint_")]
        self.assertEqual(changes, [("endpoint_removed", eps[1], None, n0 - 1),
                                   ("endpoint_added", eps[1], 1234, n1 - 1),
                                   ("endpoint_restarted", eps[1], 5678, n2 - 1)])
        self.assertEqual([r["keys"] for r in reports if r["reason"] == "endpoint_removed"],
                         [len(mine)])
        self.assertEqual(shard.stats()["key_moved"], sum(1 for r in want_reports
                                                         if r["reason"] == "key_moved"))

    def test_007a_bounded_loads_flags_and_reports_moved_keys(self):
        # The same with bounded loads (the default), against the reference
        # model: the first PDU of every key is flagged (a key the sink did
        # not know), moved keys' first PDUs flagged and reported; on its
        # return eps[1] takes floor(48 / 3) keys from the busiest.
        eps, posted, key, mine, quiet, got, reports, shard, (n0, n1, n2) = \
            self.flag_scenario("bounded")
        keys = [key[r] for r in posted]
        route, flagged, want_reports = replay(
            keys, eps, [(n0 - 1, "remove", eps[1]), (n1 - 1, "add", eps[1]),
                        (n2 - 1, "restart", eps[1])])
        inst = lambda s: (1234 if s < n2 else 5678) if s >= n1 and route[s] == eps[1] else None
        self.assertEqual(got, {s: (route[s], s in flagged, inst(s)) for s in range(len(posted))})
        self.assertEqual([r for r in reports if r["reason"] in ("key_moved", "key_reset")],
                         want_reports)
        self.assertTrue(set(range(n0)) <= flagged)
        self.assertEqual(shard.stats()["new_keys"], 48)
        added = [r for r in reports if r["reason"] == "endpoint_added"]
        self.assertEqual([(r["endpoint"], r["keys"]) for r in added], [(eps[1], 16)])
        self.assertEqual(shard.keys_of()[eps[1]], 16)
        self.assertLessEqual(max(shard.keys_of().values()), 17)  # ceil(1.01 * 48 / 3)

    def test_008_worker_monitor_commands(self):
        a, b, c = "tcp://10.0.0.1:5601", "tcp://10.0.0.2:5601", "tcp://10.0.0.3:5601"
        mon = gpurx.worker_monitor(300, [a, b])
        tb = gr.top_block()
        ctl, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(mon, "control", ctl, "store")
        tb.msg_connect(mon, "errors", err, "store")
        bb = mon.to_basic_block()
        beat = lambda e, inst: bb._post(pmt.intern("heartbeats"), pmt.dict_add(pmt.dict_add(
            pmt.make_dict(), pmt.intern("endpoint"), pmt.intern(e)), pmt.intern("instance"),
            pmt.from_uint64(inst)))
        stop = threading.Event()

        def b_alive():
            while not stop.wait(0.05):
                beat(b, 2)

        commands = lambda: [py_of(ctl.get_message(i)) for i in range(ctl.num_messages())]
        tb.start()
        th = threading.Thread(target=b_alive, daemon=True)
        try:
            beat(a, 1)
            beat(b, 2)
            th.start()
            self.assertTrue(wait_for(lambda: ctl.num_messages() >= 2, 5))
            t0 = time.monotonic()
            # a is silent: removed after about 300 ms; b stays.
            self.assertTrue(wait_for(lambda: ctl.num_messages() >= 3, 5))
            waited = time.monotonic() - t0
            self.assertTrue(0.2 < waited < 2.0, waited)
            self.assertFalse(mon.status()[a]["alive"])
            beat(a, 1)   # resumes
            beat(a, 3)   # restarted (a new instance, no timeout between)
            beat(c, 9)   # not a worker the monitor knows: reported once
            beat(c, 9)
            bb._post(pmt.intern("heartbeats"), pmt.intern("hello"))
            self.assertTrue(wait_for(lambda: ctl.num_messages() >= 5 and err.num_messages() >= 2, 5))
            time.sleep(0.1)
        finally:
            stop.set()
            stop_or_exit(tb)
        cmds = [(c_["command"], c_["endpoint"], c_.get("instance"), c_["cause"]) for c_ in commands()]
        self.assertEqual(cmds[:2], [("add", a, 1, "first heartbeat"), ("add", b, 2, "first heartbeat")])
        self.assertEqual(cmds[2][:3], ("remove", a, None))
        self.assertIn("no heartbeat for", cmds[2][3])
        self.assertEqual(cmds[3:], [("add", a, 1, "heartbeats resumed"), ("add", a, 3, "worker restarted")])
        errs = [py_of(err.get_message(i)) for i in range(err.num_messages())]
        self.assertEqual([(e["reason"], e.get("endpoint")) for e in errs],
                         [("unknown worker", c), ("bad heartbeat: not a dict", None)])
        st = mon.status()
        self.assertTrue(st[a]["alive"] and st[b]["alive"])
        self.assertEqual(st[a]["instance"], 3)

    def test_009_full_lane_drops_reported_and_next_pdu_of_the_key_flagged(self):
        # Nobody reads the endpoint: ZMQ queues up to its high-water mark,
        # then the lane's push_msg_sink blocks and its GNU Radio queue fills
        # to max_queue: every PDU beyond is dropped and reported, none lost
        # silently. A reader then takes everything else, in order.
        (port,) = free_ports(1)
        e = "tcp://127.0.0.1:%d" % port
        tx = gr.top_block()
        seqr = gpurx.pdu_sequencer("harq")
        shard = gpurx.pdu_shard_sink([e], max_queue=50)
        rep = blocks.message_debug()
        tx.msg_connect(seqr, "pdus", shard, "pdus")
        tx.msg_connect(shard, "errors", rep, "store")
        tx.start()
        n = 1600
        rx = None
        try:
            bb = seqr.to_basic_block()
            for i in range(n):
                bb._post(PDUS, pdu(dict(rnti=100 + i % 4, harq_process=0)))
            full = lambda: sum(1 for i in range(rep.num_messages())
                               if py_of(rep.get_message(i))["reason"] == "queue_full")
            self.assertTrue(wait_for(lambda: shard.sent()[e] + full() >= n, 30),
                            "%d sent, %d reported" % (shard.sent()[e], full()))
            rx = gr.top_block()
            src = zeromq.pull_msg_source(e, 100, True)
            dbg = blocks.message_debug()
            rx.msg_connect(src, "out", dbg, "store")
            rx.start()
            self.assertTrue(wait_for(lambda: dbg.num_messages() >= shard.sent()[e], 30))
            for i in range(4):  # one more of each key, after the drain
                bb._post(PDUS, pdu(dict(rnti=100 + i % 4, harq_process=0)))
            self.assertTrue(wait_for(lambda: dbg.num_messages() >= shard.sent()[e]
                                     and shard.sent()[e] + full() >= n + 4, 30))
            time.sleep(0.2)
        finally:
            stop_or_exit(tx)
            if rx is not None:
                stop_or_exit(rx)
        reports = [py_of(rep.get_message(i)) for i in range(rep.num_messages())]
        dropped = {r["seq"] for r in reports if r["reason"] == "queue_full"}
        self.assertGreater(len(dropped), 100)
        self.assertTrue(all(r["endpoint"] == e and r["queue"] == 50
                            for r in reports if r["reason"] == "queue_full"))
        got = [pmt.car(dbg.get_message(i)) for i in range(dbg.num_messages())]
        seqs = [int_of(m, "seq") for m in got]
        self.assertEqual(seqs, sorted(seqs))
        self.assertEqual(set(seqs) | dropped, set(range(n + 4)))
        self.assertFalse(set(seqs) & dropped)
        # Flagged: exactly the first PDU of a key that comes after one of
        # its PDUs was dropped (its decoder's buffer missed that one), and
        # the first PDU of each key (bounded loads: a key the sink did not
        # know; none of those was dropped, the lane was empty then).
        self.assertFalse(set(range(4)) & dropped)
        last_dropped = {100 + i: True for i in range(4)}
        for s in range(n + 4):
            k = 100 + s % 4
            if s in dropped:
                last_dropped[k] = True
                continue
            m = got[seqs.index(s)]
            self.assertEqual(flag_of(m, "harq_reset"), last_dropped.get(k, False), "seq %d" % s)
            last_dropped[k] = False
        resets = [r for r in reports if r["reason"] == "key_reset"]
        self.assertTrue(resets and all(r["cause"] == "queue_full" for r in resets))
        self.assertEqual(len(resets) + 4, sum(1 for m in got if flag_of(m, "harq_reset")))

    def test_009a_reorder_takes_workers_drop_notices(self):
        # A worker's notice (metadata "dropped") reports its seq at once, in
        # order, without waiting for the timeout; nothing is emitted for it.
        def notice(s):
            meta = pmt.dict_add(tb_meta(rnti=1, harq_process=0), pmt.intern("seq"), pmt.from_uint64(s))
            meta = pmt.dict_add(meta, pmt.intern("dropped"), pmt.intern("worker_queue_full"))
            meta = pmt.dict_add(meta, pmt.intern("worker"), pmt.intern("w1"))
            return pmt.cons(meta, pmt.init_u8vector(0, []))
        t0 = time.monotonic()
        outs, errs = run_pdus(gpurx.pdu_reorder(16, 60000),
                              [pdu({}, seq=0), pdu({}, seq=2), notice(1), notice(3), pdu({}, seq=4)],
                              3, 2)
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual([int_of(pmt.car(o), "seq") for o in outs], [0, 2, 4])
        self.assertEqual([(py_of(e)["reason"], py_of(e)["seq"], py_of(e)["cause"], py_of(e)["worker"])
                          for e in errs], [("dropped", 1, "worker_queue_full", "w1"),
                                           ("dropped", 3, "worker_queue_full", "w1")])


    def test_009b_worker_gate_routes_each_key_to_one_decoder(self):
        # A worker's gate with two decoders (message_debug blocks standing
        # in): decoder = shard_key % 2, the key from the metadata, or from
        # rnti / harq_process / codeword as the sequencer computes it when
        # there is none (or it is ill-typed); a PDU with neither goes to
        # decoder 0 (whose decoder reports it). Each output carries
        # "worker" and "decoder".
        sinks = [blocks.message_debug(), blocks.message_debug()]
        gate = _worker_gate("w", 7, sinks, 0)
        tb = gr.top_block()
        for i, snk in enumerate(sinks):
            tb.msg_connect(gate, "pdus%d" % i, snk, "store")
        def with_key(fields, key):
            m = pdu(fields)
            return pmt.cons(pmt.dict_add(pmt.car(m), pmt.intern("shard_key"), key), pmt.cdr(m))

        msgs, want = [], []
        for r in range(100, 140):
            for hp in (0, 3):
                fields = dict(rnti=r, harq_process=hp, codeword=1)
                key = harq_shard_key(r, hp, 1)
                msgs += [with_key(fields, pmt.from_uint64(key)), pdu(fields),
                         with_key(fields, pmt.intern("x"))]
                want += [key % 2] * 3
        # A shard key that is not the HARQ key (pdu_sequencer("round_robin"):
        # the seq) is what routes.
        for seq in range(6):
            msgs.append(with_key(dict(rnti=5, harq_process=0), pmt.from_uint64(seq)))
            want.append(seq % 2)
        msgs.append(pdu(dict(tbs=1000)))
        want.append(0)
        for n, m in enumerate(msgs):
            meta = pmt.dict_add(pmt.car(m), pmt.intern("seq"), pmt.from_uint64(n))
            msgs[n] = pmt.cons(meta, pmt.cdr(m))
        self.assertEqual(set(want), {0, 1})
        tb.start()
        bb = gate.to_basic_block()
        try:
            for m in msgs:
                bb._post(PDUS, m)
            self.assertTrue(wait_for(lambda: sum(s.num_messages() for s in sinks) >= len(msgs),
                                     10))
        finally:
            stop_or_exit(tb)
        got = {}
        for i, snk in enumerate(sinks):
            for j in range(snk.num_messages()):
                meta = pmt.car(snk.get_message(j))
                self.assertEqual(int_of(meta, "decoder"), i)
                self.assertEqual(str_of(meta, "worker"), "w")
                got[int_of(meta, "seq")] = i
        self.assertEqual([got[n] for n in range(len(msgs))], want)
        self.assertEqual(gate.passed, len(msgs))


    def test_009c_worker_gate_and_heartbeat_blocks(self):
        # The public blocks as GRC builds them: a one-decoder gate sends on
        # "pdus" when that is what is connected (GRC names a port of
        # multiplicity 1 without an index), on "pdus0" otherwise; a PDU for
        # another instance is dropped as stale; bad parameters are named;
        # the heartbeat carries the gate's name, instance and counts.
        for port in ("pdus", "pdus0"):
            gate = gpurx.worker_gate("w1", instance=5)
            snk, beats = blocks.message_debug(), blocks.message_debug()
            hb = gpurx.worker_heartbeat(gate, interval_ms=20)
            tb = gr.top_block()
            tb.msg_connect(gate, port, snk, "store")
            tb.msg_connect(hb, "out", beats, "store")
            tb.start()
            try:
                bb = gate.to_basic_block()
                for n in range(5):
                    m = pdu(dict(rnti=100 + n, harq_process=0), seq=n)
                    if n == 3:  # queued for a previous process at this endpoint
                        meta = pmt.dict_add(pmt.car(m), pmt.intern("worker_instance"),
                                            pmt.from_uint64(4))
                        m = pmt.cons(meta, pmt.cdr(m))
                    bb._post(PDUS, m)
                self.assertTrue(wait_for(lambda: snk.num_messages() >= 4 and gate.stale == 1, 10),
                                port)
                self.assertTrue(wait_for(lambda: beats.num_messages() >= 3, 10), port)
            finally:
                stop_or_exit(tb)
            self.assertEqual([int_of(pmt.car(snk.get_message(i)), "seq") for i in range(4)],
                             [0, 1, 2, 4], port)
            for i in range(4):
                meta = pmt.car(snk.get_message(i))
                self.assertEqual((str_of(meta, "worker"), int_of(meta, "decoder")), ("w1", 0))
            last = py_of(beats.get_message(beats.num_messages() - 1))
            self.assertEqual((last["endpoint"], last["instance"]), ("w1", 5))
            self.assertEqual((last["passed"], last["stale"], last["dropped"]), (4, 1, 0))
            self.assertNotIn("decoded", last)  # no decoders watched
        for kwargs, word in ((dict(name=""), "name"), (dict(name="w", decoders=0), "decoders"),
                             (dict(name="w", decoders=65), "decoders"),
                             (dict(name="w", max_queue=-1), "max_queue"),
                             (dict(name="w", instance=-1), "instance"),
                             (dict(name="w", log_interval=-1), "log_interval")):
            with self.assertRaisesRegex(ValueError, word):
                gpurx.worker_gate(**kwargs)
        with self.assertRaisesRegex(ValueError, "watch: 1 decoder blocks for a gate of 2"):
            gpurx.worker_gate("w", decoders=2).watch([blocks.message_debug()])
        with self.assertRaisesRegex(ValueError, "gate"):
            gpurx.worker_heartbeat("w")
        with self.assertRaisesRegex(ValueError, "interval_ms"):
            gpurx.worker_heartbeat(gpurx.worker_gate("w"), interval_ms=0)

    # Issue 35.

    def test_020_bad_harq_fields_dropped_and_reported_the_sequencer_goes_on(self):
        # A HARQ field out of the decoder's range or of the wrong type
        # (a uint64 >= 2^63 made struct.pack raise, which ended the
        # sequencer's thread: every later PDU stayed queued) is reported,
        # naming the field and value, and dropped without a seq; the PDUs
        # after it are stamped 0, 1, 2...
        bad = [("rnti", pmt.from_uint64(1 << 63), "9223372036854775808"),
               ("rnti", pmt.from_uint64((1 << 64) - 1), "18446744073709551615"),
               ("rnti", pmt.from_long(-1), "-1"),
               ("rnti", pmt.from_long(65536), "65536"),
               ("harq_process", pmt.from_long(16), "16"),
               ("harq_process", pmt.from_uint64(1 << 63), "9223372036854775808"),
               ("codeword", pmt.from_long(2), "2"),
               ("rnti", pmt.from_double(1.0), "1"),
               ("harq_process", pmt.intern("x"), "x")]
        pdus = []
        for i, (field, value, _) in enumerate(bad):
            m = pdu(dict(rnti=100 + i, harq_process=i % 8))
            pdus.append(pmt.cons(pmt.dict_add(pmt.car(m), pmt.intern(field), value), pmt.cdr(m)))
            pdus.append(pdu(dict(rnti=200 + i, harq_process=i % 8, codeword=1)))
        outs, errs = run_pdus(gpurx.pdu_sequencer("harq"), pdus, len(bad), len(bad), timeout=10)
        self.assertEqual([(int_of(pmt.car(o), "seq"), int_of(pmt.car(o), "rnti")) for o in outs],
                         [(i, 200 + i) for i in range(len(bad))])
        for o in outs:
            meta = pmt.car(o)
            self.assertEqual(int_of(meta, "shard_key"),
                             harq_shard_key(int_of(meta, "rnti"), int_of(meta, "harq_process"), 1))
        got = [py_of(e) for e in errs]
        self.assertEqual([(e["reason"], e["field"], e["value"]) for e in got],
                         [("bad HARQ field", f, v) for f, _, v in bad])
        self.assertEqual(got[0]["expected"], "an integer in 0..65535")
        self.assertEqual(got[4]["expected"], "an integer in 0..15")
        self.assertEqual(got[6]["expected"], "an integer in 0..1")
        # The key function itself names what it cannot hash.
        with self.assertRaisesRegex(ValueError, "rnti"):
            harq_shard_key(1 << 63, 0, 0)
        with self.assertRaisesRegex(ValueError, "harq_process"):
            harq_shard_key(1, -1, 0)

    def test_021_bad_harq_fields_at_the_gate_dropped_noticed_and_it_goes_on(self):
        # A worker's gate with two decoders computes the key of a PDU
        # without "shard_key" from its HARQ fields: a bad one ended the
        # gate's thread, and the worker (gpurx-worker --decoders 2) stalled
        # while its heartbeats went on. Now: reported on "errors", a
        # "dropped" notice with its seq for the collector, the PDUs after it
        # routed. With one decoder the same PDU is dropped the same way.
        for decoders in (2, 1):
            sinks = [blocks.message_debug() for _ in range(decoders)]
            gate = gpurx.worker_gate("w", decoders, 0, 7)
            tb = gr.top_block()
            dropped, err = blocks.message_debug(), blocks.message_debug()
            for i, snk in enumerate(sinks):
                tb.msg_connect(gate, "pdus%d" % i, snk, "store")
            tb.msg_connect(gate, "dropped", dropped, "store")
            tb.msg_connect(gate, "errors", err, "store")
            msgs = []
            for n in range(20):
                m = pdu(dict(rnti=100 + n, harq_process=n % 8), seq=n)
                if n in (3, 11):
                    m = pmt.cons(pmt.dict_add(pmt.car(m), pmt.intern("rnti"),
                                              pmt.from_uint64((1 << 63) + n)), pmt.cdr(m))
                msgs.append(m)
            tb.start()
            bb = gate.to_basic_block()
            total = lambda: sum(s.num_messages() for s in sinks)
            try:
                for m in msgs:
                    bb._post(PDUS, m)
                self.assertTrue(wait_for(lambda: total() >= 18 and dropped.num_messages() >= 2,
                                         10), "%d decoder(s): %d passed" % (decoders, total()))
                time.sleep(0.1)
            finally:
                stop_or_exit(tb)
            seqs = sorted(int_of(pmt.car(s.get_message(j)), "seq")
                          for s in sinks for j in range(s.num_messages()))
            self.assertEqual(seqs, [n for n in range(20) if n not in (3, 11)])
            notices = [pmt.car(dropped.get_message(j)) for j in range(dropped.num_messages())]
            self.assertEqual([(int_of(m, "seq"), str_of(m, "dropped"), str_of(m, "worker"))
                              for m in notices], [(3, "bad_harq_field", "w"),
                                                  (11, "bad_harq_field", "w")])
            errs = [py_of(err.get_message(j)) for j in range(err.num_messages())]
            self.assertEqual([(e["reason"], e["field"], e["value"], e["seq"]) for e in errs],
                             [("bad HARQ field", "rnti", str((1 << 63) + 3), 3),
                              ("bad HARQ field", "rnti", str((1 << 63) + 11), 11)])
            self.assertEqual((gate.bad, gate.passed, gate.counts()["bad"]), (2, 18, 2))

    def test_022_an_exception_in_a_handler_is_reported_and_the_block_goes_on(self):
        # Whatever raises in a message handler (here a fault the C++ gate is
        # told to raise on its next PDU, as an unforeseen error would) is
        # reported on "errors" ("internal error") and costs that message
        # only: GNU Radio would end the block's thread.
        sinks = [blocks.message_debug(), blocks.message_debug()]
        gate = _worker_gate("w", 7, sinks, 0)
        gate.inject_fault("the test's")
        tb = gr.top_block()
        err = blocks.message_debug()
        for i, snk in enumerate(sinks):
            tb.msg_connect(gate, "pdus%d" % i, snk, "store")
        tb.msg_connect(gate, "errors", err, "store")
        tb.start()
        try:
            for n in range(5):
                gate.to_basic_block()._post(PDUS, pdu(dict(rnti=100 + n, harq_process=0), seq=n))
            self.assertTrue(wait_for(lambda: sum(s.num_messages() for s in sinks) >= 4, 10))
            self.assertTrue(wait_for(lambda: err.num_messages() >= 1, 5))
        finally:
            stop_or_exit(tb)
        seqs = sorted(int_of(pmt.car(s.get_message(j)), "seq")
                      for s in sinks for j in range(s.num_messages()))
        self.assertEqual(seqs, [1, 2, 3, 4])
        e = py_of(err.get_message(0))
        self.assertEqual((e["reason"], e["port"]), ("internal error", "pdus"))
        self.assertIn("the test's", e["error"])

    def reorder_run(self, blk, seqs, timeout_s=10):
        """Posts PDUs of seqs to blk (a pdu_reorder) in a running flowgraph
        until every one was emitted or reported; (emitted seqs, [(reason,
        seq, report)], seconds)."""
        tb = gr.top_block()
        out, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(blk, "pdus", out, "store")
        tb.msg_connect(blk, "errors", err, "store")
        tb.start()
        try:
            t0 = time.monotonic()
            for s in seqs:
                blk.to_basic_block()._post(PDUS, pdu({}, seq=s))
            # Every PDU ends emitted or reported (duplicate / late) once.
            accounted = lambda: out.num_messages() + blk.stats()["duplicate"] + blk.stats()["late"]
            done = wait_for(lambda: accounted() >= len(seqs), timeout_s, 0.001)
            seconds = time.monotonic() - t0
            self.assertTrue(done, "%d of %d PDUs accounted for after %g s"
                            % (accounted(), len(seqs), timeout_s))
            time.sleep(0.1)
        finally:
            stop_or_exit(tb)
        errs = [py_of(err.get_message(i)) for i in range(err.num_messages())]
        return ([int_of(pmt.car(out.get_message(i)), "seq") for i in range(out.num_messages())],
                [(e["reason"], e["seq"], e) for e in errs], seconds)

    def test_023_reorder_resyncs_on_a_huge_jump_at_once(self):
        # seq 0, then 10^9: a loop over every skipped seq (2.2 GB and still
        # busy after 150 s at 10^8). Now one "resync" report with the range,
        # in well under a second, and the stream goes on from the new seq;
        # a PDU from inside the skipped range is "late". Then 2^62.
        big, huge = 10 ** 9, 1 << 62
        blk = gpurx.pdu_reorder(16, 60000)
        seqs = [0, 1, 3, big + 1, big, big + 2, 5, huge, huge + 1, big + 3]
        emitted, reports, seconds = self.reorder_run(blk, seqs)
        self.assertLess(seconds, 0.5)
        self.assertEqual(emitted, [0, 1, 3, big + 1, big + 2, huge, huge + 1])
        self.assertEqual([(r, s) for r, s, _ in reports],
                         [("resync", 2), ("late", big), ("late", 5), ("resync", big + 3),
                          ("late", big + 3)])
        first = reports[0][2]
        # 2 and 4..big were skipped; 3 was held, and emitted.
        self.assertEqual((first["first"], first["last"], first["count"]), (2, big, big - 2))
        second = reports[3][2]
        self.assertEqual((second["first"], second["last"], second["count"]),
                         (big + 3, huge - 1, huge - big - 3))
        st = blk.stats()
        self.assertEqual((st["resync"], st["late"], st["next_seq"], st["held"]),
                         (2, 3, huge + 2, 0))
        # The collector counts a resync's seqs as missing.
        sink = gpurx.decoded_tb_sink("", verbose=False)
        for _, _, r in reports:
            d = pmt.make_dict()
            for k, v in r.items():
                d = pmt.dict_add(d, pmt.intern(k), pmt.from_uint64(v) if isinstance(v, int)
                                 else pmt.intern(v))
            sink.handle_error(d)
        self.assertEqual(sink.counts()["missing"], (big - 2) + (huge - big - 3))

    def test_024_reorder_tells_late_from_duplicate(self):
        # 100 seqs shuffled through a window of 16 (no timeout): a seq
        # skipped (window_full, or inside a resync's range) that comes
        # afterwards is "late", never a "duplicate" (54 of 100 were); a
        # duplicate is only a seq delivered already, however long ago.
        # Shuffled by blocks of 24 (no jump of 2 x 16: window_full only),
        # and all at once (resyncs too).
        rng = np.random.default_rng(35)
        local = []
        for b in range(0, 100, 24):
            block = list(range(b, min(b + 24, 100)))
            rng.shuffle(block)
            local += block
        anywhere = list(range(100))
        rng.shuffle(anywhere)
        for order in (local, anywhere):
            again = [order[10], order[50], order[99], order[0]]
            emitted, reports, _ = self.reorder_run(gpurx.pdu_reorder(16, 60000), order + again)
            by = {}
            for reason, seq, r in reports:
                by.setdefault(reason, []).append(seq)
            skipped = set(by.get("window_full", []))
            for reason, seq, r in reports:
                if reason == "resync":
                    span = set(range(r["first"], r["last"] + 1)) - set(emitted)
                    self.assertEqual(r["count"], len(span))
                    skipped |= span
            self.assertEqual(emitted, sorted(emitted))
            self.assertEqual(set(emitted) | skipped, set(range(100)))
            self.assertFalse(set(emitted) & skipped)
            # Each skipped seq came after it was skipped: late, once; the
            # second copies: duplicates where delivered, late where not.
            self.assertEqual(sorted(by.get("late", [])),
                             sorted(list(skipped) + [s for s in again if s in skipped]))
            self.assertEqual(sorted(by.get("duplicate", [])),
                             sorted(s for s in again if s not in skipped))
            self.assertEqual(set(by) - {"window_full", "resync", "late", "duplicate"}, set())
            if order is local:
                self.assertNotIn("resync", by)
                self.assertGreater(len(skipped), 10)

    def test_025_endpoints_checked_and_named(self):
        # ZMQ takes tcp://127.0.0.1:99999, and its errors name no endpoint
        # ("Invalid argument"): each endpoint is checked where it is given,
        # the error naming the parameter and the value; ZMQ's own errors
        # (an address in use) name the endpoint.
        bad = ["tcp://127.0.0.1:99999", "tcp://127.0.0.1:0", "tcp://127.0.0.1", "tcp://:5601",
               "tcp://127.0.0.1:x", "tcp://*:5601", "tcp://127.0.0.1:*", "udp://127.0.0.1:5601",
               "localhost:5601", "ipc://", "tcp://a host:5601", "tcp://127.0.0.1:5601 "]
        for e in bad:
            makes = [(lambda: gpurx.pdu_shard_sink([e]), "endpoints"),
                     (lambda: gpurx.worker_monitor(1000, [e]), "endpoints"),
                     (lambda: gpurx.pdu_shard_sink(["tcp://127.0.0.1:5601"]).add_endpoint(e),
                      "endpoint")]
            if e == e.strip():  # (a comma-separated string's entries are stripped)
                makes.append((lambda: gpurx.pdu_shard_sink("tcp://127.0.0.1:5601," + e),
                              "endpoints"))
            for make, param in makes:
                with self.assertRaises(ValueError, msg=e) as ctx:
                    make()
                self.assertIn(param, str(ctx.exception))
                self.assertIn(repr(e), str(ctx.exception))
        with self.assertRaisesRegex(ValueError, "port '99999' is not in 1..65535"):
            gpurx.pdu_shard_sink(["tcp://127.0.0.1:99999"])
        for good in ("tcp://127.0.0.1:5601", "tcp://worker-1.example:65535", "tcp://[::1]:5601",
                     "ipc:///tmp/gpurx-w1", "inproc://w1"):
            gpurx.worker_monitor(1000, [good])
            gpurx.pdu_shard_sink([good])
        # The worker: each of its endpoints, and ZMQ's refusal to bind.
        held = socket.socket()
        held.bind(("127.0.0.1", 0))
        held.listen()
        busy = "tcp://127.0.0.1:%d" % held.getsockname()[1]
        ok = ["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2"]
        try:
            for args, want in (
                    (["--listen", "tcp://127.0.0.1:99999", "--send", "tcp://127.0.0.1:2"],
                     "listen 'tcp://127.0.0.1:99999' is not a ZMQ endpoint"),
                    (["--listen", "tcp://*:5601", "--send", "tcp://127.0.0.1:99999"],
                     "send 'tcp://127.0.0.1:99999' is not a ZMQ endpoint"),
                    (ok + ["--heartbeat", "tcp://*:5690"],
                     "heartbeat 'tcp://*:5690' is not a ZMQ endpoint: host * only"),
                    (["--listen", busy, "--send", "tcp://127.0.0.1:2", "--backend", "cpu"],
                     "listen %s: Address already in use" % busy)):
                r = subprocess.run([sys.executable, "-B", WORKER] + args, capture_output=True,
                                   timeout=60)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(want, r.stderr.decode())
        finally:
            held.close()

    def test_026_front_end_before_its_workers_loses_nothing(self):
        # The quickstart starts the workers and the front end together: a
        # worker takes seconds to start, and the monitor removed each after
        # timeout_ms without a heartbeat, so the front end dropped its PDUs
        # ("no endpoint left"; 28% lost). Now a worker given is pending
        # until its first heartbeat: its PDUs wait (ZMQ, then its lane), and
        # the workers, started 2 s after the front end began sending, get
        # every PDU, once.
        ports = free_ports(3)
        eps = ["tcp://127.0.0.1:%d" % p for p in ports[:2]]
        hb = "tcp://127.0.0.1:%d" % ports[2]
        front = gr.top_block()
        seqr = gpurx.pdu_sequencer("harq")
        shard = gpurx.pdu_shard_sink(eps)
        beats = zeromq.sub_msg_source(hb, 100, True)
        mon = gpurx.worker_monitor(300, eps)
        ctl, rep = blocks.message_debug(), blocks.message_debug()
        front.msg_connect(seqr, "pdus", shard, "pdus")
        front.msg_connect(beats, "out", mon, "heartbeats")
        front.msg_connect(mon, "control", shard, "control")
        front.msg_connect(mon, "control", ctl, "store")
        front.msg_connect(shard, "errors", rep, "store")
        front.msg_connect(seqr, "errors", rep, "store")
        front.msg_connect(mon, "errors", rep, "store")
        workers, got = [], {e: blocks.message_debug() for e in eps}
        n = 600
        front.start()
        try:
            bb, t0 = seqr.to_basic_block(), time.monotonic()
            for i in range(n):
                if i == 400:  # 2 s in: the workers start
                    self.assertEqual(set(mon.pending()), set(eps))
                    self.assertTrue(all(st["alive"] for st in mon.status().values()))
                    for e in eps:
                        w = gr.top_block()
                        src = zeromq.pull_msg_source(e, 100, True)
                        gate = gpurx.worker_gate(e)
                        beat = gpurx.worker_heartbeat(gate, interval_ms=50)
                        pub = zeromq.pub_msg_sink(hb, 100, False)
                        w.msg_connect(src, "out", gate, "pdus")
                        w.msg_connect(gate, "pdus0", got[e], "store")
                        w.msg_connect(beat, "out", pub, "in")
                        w.start()
                        workers.append(w)
                    self.assertEqual(mon.wait_ready(10), [])
                pace_wait(200, i, t0, [])
                bb._post(PDUS, pdu(dict(rnti=100 + i % 50, harq_process=i % 8)))
            total = lambda: sum(d.num_messages() for d in got.values())
            self.assertTrue(wait_for(lambda: total() >= n, 20), "%d of %d" % (total(), n))
            time.sleep(0.2)
        finally:
            for w in workers:
                stop_or_exit(w)
            stop_or_exit(front)
        seqs = sorted(int_of(pmt.car(d.get_message(i)), "seq")
                      for d in got.values() for i in range(d.num_messages()))
        self.assertEqual(seqs, list(range(n)))
        self.assertTrue(all(d.num_messages() > 0 for d in got.values()))
        reports = [py_of(rep.get_message(i)) for i in range(rep.num_messages())]
        self.assertEqual(reports, [])
        cmds = [py_of(ctl.get_message(i)) for i in range(ctl.num_messages())]
        self.assertEqual(sorted((c["command"], c["endpoint"], c["cause"]) for c in cmds),
                         [("add", e, "first heartbeat") for e in sorted(eps)])
        self.assertEqual(shard.stats()["no_endpoint"] + shard.stats()["queue_full"], 0)

    def test_027_a_worker_that_never_starts_is_removed_after_startup_ms(self):
        # Pending workers are not removed at timeout_ms (200) but at
        # startup_ms (800): a first heartbeat at 400 ms keeps a; b, silent,
        # goes at about 800 ms; its heartbeat later adds it back.
        a, b = "tcp://10.0.0.1:5601", "tcp://10.0.0.2:5601"
        mon = gpurx.worker_monitor(200, [a, b], startup_ms=800)
        tb = gr.top_block()
        ctl = blocks.message_debug()
        tb.msg_connect(mon, "control", ctl, "store")
        bb = mon.to_basic_block()
        beat = lambda e, inst: bb._post(pmt.intern("heartbeats"), pmt.dict_add(pmt.dict_add(
            pmt.make_dict(), pmt.intern("endpoint"), pmt.intern(e)), pmt.intern("instance"),
            pmt.from_uint64(inst)))
        stop = threading.Event()

        def a_alive():
            time.sleep(0.4)
            while not stop.wait(0.05):
                beat(a, 1)

        th = threading.Thread(target=a_alive, daemon=True)
        cmds = lambda: [py_of(ctl.get_message(i)) for i in range(ctl.num_messages())]
        self.assertEqual(mon.pending(), [a, b])
        tb.start()
        t0 = time.monotonic()
        th.start()
        try:
            self.assertEqual(mon.wait_ready(0.2), [a, b])
            self.assertTrue(wait_for(lambda: mon.pending() == [b], 5))
            self.assertTrue(wait_for(lambda: len(cmds()) >= 2, 5))
            waited = time.monotonic() - t0
            self.assertTrue(0.7 < waited < 2.0, waited)
            self.assertTrue(mon.status()[a]["alive"])
            self.assertFalse(mon.status()[b]["alive"])
            beat(b, 2)
            self.assertTrue(wait_for(lambda: len(cmds()) >= 3, 5))
            self.assertEqual(mon.wait_ready(1), [])
        finally:
            stop.set()
            stop_or_exit(tb)
        self.assertEqual([(c["command"], c["endpoint"], c["cause"]) for c in cmds()],
                         [("add", a, "first heartbeat"),
                          ("remove", b, "no heartbeat within 800 ms of start"),
                          ("add", b, "first heartbeat")])
        with self.assertRaisesRegex(ValueError, "startup_ms"):
            gpurx.worker_monitor(100, [a], startup_ms=0)


class qa_scale_out_processes(unittest.TestCase):
    N = int(os.environ.get("SCALE_OUT_TBS", "10000"))

    @classmethod
    def setUpClass(cls):
        t0 = time.monotonic()
        cls.pdus, cls.n_tb, cls.truth = make_traffic(cls.N)
        t1 = time.monotonic()
        # The reference: one in-process decoder fed all the PDUs at once.
        ref = pdu_server(reference_decoder())
        try:
            cls.ref = ref.process(cls.pdus)
        finally:
            ref.close()
        cls.ref_s = time.monotonic() - t1
        cls.rvs = [int_of(pmt.car(p), "rv") for p in cls.pdus]
        cls.keys = [harq_shard_key(int_of(pmt.car(p), "rnti"), int_of(pmt.car(p), "harq_process"))
                    for p in cls.pdus]
        print("traffic: %d transmissions of %d TBs made in %.1f s; one in-process decoder: "
              "%.1f s (%.0f TB/s)" % (len(cls.pdus), cls.n_tb, t1 - t0, cls.ref_s,
                                      len(cls.pdus) / cls.ref_s))

    def check_output(self, msg, i, worker_of=None, refs=None):
        refs = refs or self.ref
        meta, ref = pmt.car(msg), pmt.car(refs[i])
        self.assertEqual(pmt.u8vector_elements(pmt.cdr(msg)),
                         pmt.u8vector_elements(pmt.cdr(refs[i])), "seq %d: bits" % i)
        for k in ("crc_ok", "cb_crc", "iterations", "transmissions", "rnti", "harq_process",
                  "rv", "ndi"):
            self.assertTrue(pmt.equal(meta_get(meta, k), meta_get(ref, k)),
                            "seq %d: %s %s, reference %s" % (i, k, pmt.write_string(
                                meta_get(meta, k)), pmt.write_string(meta_get(ref, k))))
        if worker_of is not None:
            self.assertEqual(str_of(meta, "worker"), worker_of(int_of(meta, "shard_key")))

    def check_decoding(self, outs, lost, n, refs=None):
        """outs: {seq: decoded PDU}; lost: the seqs that reached no decoder
        (or were dropped). Each output's "transmissions" counts the
        transmissions of its TB combined on its decoder: from its first, or
        from the last one flagged harq_reset (decoded alone: 1); where the
        CRC passes, the bits are the TB's - or all zero: a retransmission
        decoded alone has few or none of the systematic bits, and the
        all-zero TB, whose CRC24A checks, is what the turbo decoder may find
        then (a false pass any LTE receiver can make; counted, allowed only
        in TBs that lost their combining); a TB none of whose transmissions
        was lost or flagged after its first is bit-exact with the
        reference. Returns (flagged outputs, TBs affected, false passes)."""
        chain, affected, flagged, zero = {}, set(), 0, 0
        for i in range(n):
            tb, bits = self.truth[i]
            first = POSITION[self.rvs[i]] == 1
            if i in lost:
                affected.add(tb)
                continue
            meta = pmt.car(outs[i])
            if flag_of(meta, "harq_reset"):
                flagged += 1
                chain[tb] = 1
                if not first:
                    affected.add(tb)
            else:
                chain[tb] = 1 if first else chain.get(tb, 0) + 1
            self.assertEqual(int_of(meta, "transmissions"), chain[tb],
                             "seq %d (rv %d, harq_reset %s)" % (i, self.rvs[i],
                                                                flag_of(meta, "harq_reset")))
            if pmt.to_bool(meta_get(meta, "crc_ok")):
                got = bytes(pmt.u8vector_elements(pmt.cdr(outs[i])))
                if got != bits.tobytes():
                    self.assertTrue(tb in affected and not any(got),
                                    "seq %d: CRC passed on wrong bits" % i)
                    zero += 1
            if tb not in affected:
                self.check_output(outs[i], i, refs=refs)
        return flagged, affected, zero

    def test_010_three_workers_bit_exact_in_order(self):
        d = deployment(self.pdus, 3, pace=0.0, window=1 << 16, timeout_ms=60000,
                       worker_max_queue=0, frontend_max_queue=0)
        try:
            ok = wait_for(lambda: d.out.num_messages() >= len(self.pdus), 600, 0.05)
            dt = time.monotonic() - d.t0
            time.sleep(0.3)
            outs, errs = d.outputs(), d.errors()
        finally:
            logs = d.close()
        self.assertTrue(ok, "%d of %d came out" % (len(outs), len(self.pdus)))
        self.assertEqual(errs, [])
        self.assertEqual(len(outs), len(self.pdus))
        # Bounded loads: where each key goes follows from the order keys came.
        route, flagged, reports = replay(self.keys, d.endpoints)
        self.assertEqual(reports, [])
        seqs = [int_of(pmt.car(o), "seq") for o in outs]
        self.assertEqual(seqs, list(range(len(self.pdus))))
        by_worker = {}
        for i, o in enumerate(outs):
            self.check_output(o, i, lambda k: route[i])
            # Only the first PDU of each key (a new TB: decoded as without).
            self.assertEqual(flag_of(pmt.car(o), "harq_reset"), i in flagged, "seq %d" % i)
            w = str_of(pmt.car(o), "worker")
            by_worker[w] = by_worker.get(w, 0) + 1
        self.assertEqual(sorted(by_worker), sorted(d.endpoints))
        # Each worker's own count (its decoder's pdus_out()), in its last line.
        said = dict(re.findall(r"gpurx-worker (\S+): stopped, (\d+) TBs decoded", logs))
        self.assertEqual({e: int(c) for e, c in said.items()}, by_worker)
        # Bounded loads: the busiest worker's keys within ceil(1.01 * 256 / 3).
        owners = dict(zip(self.keys, route))
        self.assertLessEqual(max(sum(1 for e in owners.values() if e == x) for x in d.endpoints),
                             -(-101 * len(owners) // 300))
        tx = [int_of(pmt.car(o), "transmissions") for o in outs]
        retx = sum(1 for rv in self.rvs if rv != 0)
        self.assertGreater(retx, len(self.pdus) // 3)
        # Every retransmission was combined: its count is its position.
        self.assertEqual(tx, [POSITION[rv] for rv in self.rvs])
        print("3 workers: %d transmissions (%d TBs) in %.1f s (%.0f TB/s; in process %.1f s), "
              "by worker %s, transmissions %s"
              % (len(outs), self.n_tb, dt, len(outs) / dt, self.ref_s, sorted(by_worker.values()),
                 np.bincount(tx).tolist()))

    def test_010b_grc_worker_among_gpurx_workers(self):
        # examples/scale_out_worker.grc, compiled by grcc, as one of three
        # workers (the others gpurx-worker): every output once, in order,
        # bit-exact with the in-process decoder, each decoded by the worker
        # its key was placed on (the front end's placement, replayed), every
        # retransmission combined there; the GRC worker decoded its share.
        grcc = shutil.which("grcc")
        if grcc is None:
            self.skipTest("grcc (GNU Radio Companion) is not on PATH")
        n = min(len(self.pdus), int(os.environ.get("SCALE_OUT_GRC_TBS", "2000")))
        pdus, refs = self.pdus[:n], self.ref[:n]
        with tempfile.TemporaryDirectory() as out:
            env = dict(os.environ, GRC_BLOCKS_PATH=GRC_BLOCKS)
            r = subprocess.run([grcc, "-o", out, GRC_WORKER], env=env, capture_output=True,
                               text=True)
            script = os.path.join(out, "scale_out_worker.py")
            self.assertTrue(r.returncode == 0 and os.path.exists(script), r.stdout + r.stderr)

            def grc_worker(e, collect):
                return [script, "--listen", e, "--send", collect, "--backend", BACKEND,
                        "--llrs", "int8", "--harq-buffers", str(HARQ_BUFFERS), "--max-tbs",
                        str(MAX_TBS), "--cpu-threads", "1", "--max-queue", "0",
                        "--log-interval", "2"]

            d = deployment(pdus, 3, pace=0.0, window=1 << 16, timeout_ms=60000,
                           worker_max_queue=0, frontend_max_queue=0,
                           worker_cmds={1: grc_worker})
            grc_endpoint = d.endpoints[1]
            try:
                ok = wait_for(lambda: d.out.num_messages() >= n, 600, 0.05)
                time.sleep(0.3)
                outs, errs = d.outputs(), d.errors()
            finally:
                logs = d.close()
        self.assertTrue(ok, "%d of %d came out" % (len(outs), n))
        self.assertEqual(errs, [])
        self.assertEqual([int_of(pmt.car(o), "seq") for o in outs], list(range(n)))
        route, flagged, reports = replay(self.keys[:n], d.endpoints)
        self.assertEqual(reports, [])
        by_worker = {}
        for i, o in enumerate(outs):
            self.check_output(o, i, lambda k: route[i], refs=refs)
            self.assertEqual(flag_of(pmt.car(o), "harq_reset"), i in flagged, "seq %d" % i)
            w = str_of(pmt.car(o), "worker")
            by_worker[w] = by_worker.get(w, 0) + 1
        self.assertEqual(sorted(by_worker), sorted(d.endpoints))
        self.assertGreater(by_worker[grc_endpoint], 0)
        tx = [int_of(pmt.car(o), "transmissions") for o in outs]
        self.assertGreater(sum(1 for rv in self.rvs[:n] if rv != 0), n // 4)
        self.assertEqual(tx, [POSITION[rv] for rv in self.rvs[:n]])
        # Each worker's own count: gpurx-worker's last line, the GRC
        # worker's gate's (its decoder's pdus_out(), watched by the snippet).
        said = dict(re.findall(r"gpurx-worker (\S+): stopped, (\d+) TBs decoded", logs))
        said.update(re.findall(r"gpurx worker gate (\S+): stopped, \d+ passed to 1 decoder\(s\), "
                               r"(\d+) decoded", logs))
        self.assertEqual({e: int(c) for e, c in said.items()}, by_worker)
        print("3 workers, one of them the GRC flowgraph: %d transmissions, by worker %s"
              % (n, [by_worker[e] for e in d.endpoints]))

    def test_010a_one_worker_two_decoders_each_key_on_one(self):
        # One worker with two decoders (CPU; on CUDA with --devices all: one
        # per GPU on a host with two, both on GPU 0 with one): the outputs
        # are bit-exact with one in-process decoder, in order, and each PDU
        # was decoded by decoder shard_key % 2; every retransmission was
        # combined there ("transmissions" is its position), so each reached
        # the decoder holding its key's soft buffer.
        d = deployment(self.pdus, 1, pace=0.0, window=1 << 16, timeout_ms=60000,
                       worker_max_queue=0, frontend_max_queue=0, decoders=2,
                       devices=["all"] if BACKEND == "cuda" else None)
        try:
            ok = wait_for(lambda: d.out.num_messages() >= len(self.pdus), 600, 0.05)
            dt = time.monotonic() - d.t0
            time.sleep(0.3)
            outs, errs = d.outputs(), d.errors()
        finally:
            logs = d.close()
        self.assertTrue(ok, "%d of %d came out" % (len(outs), len(self.pdus)))
        self.assertEqual(errs, [])
        self.assertEqual([int_of(pmt.car(o), "seq") for o in outs], list(range(len(self.pdus))))
        by_decoder = [0, 0]
        for i, o in enumerate(outs):
            self.check_output(o, i, lambda k: d.endpoints[0])
            meta = pmt.car(o)
            self.assertEqual(int_of(meta, "shard_key"), self.keys[i], "seq %d" % i)
            self.assertEqual(int_of(meta, "decoder"), self.keys[i] % 2, "seq %d" % i)
            by_decoder[int_of(meta, "decoder")] += 1
        tx = [int_of(pmt.car(o), "transmissions") for o in outs]
        self.assertGreater(sum(1 for rv in self.rvs if rv != 0), len(self.pdus) // 3)
        self.assertEqual(tx, [POSITION[rv] for rv in self.rvs])
        # Both decoders work: 256 keys, each holding about half of them.
        self.assertGreater(min(by_decoder), len(self.pdus) // 4)
        # The worker's own counts (each decoder's pdus_out()), in its last line.
        said = re.findall(r"stopped, (\d+) TBs decoded \(by decoder: (\d+), (\d+)\)", logs)
        self.assertEqual([tuple(map(int, t)) for t in said],
                         [(len(self.pdus), by_decoder[0], by_decoder[1])])
        print("1 worker, 2 decoders: %d transmissions (%d TBs) in %.1f s (%.0f TB/s; in process "
              "%.1f s), by decoder %s" % (len(outs), self.n_tb, dt, len(outs) / dt, self.ref_s,
                                          by_decoder))

    def test_011_worker_killed_mid_run(self):
        n = min(len(self.pdus), 3000)
        pdus = self.pdus[:n]
        d = deployment(pdus, 3, pace=600.0, window=4096, timeout_ms=1000)
        victim = d.endpoints[1]
        try:
            self.assertTrue(wait_for(lambda: d.out.num_messages() >= n // 3, 120, 0.05))
            d.workers[victim].kill()
            d.workers[victim].wait()
            killed_at = d.reorder.stats()["next_seq"]
            # Everything else comes out; what the victim had is reported missing.
            keys = self.keys[:n]
            route, _, _ = replay(keys, d.endpoints)
            owner = dict(zip(keys, route))
            last_alive = max(i for i, k in enumerate(keys) if owner[k] != victim)
            ok = wait_for(lambda: d.reorder.stats()["next_seq"] > last_alive, 120, 0.05)
            time.sleep(0.3)
            outs, errs = d.outputs(), d.errors()
        finally:
            d.close()
        self.assertTrue(ok, "the stream stalled after the kill")
        seqs = [int_of(pmt.car(o), "seq") for o in outs]
        self.assertEqual(seqs, sorted(seqs))
        missing = [(pmt.symbol_to_string(meta_get(e, "reason")), int_of(e, "seq")) for e in errs]
        self.assertTrue(missing)
        self.assertEqual({r for r, _ in missing}, {"timeout"})
        missing_seqs = [s for _, s in missing]
        self.assertEqual(sorted(set(seqs) | set(missing_seqs)), list(range(last_alive + 1)))
        self.assertFalse(set(seqs) & set(missing_seqs))
        for s in missing_seqs:
            self.assertEqual(owner[keys[s]], victim, "seq %d was not the victim's" % s)
        for o in outs:
            i = int_of(pmt.car(o), "seq")
            self.check_output(o, i, owner.get)
        alive = [i for i in range(last_alive + 1) if owner[keys[i]] != victim]
        self.assertTrue(set(alive) <= set(seqs), "a surviving worker's PDU is missing")
        print("worker killed at seq ~%d: %d out, %d reported missing (all the victim's)"
              % (killed_at, len(seqs), len(missing_seqs)))

    def test_012_worker_lost_its_keys_move_it_rejoins(self):
        # Heartbeats every 100 ms, the monitor's timeout 800 ms. The front
        # end posts 2000 PDUs at 500/s, holds until the killed worker is
        # back, then posts the last 1000.
        n, hold = min(len(self.pdus), 3000), min(len(self.pdus), 3000) * 2 // 3
        d = deployment(self.pdus[:n], 3, pace=500.0, window=4096, timeout_ms=1000,
                       heartbeat=True, monitor_timeout_ms=800, heartbeat_interval_ms=100,
                       hold=hold)
        victim = d.endpoints[1]
        reported = lambda reason, e: [r for r in d.reports()
                                      if r["reason"] == reason and r.get("endpoint") == e]
        try:
            self.assertTrue(wait_for(lambda: d.out.num_messages() >= n // 6, 120, 0.05))
            d.workers[victim].kill()
            d.workers[victim].wait()
            t_kill = time.monotonic()
            self.assertTrue(wait_for(lambda: reported("endpoint_removed", victim), 30, 0.02),
                            "the monitor did not remove the dead worker")
            detect_s = time.monotonic() - t_kill
            d.restart(victim)
            self.assertTrue(wait_for(lambda: reported("endpoint_added", victim), 30, 0.02),
                            "the restarted worker was not added back")
            d.release_hold()
            ok = wait_for(lambda: d.reorder.stats()["next_seq"] >= n, 120, 0.05)
            time.sleep(0.3)
            outs, errs, reports = d.outputs(), d.errors(), d.reports()
        finally:
            logs = d.close()
        stale = [line.split(": ", 1)[1] for line in logs.splitlines()
                 if line.startswith("gpurx-worker %s: stopped" % victim)]
        self.assertTrue(ok, "the stream stalled")
        seqs = [int_of(pmt.car(o), "seq") for o in outs]
        self.assertEqual(seqs, sorted(set(seqs)), "not in order, or twice")
        errs = [py_of(e) for e in errs]
        self.assertEqual({e["reason"] for e in errs}, {"timeout"})
        missing = {e["seq"] for e in errs}
        self.assertEqual(set(seqs) | missing, set(range(n)))
        self.assertFalse(set(seqs) & missing)
        # The ring at each seq, from the reported changes.
        changes = [r for r in reports if r["reason"] in ("endpoint_removed", "endpoint_added",
                                                          "endpoint_restarted")]
        self.assertEqual([(r["reason"], r["endpoint"]) for r in changes],
                         [("endpoint_removed", victim), ("endpoint_added", victim)],
                         "the monitor removed or added other workers: %s" % changes)
        removed, added = changes[0]["after_seq"], changes[1]["after_seq"]
        self.assertIn("no heartbeat", changes[0]["cause"])
        self.assertEqual(changes[1]["cause"], "heartbeats resumed")
        self.assertTrue(0 <= removed <= added < hold, (removed, added))
        # Where each seq went, which were flagged and what was reported:
        # the reference model replayed with the reported changes.
        route, want_flagged, want_reports = replay(
            self.keys[:n], d.endpoints, [(removed, "remove", victim), (added, "add", victim)])
        owner = lambda s: route[s]
        outs_by_seq = {}
        for o in outs:
            s = int_of(pmt.car(o), "seq")
            outs_by_seq[s] = o
            self.assertEqual(str_of(pmt.car(o), "worker"), owner(s), "seq %d" % s)
        # Missing: only the victim's, sent before it was removed.
        for s in missing:
            self.assertTrue(route[s] == victim and s <= removed,
                            "seq %d missing, not the dead worker's in-flight PDU" % s)
        # Reported and flagged: the first PDU of each of the victim's keys
        # after its removal (moved away), and of each key it took on its
        # return (moved to it; or reset: a key of its own that had no PDU
        # while it was away); and the first PDU of every key (new to the
        # shard sink).
        key_reports = [r for r in reports if r["reason"] in ("key_moved", "key_reset")]
        flagged = {s for s, o in outs_by_seq.items() if flag_of(pmt.car(o), "harq_reset")}
        self.assertEqual(key_reports, want_reports)
        self.assertEqual(flagged, want_flagged - missing)
        moved_away = [r for r in key_reports if r["reason"] == "key_moved" and r["from"] == victim
                      and r["seq"] <= added]
        back = [r for r in key_reports if r["seq"] > added]
        self.assertTrue(moved_away and back, (len(moved_away), len(back)))
        self.assertTrue(all(r.get("to", r.get("endpoint")) == victim or r.get("from") == victim
                            for r in back), "a key moved between the other workers")
        self.assertEqual(len(moved_away) + len(back), len(key_reports))
        taken = [r for r in reports if r["reason"] == "endpoint_added"][0]["keys"]
        self.assertEqual(taken, len(set(self.keys[:n])) // 3)
        # Decoding: flagged PDUs decoded alone (transmissions 1), the right
        # bits wherever the CRC passes, the others as the reference.
        n_flagged, affected, zero = self.check_decoding(outs_by_seq, missing, n)
        rejoined = sum(1 for s in outs_by_seq if s > added and owner(s) == victim)
        self.assertGreater(rejoined, 50, "the rejoined worker decoded too little")
        alone_ok = sum(1 for s in flagged if pmt.to_bool(meta_get(pmt.car(outs_by_seq[s]), "crc_ok")))
        print("worker killed: removed after seq %d (%.2f s after the kill), back after seq %d; "
              "%d out, %d missing (its in-flight PDUs), %d keys moved away, %d back (%d reset), "
              "%d PDUs flagged harq_reset and decoded alone (%d passed alone), %d TBs affected "
              "(%d false passes on the all-zero TB), %d decoded by the rejoined worker; "
              "its log: %s" % (removed, detect_s, added, len(seqs), len(missing),
                               len(moved_away), len(back),
                               sum(1 for r in back if r["reason"] == "key_reset"), n_flagged,
                               alone_ok, len(affected), zero, rejoined, stale))

    def test_013_slow_workers_drops_reported_in_order(self):
        # Two workers that cannot keep up (all PDUs at once, --max-queue
        # 16, one CPU thread each whatever the backend under test: the CPU
        # decoder gives the CUDA one's bits): each PDU either comes out or
        # is reported "dropped" by the collector, in order, at once (no
        # timeout: 60 s here); the key's next PDU is flagged harq_reset.
        n = min(len(self.pdus), 2000)
        d = deployment(self.pdus[:n], 2, pace=0.0, window=1 << 16, timeout_ms=60000,
                       worker_max_queue=16, frontend_max_queue=0, backend="cpu")
        try:
            ok = wait_for(lambda: d.reorder.stats()["next_seq"] >= n, 120, 0.05)
            time.sleep(0.3)
            outs, errs, stats = d.outputs(), d.errors(), d.reorder.stats()
        finally:
            logs = d.close(show_logs=False)
        self.assertTrue(ok, "the stream stalled: %s" % stats)
        errs = [py_of(e) for e in errs]
        self.assertEqual({(e["reason"], e["cause"]) for e in errs}, {("dropped", "worker_queue_full")})
        self.assertTrue(all(e["worker"] in d.endpoints for e in errs))
        self.assertEqual(stats["timeout"], 0)
        dropped = {e["seq"] for e in errs}
        seqs = [int_of(pmt.car(o), "seq") for o in outs]
        self.assertEqual(seqs, sorted(set(seqs)))
        self.assertEqual(set(seqs) | dropped, set(range(n)))
        self.assertGreater(len(dropped), 0)
        self.assertGreater(len(seqs), 0)
        outs_by_seq = {int_of(pmt.car(o), "seq"): o for o in outs}
        # The workers here are CPU ones: compared with a CPU reference (the
        # CUDA decoder's bits of a TB that fails its CRC may differ: the
        # CPU's default turbo kernel chooses its own windows).
        refs = None
        if BACKEND != "cpu":
            srv = pdu_server(reference_decoder(backend="cpu"))
            try:
                refs = srv.process(self.pdus[:n])
            finally:
                srv.close()
        n_flagged, affected, zero = self.check_decoding(outs_by_seq, dropped, n, refs)
        said = sum(int(x) for x in re.findall(r"stopped, .* (\d+) dropped, \d+ stale", logs))
        self.assertEqual(said, len(dropped), "the workers' own counts")
        print("slow workers: %d of %d out, %d dropped and reported in order, %d flagged "
              "harq_reset, %d TBs affected (%d false passes on the all-zero TB)"
              % (len(seqs), n, len(dropped), n_flagged, len(affected), zero))

    def test_014_worker_asks_for_huge_page_malloc(self):
        # gpurx-worker runs itself again with glibc.malloc.hugetlb=1 added
        # to GLIBC_TUNABLES (same process id: execve), keeps a value the
        # user gave, and with --malloc-default leaves the environment alone.
        import importlib.util
        spec = importlib.util.spec_from_file_location("gpurx_worker_app", WORKER)
        app = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(app)
        self.assertEqual(app.with_huge_page_malloc({})["GLIBC_TUNABLES"], "glibc.malloc.hugetlb=1")
        self.assertEqual(app.with_huge_page_malloc({"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"})
                         ["GLIBC_TUNABLES"], "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
        self.assertIsNone(app.with_huge_page_malloc({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"}))

        def environ_of(extra_args, env):
            listen, send = ("tcp://127.0.0.1:%d" % p for p in free_ports(2))
            with tempfile.TemporaryFile() as log:
                proc = subprocess.Popen([sys.executable, "-B", WORKER, "--listen", listen, "--send",
                                         send, "--backend", "cpu", "--log-interval", "0"]
                                        + extra_args, stdout=log, stderr=subprocess.STDOUT, env=env)
                try:
                    def said():
                        log.seek(0)
                        return log.read().decode(errors="replace")
                    self.assertTrue(wait_for(lambda: ": listening" in said() or proc.poll() is not None,
                                             120, 0.05), "the worker did not start")
                    self.assertIsNone(proc.poll(), said())
                    with open("/proc/%d/environ" % proc.pid, "rb") as f:
                        entries = f.read().split(b"\0")
                    line = [x for x in said().splitlines() if ": listening" in x][0]
                finally:
                    proc.terminate()
                    proc.wait(60)
            found = [e.decode() for e in entries if e.startswith(b"GLIBC_TUNABLES=")]
            return (found[0].split("=", 1)[1] if found else None), line

        env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
        tunables, line = environ_of([], env)
        self.assertEqual(tunables, "glibc.malloc.hugetlb=1")
        self.assertIn("malloc: keeps freed memory, GLIBC_TUNABLES=glibc.malloc.hugetlb=1", line)
        tunables, line = environ_of(["--malloc-default"], env)
        self.assertIsNone(tunables)
        self.assertIn("malloc: glibc's defaults", line)
        tunables, _ = environ_of([], dict(env, GLIBC_TUNABLES="glibc.malloc.hugetlb=0"))
        self.assertEqual(tunables, "glibc.malloc.hugetlb=0")


class bench_checker(gr.basic_block):
    """The bench's sink: checks each decoded TB as it comes (nothing kept):
    in order (seq, or arrival order without one), crc_ok, transmissions,
    iterations and the bits (serialized, compared with expect(i)'s), and
    notes the time of the last one (time.time())."""

    def __init__(self, expect):
        gr.basic_block.__init__(self, "bench_checker", None, None)
        self.expect = expect  # i -> (payload bytes, crc_ok, iterations or None, transmissions)
        self.count, self.next, self.bad = 0, 0, []
        self.iterations = {}
        self.first_t = self.last_t = None
        self.out_bytes = 0
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)

    def fail(self, why):
        if len(self.bad) < 10:
            self.bad.append(why)

    def handle(self, msg):
        now = time.time()
        meta = pmt.car(msg)
        s = meta_get(meta, "seq")
        i = self.count if pmt.is_null(s) else pmt_int(s)
        if i != self.next:
            self.fail("transmission %d came after %d" % (i, self.next - 1))
        self.next = i + 1
        payload, crc_ok, iterations, transmissions = self.expect(i)
        if pmt.to_bool(meta_get(meta, "crc_ok")) != crc_ok:
            self.fail("transmission %d: crc_ok %s" % (i, not crc_ok))
        if pmt_int(meta_get(meta, "transmissions")) != transmissions:
            self.fail("transmission %d: transmissions %d, not %d"
                      % (i, pmt_int(meta_get(meta, "transmissions")), transmissions))
        it = pmt_int(meta_get(meta, "iterations"))
        if iterations is not None and it != iterations:
            self.fail("transmission %d: %d iterations, not %d" % (i, it, iterations))
        self.iterations[i] = it
        if pmt.serialize_str(pmt.cdr(msg)) != payload:
            self.fail("transmission %d: bits differ" % i)
        if self.count == 0:
            self.first_t = now
            self.out_bytes = len(pmt.serialize_str(msg))
        self.count += 1
        self.last_t = now


def run_in_process(pdus_of, n, expect, threads, **decoder):
    """One in-process decoder (threads CPU threads) fed n transmissions at
    once: (seconds from the first post to the last output, checker)."""
    dec = reference_decoder(cpu_threads=threads, **decoder)
    chk = bench_checker(expect)
    tb = gr.top_block()
    tb.msg_connect(dec, "pdus", chk, "in")
    err = blocks.message_debug()
    tb.msg_connect(dec, "errors", err, "store")
    tb.start()
    bb = dec.to_basic_block()
    t0 = time.time()
    for i in range(n):
        bb._post(PDUS, pdus_of(i))
    ok = wait_for(lambda: chk.count >= n, 1800, 0.002)
    stop_or_exit(tb)
    if not ok or err.num_messages():
        raise SystemExit("bench: the in-process decoder gave %d of %d (errors: %s)"
                         % (chk.count, n, [pmt.write_string(err.get_message(i))
                                           for i in range(err.num_messages())]))
    return chk.last_t - t0, chk


def share_main(argv):
    """--in-process-share: one of the bench's concurrent in-process decoders
    (a process of its own, no ZMQ). Makes the heavy pool, learns each pool
    TB's iterations, prints "ready", waits for a line on stdin, decodes its
    share (transmissions first .. first + count - 1 of the cycled pool, all
    posted at once, each output checked) and prints a JSON line: t0, t_last
    (time.time()) and cpu (its CPU seconds over the share)."""
    p = argparse.ArgumentParser(prog="qa_scale_out.py --in-process-share")
    p.add_argument("--first", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--pool", type=int, default=64)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--iterations", type=int, default=6)
    p.add_argument("--early-termination", action="store_true")
    a = p.parse_args(argv)
    pool, bits = make_pool(a.pool)
    payloads = [pmt.serialize_str(pmt.init_u8vector(HEAVY_TBS, b.tolist())) for b in bits]
    dec_args = dict(max_tbs=HEAVY_TBS, harq_buffers=0, iterations=a.iterations,
                    early_termination=a.early_termination)
    _, chk = run_in_process(lambda i: cycled(pool, i), a.pool,
                            lambda i: (payloads[i], True, None, 1), a.threads, **dec_args)
    iters = dict(chk.iterations)
    print("ready")
    sys.stdout.flush()
    sys.stdin.readline()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = -(usage.ru_utime + usage.ru_stime)
    t0 = time.time()
    _, chk = run_in_process(lambda i: cycled(pool, a.first + i), a.count,
                            lambda i: (payloads[(a.first + i) % a.pool], True,
                                       iters.get((a.first + i) % a.pool), 1),
                            a.threads, **dec_args)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu += usage.ru_utime + usage.ru_stime
    print(json.dumps(dict(t0=t0, t_last=chk.last_t, cpu=cpu, count=chk.count, bad=chk.bad)))
    sys.stdout.flush()
    return 1 if chk.bad else 0


def run_in_parallel(k, n, a):
    """k in-process decoders at once, each in a process of its own (no ZMQ,
    no front end): what k decoders give on this host when nothing but
    decoding is shared (cores, caches, memory bandwidth, clocks: the
    host's own scaling, the ceiling for k workers). n transmissions split
    evenly. (seconds from the first start to the last output, CPU seconds
    per process summed, failures)."""
    cmd = [sys.executable, os.path.abspath(__file__), "--in-process-share"]
    procs = []
    for j in range(k):
        first, count = j * n // k, (j + 1) * n // k - j * n // k
        args = ["--first", str(first), "--count", str(count), "--pool", str(a.pool),
                "--threads", str(a.threads), "--iterations", str(a.iterations)]
        if a.early_termination:
            args.append("--early-termination")
        procs.append(subprocess.Popen(cmd + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True))
    def line_from(pr, test):
        """The first line of pr's stdout that passes test (GNU Radio's log
        also writes there), or None at its end."""
        for line in pr.stdout:
            if test(line.strip()):
                return line.strip()
        return None

    bad = []
    for pr in procs:
        if line_from(pr, lambda t: t == "ready") is None:
            bad.append("a decoder process did not start (exit %s)" % pr.wait())
    if bad:
        for pr in procs:
            pr.kill()
        return float("nan"), 0.0, bad
    for pr in procs:
        pr.stdin.write("go\n")
        pr.stdin.flush()
    res = []
    for pr in procs:
        line = line_from(pr, lambda t: t.startswith("{")) or ""
        pr.wait()
        try:
            res.append(json.loads(line))
        except ValueError:
            bad.append("a decoder process failed (exit %s)" % pr.returncode)
    if bad:
        return float("nan"), 0.0, bad
    for r in res:
        bad += r["bad"]
    if sum(r["count"] for r in res) != n:
        bad.append("decoded %d of %d" % (sum(r["count"] for r in res), n))
    span = max(r["t_last"] for r in res) - min(r["t0"] for r in res)
    return span, sum(r["cpu"] for r in res), bad


def which_bound(r1, w, busiest, cpu, n, decoders=None):
    """What bounds a run, from its own figures: the rate each limit allows,
    the lowest first. balance: the decoders (decoders, default w: one per
    worker) at the in-process rate r1, the busiest decoder holding busiest
    x an even share; front end, collector:
    one core over their CPU time per TB (each is one Python process);
    workers: w cores over their CPU time per TB (one decoding thread each,
    their transport and Python beside it); the host: all its hardware
    threads over the CPU time per TB of every process together."""
    limits = {"balance": (decoders or w) * r1 / busiest if busiest == busiest else float("inf")}
    for who, key in (("front end", "frontend"), ("collector", "collector")):
        if cpu[key] > 0:
            limits[who] = n / cpu[key]
    if cpu["worker"] > 0:
        limits["workers at one core each"] = w * n / cpu["worker"]
    total = cpu["frontend"] + cpu["worker"] + cpu["collector"]
    if total > 0:
        limits["host's %d cores" % os.cpu_count()] = os.cpu_count() * n / total
    order = sorted(limits.items(), key=lambda kv: kv[1])
    return "; ".join("%s %.0f TB/s" % kv for kv in order)


def bench_main(argv):
    """--bench: transport blocks a second through worker processes (front
    end, ZMQ, workers, collector, all on this host) against one in-process
    decoder, on the same transmissions, each output checked."""
    p = argparse.ArgumentParser(
        prog="qa_scale_out.py --bench", description=bench_main.__doc__ + (
            " Heavy traffic (the default): TBS %d in G %d int8 LLRs (64-QAM, 13 code blocks), "
            "every TB decoded at its first transmission, a fixed number of iterations (no "
            "early stop): the decoders, not the Python front end and collector, are the bound. "
            "Small traffic: the functional test's (TBS %d, HARQ retransmissions)."
            % (HEAVY_TBS, HEAVY_G, TBS)))
    p.add_argument("--traffic", choices=("heavy", "small"), default="heavy")
    p.add_argument("--transmissions", type=int, default=None,
                   help="transmissions per run (default: heavy 3000, small 10000)")
    p.add_argument("--threads", type=int, default=1,
                   help="CPU threads of each worker and of the in-process decoder (default 1)")
    p.add_argument("--workers", default="1,2,3",
                   help="worker process counts to run, e.g. 1,2,4,8 (default 1,2,3)")
    p.add_argument("--iterations", type=int, default=6, help="turbo iterations (default 6)")
    p.add_argument("--early-termination", action="store_true",
                   help="heavy traffic: stop at the CRC (default: every iteration runs)")
    p.add_argument("--pool", type=int, default=64, help="heavy: distinct TBs cycled (default 64)")
    p.add_argument("--devices", default=None,
                   help="CUDA: the GPUs, e.g. 0,1: 1 worker on GPU 0, one worker per GPU "
                        "listed, and 1 worker over all of them (one decoder per GPU; --devices "
                        "all where they are every usable GPU of the host)")
    p.add_argument("--no-host-control", action="store_true",
                   help="heavy CPU runs: skip the control (k in-process decoders at once, a "
                        "process each, for each worker count k >= 2)")
    p.add_argument("--repeat", type=int, default=1,
                   help="CPU runs with the control: rounds of control then workers per count "
                        "(default 1)")
    p.add_argument("--bound", type=float, default=1.1,
                   help="refuse a rate above decoders x the in-process rate x this (default 1.1)")
    a = p.parse_args(argv)
    if a.threads < 0 or a.pool < 1 or a.iterations < 1 or a.repeat < 1:
        p.error("--threads >= 0, --pool >= 1, --iterations >= 1, --repeat >= 1")
    counts = [int(w) for w in a.workers.split(",") if w.strip()]
    if not counts or min(counts) < 1:
        p.error("--workers: counts of at least 1")
    heavy = a.traffic == "heavy"
    n = a.transmissions or (3000 if heavy else 10000)
    cores = os.cpu_count()
    if heavy:
        pool, bits = make_pool(a.pool)
        early = a.early_termination
        dec_args = dict(max_tbs=HEAVY_TBS, harq_buffers=0, iterations=a.iterations,
                        early_termination=early)
        payloads = [pmt.serialize_str(pmt.init_u8vector(HEAVY_TBS, b.tolist())) for b in bits]
        iters = {}
        pdus_of = lambda i: cycled(pool, i)
        expect = lambda i: (payloads[i % a.pool], True, iters.get(i % a.pool), 1)
        tb_bits = HEAVY_TBS
        what = ("TBS %d, G %d, 64-QAM, int8 LLRs, %d iterations%s, a pool of %d TBs cycled, "
                "no HARQ buffers (every TB new)"
                % (HEAVY_TBS, HEAVY_G, a.iterations, " at most (CRC early stop)" if early
                   else " fixed", a.pool))
        wire_in = len(pmt.serialize_str(pmt.cons(pmt.dict_add(pmt.dict_add(
            pmt.car(pool[0]), pmt.intern("seq"), pmt.from_uint64(0)), pmt.intern("shard_key"),
            pmt.from_uint64(0)), pmt.cdr(pool[0]))))
    else:
        pdus, n_tb, _ = make_traffic(n)
        n = len(pdus)
        ref = pdu_server(reference_decoder())
        outs = ref.process(pdus)
        ref.close()
        refs = [(pmt.serialize_str(pmt.cdr(o)), pmt.to_bool(meta_get(pmt.car(o), "crc_ok")),
                 pmt_int(meta_get(pmt.car(o), "iterations")),
                 pmt_int(meta_get(pmt.car(o), "transmissions"))) for o in outs]
        dec_args = dict(iterations=6, early_termination=True)
        pdus_of = lambda i: pdus[i]
        expect = lambda i: refs[i]
        tb_bits = TBS
        what = ("TBS %d, G %d, QPSK, int8 LLRs, HARQ retransmissions (%d TBs), 6 iterations at "
                "most" % (TBS, G, n_tb))
        wire_in = len(pmt.serialize_str(pdus[0])) + 30
    print("scale-out bench: %d transmissions (%s); backend %s, %d CPU thread(s) per decoder "
          "(0: one per hardware thread), host %d hardware threads" % (n, what, BACKEND, a.threads,
                                                                     cores))
    sys.stdout.flush()
    # The in-process decoder; with heavy traffic its first pass also learns
    # each pool TB's iteration count (every later transmission must match).
    if heavy:
        _, chk = run_in_process(pdus_of, a.pool, lambda i: (payloads[i], True, None, 1),
                                a.threads, **dec_args)
        if chk.bad:
            print("FAILED: the in-process decoder: %s" % "; ".join(chk.bad))
            return 1
        iters.update(chk.iterations)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_ms = -(usage.ru_utime + usage.ru_stime)
    dt, chk = run_in_process(pdus_of, n, expect, a.threads, **dec_args)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_ms += usage.ru_utime + usage.ru_stime
    if chk.bad:
        print("FAILED: the in-process decoder: %s" % "; ".join(chk.bad))
        return 1
    r1 = n / dt
    print("| decoding | TBs | seconds | TB/s | Mbit/s (TB bits) | wire MB/s (in + out) | "
          "x in process | of linear | CPU ms per TB: front end, workers, collector | "
          "TBs per worker | busiest / even | bound | checks |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    same = ("all decoded, bit-exact" if heavy else
            "as the reference decoder (bits, crc_ok, iterations, transmissions)")
    print("| in process, 1 decoder (%d thread(s)) | %d | %.2f | %.1f | %.1f | | 1.00 | | %.2f "
          "(the decoder's process) | | | | %s |"
          % (a.threads, n, dt, r1, r1 * tb_bits / 1e6, cpu_ms * 1e3 / n, same))
    sys.stdout.flush()
    runs = [(w, None, w) for w in counts]  # (workers, their --devices, decoders in all)
    if a.devices:
        devs = a.devices.split(",")
        # The last: one worker with a decoder per listed GPU, named "all"
        # where the list is every usable GPU of the host.
        every = sorted(int(x) for x in devs) == usable_gpus()
        runs = [(1, [devs[0]], 1), (len(devs), devs, len(devs)),
                (1, ["all" if every else ",".join(devs)], len(devs))]
    status = 0
    n_cols = "| | | | | | | | | | | |"  # the row's other cells, empty

    def control_row(k, reference=False):
        """k in-process decoders at once, a process each (no ZMQ): the
        host's own scaling for k decoders, which k workers cannot pass. Its
        TB/s, or None (reported). reference: the run that may set the
        in-process rate (no bound against it)."""
        nonlocal status
        span, cpu, bad = run_in_parallel(k, n, a)
        label = "%d in-process decoder(s) at once (a process each, no ZMQ)" % k
        if bad:
            print("| %s | FAILED: %s %s" % (label, "; ".join(bad[:3]), n_cols))
            status = 1
            return None
        rate = n / span
        if not reference and rate / r1 > k * a.bound:
            print("| %s | REFUSED: %.2f x the in-process rate is above the bound %.2f %s"
                  % (label, rate / r1, k * a.bound, n_cols))
            status = 1
            return None
        print("| %s | %d | %.2f | %.1f | %.1f | | %.2f | %.2f | %.2f (the decoders' processes) "
              "| | | | %s |" % (label, n, span, rate, rate * tb_bits / 1e6, rate / r1, rate / r1 / k,
                               cpu * 1e3 / n, same))
        sys.stdout.flush()
        return rate

    def workers_row(w, devices, decs):
        """w worker processes (front end, ZMQ, collector): their TB/s, or
        None (refused, failed: reported)."""
        nonlocal status
        label = "%d worker(s)%s" % (w, " (devices %s)" % ",".join(devices) if devices else "")
        chk = bench_checker(expect)
        try:
            d = deployment([pool[i] for i in range(a.pool)] if heavy else pdus, w,
                           window=1 << 20, timeout_ms=600000, cpu_threads=a.threads,
                           devices=devices, worker_max_queue=0, frontend_max_queue=0,
                           repeat=n if heavy else 0, sink=chk,
                           max_tbs=HEAVY_TBS if heavy else MAX_TBS,
                           harq_buffers=0 if heavy else HARQ_BUFFERS,
                           iterations=dec_args["iterations"],
                           early_termination=dec_args["early_termination"],
                           decoders=decs // w if decs > w else None)
        except AssertionError as e:
            why = [line for line in str(e).splitlines() if "devices" in line or "error" in line]
            print("| %s | refused: %s %s"
                  % (label, (why[-1] if why else str(e).splitlines()[0]).strip(), n_cols))
            return None
        logs = ""
        try:
            ok = wait_for(lambda: chk.count >= n or d.err.num_messages() > 0, 1800, 0.01)
            t_post = d.posting_time()
            errs = [py_of(e) for e in d.errors()]
        finally:
            logs = d.close(show_logs=False)
        said = re.findall(r"stopped, (\d+) TBs decoded(?: \(by decoder: ([\d, ]+)\))?", logs)
        by_worker = [int(total) for total, _ in said]
        by_decoder = [int(x) for total, parts in said
                      for x in (parts.split(",") if parts else [total])]
        checks = []
        if not ok or chk.count != n:
            checks.append("INCOMPLETE: %d of %d" % (chk.count, n))
        if errs:
            checks.append("collector errors: %s" % errs[:3])
        checks += chk.bad
        if checks:
            print("| %s | FAILED: %s %s" % (label, "; ".join(checks), n_cols))
            status = 1
            return None
        dt = chk.last_t - t_post
        rate = n / dt
        ratio = rate / r1
        bound = decs * a.bound
        verdict = "in order, %s" % same
        if ratio > bound:
            verdict = ("REFUSED: %.2f x the in-process rate is above the physical bound %.2f "
                       "(%d decoder(s) x %.2f): a measurement error" % (ratio, bound, decs, a.bound))
            status = 1
        # Balance over decoders (one per worker, or several in one).
        busiest = (max(by_decoder) / (n / decs) if len(by_worker) == w and len(by_decoder) == decs
                   else float("nan"))
        print("| %s | %d | %.2f | %.1f | %.1f | %.1f + %.1f | %.2f | %.2f | %.2f, %.2f, %.2f | "
              "%s | %.3f | %s | %s |"
              % (label, n, dt, rate, rate * tb_bits / 1e6, rate * wire_in / 1e6,
                 rate * chk.out_bytes / 1e6, ratio, ratio / decs, d.cpu["frontend"] * 1e3 / n,
                 d.cpu["worker"] * 1e3 / n, d.cpu["collector"] * 1e3 / n,
                 ", ".join(str(c) for c in sorted(by_worker))
                 + (" (by decoder: %s)" % ", ".join(map(str, by_decoder)) if decs > w else ""),
                 busiest, which_bound(r1, w, busiest, d.cpu, n, decs), verdict))
        sys.stdout.flush()
        return rate if ratio <= bound else None

    # The reference for "linear": the faster of the in-process decoder above
    # and one decoder in a process of its own (the control's k = 1), so
    # that neither a slower bench process nor a faster fresh one flatters
    # the ratios.
    with_control = heavy and not a.devices and not a.no_host_control
    if with_control:
        alone = control_row(1, reference=True)
        if alone is not None and alone > r1:
            print("| linear: k x %.1f TB/s, one decoder in a process of its own (above the "
                  "in-process row's %.1f) %s" % (alone, r1, n_cols))
            r1 = alone
    # CPU workers with the control: for each count, --repeat rounds of the
    # control (k in-process decoders at once, a process each) and then the
    # workers, so that each pair ran under the same conditions of the host.
    summary = []
    for w, devices, decs in runs:
        pairs = []
        for _ in range(a.repeat if with_control else 1):
            c = control_row(w) if with_control else None
            r = workers_row(w, devices, decs)
            if r is not None:
                pairs.append((r, c))
        if devices or not pairs:
            continue
        line = "%d worker(s): %s of linear (%d x the in-process decoder)" % (
            w, ", ".join("%.2f" % (r / r1 / decs) for r, _ in pairs), decs)
        vs = [r / c for r, c in pairs if c]
        if vs:
            med = sorted(vs)[len(vs) // 2]
            line += ("; %s of %d in-process decoder(s) at once, run just before (median %.2f; the "
                     "host's own scaling: %s of linear)"
                     % (", ".join("%.2f" % v for v in vs), w, med,
                        ", ".join("%.2f" % (c / r1 / w) for _, c in pairs if c)))
        summary.append(line)
    for line in summary:
        print(line)
    return status


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--frontend":
        sys.exit(frontend_main(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--bench":
        sys.exit(bench_main(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--in-process-share":
        sys.exit(share_main(sys.argv[2:]))
    require_backend_or_skip()
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
