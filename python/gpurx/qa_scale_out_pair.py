#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The scale-out front end and collector programs (docs/scale-out.md,
"Front end and collector"), as processes on 127.0.0.1:
examples/scale_out_capture.py makes a capture (16-QAM DL-SCH transmissions
with HARQ retransmissions: a share of the TBs sent first at an Es/N0 where
they fail), then examples/scale_out_collector.py, two apps/gpurx_worker.py
and examples/scale_out_frontend.py run on it. Every transmission must come
out once, in seq order, without a report; each decodes as the capture's
own HARQ controller (one in-process decoder) decoded it: crc_ok, the
payload bits where it passes, and transmissions = 2 for the retransmission
of a TB whose first transmission failed. Also: the capture_tagger's tags
land on the right LLRs through qam_demapper, and llr_pdu_to_int8 rounds and
clips.

GPURX_TEST_BACKEND=cuda runs the workers on CUDA (Skipped without a GPU)."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx, pdu

from qa_helpers import BACKEND, require_backend_or_skip, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")
WORKER = os.path.join(ROOT, "apps", "gpurx_worker.py")
TBS = 300  # TBs: about 390 transmissions with --fail-fraction 0.3


def free_ports(n):
    import socket
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


class qa_scale_out_pair(unittest.TestCase):

    def test_001_tagger_through_demapper(self):
        """Each transmission's tags reach its PDU: metadata fields, n0, and
        an LLR count of symbols * qm, at the right LLRs (the demapper's LLRs
        of those symbols at that n0, computed here from its definition)."""
        entries = [dict(symbols=5, n0=0.5, tbs=40, rv=0, qm=4, rnti=10, cell_id=1, subframe=0,
                        harq_process=0, ndi=0, codeword=0),
                   dict(symbols=3, n0=2.0, tbs=40, rv=2, qm=4, rnti=11, cell_id=1, subframe=3,
                        harq_process=5, ndi=1, codeword=0)]
        rng = np.random.default_rng(3)
        y = (rng.standard_normal(8) + 1j * rng.standard_normal(8)).astype(np.complex64)
        tb = gr.top_block()
        src = blocks.vector_source_c(y.tolist())
        tagger = gpurx.capture_tagger(entries, "packet_len")
        demap = gpurx.qam_demapper("16qam", 1.0)
        to_pdu = pdu.tagged_stream_to_pdu(gr.types.float_t, "packet_len")
        dbg = blocks.message_debug()
        tb.connect(src, tagger, demap, to_pdu)
        tb.msg_connect(to_pdu, "pdus", dbg, "store")
        tb.run()
        self.assertEqual(dbg.num_messages(), 2)
        self.assertEqual(tagger.tagged(), 2)
        sys.path.insert(0, EXAMPLES)
        from scale_out_capture import constellation, max_log_llrs
        points = constellation(4)
        at = 0
        for i, e in enumerate(entries):
            msg = dbg.get_message(i)
            meta = pmt.car(msg)
            for k in ("tbs", "rv", "qm", "rnti", "cell_id", "subframe", "harq_process", "ndi",
                      "codeword"):
                self.assertEqual(pmt.to_long(pmt.dict_ref(meta, pmt.intern(k), pmt.PMT_NIL)),
                                 e[k], k)
            self.assertAlmostEqual(pmt.to_double(pmt.dict_ref(meta, pmt.intern("n0"),
                                                              pmt.PMT_NIL)), e["n0"])
            llr = np.array(pmt.f32vector_elements(pmt.cdr(msg)))
            want = max_log_llrs(y[at:at + e["symbols"]].astype(np.complex128), points, 4, e["n0"])
            np.testing.assert_allclose(llr, want, rtol=1e-4, atol=1e-4)
            at += e["symbols"]

    def test_002_int8(self):
        from gnuradio.gpurx.capture import llrs_to_int8
        self.assertEqual(llrs_to_int8([0.0, 0.06, 0.07, -0.07, 1.0, -1.0, 15.8, 16.0, -100.0])
                         .tolist(), [0, 0, 1, -1, 8, -8, 126, 127, -127])
        for bad in (dict(symbols=0), dict(qm=3), dict(n0=0.0), dict(rnti="7")):
            e = dict(symbols=5, n0=0.5, tbs=40, rv=0, qm=4, rnti=10, cell_id=1, subframe=0,
                     harq_process=0, ndi=0, codeword=0)
            e.update(bad)
            name = list(bad)[0]
            with self.assertRaisesRegex(ValueError, name):
                gpurx.capture_tagger([e])

    def test_010_frontend_workers_collector(self):
        self.run_site(frontend_first=False)

    def test_011_quickstart_order_front_end_before_its_workers(self):
        # docs/scale-out.md's quickstart, in the order a shell runs it: the
        # front end (with --heartbeat) starts before its workers are up
        # (here 2 s before); it waits for their first heartbeats, and
        # nothing is lost (28% was: the monitor removed the workers that
        # had not sent a heartbeat yet).
        text = self.run_site(frontend_first=True)
        self.assertIn("frontend: every worker is up", text)

    def run_site(self, frontend_first):
        """The collector, two workers and the front end on a capture; with
        frontend_first the front end (heartbeats on) starts 2 s before the
        workers. Checks everything came out right; the logs."""
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ)
            py = [sys.executable, "-B"]
            r = subprocess.run(py + [os.path.join(EXAMPLES, "scale_out_capture.py"), "--out", d,
                                     "--tbs", str(TBS), "--fail-fraction", "0.3"],
                               env=env, capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            sidecar = read_jsonl(os.path.join(d, "capture.jsonl"))
            ref = read_jsonl(os.path.join(d, "reference.jsonl"))
            n = len(sidecar)
            self.assertEqual(len(ref), n)
            # The capture itself: some TBs need a second transmission.
            self.assertGreater(sum(1 for e in sidecar if e["rv"] != 0), 0.15 * TBS)

            ports = free_ports(4)
            collect = "tcp://127.0.0.1:%d" % ports[0]
            heartbeats = "tcp://127.0.0.1:%d" % ports[3]
            workers = ["tcp://127.0.0.1:%d" % p for p in ports[1:3]]
            logs, procs = {}, []

            def spawn(name, args):
                logs[name] = open(os.path.join(d, name + ".log"), "wb")
                p = subprocess.Popen(py + args, stdout=logs[name], stderr=subprocess.STDOUT,
                                     env=env)
                procs.append(p)
                return p

            def log(name):
                with open(os.path.join(d, name + ".log"), "rb") as f:
                    return f.read().decode(errors="replace")

            out = os.path.join(d, "decoded.jsonl")
            try:
                col = spawn("collector", [os.path.join(EXAMPLES, "scale_out_collector.py"),
                                          "--listen", collect, "--out", out, "--expect", str(n),
                                          "--timeout-ms", "10000", "--idle-exit-ms", "20000"])
                frontend = [os.path.join(EXAMPLES, "scale_out_frontend.py"), "--capture", d,
                            "--workers", ",".join(workers), "--llr", "int8"]
                beat = []
                if frontend_first:
                    frontend += ["--heartbeat", heartbeats]
                    beat = ["--heartbeat", heartbeats, "--heartbeat-interval-ms", "100"]
                    fe = spawn("frontend", frontend)
                    time.sleep(2)
                for i, w in enumerate(workers):
                    spawn("worker%d" % i, [WORKER, "--listen", w, "--send", collect,
                                           "--backend", BACKEND, "--cpu-threads", "1",
                                           "--input", "int8", "--harq-buffers", "256",
                                           "--max-tbs", "1000", "--log-interval", "0"] + beat)
                if not frontend_first:
                    self.assertTrue(wait_for(lambda: all(": listening" in log("worker%d" % i)
                                                         for i in range(2)), 120, 0.05),
                                    log("worker0") + log("worker1"))
                    fe = spawn("frontend", frontend)
                self.assertEqual(fe.wait(180), 0, log("frontend"))
                self.assertEqual(col.wait(120), 0, log("collector"))
            finally:
                for p in procs:
                    if p.poll() is None:
                        p.terminate()
                for p in procs:
                    try:
                        p.wait(15)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.wait()
                for f in logs.values():
                    f.close()
            text = "".join("--- %s\n%s" % (k, log(k)) for k in logs)
            self.assertIn("frontend: done: %d transmissions made, %d sent" % (n, n), text)
            self.assertIn("collector: %d delivered, 0 missing" % n, text)
            self.assertIn("errors 0", text)
            got = read_jsonl(out)
            # Every transmission once, in seq order.
            self.assertEqual([g["seq"] for g in got], list(range(n)), text)
            retx_checked = 0
            for i, (g, r, e) in enumerate(zip(got, ref, sidecar)):
                where = "seq %d (%s)" % (i, e)
                self.assertEqual((g["rnti"], g["harq_process"], g["rv"], g["ndi"]),
                                 (e["rnti"], e["harq_process"], e["rv"], e["ndi"]), where)
                self.assertIn(g["worker"], workers, where)
                self.assertEqual(g["crc_ok"], r["crc_ok"], where)
                self.assertEqual(g["transmissions"], r["transmissions"], where)
                if r["crc_ok"]:
                    self.assertEqual(g["bits"], r["bits"], where)
                if e["rv"] != 0:
                    # A retransmission: its first transmission failed, and
                    # the worker holding the key's soft buffer combined both.
                    self.assertEqual(g["transmissions"], 2, where)
                    retx_checked += 1
            self.assertGreater(retx_checked, 0.15 * TBS)
            # Every TB decoded in the end (the capture's controller decoded
            # all: a retransmission at the good Es/N0 always passes).
            self.assertEqual(sum(1 for g in got if g["crc_ok"]), TBS)
            # Both workers took a share.
            self.assertEqual({g["worker"] for g in got}, set(workers))
            return text


if __name__ == "__main__":
    require_backend_or_skip()
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
