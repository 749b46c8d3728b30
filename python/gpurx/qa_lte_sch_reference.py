#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""lte_sch_encoder_pdu against an independent reference: every case of
tests/reference/data/sch_cases.json (written from TS 36.212 / 36.211 by
someone else, tests/reference/README.md) through the encoder block, as
PDUs in one flowgraph, compared with the case's fingerprint (first 64
bits, SHA-256 of the packed G bits, and the full output where the case
carries it). A mismatch names the first differing bit (computed with the
reference model, tests/reference/lte_sch_reference.py). Then each case's
noiseless codeword (+-4 LLRs) through lte_sch_decoder_pdu: crc_ok and the
TB's bits. A redundancy version whose window holds (almost) no systematic
bit of some code block (rv 2 at a high rate: the reference's
dl_tbs75376_rv2 and ul_tbs75376_rv2_punct) is not decodable alone by an
iterative turbo decoder; those cases are decoded combined (HARQ) with a
noisy rv 0 transmission of the same TB, which fails alone.

The cases of an uplink codeword on two layers (ul_multilayer) are outside
the blocks (nl must be 1 on the uplink): the encoder must report them on
"errors", naming nl.
"""
import hashlib
import json
import os
import sys
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import options, require_backend_or_skip, wait_for
from qa_sch_helpers import awgn_llrs, llr_pdu, meta_get, noiseless_llrs, reason, run_pdus, tb_meta

require_backend_or_skip()

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "..", "tests", "reference")
CASES = os.path.join(REFERENCE, "data", "sch_cases.json")
MAX_G = 1 << 19  # the largest case has G = 400000


def lcg_bits(seed, n):
    """The cases' TB bits (tests/reference/README.md)."""
    x, out = seed, np.empty(n, dtype=np.uint8)
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out[i] = x >> 63
    return out


def case_fields(c):
    """A case's parameters as the blocks' metadata (harq_process and ndi are
    required there and irrelevant to the encoder: 0)."""
    f = {k: c[k] for k in ("tbs", "rv", "qm", "g", "rnti", "cell_id", "subframe", "codeword", "nl",
                           "kc", "k_mimo", "m_dl_harq", "m_limit", "n_symb")}
    if c.get("n_soft") is not None:
        f["n_soft"] = c["n_soft"]
    f.update(harq_process=0, ndi=0)
    return f


def reference():
    sys.path.insert(0, REFERENCE)
    import lte_sch_reference as ref
    return ref


def reference_output(c, bits, rv=None):
    """The full expected output, from the reference model (for diagnosis),
    in the case's redundancy version or \p rv."""
    ref = reference()
    rv = c["rv"] if rv is None else rv
    return np.asarray(ref.encode(bits, c["channel"], c["tbs"], rv, c["qm"], c["g"], c["rnti"],
                                 c["cell_id"], c["subframe"], codeword=c["codeword"], nl=c["nl"],
                                 n_soft=c["n_soft"], kc=c["kc"], k_mimo=c["k_mimo"],
                                 m_dl_harq=c["m_dl_harq"], m_limit=c["m_limit"],
                                 n_symb=c["n_symb"]), dtype=np.uint8)


def systematic_fraction(c):
    """The least share of its systematic bits any code block's rate-matched
    bits hold (the reference model's rate matching)."""
    ref = reference()
    s = ref.segmentation(c["tbs"])
    E = ref.cb_lengths(c["g"], s["C"], c["nl"], c["qm"])
    least = 1.0
    for r in range(s["C"]):
        D, F = s["K"][r] + 4, s["F"] if r == 0 else 0
        Kw = 3 * 32 * ref.subblock_params(D)[0]
        ncb = ref.soft_buffer_size(Kw, s["C"], c["channel"], c["n_soft"], c["kc"], c["k_mimo"],
                                   c["m_dl_harq"], c["m_limit"])
        idx = ref.rate_match_indices(D, E[r], c["rv"], ncb, F)
        sent = np.unique(idx[(idx >= 0) & (idx < D)])
        least = min(least, len(sent) / (D - F))
    return least


# Below this share the case is decoded combined with rv 0 (the reference's
# cases: 0.00 and 0.08 there; the next lowest, 0.19, decodes alone).
SELF_DECODABLE = 0.1


def run_per_channel(make, pdus_by_channel, n_out, n_err, timeout=300):
    """One flowgraph, one block per channel; PDUs posted before the start.
    {channel: (outputs, errors)}."""
    tb = gr.top_block()
    sinks = {}
    for ch, pdus in pdus_by_channel.items():
        blk = make(ch)
        out, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(blk, "pdus", out, "store")
        tb.msg_connect(blk, "errors", err, "store")
        for p in pdus:
            blk.to_basic_block()._post(pmt.intern("pdus"), p)
        sinks[ch] = (out, err)
    tb.start()
    try:
        wait_for(lambda: sum(o.num_messages() for o, _ in sinks.values()) >= n_out and
                 sum(e.num_messages() for _, e in sinks.values()) >= n_err, timeout)
        wait_for(lambda: False, 0.2)
    finally:
        tb.stop()
        tb.wait()
    return {ch: ([o.get_message(i) for i in range(o.num_messages())],
                 [e.get_message(i) for i in range(e.num_messages())]) for ch, (o, e) in sinks.items()}


class qa_lte_sch_reference(gr_unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(CASES):
            raise unittest.SkipTest("no %s" % CASES)
        with open(CASES) as f:
            cls.cases = json.load(f)
        cls.bits = {c["name"]: lcg_bits(c["seed"], c["tbs"]) for c in cls.cases}

    def split(self):
        supported = [c for c in self.cases if not c.get("ul_multilayer")]
        return supported, [c for c in self.cases if c.get("ul_multilayer")]

    def encode_all(self):
        supported, multilayer = self.split()
        by_ch = {}
        for c in supported + multilayer:
            f = dict(case_fields(c), case=len(by_ch.get(c["channel"], [])))
            b = self.bits[c["name"]]
            by_ch.setdefault(c["channel"], []).append(
                pmt.cons(tb_meta(**f), pmt.init_u8vector(len(b), b.tolist())))
        res = run_per_channel(lambda ch: gpurx.lte_sch_encoder_pdu(ch, max_g=MAX_G), by_ch,
                              len(supported), len(multilayer))
        return supported, multilayer, res

    def test_001_encoder_matches_the_reference(self):
        supported, multilayer, res = self.encode_all()
        out = {}
        for ch, (msgs, _) in res.items():
            cases = [c for c in supported if c["channel"] == ch]
            self.assertEqual(len(msgs), len(cases), ch)
            for c, m in zip(cases, msgs):
                out[c["name"]] = np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)
        first_bad = None
        for c in supported:
            got = out[c["name"]]
            ok = (len(got) == c["g"] and "".join(map(str, got[:64])) == c["first64"] and
                  hashlib.sha256(np.packbits(got).tobytes()).hexdigest() == c["sha256"] and
                  ("output" not in c or "".join(map(str, got)) == c["output"]))
            if not ok and first_bad is None:
                want = reference_output(c, self.bits[c["name"]])
                diff = np.flatnonzero(got[:len(want)] != want[:len(got)])
                at = int(diff[0]) if len(diff) else min(len(got), len(want))
                first_bad = "%s: first differing output bit %d (of G=%d; block gave %d bits)" % (
                    c["name"], at, c["g"], len(got))
        self.assertIsNone(first_bad, "the encoder block disagrees with the reference")
        # Uplink on two layers: outside the blocks, reported naming nl.
        errs = res.get("ulsch", ([], []))[1]
        self.assertEqual(len(errs), len(multilayer))
        for e in errs:
            self.assertIn("nl=2", reason(e))

    def test_002_decoder_takes_the_noiseless_codewords(self):
        supported = [c for c in self.split()[0] if systematic_fraction(c) >= SELF_DECODABLE]
        by_ch = {}
        for c in supported:
            want = reference_output(c, self.bits[c["name"]]) if "output" not in c else \
                np.array([int(x) for x in c["output"]], dtype=np.uint8)
            f = dict(case_fields(c), case=len(by_ch.get(c["channel"], [])))
            by_ch.setdefault(c["channel"], []).append(llr_pdu(tb_meta(**f), noiseless_llrs(want)))
        # harq_buffers=0: the cases share rnti, HARQ process and ndi, and are
        # not retransmissions of one another.
        res = run_per_channel(lambda ch: gpurx.lte_sch_decoder_pdu(
            ch, harq_buffers=0, max_g=MAX_G, options=options(max_batch=16, flush_us=2000)),
            by_ch, len(supported), 0)
        failed = []
        for ch, (msgs, errs) in res.items():
            self.assertEqual(errs, [], ch)
            cases = [c for c in supported if c["channel"] == ch]
            self.assertEqual(len(msgs), len(cases), ch)
            for c, m in zip(cases, msgs):
                bits = np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)
                crc = pmt.to_bool(meta_get(pmt.car(m), "crc_ok"))
                if not crc or not np.array_equal(bits, self.bits[c["name"]]):
                    failed.append("%s (crc_ok %s, %d bit errors)" % (
                        c["name"], crc, int(np.sum(bits != self.bits[c["name"]]))))
        self.assertEqual(failed, [])

    def test_003_parity_only_cases_decode_combined_with_rv0(self):
        cases = [c for c in self.split()[0] if systematic_fraction(c) < SELF_DECODABLE]
        self.assertTrue(cases, "no case without systematic bits: drop this test")
        rng = np.random.default_rng(2984)
        for c in cases:
            bits = self.bits[c["name"]]
            f = case_fields(c)
            rv0 = llr_pdu(tb_meta(**dict(f, rv=0)), awgn_llrs(reference_output(c, bits, rv=0), 1.5, rng))
            rvx = llr_pdu(tb_meta(**f), noiseless_llrs(reference_output(c, bits)))
            outs, errs = run_pdus(gpurx.lte_sch_decoder_pdu(c["channel"], max_g=MAX_G,
                                                            options=options(flush_us=2000)),
                                  [rv0, rvx], 2)
            got = [(pmt.to_bool(meta_get(pmt.car(m), "crc_ok")),
                    pmt.to_long(meta_get(pmt.car(m), "transmissions"))) for m in outs]
            self.assertEqual(got, [(False, 1), (True, 2)], c["name"])
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(outs[1]))), bits,
                                          err_msg=c["name"])
            self.assertEqual(errs, [], c["name"])


if __name__ == '__main__':
    gr_unittest.run(qa_lte_sch_reference)
