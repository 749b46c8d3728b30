#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Makes a capture for the scale-out front end (docs/scale-out.md, "Front
end and collector"): DL-SCH transport-block transmissions with HARQ
retransmissions, as QAM symbols in AWGN.

Writes to --out DIR:
  capture.c64      complex64 symbols, transmissions back to back
  capture.jsonl    one line per transmission: symbols, n0 and the TB
                   metadata (tbs, rv, qm, rnti, cell_id, subframe,
                   harq_process, ndi, codeword)
  reference.jsonl  one line per transmission, in the same order: "tb" (the
                   TB's index), "bits" (its payload, hex: first bit = most
                   significant of the first byte), and what this program's
                   own HARQ controller decoded: "crc_ok", "transmissions"

Every subframe t serves each of --ues UEs on HARQ process t % --harq: a
new TB (ndi toggled), or the next redundancy version (0, 2, 3, 1) of a TB
whose last transmission failed. A new TB's first transmission is sent at
--fail-esn0-db with probability --fail-fraction (so that it fails at rv 0),
every other at --esn0-db. The HARQ controller is one in-process
lte_sch_decoder_pdu (CPU) fed the LLRs the front end will make: max-log
(the demapper's definition, computed here in numpy) and, with --llr int8,
round(8 L) clipped. The TB bits are encoded by gpurx.lte_sch_encoder_pdu
and mapped by the 3GPP TS 36.211 7.1 constellations (written out here, not
taken from qam_mapper, so the chain checks the demapper against the
spec)."""
import argparse
import json
import os
import sys
import time

import numpy as np


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="folder to write the capture to (made if absent)")
    p.add_argument("--tbs", type=int, default=300, help="transport blocks (default 300)")
    p.add_argument("--tb-bits", type=int, default=1000, help="transport block size in bits")
    p.add_argument("--symbols", type=int, default=600,
                   help="QAM symbols per transmission (G = symbols * qm)")
    p.add_argument("--modulation", default="16qam", choices=("qpsk", "16qam", "64qam", "256qam"))
    p.add_argument("--ues", type=int, default=16, help="UEs (rnti 100, 101, ...)")
    p.add_argument("--harq", type=int, default=8, help="HARQ processes per UE, 1..16")
    p.add_argument("--esn0-db", type=float, default=10.0, help="Es/N0 of most transmissions")
    p.add_argument("--fail-esn0-db", type=float, default=-3.0,
                   help="Es/N0 of the first transmissions meant to fail")
    p.add_argument("--fail-fraction", type=float, default=0.3,
                   help="share of TBs whose first transmission is at --fail-esn0-db")
    p.add_argument("--llr", default="int8", choices=("int8", "float"),
                   help="the LLRs the front end sends (the controller decodes the same)")
    p.add_argument("--cell-id", type=int, default=7)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    if a.tbs < 1:
        p.error("--tbs must be >= 1, got %d" % a.tbs)
    if not 1 <= a.harq <= 16:
        p.error("--harq must be in 1..16, got %d" % a.harq)
    if a.ues < 1:
        p.error("--ues must be >= 1, got %d" % a.ues)
    if not 0 <= a.fail_fraction <= 1:
        p.error("--fail-fraction must be in 0..1, got %g" % a.fail_fraction)
    return a


QM = {"qpsk": 2, "16qam": 4, "64qam": 6, "256qam": 8}
RVS = (0, 2, 3, 1)


def constellation(qm):
    """points[v] for v = the qm bits b(0)..b(qm-1) read as a number, b(0)
    most significant: TS 36.211 7.1. Per axis (b(0), b(2), ... for I;
    b(1), b(3), ... for Q) the amplitude is (1 - 2 b(0)) times
    2^(m-1) - (1 - 2 b(2)) (2^(m-2) - (1 - 2 b(4)) (...  - (1 - 2 b(2m-2)) 1)),
    m = qm / 2 (tables 7.1.2-1 to 7.1.5-1), over sqrt(2 (4^m - 1) / 3)."""
    m = qm // 2
    norm = np.sqrt(2.0 * (4 ** m - 1) / 3.0)
    points = np.empty(1 << qm, dtype=np.complex128)
    for v in range(1 << qm):
        b = [(v >> (qm - 1 - i)) & 1 for i in range(qm)]

        def axis(first):
            amp = 1.0
            for j in range(m - 1, 0, -1):
                amp = 2.0 ** (m - j) - (1 - 2 * b[first + 2 * j]) * amp
            return (1 - 2 * b[first]) * amp

        points[v] = complex(axis(0), axis(1)) / norm
    return points


def map_bits(bits, points, qm):
    groups = bits.reshape(-1, qm).astype(np.int64)
    v = groups.dot(1 << np.arange(qm - 1, -1, -1))
    return points[v]


def max_log_llrs(y, points, qm, n0):
    """L(b) = (min over points with b = 0 of |y-s|^2 - min over b = 1) / n0,
    qam_demapper's definition; positive for bit 1."""
    d = np.abs(y[:, None] - points[None, :]) ** 2
    idx = np.arange(len(points))
    out = np.empty((len(y), qm))
    for i in range(qm):
        one = ((idx >> (qm - 1 - i)) & 1) == 1
        out[:, i] = (d[:, ~one].min(axis=1) - d[:, one].min(axis=1)) / n0
    return out.reshape(-1).astype(np.float32)


class pdu_server:
    """A PDU block in a running flowgraph: process(pdus) posts them and
    returns their outputs, in order."""

    def __init__(self, blk):
        from gnuradio import blocks, gr
        import pmt
        self.tb = gr.top_block()
        self.bb = blk.to_basic_block()
        self.out, self.err = blocks.message_debug(), blocks.message_debug()
        self.tb.msg_connect(blk, "pdus", self.out, "store")
        self.tb.msg_connect(blk, "errors", self.err, "store")
        self.tb.start()
        self.n = 0
        self.port = pmt.intern("pdus")

    def process(self, pdus):
        import pmt
        for p in pdus:
            self.bb._post(self.port, p)
        self.n += len(pdus)
        deadline = time.monotonic() + 300
        while self.out.num_messages() < self.n:
            if self.err.num_messages():
                raise RuntimeError(pmt.write_string(self.err.get_message(0)))
            if time.monotonic() > deadline:
                raise RuntimeError("%d of %d PDUs came out" % (self.out.num_messages(), self.n))
            time.sleep(0.001)
        return [self.out.get_message(i) for i in range(self.n - len(pdus), self.n)]

    def close(self):
        self.tb.stop()
        self.tb.wait()


def generate(a):
    import pmt
    from gnuradio import gpurx
    from gnuradio.gpurx.capture import llrs_to_int8, write_sidecar
    from gnuradio.gpurx.collector import bits_hex

    qm = QM[a.modulation]
    g = a.symbols * qm
    points = constellation(qm)
    rng = np.random.default_rng(a.seed)
    n0_good = 10 ** (-a.esn0_db / 10)
    n0_bad = 10 ** (-a.fail_esn0_db / 10)
    max_tbs = max(a.tb_bits, 16)

    def meta(**f):
        d = pmt.make_dict()
        for k, v in f.items():
            d = pmt.dict_add(d, pmt.intern(k), pmt.from_long(int(v)))
        return d

    enc = pdu_server(gpurx.lte_sch_encoder_pdu("dlsch", max_tbs=max_tbs, max_g=max(g, 8)))
    ctl = pdu_server(gpurx.lte_sch_decoder_pdu(
        "dlsch", 6, "scaled-max-log-map", a.llr, a.ues * a.harq, True, max_tbs, max(g, 8),
        "auto", options=gpurx.pipeline_options(backend="cpu", cpu_threads=1)))
    entries, refs, chunks = [], [], []
    state = {}  # (ue, hp) -> dict(bits, k (transmissions so far), ndi, tb, fail_first)
    ndis = {}
    started = 0
    t = 0
    try:
        while started < a.tbs or state:
            hp = t % a.harq
            slots = []
            for ue in range(a.ues):
                key = (ue, hp)
                if key not in state:
                    if started == a.tbs:
                        continue
                    ndis[key] = ndis.get(key, 1) ^ 1
                    state[key] = dict(bits=rng.integers(0, 2, a.tb_bits).astype(np.uint8), k=0,
                                      ndi=ndis[key], tb=started,
                                      fail_first=rng.random() < a.fail_fraction)
                    started += 1
                s = state[key]
                f = dict(tbs=a.tb_bits, rv=RVS[s["k"]], qm=qm, rnti=100 + ue, cell_id=a.cell_id,
                         subframe=t % 10, harq_process=hp, ndi=s["ndi"], codeword=0)
                n0 = n0_bad if s["k"] == 0 and s["fail_first"] else n0_good
                slots.append((key, f, n0))
            t += 1
            if not slots:
                continue
            cws = enc.process([pmt.cons(meta(g=g, **f), pmt.init_u8vector(a.tb_bits,
                                                                         state[key]["bits"]))
                               for key, f, _ in slots])
            pdus = []
            for (key, f, n0), cw in zip(slots, cws):
                coded = np.asarray(pmt.u8vector_elements(pmt.cdr(cw)), dtype=np.uint8)
                x = map_bits(coded, points, qm)
                noise = np.sqrt(n0 / 2) * (rng.standard_normal(len(x))
                                           + 1j * rng.standard_normal(len(x)))
                y = (x + noise).astype(np.complex64)
                chunks.append(y)
                entries.append(dict(symbols=a.symbols, n0=n0, **f))
                llr = max_log_llrs(y.astype(np.complex128), points, qm, n0)
                if a.llr == "int8":
                    q = llrs_to_int8(llr).view(np.uint8)
                    pdus.append(pmt.cons(meta(**f), pmt.init_u8vector(len(q), q)))
                else:
                    pdus.append(pmt.cons(meta(**f), pmt.init_f32vector(len(llr), llr)))
            for (key, f, n0), o in zip(slots, ctl.process(pdus)):
                s = state[key]
                s["k"] += 1
                m = pmt.car(o)
                ok = pmt.to_bool(pmt.dict_ref(m, pmt.intern("crc_ok"), pmt.PMT_F))
                tx = pmt.to_long(pmt.dict_ref(m, pmt.intern("transmissions"), pmt.from_long(0)))
                refs.append(dict(tb=s["tb"], bits=bits_hex(s["bits"]), crc_ok=ok, transmissions=tx))
                if ok or s["k"] == len(RVS):
                    del state[key]
    finally:
        enc.close()
        ctl.close()
    os.makedirs(a.out, exist_ok=True)
    np.concatenate(chunks).astype(np.complex64).tofile(os.path.join(a.out, "capture.c64"))
    write_sidecar(os.path.join(a.out, "capture.jsonl"), entries)
    with open(os.path.join(a.out, "reference.jsonl"), "w") as f:
        for r in refs:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    return entries, refs


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    entries, refs = generate(a)
    retx = sum(1 for e in entries if e["rv"] != 0)
    ok = sum(1 for r in refs if r["crc_ok"])
    sys.stderr.write("scale_out_capture: %d transmissions of %d TBs (%d retransmissions), "
                     "%d decoded by the controller, %d TBs never; written to %s\n"
                     % (len(entries), a.tbs, retx, ok, a.tbs - ok, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
