#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Scale-out (docs/scale-out.md): pdu_sequencer, pdu_shard_sink (consistent
hashing), pdu_reorder, and gpurx-worker processes.

- the hash ring: removing an endpoint moves only its keys, adding one takes
  only keys that move to it;
- the sequencer's seq and shard_key; the reorder's order, timeout, window,
  duplicates and late PDUs; the shard sink over real ZMQ sockets, an
  endpoint removed and added while running; bad parameters named;
- end to end on 127.0.0.1, in separate processes: a front end (this file
  with --frontend: sequencer + shard sink), three gpurx-worker processes
  (CPU backend), and the collector (this process: pull_msg_source +
  pdu_reorder). Transport blocks with HARQ retransmissions (rv 0, 2, 3, 1
  while the CRC fails, decided by the reference decoder) come out once
  each, in seq order, bit-exact (bits, crc_ok, cb_crc, iterations,
  transmissions) with one in-process lte_sch_decoder_pdu fed the same PDUs,
  and every transmission of a TB was decoded by the worker its key hashes
  to (so "transmissions" counts the combining there);
- a worker killed mid-run: what it had not sent is reported missing
  ("timeout"), everything else comes out in order.

GPURX_TEST_BACKEND=cuda runs the workers and the reference on CUDA (Skipped
without a GPU). SCALE_OUT_TBS sets the number of transmissions (default
10000)."""
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx, zeromq

from qa_helpers import BACKEND, pmt_int, require_backend_or_skip, wait_for
from qa_sch_helpers import encode, meta_get, run_pdus, stop_or_exit, tb_meta
from gnuradio.gpurx.scale_out import harq_shard_key, hash_ring

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "..", "..", "apps", "gpurx_worker.py")

# The traffic: 32 UEs x 8 HARQ processes (256 keys); a TB of 1000 bits in
# G = 1200 QPSK code bits per transmission, at a noise where rv 0 alone
# mostly fails and rv 0 + rv 2 mostly passes.
TBS, G, QM = 1000, 1200, 2
N_UE, N_HARQ = 32, 8
SIGMA = 0.72
RVS = (0, 2, 3, 1)
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


def int8_llrs(bits, sigma, rng):
    y = (2.0 * bits.astype(np.float64) - 1.0) + sigma * rng.standard_normal(len(bits))
    return np.clip(np.round(8 * 2.0 * y / sigma ** 2), -127, 127).astype(np.int8)


class pdu_server:
    """A PDU block in a running flowgraph: process(pdus) posts them and
    returns their outputs (in arrival order)."""

    def __init__(self, blk):
        self.tb = gr.top_block()
        self.blk = blk
        self.out, self.err = blocks.message_debug(), blocks.message_debug()
        self.tb.msg_connect(blk, "pdus", self.out, "store")
        self.tb.msg_connect(blk, "errors", self.err, "store")
        self.tb.start()
        self.n = 0

    def process(self, pdus):
        for p in pdus:
            self.blk.to_basic_block()._post(pmt.intern("pdus"), p)
        self.n += len(pdus)
        if not wait_for(lambda: self.out.num_messages() >= self.n, 300, 0.0005):
            raise AssertionError("%d of %d came out" % (self.out.num_messages(), self.n))
        if self.err.num_messages():
            raise AssertionError(pmt.write_string(self.err.get_message(0)))
        return [self.out.get_message(i) for i in range(self.n - len(pdus), self.n)]

    def close(self):
        stop_or_exit(self.tb)


def reference_decoder():
    return gpurx.lte_sch_decoder_pdu(
        "dlsch", 6, "scaled-max-log-map", "int8", HARQ_BUFFERS, True, MAX_TBS, 262144, "auto",
        gpurx.pipeline_options(backend=BACKEND))


def make_traffic(n_pdus, seed=1):
    """HARQ traffic of about n_pdus transmissions (int8 LLR PDUs, no seq)
    and the number of TBs. Subframe t serves every UE on HARQ process
    t % 8; a TB is retransmitted (next rv, same ndi, scrambled for its own
    subframe) 8 subframes later while an in-process decoder (the HARQ
    controller here) says its CRC failed, at most 4 times; then the process
    takes a new TB (ndi toggled)."""
    rng = np.random.default_rng(seed)
    enc = pdu_server(gpurx.lte_sch_encoder_pdu("dlsch", max_tbs=MAX_TBS))
    ctl = pdu_server(reference_decoder())
    pdus = []
    state = {}  # (ue, hp) -> [bits, tx index, ndi]
    ndis = {}
    n_tb = 0
    try:
        t = 0
        while len(pdus) < n_pdus:
            hp = t % N_HARQ
            metas, bits_in = [], []
            for ue in range(N_UE):
                if (ue, hp) not in state:
                    ndis[(ue, hp)] = ndis.get((ue, hp), 1) ^ 1
                    state[(ue, hp)] = [rng.integers(0, 2, TBS).astype(np.uint8), 0, ndis[(ue, hp)]]
                    n_tb += 1
                bits, k, ndi = state[(ue, hp)]
                metas.append(dict(tbs=TBS, g=G, qm=QM, rv=RVS[k], rnti=100 + ue, cell_id=7,
                                  subframe=t % 10, harq_process=hp, ndi=ndi, codeword=0))
                bits_in.append(pmt.cons(tb_meta(**metas[-1]),
                                        pmt.init_u8vector(TBS, bits.tolist())))
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
            t += 1
    finally:
        enc.close()
        ctl.close()
    return pdus, n_tb


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


def frontend_main(argv):
    """--frontend PDU_FILE ENDPOINTS PACE_PER_S: posts the file's PDUs
    through pdu_sequencer -> pdu_shard_sink (PACE_PER_S PDUs a second, 0:
    all at once), then runs until SIGTERM."""
    path, endpoints, pace = argv[0], argv[1].split(","), float(argv[2])
    pdus = read_pdus(path)
    tb = gr.top_block()
    seqr = gpurx.pdu_sequencer("harq")
    shard = gpurx.pdu_shard_sink(endpoints)
    tb.msg_connect(seqr, "pdus", shard, "pdus")
    done = []
    signal.signal(signal.SIGTERM, lambda *a: done.append(1))
    tb.start()
    port = pmt.intern("pdus")
    t0 = time.monotonic()
    for i, p in enumerate(pdus):
        if pace > 0:
            ahead = i / pace - (time.monotonic() - t0)
            if ahead > 0:
                time.sleep(ahead)
        seqr.to_basic_block()._post(port, p)
        if done:
            break
    sys.stderr.write("frontend: %d PDUs posted in %.2f s\n" % (len(pdus), time.monotonic() - t0))
    sys.stderr.flush()
    while not done:
        time.sleep(0.05)
    tb.stop()
    tb.wait()
    sys.stderr.write("frontend: sent %s\n" % shard.sent())
    return 0


class deployment:
    """Workers, a front end and the collector (this process) on 127.0.0.1."""

    def __init__(self, pdus, n_workers=3, pace=0.0, window=4096, timeout_ms=500,
                 cpu_threads=1, devices=None):
        ports = free_ports(n_workers + 1)
        self.collect = "tcp://127.0.0.1:%d" % ports[0]
        self.endpoints = ["tcp://127.0.0.1:%d" % p for p in ports[1:]]
        self.tmp = tempfile.TemporaryDirectory()
        self.pdu_file = os.path.join(self.tmp.name, "pdus.bin")
        write_pdus(self.pdu_file, pdus)
        # The collector binds first.
        self.tb = gr.top_block()
        self.src = zeromq.pull_msg_source(self.collect, 100, True)
        self.reorder = gpurx.pdu_reorder(window, timeout_ms)
        self.out, self.err = blocks.message_debug(), blocks.message_debug()
        self.tb.msg_connect(self.src, "out", self.reorder, "pdus")
        self.tb.msg_connect(self.reorder, "pdus", self.out, "store")
        self.tb.msg_connect(self.reorder, "errors", self.err, "store")
        self.tb.start()
        self.procs, self.logs = [], []
        self.workers = {}
        for i, e in enumerate(self.endpoints):
            # devices: one entry per worker (e.g. ["0", "1"] or ["all"]), the
            # CUDA workers' GPUs; cycled when shorter.
            dev = ["--devices", devices[i % len(devices)]] if devices else []
            self.workers[e] = self._spawn(
                [WORKER, "--listen", e, "--send", self.collect, "--channel", "dlsch",
                 "--backend", BACKEND, "--input", "int8", "--harq-buffers", str(HARQ_BUFFERS),
                 "--cpu-threads", str(cpu_threads), "--max-tbs", str(MAX_TBS),
                 "--log-interval", "2"] + dev, "worker")
        # The front end starts once every worker listens (their start-up,
        # importing GNU Radio, is not in the figures).
        if not wait_for(lambda: self.log_text().count("listening") == n_workers, 120, 0.05):
            self.close()
            raise AssertionError("the workers did not start")
        self.t0 = time.monotonic()
        self.frontend = self._spawn([os.path.abspath(__file__), "--frontend", self.pdu_file,
                                     ",".join(self.endpoints), str(pace)], "frontend")

    def _spawn(self, args, name):
        path = os.path.join(self.tmp.name, "%s%d.log" % (name, len(self.logs)))
        with open(path, "wb") as log:
            p = subprocess.Popen([sys.executable, "-B"] + args, stdout=log,
                                 stderr=subprocess.STDOUT)
        self.procs.append(p)
        self.logs.append((name, path))
        return p

    def log_text(self):
        out = []
        for name, path in self.logs:
            with open(path, "rb") as r:
                out.append("--- %s\n%s" % (name, r.read().decode(errors="replace")))
        return "\n".join(out)

    def outputs(self):
        return [self.out.get_message(i) for i in range(self.out.num_messages())]

    def errors(self):
        return [self.err.get_message(i) for i in range(self.err.num_messages())]

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        stop_or_exit(self.tb)
        sys.stdout.write(self.log_text())
        sys.stdout.flush()
        self.tmp.cleanup()


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
            ring = hash_ring(eps[:3])
            for e in eps:
                for i in range(dbg[e].num_messages()):
                    meta = pmt.car(dbg[e].get_message(i))
                    self.assertEqual(ring.lookup(int_of(meta, "shard_key")), e)
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
            ring.remove(eps[1])
            ring.add(eps[3])
            for e in (eps[0], eps[2], eps[3]):
                for i in range(counts[e], dbg[e].num_messages()):
                    meta = pmt.car(dbg[e].get_message(i))
                    self.assertEqual(ring.lookup(int_of(meta, "shard_key")), e)
            self.assertEqual(shard.sent()[eps[1]], counts[eps[1]])
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
                           (lambda: gpurx.pdu_reorder(16, -5), "timeout_ms")):
            with self.assertRaises(ValueError) as ctx:
                make()
            self.assertIn(word, str(ctx.exception))
        # The worker's command line: a bad value exits 2 naming it.
        for args, word in ((["--listen", "x", "--send", "tcp://127.0.0.1:1"], "listen"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "tcp://127.0.0.1:2",
                             "--harq-buffers", "-1", "--backend", "cpu"], "harq_buffers"),
                           (["--listen", "tcp://127.0.0.1:1", "--send", "y"], "send")):
            r = subprocess.run([sys.executable, "-B", WORKER] + args, capture_output=True,
                               timeout=60)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(word, r.stderr.decode())


class qa_scale_out_processes(unittest.TestCase):
    N = int(os.environ.get("SCALE_OUT_TBS", "10000"))

    @classmethod
    def setUpClass(cls):
        t0 = time.monotonic()
        cls.pdus, cls.n_tb = make_traffic(cls.N)
        t1 = time.monotonic()
        # The reference: one in-process decoder fed all the PDUs at once.
        ref = pdu_server(reference_decoder())
        try:
            cls.ref = ref.process(cls.pdus)
        finally:
            ref.close()
        cls.ref_s = time.monotonic() - t1
        print("traffic: %d transmissions of %d TBs made in %.1f s; one in-process decoder: "
              "%.1f s (%.0f TB/s)" % (len(cls.pdus), cls.n_tb, t1 - t0, cls.ref_s,
                                      len(cls.pdus) / cls.ref_s))

    def check_output(self, msg, i, worker_of):
        meta, ref = pmt.car(msg), pmt.car(self.ref[i])
        self.assertEqual(pmt.u8vector_elements(pmt.cdr(msg)),
                         pmt.u8vector_elements(pmt.cdr(self.ref[i])), "seq %d: bits" % i)
        for k in ("crc_ok", "cb_crc", "iterations", "transmissions", "rnti", "harq_process",
                  "rv", "ndi"):
            self.assertTrue(pmt.equal(meta_get(meta, k), meta_get(ref, k)),
                            "seq %d: %s %s, reference %s" % (i, k, pmt.write_string(
                                meta_get(meta, k)), pmt.write_string(meta_get(ref, k))))
        self.assertEqual(str_of(meta, "worker"), worker_of(int_of(meta, "shard_key")))

    def test_010_three_workers_bit_exact_in_order(self):
        d = deployment(self.pdus, 3, pace=0.0, window=1 << 16, timeout_ms=60000)
        try:
            ok = wait_for(lambda: d.out.num_messages() >= len(self.pdus), 600, 0.05)
            dt = time.monotonic() - d.t0
            time.sleep(0.3)
            outs, errs = d.outputs(), d.errors()
        finally:
            d.close()
        self.assertTrue(ok, "%d of %d came out" % (len(outs), len(self.pdus)))
        self.assertEqual(errs, [])
        self.assertEqual(len(outs), len(self.pdus))
        ring = hash_ring(d.endpoints)
        seqs = [int_of(pmt.car(o), "seq") for o in outs]
        self.assertEqual(seqs, list(range(len(self.pdus))))
        by_worker = {}
        for i, o in enumerate(outs):
            self.check_output(o, i, ring.lookup)
            w = str_of(pmt.car(o), "worker")
            by_worker[w] = by_worker.get(w, 0) + 1
        self.assertEqual(sorted(by_worker), sorted(d.endpoints))
        tx = [int_of(pmt.car(o), "transmissions") for o in outs]
        retx = sum(1 for p in self.pdus if int_of(pmt.car(p), "rv") != 0)
        self.assertGreater(retx, len(self.pdus) // 3)
        # Every retransmission was combined: its count is its position.
        position = {0: 1, 2: 2, 3: 3, 1: 4}
        self.assertEqual(tx, [position[int_of(pmt.car(p), "rv")] for p in self.pdus])
        print("3 workers: %d transmissions (%d TBs) in %.1f s (%.0f TB/s; in process %.1f s), "
              "by worker %s, transmissions %s"
              % (len(outs), self.n_tb, dt, len(outs) / dt, self.ref_s, sorted(by_worker.values()),
                 np.bincount(tx).tolist()))

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
            ring = hash_ring(d.endpoints)
            keys = [harq_shard_key(int_of(pmt.car(p), "rnti"), int_of(pmt.car(p), "harq_process"))
                    for p in pdus]
            last_alive = max(i for i, k in enumerate(keys) if ring.lookup(k) != victim)
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
            self.assertEqual(ring.lookup(keys[s]), victim, "seq %d was not the victim's" % s)
        for o in outs:
            i = int_of(pmt.car(o), "seq")
            self.check_output(o, i, ring.lookup)
        alive = [i for i in range(last_alive + 1) if ring.lookup(keys[i]) != victim]
        self.assertTrue(set(alive) <= set(seqs), "a surviving worker's PDU is missing")
        print("worker killed at seq ~%d: %d out, %d reported missing (all the victim's)"
              % (killed_at, len(seqs), len(missing_seqs)))


def bench_main(argv):
    """--bench N [CPU_THREADS]: TB/s of one in-process decoder, then of 1, 2
    and 3 worker processes (front end and collector included), on the same
    N transmissions (docs/scale-out.md)."""
    n = int(argv[0]) if argv else 10000
    threads = int(argv[1]) if len(argv) > 1 else 0
    pdus, n_tb = make_traffic(n)
    ref = pdu_server(reference_decoder())
    t0 = time.monotonic()
    ref.process(pdus)
    dt = time.monotonic() - t0
    ref.close()
    print("in process: %d transmissions (%d TBs, TBS %d, G %d, int8) in %.2f s: %.0f TB/s"
          % (len(pdus), n_tb, TBS, G, dt, len(pdus) / dt))
    # GPURX_BENCH_DEVICES (CUDA workers): e.g. "0,1" gives worker i GPU i;
    # "all" one worker over every GPU. Unset: the workers' default.
    spec = os.environ.get("GPURX_BENCH_DEVICES")
    runs = [(w, None) for w in (1, 2, 3)]
    if spec:
        devs = spec.split(",")
        runs = [(1, ["0"]), (len(devs), devs), (1, ["all"])]
    for w, devices in runs:
        d = deployment(pdus, w, window=1 << 16, timeout_ms=60000, cpu_threads=threads, devices=devices)
        try:
            ok = wait_for(lambda: d.out.num_messages() >= len(pdus), 600, 0.01)
            dt = time.monotonic() - d.t0
        finally:
            d.close()
        print("%d worker(s) (backend %s, cpu_threads %d, devices %s): %s in %.2f s: %.0f TB/s"
              % (w, BACKEND, threads, ",".join(devices) if devices else "default",
                 "all out" if ok else "INCOMPLETE", dt, len(pdus) / dt))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--frontend":
        sys.exit(frontend_main(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--bench":
        sys.exit(bench_main(sys.argv[2:]))
    require_backend_or_skip()
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
