#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The LTE downlink receiver's GNU Radio blocks (lte_dl_decoder, the
hierarchical lte_dl_receiver) on captures of srsRAN's eNodeB chain
(lte_dl_gen, a peer: /work/shared/peers/README.md), on the backend named by
GPURX_TEST_BACKEND:

- the file twin (file sources -> lte_dl_receiver): every TB of the truth
  (code rate <= 0.93, which a UE must decode) arrives on "tbs" with the
  generator's payload, or as a duplicate (a retransmission of a TB already
  delivered); two UEs with SI traffic (RNTIs given, and "all"), and a 2x2
  TM3 capture through lte_dl_gen's 2x2 channel; the last subframes too (the
  end of the stream loses nothing); "status" names the cell; the pcap holds
  a record per decoded TB;
- an rx_time tag that jumps (samples lost, as after a USRP overflow): the
  subframes it touches are reported lost, none decoded from it, those after
  decode; a jump back in time starts the receiver afresh and finds the cell
  again;
- bad parameters raise ValueError naming them.

Skipped (77) with the reason when lte_dl_gen is not found (GPURX_LTE_DL_GEN,
else ../shared/peers or /work/shared/peers).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import BACKEND, require_backend_or_skip, run_with_timeout

require_backend_or_skip()

HERE = os.path.dirname(os.path.abspath(__file__))


def find_generator():
    """lte_dl_gen: the environment's GPURX_LTE_DL_GEN, else the peers'
    folder beside the checkout, else /work/shared/peers."""
    env = os.environ.get("GPURX_LTE_DL_GEN")
    if env:
        return env if os.access(env, os.X_OK) else None
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    for d in (os.path.join(root, "..", "shared", "peers"), "/work/shared/peers"):
        p = os.path.join(d, "lte_dl_gen")
        if os.access(p, os.X_OK):
            return p
    return None


GEN = find_generator()
if GEN is None:
    print("skipped: lte_dl_gen not found (set GPURX_LTE_DL_GEN, or put it in ../shared/peers)")
    sys.exit(77)


class capture:
    """A capture of lte_dl_gen: one cf32 file per receive antenna, and the
    generator's JSON line per subframe (the truth)."""

    def __init__(self, args, two_rx=False):
        self.dir = tempfile.mkdtemp(prefix="qa_lte_dl_")
        base = os.path.join(self.dir, "cap")
        out = ["-R", base] if two_rx else ["-o", base + ".cf32"]
        subprocess.run([GEN] + args.split() + out + ["-j", base + ".jsonl"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.files = [base + ".0", base + ".1"] if two_rx else [base + ".cf32"]
        with open(base + ".jsonl") as f:
            self.truth = [json.loads(line) for line in f if line.strip()]
        self.rate = float(self.truth[0]["srate"])

    def samples(self, a=0):
        return np.fromfile(self.files[a], dtype=np.complex64)

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def hex_bits(payload, tbs):
    """The truth's payload (hex, first bit the MSB) as tbs bits 0/1."""
    raw = np.frombuffer(bytes.fromhex(payload), dtype=np.uint8)
    return np.unpackbits(raw)[:tbs].tolist()


def expected_tbs(cap, rntis=None, skip=lambda sfn, sf: False):
    """{(sfn, subframe, rnti, tb): bits} of every TB a UE must decode
    (code rate <= 0.93) of the RNTIs given (all when None; SI always)."""
    out = {}
    for sf in cap.truth:
        if skip(sf["sfn"], sf["sf_idx"]):
            continue
        for p in sf["pdsch_list"]:
            rnti = int(p["rnti"])
            if rntis is not None and rnti not in rntis and rnti != 0xFFFF:
                continue
            for i, tb in enumerate(p["tb"]):
                if float(tb["cr"]) <= 0.93:
                    out[(sf["sfn"], sf["sf_idx"], rnti, i)] = hex_bits(tb["payload"], int(tb["tbs"]))
    return out


class collected:
    """What the receiver posted, from message_debug blocks."""

    def __init__(self, tbs, stats, status):
        self.tbs = [tbs.get_message(i) for i in range(tbs.num_messages())]
        self.stats = [pmt.to_python(stats.get_message(i)) for i in range(stats.num_messages())]
        self.status = [pmt.to_python(status.get_message(i)) for i in range(status.num_messages())]

    def by_key(self):
        got = {}
        for m in self.tbs:
            meta = pmt.to_python(pmt.car(m))
            bits = list(pmt.u8vector_elements(pmt.cdr(m)))
            got[(meta["sfn"], meta["subframe"], meta["rnti"], meta["tb"])] = (meta, bits)
        return got


def receive(sources, rate, n_rx, timeout=120, **kw):
    """sources (one stream block per antenna) -> lte_dl_receiver -> message_debug."""
    tb = gr.top_block()
    kw.setdefault("backend", BACKEND)
    rx = gpurx.lte_dl_receiver(sample_rate=rate, n_rx=n_rx, **kw)
    dbg = {p: blocks.message_debug() for p in ("tbs", "stats", "status")}
    for a, s in enumerate(sources):
        tb.connect(s, (rx, a))
    for p, d in dbg.items():
        tb.msg_connect(rx, p, d, "store")
    run_with_timeout(tb, timeout)
    return rx, collected(dbg["tbs"], dbg["stats"], dbg["status"])


def file_sources(cap):
    return [blocks.file_source(gr.sizeof_gr_complex, f, False) for f in cap.files]


def time_tag(offset, seconds):
    t = gr.tag_t()
    t.offset = offset
    t.key = pmt.intern("rx_time")
    whole = int(seconds)
    t.value = pmt.make_tuple(pmt.from_uint64(whole), pmt.from_double(seconds - whole))
    t.srcid = pmt.intern("qa")
    return t


class qa_lte_dl_receiver(gr_unittest.TestCase):

    def check_all(self, cap, got, expected, what):
        """Every expected TB arrived with the truth's payload, or as a
        duplicate; none arrived wrong."""
        missing, wrong, decoded, duplicates = [], [], 0, 0
        for key, bits in expected.items():
            if key not in got:
                missing.append(key)
                continue
            meta, data = got[key]
            if meta["duplicate"]:
                duplicates += 1
                self.assertEqual(len(data), 0, "%s: a duplicate carries no bits" % what)
            elif meta["crc_ok"] and data == bits:
                decoded += 1
            else:
                wrong.append(key)
        self.assertGreater(len(expected), 0, what)
        self.assertEqual(missing, [], "%s: %d of %d TBs missing" % (what, len(missing), len(expected)))
        self.assertEqual(wrong, [], "%s: TBs wrong" % what)
        return decoded, duplicates

    def test_001_file_twin_two_ues_si_and_pcap(self):
        cap = capture("-p 25 -U 2 -P 1 -m r -B -n 60 -c 101")
        try:
            pcap = os.path.join(cap.dir, "out.pcap")
            rx, c = receive(file_sources(cap), cap.rate, 1, rnti="0x1234,0x1235", pcap=pcap)
            got = c.by_key()
            expected = expected_tbs(cap, rntis={0x1234, 0x1235})
            decoded, _ = self.check_all(cap, got, expected, "two UEs, RNTIs given")
            # The last subframes' TBs too: nothing lost at the end.
            last = max(k for k in expected)
            self.assertIn(last, got)
            # Counters as posted.
            self.assertEqual(rx.subframes(), len(c.stats))
            self.assertGreaterEqual(rx.subframes(), 55)
            self.assertEqual(rx.tbs() + rx.duplicates(), len(c.tbs))
            self.assertEqual(rx.tbs_ok(), decoded)
            self.assertEqual(rx.bler(), 0.0)
            self.assertIn("TBs %d/%d ok" % (decoded, decoded), rx.stats_text())
            # The cell, from the truth.
            found = [s for s in c.status if s["state"] == "found"]
            self.assertEqual(len(found), 1, c.status)
            self.assertEqual(found[0]["cell_id"], 101)
            self.assertEqual(found[0]["n_prb"], 25)
            self.assertEqual(c.status[0]["state"], "searching")
            self.assertEqual(rx.cell_id(), 101)
            # One pcap record per decoded TB (the CRC passed or not).
            with open(pcap, "rb") as f:
                data = f.read()
            self.assertEqual(struct.unpack("<I", data[:4])[0], 0xA1B2C3D4)
            records, pos = 0, 24
            while pos + 16 <= len(data):
                incl = struct.unpack("<I", data[pos + 8:pos + 12])[0]
                pos += 16 + incl
                records += 1
            self.assertEqual(pos, len(data))
            self.assertEqual(records, sum(1 for m in c.tbs if pmt.length(pmt.cdr(m)) > 0))
            # Every UE found without being told: the first DCI of a UE may
            # be missed (an RNTI is believed from its second sighting).
            rx2, c2 = receive(file_sources(cap), cap.rate, 1, rnti="all")
            got2 = c2.by_key()
            missing = [k for k in expected if k not in got2]
            self.assertLessEqual(len(missing), 4, missing)
            for k, bits in expected.items():
                if k in got2 and not got2[k][0]["duplicate"]:
                    self.assertTrue(got2[k][0]["crc_ok"] and got2[k][1] == bits, k)
        finally:
            cap.close()

    def test_002_file_twin_2x2_tm3(self):
        cap = capture("-p 25 -x 3 -m 16 -N 30 -n 40 -c 9", two_rx=True)
        try:
            rx, c = receive(file_sources(cap), cap.rate, 2, rnti="all")
            decoded, _ = self.check_all(cap, c.by_key(), expected_tbs(cap), "2x2 TM3")
            self.assertGreater(decoded, 60)
            self.assertEqual(rx.bler(), 0.0)
            # Two codewords per PDSCH: TB 1 arrives too.
            self.assertTrue(any(k[3] == 1 for k in c.by_key()))
        finally:
            cap.close()

    def test_007_transmission_mode_chooses_the_formats(self):
        # TM3's grants come as DCI 2A. With tm=3 (1A and 2A searched) both
        # codewords arrive; with tm=1 (1A and 1) none of the UEs' PDSCHs
        # does: the block passes the mode to the receiver's search (36.213
        # Table 7.1-5). On the CPU: 80 TBs (40 on codeword 1) against 0.
        cap = capture("-p 25 -x 3 -m 16 -N 30 -n 40 -c 9", two_rx=True)
        try:
            got = {}
            for tm in (3, 1):
                rx, c = receive(file_sources(cap), cap.rate, 2, rnti="all", tm=tm)
                got[tm] = c.by_key()
            tb1 = {tm: sum(1 for k in got[tm] if k[3] == 1) for tm in got}
            print("TM3 capture: tm=3 %d TBs (%d on codeword 1), tm=1 %d TBs (%d on codeword 1)"
                  % (len(got[3]), tb1[3], len(got[1]), tb1[1]))
            self.assertGreater(tb1[3], 20)
            self.assertEqual(tb1[1], 0)
            self.assertLess(len(got[1]), len(got[3]))
        finally:
            cap.close()

    def gapped(self, time_at_cut):
        """The 1.92 MS/s capture with 5000 samples cut out after 45 ms, an
        rx_time tag on the first sample and on the first after the cut."""
        cap = capture("-p 6 -x 1 -m 9 -n 100 -c 8")
        x = cap.samples()
        cut, skip = 45 * 1920, 5000
        y = np.concatenate([x[:cut], x[cut + skip:]])
        tags = [time_tag(0, 100.0), time_tag(cut, 100.0 + time_at_cut(cut, skip) / cap.rate)]
        src = blocks.vector_source_c(y.tolist(), False, 1, tags)
        return cap, src

    def test_003_rx_time_gap_reports_lost_subframes(self):
        cap, src = self.gapped(lambda cut, skip: cut + skip)
        try:
            rx, c = receive([src], cap.rate, 1, rnti="all")
            self.assertEqual(rx.gaps(), 1)
            self.assertEqual(rx.samples_lost(), 5000)
            lost = [s for s in c.stats if s["outcome"] == "lost"]
            self.assertGreaterEqual(len(lost), 2)
            self.assertEqual(rx.subframes_lost(), len(lost))
            self.assertTrue(all("gap" in s["reason"] for s in lost), lost)
            after = 0
            for (sfn, sf, rnti, i), (meta, bits) in c.by_key().items():
                n = sfn * 10 + sf
                self.assertFalse(45 <= n <= 47 and meta["crc_ok"], "subframe %d decoded across the gap" % n)
                if n >= 48 and meta["crc_ok"]:
                    after += 1
            self.assertGreaterEqual(after, 8)
            # Those after the gap are the truth's.
            expected = expected_tbs(cap, skip=lambda sfn, sf: sfn * 10 + sf < 48)
            self.check_all(cap, c.by_key(), expected, "after the gap")
        finally:
            cap.close()

    def test_004_rx_time_back_in_time_starts_afresh(self):
        cap, src = self.gapped(lambda cut, skip: -10 * 1920)
        try:
            rx, c = receive([src], cap.rate, 1, rnti="all")
            self.assertEqual(rx.gaps(), 1)
            self.assertEqual(rx.samples_lost(), 0)
            states = [s["state"] for s in c.status]
            self.assertEqual(states.count("found"), 2, states)
            self.assertIn("searching", states[states.index("found"):])
            after = sum(1 for (sfn, sf, _, _), (m, _) in c.by_key().items() if sfn * 10 + sf >= 48 and m["crc_ok"])
            # 52 ms of samples after the restart, 40 of them searched first
            # (and decoded from where the cell was found).
            self.assertGreaterEqual(after, 1)
        finally:
            cap.close()

    def test_006_usrp_program_on_a_replay(self):
        # gpurx-lte-dl --usrp's program, the radio replaced by the capture:
        # its JSON lines are the truth's TBs (no HARQ here: no duplicates).
        app = os.path.join(HERE, "..", "..", "apps", "gpurx_lte_dl_usrp.py")
        cap = capture("-p 25 -x 1 -m 16 -n 30 -c 44")
        try:
            jsonl = os.path.join(cap.dir, "tbs.jsonl")
            r = subprocess.run([sys.executable, "-B", app, "--replay", cap.files[0], "--rate", "%g" % cap.rate,
                                "--backend", BACKEND, "--jsonl", jsonl, "--quiet"],
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("cell 44: 25 PRB", r.stdout)
            got = {}
            with open(jsonl) as f:
                for line in f:
                    j = json.loads(line)
                    self.assertEqual(sorted(j), sorted(["sfn", "subframe", "rnti", "tb", "tbs", "mcs", "rv", "ndi",
                                                        "harq", "crc_ok", "payload"]))
                    got[(j["sfn"], j["subframe"], j["rnti"], j["tb"])] = j
            expected = expected_tbs(cap)
            self.assertGreater(len(expected), 20)
            for k, bits in expected.items():
                self.assertIn(k, got)
                self.assertTrue(got[k]["crc_ok"], k)
                self.assertEqual(hex_bits(got[k]["payload"], len(bits)), bits, k)
            self.assertIn("TBs: %d decoded of %d" % (len(expected), len(got)), r.stdout)
        finally:
            cap.close()

    def test_005_bad_parameters_name_themselves(self):
        cases = [
            (dict(sample_rate=5e6), "sample_rate"),
            (dict(n_rx=3), "n_rx"),
            (dict(rnti="0x10000"), "rnti"),
            (dict(rnti="12,abc"), "rnti"),
            (dict(rnti=""), "rnti"),
            (dict(backend="gpu"), "backend"),
            (dict(ue_category=13), "ue_category"),
            (dict(tm=8), "tm"),
            (dict(tm=-1), "tm"),
            (dict(detector="zf"), "detector"),
            (dict(devices=""), "devices"),
            (dict(pcap="/nonexistent-dir/x.pcap"), "pcap"),
        ]
        for kw, name in cases:
            kw.setdefault("sample_rate", 1.92e6)
            with self.assertRaises(ValueError, msg=str(kw)) as cm:
                gpurx.lte_dl_receiver(backend=kw.pop("backend", "cpu"), **kw)
            self.assertIn(name, str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            gpurx.lte_dl_decoder(7.0e6, 1, "all", "cpu")
        self.assertIn("sample_rate", str(cm.exception))
        # Good ones construct.
        d = gpurx.lte_dl_decoder(15.36e6, 2, " 0x1234, 77 ", "cpu", "0", 0, "mtt", "")
        self.assertEqual(d.state(), "searching")
        self.assertEqual(d.cell_id(), -1)


if __name__ == "__main__":
    gr_unittest.run(qa_lte_dl_receiver)
