#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The shared-channel blocks (lte_sch_decoder_pdu / _tagged,
lte_sch_encoder_pdu / _tagged) on the backend named by GPURX_TEST_BACKEND:

- encoder -> +-4 LLRs -> decoder round trips, DL and UL, in one flowgraph
  with mixed users: TBS 16 (one code block, no filler), 20 (filler bits),
  1000, 6121 (two code blocks of different K, filler), 31704, 75376 (13
  code blocks); PDU (float and int8) and tagged stream;
- HARQ in a flowgraph: rv 0 alone fails where rv 0 + rv 2 combined pass; a
  toggled ndi starts a fresh buffer, and so does "harq_reset" (a stale
  buffer of the same ndi is never combined); an eviction (harq_buffers=1, two
  users) is logged and the evicted user's retransmission decodes alone; a
  contradicting retransmission is reported and decoded alone;
- every kind of bad input reported on "errors", naming the field and its
  value, with the neighbouring PDUs intact and in order; bad constructor
  parameters raise naming the parameter;
- the UE category's soft buffer: a TB rate matched with category 2's N_cb
  (TM 3) by the reference model of tests/reference decodes with
  ue_category=2, tm=3 and fails without the limit, or when the TB's own
  "n_soft" says none.

The noise comes from numpy with fixed seeds. The HARQ case (TBS 6120, G
7200, QPSK, sigma 0.9) is the one lib/sch/tests/test_sch.cc runs on the
core decoder.
"""
import os
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import (BACKEND, options, pmt_int, require_backend_or_skip, run_with_timeout, tags_named,
                        wait_for)
from qa_sch_helpers import (awgn_llrs, bits_to_llrs, captured_log, encode, llr_pdu, meta_get,
                            noiseless_llrs, reason, run_pdus, stop_or_exit, tb_meta)

require_backend_or_skip()

# (tbs, G, qm): one code block without and with filler bits, several code
# blocks of two sizes with filler, 6 and 13 code blocks.
DL_CASES = [(16, 96, 2), (20, 120, 2), (1000, 3000, 4), (6121, 14400, 6), (31704, 86400, 6),
            (75376, 86400, 6)]
# Uplink G: G/qm a multiple of n_symb (12, and 10 for the last).
UL_CASES = [(16, 288, 2), (20, 288, 2), (1000, 2880, 4), (6121, 14400, 6), (31704, 86400, 6),
            (75376, 86400, 6)]
USERS = [dict(rnti=61, cell_id=1, subframe=3), dict(rnti=4660, cell_id=503, subframe=9),
         dict(rnti=65535, cell_id=0, subframe=0)]


def cb_count(tbs):
    B = tbs + 24
    return 1 if B <= 6144 else -(-B // 6120)


def fields(tbs, g, qm, rv=0, harq_process=0, ndi=0, user=0, **extra):
    f = dict(tbs=tbs, g=g, qm=qm, rv=rv, harq_process=harq_process, ndi=ndi, **USERS[user])
    f.update(extra)
    return f


def decoder_pdu(channel="dlsch", **kw):
    kw.setdefault("options", options(max_batch=8, flush_us=2000))
    return gpurx.lte_sch_decoder_pdu(channel, **kw)


def out_bits(msg):
    return np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)


class qa_lte_sch(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(36212)

    # ---- round trips -------------------------------------------------------
    def transport_blocks(self, cases, **extra):
        """Each case twice, users and HARQ processes mixed: [(bits, fields)]."""
        tbs = []
        for rep in range(2):
            for i, (A, G, qm) in enumerate(cases):
                f = fields(A, G, qm, harq_process=i % 8, user=(i + rep) % len(USERS), ndi=rep, **extra)
                tbs.append((self.rng.integers(0, 2, A).astype(np.uint8), f))
        return tbs

    def check_decoded(self, outs, tbs, what):
        self.assertEqual(len(outs), len(tbs), what)
        for (bits, f), m in zip(tbs, outs):
            meta = pmt.car(m)
            w = "%s: tbs %d rnti %d" % (what, f["tbs"], f["rnti"])
            for k, v in f.items():  # the input metadata kept, in order
                self.assertEqual(pmt_int(meta_get(meta, k)), v, w + ": " + k)
            self.assertTrue(pmt.to_bool(meta_get(meta, "crc_ok")), w)
            cb = list(pmt.u8vector_elements(meta_get(meta, "cb_crc")))
            self.assertEqual(cb, [1] * cb_count(f["tbs"]), w)
            self.assertGreaterEqual(pmt.to_long(meta_get(meta, "iterations")), 1, w)
            self.assertEqual(pmt.to_long(meta_get(meta, "transmissions")), 1, w)
            np.testing.assert_array_equal(out_bits(m), bits, err_msg=w)

    def round_trip_pdu(self, channel, cases, int8=False, **extra):
        """encoder PDU -> +-4 LLRs -> decoder PDU in one flowgraph."""
        tbs = self.transport_blocks(cases, **extra)
        tb = gr.top_block()
        enc = gpurx.lte_sch_encoder_pdu(channel)
        conv = bits_to_llrs(4.0, int8)
        dec = decoder_pdu(channel, input="int8" if int8 else "float")
        out, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(enc, "pdus", conv, "pdus")
        tb.msg_connect(conv, "pdus", dec, "pdus")
        tb.msg_connect(dec, "pdus", out, "store")
        for b in (enc, dec):
            tb.msg_connect(b, "errors", err, "store")
        for bits, f in tbs:
            enc.to_basic_block()._post(pmt.intern("pdus"),
                                       pmt.cons(tb_meta(**f), pmt.init_u8vector(len(bits), bits.tolist())))
        tb.start()
        try:
            ok = wait_for(lambda: out.num_messages() >= len(tbs), 120)
        finally:
            tb.stop()
            tb.wait()
        what = "%s PDU round trip%s" % (channel, " (int8)" if int8 else "")
        self.assertTrue(ok, "%s: %d of %d TBs out" % (what, out.num_messages(), len(tbs)))
        self.assertEqual(err.num_messages(), 0,
                         [reason(err.get_message(i)) for i in range(err.num_messages())])
        self.assertEqual(dec.backend(), BACKEND)
        self.check_decoded([out.get_message(i) for i in range(out.num_messages())], tbs, what)

    def test_001_dl_pdu_round_trip(self):
        self.round_trip_pdu("dlsch", DL_CASES)

    def test_002_ul_pdu_round_trip(self):
        self.round_trip_pdu("ulsch", UL_CASES[:-1])
        self.round_trip_pdu("ulsch", UL_CASES[-1:], n_symb=10)

    def test_003_int8_pdu_round_trip(self):
        self.round_trip_pdu("dlsch", DL_CASES[:4], int8=True)

    def test_004_tagged_round_trip(self):
        # encoder_tagged -> bits to +-4 LLRs -> decoder_tagged: the TBs'
        # parameters travel as tags, the encoder passing them on.
        for channel, cases in (("dlsch", DL_CASES), ("ulsch", UL_CASES[:-1])):
            tbs = self.transport_blocks(cases)
            data = np.concatenate([b for b, _ in tbs])
            tags, off = [], 0
            for bits, f in tbs:
                tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"),
                                                        pmt.from_long(len(bits)))))
                for k, v in f.items():
                    tags.append(gr.tag_utils.python_to_tag((off, pmt.intern(k), pmt.from_long(v))))
                off += len(bits)
            tb = gr.top_block()
            src = blocks.vector_source_b(data.tolist(), False, 1, tags)
            enc = gpurx.lte_sch_encoder_tagged(channel)
            to_f = blocks.uchar_to_float()
            scale = blocks.multiply_const_ff(8.0)
            shift = blocks.add_const_ff(-4.0)
            dec = gpurx.lte_sch_decoder_tagged(channel, options=options(max_batch=4, flush_us=2000))
            snk = blocks.vector_sink_b()
            err = blocks.message_debug()
            tb.connect(src, enc, to_f, scale, shift, dec, snk)
            tb.msg_connect(enc, "errors", err, "store")
            tb.msg_connect(dec, "errors", err, "store")
            run_with_timeout(tb, 120)
            what = channel + " tagged round trip"
            self.assertEqual(err.num_messages(), 0,
                             [reason(err.get_message(i)) for i in range(err.num_messages())])
            np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), data, err_msg=what)
            otags = snk.tags()
            starts = np.cumsum([0] + [len(b) for b, _ in tbs])[:-1].tolist()
            lens = tags_named(otags, "packet_len")
            self.assertEqual([t.offset for t in lens], starts, what)
            self.assertEqual([pmt_int(t.value) for t in lens], [len(b) for b, _ in tbs], what)
            for key in ("crc_ok", "iterations", "transmissions", "cb_crc", "rnti", "g"):
                self.assertEqual([t.offset for t in tags_named(otags, key)], starts, what + ": " + key)
            self.assertTrue(all(pmt.to_bool(t.value) for t in tags_named(otags, "crc_ok")), what)
            self.assertEqual([pmt_int(t.value) for t in tags_named(otags, "rnti")],
                             [f["rnti"] for _, f in tbs], what)

    # ---- HARQ --------------------------------------------------------------
    HARQ_TBS, HARQ_G, HARQ_SIGMA = 6120, 7200, 0.9

    def harq_transmissions(self, bits, rvs, user=0, ndi=0, noise_seed=7, **extra):
        """Noisy LLR PDUs of one TB's transmissions in redundancy versions rvs."""
        fs = [fields(self.HARQ_TBS, self.HARQ_G, 2, rv=rv, ndi=ndi, user=user, harq_process=3,
                     **extra) for rv in rvs]
        cws = encode("dlsch", [(bits, f) for f in fs])
        rng = np.random.default_rng(noise_seed)
        return [llr_pdu(tb_meta(**f), awgn_llrs(c, self.HARQ_SIGMA, rng)) for f, c in zip(fs, cws)]

    def decoded(self, m):
        meta = pmt.car(m)
        return (pmt.to_bool(meta_get(meta, "crc_ok")), pmt.to_long(meta_get(meta, "transmissions")))

    def test_010_harq_rv0_fails_alone_rv0_rv2_combined_pass(self):
        bits = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        rv0, rv2 = self.harq_transmissions(bits, (0, 2))
        # Without soft buffers each transmission is decoded alone: both fail.
        outs, errs = run_pdus(decoder_pdu(harq_buffers=0), [rv0, rv2], 2)
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (False, 1)],
                         "alone, rv 0 or rv 2 must fail for this case to test combining")
        self.assertEqual(errs, [])
        # With them, rv 2 is combined with rv 0 and the TB comes back.
        outs, errs = run_pdus(decoder_pdu(), [rv0, rv2], 2)
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (True, 2)])
        np.testing.assert_array_equal(out_bits(outs[1]), bits)
        self.assertEqual(errs, [])

    def test_011_harq_ndi_toggle_starts_a_fresh_buffer(self):
        old = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        new = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        old_rv0 = self.harq_transmissions(old, (0,), ndi=0, noise_seed=1)[0]
        new_rv0, new_rv2 = self.harq_transmissions(new, (0, 2), ndi=1, noise_seed=2)
        outs, errs = run_pdus(decoder_pdu(), [old_rv0, new_rv0, new_rv2], 3)
        # The new TB's first transmission must not combine with the old TB's
        # buffer (same rnti and HARQ process): transmissions 1; its
        # retransmission combines with it alone and passes.
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (False, 1), (True, 2)])
        np.testing.assert_array_equal(out_bits(outs[2]), new)
        self.assertEqual(errs, [])

    def test_012_harq_eviction_is_logged(self):
        a = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        b = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        a_rv0, a_rv2 = self.harq_transmissions(a, (0, 2), user=0, noise_seed=3)
        b_rv0 = self.harq_transmissions(b, (0,), user=1, noise_seed=4)[0]
        # One at a time: a buffer whose TB is still in flight is never
        # evicted (the newcomer would be decoded alone instead).
        with captured_log() as log:
            # Whether this machine's GNU Radio log reaches the console at
            # all (a configuration may send it elsewhere): a line of our own.
            gr.logger("qa_lte_sch").info("log probe")
            outs, errs = run_pdus(decoder_pdu(harq_buffers=1), [a_rv0, b_rv0, a_rv2], 3,
                                  one_at_a_time=True)
        # User 1 evicts user 0's buffer: user 0's retransmission has none left
        # and is decoded alone (and fails).
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (False, 1), (False, 1)])
        self.assertEqual(errs, [])
        if "log probe" not in log.text:
            self.skipTest("GNU Radio's log does not reach the console here (its own info line "
                          "did not): the eviction's log line cannot be checked")
        self.assertIn("evicted", log.text)
        self.assertIn("rnti %d" % USERS[0]["rnti"], log.text)

    def test_013_harq_contradiction_reported_and_decoded_alone(self):
        bits = self.rng.integers(0, 2, 1000).astype(np.uint8)
        f0 = fields(1000, 3000, 2, harq_process=5)
        f1 = fields(1000, 3000, 2, harq_process=5, rv=2, n_soft=16000)  # N_cb 2000 of K_w 3168
        cws = encode("dlsch", [(bits, f0), (bits, f1)])
        # The first transmission pure noise: it fails and keeps its buffer.
        # (Not all LLRs 0: those decode to the all-zero TB, whose CRC24A
        # checks.)
        p0 = llr_pdu(tb_meta(**f0), self.rng.standard_normal(3000).astype(np.float32))
        p1 = llr_pdu(tb_meta(**f1), noiseless_llrs(cws[1]))
        outs, errs = run_pdus(decoder_pdu(), [p0, p1], 2, 1)
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (True, 1)])
        np.testing.assert_array_equal(out_bits(outs[1]), bits)
        self.assertEqual(len(errs), 1)
        self.assertIn("contradicts", reason(errs[0]))
        self.assertIn("rnti %d" % USERS[0]["rnti"], reason(errs[0]))

    def test_013a_harq_reset_never_combines_with_a_stale_buffer(self):
        # A buffer holds TB a (ndi 0, failed). TB b arrives on the same key
        # with the same ndi and tbs - what a decoder sees when the key was
        # away (scale-out: moved to another decoder and back) while ndi
        # toggled an even number of times. Without "harq_reset" b is
        # combined with a's stale buffer; with it, b starts the buffer
        # afresh (transmissions 1) and its own retransmission combines.
        a = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        b = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        a_rv0 = self.harq_transmissions(a, (0,), noise_seed=5)[0]
        b_rv2, b_rv0 = self.harq_transmissions(b, (2, 0), noise_seed=6)
        outs, errs = run_pdus(decoder_pdu(), [a_rv0, b_rv2, b_rv0], 3)
        self.assertEqual([self.decoded(m)[1] for m in outs], [1, 2, 3], "stale combining")
        reset = pmt.cons(pmt.dict_add(pmt.car(b_rv2), pmt.intern("harq_reset"), pmt.PMT_T),
                         pmt.cdr(b_rv2))
        outs, errs = run_pdus(decoder_pdu(), [a_rv0, reset, b_rv0], 3)
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (False, 1), (True, 2)])
        np.testing.assert_array_equal(out_bits(outs[2]), b)
        self.assertTrue(pmt.to_bool(meta_get(pmt.car(outs[1]), "harq_reset")))
        self.assertEqual(errs, [])
        # An integer 1 is taken too; 0 changes nothing.
        one = pmt.cons(tb_meta(**dict(fields(self.HARQ_TBS, self.HARQ_G, 2, rv=2, harq_process=3),
                                      harq_reset=1)), pmt.cdr(b_rv2))
        zero = pmt.cons(pmt.dict_add(pmt.car(b_rv0), pmt.intern("harq_reset"), pmt.from_long(0)),
                        pmt.cdr(b_rv0))
        outs, errs = run_pdus(decoder_pdu(), [a_rv0, one, zero], 3)
        self.assertEqual([self.decoded(m) for m in outs], [(False, 1), (False, 1), (True, 2)])
        self.assertEqual(errs, [])

    def test_014_harq_tagged_stream(self):
        # The tagged form waits for a retransmission's first transmission
        # too: rv 0, another user's TB, then rv 2 of the first TB.
        bits = self.rng.integers(0, 2, self.HARQ_TBS).astype(np.uint8)
        other = self.rng.integers(0, 2, 1000).astype(np.uint8)
        fs = [fields(self.HARQ_TBS, self.HARQ_G, 2, rv=rv, harq_process=3) for rv in (0, 2)]
        f_other = fields(1000, 3000, 4, user=1)
        cws = encode("dlsch", [(bits, fs[0]), (other, f_other), (bits, fs[1])])
        rng = np.random.default_rng(7)
        llrs = [awgn_llrs(cws[0], self.HARQ_SIGMA, rng), noiseless_llrs(cws[1]),
                awgn_llrs(cws[2], self.HARQ_SIGMA, rng)]
        tags, off = [], 0
        for f, x in zip((fs[0], f_other, fs[1]), llrs):
            tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"), pmt.from_long(len(x)))))
            for k, v in f.items():
                tags.append(gr.tag_utils.python_to_tag((off, pmt.intern(k), pmt.from_long(v))))
            off += len(x)
        tb = gr.top_block()
        src = blocks.vector_source_f(np.concatenate(llrs).tolist(), False, 1, tags)
        dec = gpurx.lte_sch_decoder_tagged(options=options(max_batch=8, flush_us=2000))
        snk, err = blocks.vector_sink_b(), blocks.message_debug()
        tb.connect(src, dec, snk)
        tb.msg_connect(dec, "errors", err, "store")
        run_with_timeout(tb, 60)
        otags = snk.tags()
        got = list(zip([pmt.to_bool(t.value) for t in tags_named(otags, "crc_ok")],
                       [pmt.to_long(t.value) for t in tags_named(otags, "transmissions")]))
        self.assertEqual(got, [(False, 1), (True, 1), (True, 2)])
        out = np.array(snk.data(), dtype=np.uint8)
        np.testing.assert_array_equal(out[self.HARQ_TBS + 1000:], bits)
        np.testing.assert_array_equal(out[self.HARQ_TBS:self.HARQ_TBS + 1000], other)
        self.assertEqual(err.num_messages(), 0)

    # ---- bad input -----------------------------------------------------------
    def test_020_bad_pdus_reported_neighbours_intact(self):
        # (description, fields or None for the good ones' with a change,
        # LLRs, words the reason must hold); good PDUs in between.
        good_cases = [(16, 96, 2), (1000, 3000, 4), (6121, 14400, 6)]
        goods = []
        for i in range(12):
            A, G, qm = good_cases[i % len(good_cases)]
            f = fields(A, G, qm, harq_process=i % 8, user=i % len(USERS))
            f["seq"] = i
            goods.append((self.rng.integers(0, 2, A).astype(np.uint8), f))
        cws = encode("dlsch", goods)
        base = dict(goods[1][1])  # tbs 1000, G 3000, QPSK... qm 4

        def with_(**kw):
            f = dict(base)
            for k, v in kw.items():
                if v is None:
                    f.pop(k)
                else:
                    f[k] = v
            return tb_meta(**f)

        ok = noiseless_llrs(cws[1])
        nan, inf = ok.copy(), ok.copy()
        nan[17] = np.nan
        inf[2999] = -np.inf
        meta_rv_double = pmt.dict_add(with_(), pmt.intern("rv"), pmt.from_double(1.0))
        meta_tbs_symbol = pmt.dict_add(with_(), pmt.intern("tbs"), pmt.intern("1000"))
        bad = [
            ("missing tbs", llr_pdu(with_(tbs=None), ok), ("tbs",)),
            ("missing ndi", llr_pdu(with_(ndi=None), ok), ("ndi",)),
            ("rv a double", llr_pdu(meta_rv_double, ok), ("rv", "double")),
            ("tbs a symbol", llr_pdu(meta_tbs_symbol, ok), ("tbs", "symbol")),
            ("G not a multiple of nl*qm", llr_pdu(with_(g=None), ok[:2998]), ("g=2998", "nl*qm")),
            ("G not a multiple of nl*qm, two layers", llr_pdu(with_(g=None, qm=6, nl=2), ok[:2994]),
             ("g=2994", "12")),
            ("tbs 0", llr_pdu(with_(tbs=0), ok), ("tbs=0",)),
            ("tbs above max_tbs", llr_pdu(with_(tbs=97897), ok), ("tbs=97897", "max_tbs")),
            ("G too small for the code blocks", llr_pdu(with_(tbs=20000, g=None), ok[:4]),
             ("g=4", "code blocks")),
            ("n_symb not dividing G/qm (UL)", None, ("g=3000", "n_symb")),
            ("NaN LLR", llr_pdu(with_(), nan), ("LLR 17", "NaN")),
            ("Inf LLR", llr_pdu(with_(), inf), ("LLR 2999", "Inf")),
            ("G above max_g", llr_pdu(with_(g=None), np.ones(300000, dtype=np.float32)),
             ("G=300000", "max_g")),
            ("g disagrees with the length", llr_pdu(with_(g=3004), ok), ("g=3004", "3000")),
            ("rv 4", llr_pdu(with_(rv=4), ok), ("rv=4",)),
            ("qm 3", llr_pdu(with_(qm=3), ok), ("qm=3",)),
            ("harq_process 16", llr_pdu(with_(harq_process=16), ok), ("harq_process=16",)),
            ("ndi 2", llr_pdu(with_(ndi=2), ok), ("ndi=2",)),
            ("harq_reset 2", llr_pdu(with_(harq_reset=2), ok), ("harq_reset=2",)),
            ("subframe 10", llr_pdu(with_(subframe=10), ok), ("subframe=10",)),
            ("n_soft below K", llr_pdu(with_(n_soft=8000), ok), ("n_soft=8000",)),
            ("u8vector", pmt.cons(with_(), pmt.init_u8vector(3000, [1] * 3000)), ("float32",)),
            ("not a PDU", pmt.intern("hello"), ("not a PDU",)),
        ]
        # The uplink case needs an uplink decoder: its own run below.
        dl_bad = [b for b in bad if b[1] is not None]
        pdus, expect = [], []
        for i, (bits, f) in enumerate(goods):
            pdus.append(llr_pdu(tb_meta(**f), noiseless_llrs(cws[i])))
            if i < len(dl_bad):
                pdus.append(dl_bad[i][1])
        pdus += [b[1] for b in dl_bad[len(goods):]]
        outs, errs = run_pdus(decoder_pdu(), pdus, len(goods), len(dl_bad))
        self.assertEqual([pmt_int(meta_get(pmt.car(m), "seq")) for m in outs], list(range(len(goods))))
        for (bits, f), m in zip(goods, outs):
            self.assertTrue(pmt.to_bool(meta_get(pmt.car(m), "crc_ok")), f)
            np.testing.assert_array_equal(out_bits(m), bits)
        self.assertEqual(len(errs), len(dl_bad), [reason(e) for e in errs])
        for (desc, _, words), e in zip(dl_bad, errs):
            for w in words:
                self.assertIn(w, reason(e), "%s: %s" % (desc, reason(e)))
        # Uplink: G/qm = 750 is no multiple of n_symb = 12.
        ul = fields(1000, 3000, 4)
        outs, errs = run_pdus(decoder_pdu("ulsch"), [llr_pdu(tb_meta(**ul), ok)], 0, 1)
        self.assertEqual(outs, [])
        self.assertEqual(len(errs), 1)
        for w in ("g=3000", "n_symb"):
            self.assertIn(w, reason(errs[0]))

    def test_021_tagged_bad_packets_reported(self):
        goods = [(self.rng.integers(0, 2, 1000).astype(np.uint8), fields(1000, 3000, 4, user=u))
                 for u in range(3)]
        cws = encode("dlsch", goods)
        llr = [noiseless_llrs(c) for c in cws]
        nan = llr[0].copy()
        nan[5] = np.nan
        # good 0, packet without tbs, good 1, NaN packet, good 2
        segs = [(goods[0][1], llr[0]), ({k: v for k, v in goods[0][1].items() if k != "tbs"}, llr[0]),
                (goods[1][1], llr[1]), (goods[0][1], nan), (goods[2][1], llr[2])]
        data = np.concatenate([x for _, x in segs])
        tags, off, offs = [], 0, []
        for f, x in segs:
            offs.append(off)
            tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"), pmt.from_long(len(x)))))
            for k, v in f.items():
                tags.append(gr.tag_utils.python_to_tag((off, pmt.intern(k), pmt.from_long(v))))
            off += len(x)
        tb = gr.top_block()
        src = blocks.vector_source_f(data.tolist(), False, 1, tags)
        dec = gpurx.lte_sch_decoder_tagged(options=options(max_batch=4, flush_us=2000))
        snk, err = blocks.vector_sink_b(), blocks.message_debug()
        tb.connect(src, dec, snk)
        tb.msg_connect(dec, "errors", err, "store")
        run_with_timeout(tb, 60)
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8),
                                      np.concatenate([b for b, _ in goods]))
        msgs = [err.get_message(i) for i in range(err.num_messages())]
        self.assertEqual(len(msgs), 2, [pmt.write_string(m) for m in msgs])
        self.assertIn("tbs", reason(msgs[0]))
        self.assertEqual(pmt_int(meta_get(msgs[0], "offset")), offs[1])
        self.assertIn("NaN", reason(msgs[1]))
        self.assertEqual(pmt_int(meta_get(msgs[1], "offset")), offs[3])

    def test_022_encoder_bad_pdus_reported(self):
        bits = self.rng.integers(0, 2, 1000).astype(np.uint8)
        f = fields(1000, 3000, 4)
        good = pmt.cons(tb_meta(**f), pmt.init_u8vector(1000, bits.tolist()))
        no_g = pmt.cons(tb_meta(**{k: v for k, v in f.items() if k != "g"}), pmt.init_u8vector(1000, bits.tolist()))
        short = pmt.cons(tb_meta(**f), pmt.init_u8vector(999, bits[:999].tolist()))
        two = bits.copy()
        two[7] = 2
        not_bits = pmt.cons(tb_meta(**f), pmt.init_u8vector(1000, two.tolist()))
        big_g = pmt.cons(tb_meta(**dict(f, g=300000)), pmt.init_u8vector(1000, bits.tolist()))
        floats = pmt.cons(tb_meta(**f), pmt.init_f32vector(1000, bits.astype(float).tolist()))
        outs, errs = run_pdus(gpurx.lte_sch_encoder_pdu(),
                              [good, no_g, good, short, not_bits, good, big_g, floats, good], 4, 5)
        self.assertEqual(len(outs), 4)
        for m in outs:
            self.assertEqual(len(pmt.u8vector_elements(pmt.cdr(m))), 3000)
        words = [("g",), ("tbs=1000", "999"), ("value 2", "index 7"), ("g=300000", "max_g"), ("u8vector",)]
        self.assertEqual(len(errs), len(words))
        for w, e in zip(words, errs):
            for x in w:
                self.assertIn(x, reason(e))

    def test_022a_encoder_bad_pdu_alone_then_good_ones(self):
        # The encoder runs max_batch=1, flush_us=0: a TB that fails staging
        # (a byte 2) is withdrawn from a slot of its own. When the poller ran
        # before the next TB came (here always: the next is posted 50 ms
        # after the error), it launched that empty slot, which then never
        # freed: the next TB came out with the withdrawn one's stale output,
        # and the one after it waited for a slot forever, in the message
        # handler, holding the lock the poller waited for (stop_or_exit()
        # ends such a hang). Every good TB comes out, in order, as encode()
        # encodes it.
        f = fields(1000, 3000, 4)
        bits = [self.rng.integers(0, 2, 1000).astype(np.uint8) for _ in range(4)]
        bits[0][7] = 2
        pdus = [pmt.cons(tb_meta(**f), pmt.init_u8vector(1000, b.tolist())) for b in bits]
        enc = gpurx.lte_sch_encoder_pdu()
        tb = gr.top_block()
        out, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(enc, "pdus", out, "store")
        tb.msg_connect(enc, "errors", err, "store")
        port = pmt.intern("pdus")
        tb.start()
        try:
            enc.to_basic_block()._post(port, pdus[0])
            self.assertTrue(wait_for(lambda: err.num_messages() == 1, 20), "no error for the bad TB")
            time.sleep(0.05)  # the poller runs meanwhile (every 0.1 ms)
            for i, p in enumerate(pdus[1:]):
                enc.to_basic_block()._post(port, p)
                self.assertTrue(wait_for(lambda: out.num_messages() > i, 20),
                                "TB %d of 3 after the bad one did not come out" % (i + 1))
            wait_for(lambda: False, 0.1)
        finally:
            stop_or_exit(tb)
        self.assertEqual(err.num_messages(), 1)
        self.assertIn("value 2", reason(err.get_message(0)))
        want = encode("dlsch", [(b, f) for b in bits[1:]])
        self.assertEqual(out.num_messages(), 3)
        for i, w in enumerate(want):
            np.testing.assert_array_equal(out_bits(out.get_message(i)), w, err_msg="TB %d" % i)

    def test_022b_tagged_encoder_bad_packets_reported(self):
        # good, no "g" tag, a byte 3, good: two errors at their offsets, the
        # good packets encoded as the PDU encoder encodes them.
        bits = [self.rng.integers(0, 2, 1000).astype(np.uint8) for _ in range(4)]
        f = fields(1000, 3000, 4)
        bits[2][10] = 3
        metas = [f, {k: v for k, v in f.items() if k != "g"}, f, f]
        tags = []
        for i, m in enumerate(metas):
            tags.append(gr.tag_utils.python_to_tag((1000 * i, pmt.intern("packet_len"), pmt.from_long(1000))))
            for k, v in m.items():
                tags.append(gr.tag_utils.python_to_tag((1000 * i, pmt.intern(k), pmt.from_long(v))))
        tb = gr.top_block()
        src = blocks.vector_source_b(np.concatenate(bits).tolist(), False, 1, tags)
        enc = gpurx.lte_sch_encoder_tagged()
        snk, err = blocks.vector_sink_b(), blocks.message_debug()
        tb.connect(src, enc, snk)
        tb.msg_connect(enc, "errors", err, "store")
        run_with_timeout(tb, 60)
        want = encode("dlsch", [(bits[0], f), (bits[3], f)])
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), np.concatenate(want))
        msgs = [err.get_message(i) for i in range(err.num_messages())]
        self.assertEqual([pmt_int(meta_get(m, "offset")) for m in msgs], [1000, 2000])
        self.assertIn('"g"', reason(msgs[0]))
        self.assertIn("value 3 at index 10", reason(msgs[1]))

    def test_023_bad_constructor_parameters_raise_naming_them(self):
        cases = [(lambda: gpurx.lte_sch_decoder_pdu("nrsch"), "channel"),
                 (lambda: gpurx.lte_sch_decoder_pdu(iterations=0), "iterations"),
                 (lambda: gpurx.lte_sch_decoder_pdu(algorithm="bcjr"), "algorithm"),
                 (lambda: gpurx.lte_sch_decoder_pdu(input="soft16"), "input"),
                 (lambda: gpurx.lte_sch_decoder_pdu(harq_buffers=-1), "harq_buffers"),
                 (lambda: gpurx.lte_sch_decoder_pdu(max_tbs=15), "max_tbs"),
                 (lambda: gpurx.lte_sch_decoder_pdu(max_g=4), "max_g"),
                 (lambda: gpurx.lte_sch_decoder_pdu(implementation="fpga"), "implementation"),
                 (lambda: gpurx.lte_sch_decoder_tagged("x"), "channel"),
                 (lambda: gpurx.lte_sch_decoder_tagged(len_tag_key=""), "len_tag_key"),
                 (lambda: gpurx.lte_sch_decoder_pdu(ue_category=13), "ue_category=13"),
                 (lambda: gpurx.lte_sch_decoder_tagged(ue_category=-1), "ue_category=-1"),
                 (lambda: gpurx.lte_sch_decoder_pdu(ue_category=4, tm=0), "tm=0"),
                 (lambda: gpurx.lte_sch_decoder_pdu("ulsch", ue_category=4), "ue_category=4"),
                 (lambda: gpurx.lte_sch_encoder_pdu("x"), "channel"),
                 (lambda: gpurx.lte_sch_encoder_pdu(max_tbs=0), "max_tbs"),
                 (lambda: gpurx.lte_sch_encoder_tagged(max_g=3), "max_g")]
        for make, name in cases:
            with self.assertRaises(ValueError, msg=name) as ctx:
                make()
            self.assertIn(name, str(ctx.exception))

    # ---- UE category: the downlink soft buffer -----------------------------
    def test_025_ue_category_limits_n_cb(self):
        # The expectation comes from 36.306 and 36.212 by hand and from the
        # reference model in tests/reference (written from the specifications
        # by someone else), not from this module's tables: category 2 has
        # N_soft 1237248 (36.306 Table 4.1-1) and K_C 1; TM 3 gives K_MIMO 2;
        # FDD M_DL_HARQ 8, M_limit 8. N_IR = floor(1237248 / (1 * 2 * 8)) =
        # 77328. TBS 31704 is 6 code blocks of K 5312 (K_w 3 * 32 * 167 =
        # 16032), so N_cb = min(floor(77328 / 6), 16032) = 12888 (36.212
        # 5.1.4.1.2): the limit bites. rv 1 makes k0 depend on N_cb (3674
        # with the limit, 4342 without), and E = 14400 > N_cb wraps the
        # limited buffer, so the limited codeword decodes alone only with
        # the same N_cb.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "tests", "reference"))
        import lte_sch_reference as ref
        tbs, g, qm, rv = 31704, 86400, 6, 1
        n_soft, kc, k_mimo = 1237248, 1, 2
        self.assertEqual(ref.soft_buffer_size(16032, 6, "dlsch", n_soft, kc, k_mimo), 12888)
        self.assertEqual(ref.k0_of(167, 12888, rv), 3674)
        self.assertEqual(ref.k0_of(167, 16032, rv), 4342)
        bits = self.rng.integers(0, 2, tbs).astype(np.uint8)
        f = fields(tbs, g, qm, rv=rv)
        limited = ref.encode(bits, "dlsch", tbs, rv, qm, g, f["rnti"], f["cell_id"], f["subframe"],
                             n_soft=n_soft, kc=kc, k_mimo=k_mimo)
        whole = ref.encode(bits, "dlsch", tbs, rv, qm, g, f["rnti"], f["cell_id"], f["subframe"])
        self.assertGreater(int(np.count_nonzero(np.asarray(limited) != np.asarray(whole))), g // 4)
        # No "n_soft" in the metadata: the block's ue_category and tm decide.
        pdu = llr_pdu(tb_meta(**f), noiseless_llrs(limited))
        no_limit = llr_pdu(tb_meta(**fields(tbs, g, qm, rv=rv, n_soft=0)), noiseless_llrs(limited))
        cases = [(dict(ue_category=2, tm=3), pdu, True),
                 (dict(ue_category=2, tm=4), pdu, True),
                 (dict(), pdu, False),                         # the default: no limit
                 (dict(ue_category=2, tm=1), pdu, False),      # K_MIMO 1: N_cb = K_w
                 (dict(ue_category=2, tm=3), no_limit, False)]  # the TB's own n_soft=0 wins
        for params, p, ok in cases:
            outs, errs = run_pdus(decoder_pdu(harq_buffers=0, **params), [p], 1)
            self.assertEqual(errs, [], params)
            self.assertEqual(self.decoded(outs[0])[0], ok, params)
            if ok:
                np.testing.assert_array_equal(out_bits(outs[0]), bits)

    def test_024_several_gpus_refused(self):
        if BACKEND != "cuda" or not gpurx.cuda_available(1):
            self.skipTest("needs the CUDA backend and two GPUs")
        with self.assertRaises(ValueError) as ctx:
            gpurx.lte_sch_decoder_pdu(options=options(devices="0,1"))
        self.assertIn("devices", str(ctx.exception))


if __name__ == '__main__':
    gr_unittest.run(qa_lte_sch)
