#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The LTE turbo blocks in flowgraphs (stream, tagged stream, PDU), on the
backend named by GPURX_TEST_BACKEND (default cpu)."""
import os
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import (BACKEND, encode_turbo as encode, llrs, options, pmt_int, require_backend_or_skip, tags_named)

require_backend_or_skip()


def crc24b_attach(bits):
    """Append the CRC24B parity bits (TS 36.212 5.1.1) to a 0/1 array."""
    r = 0
    for b in bits:
        fb = ((r >> 23) & 1) ^ int(b)
        r = (r << 1) & 0xFFFFFF
        if fb:
            r ^= 0x800063
    return np.concatenate([bits, [(r >> (23 - i)) & 1 for i in range(24)]]).astype(np.uint8)


class qa_lte_turbo(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(7)

    def frames(self, K, n):
        return [self.rng.integers(0, 2, K).astype(np.uint8) for _ in range(n)]

    def test_001_encode_decode_stream(self):
        for K, P in ((40, 1), (1024, 16), (6144, 96)):
            bits = self.frames(K, 5)
            cw = encode(bits, K)
            tb = gr.top_block()
            src = blocks.vector_source_f(llrs(cw).ravel().tolist(), False, 3 * K + 12)
            dec = gpurx.lte_turbo_decoder(K, 4, "scaled-max-log-map", P,
                                          options=options(max_batch=2))
            snk = blocks.vector_sink_b(K)
            tb.connect(src, dec, snk)
            tb.run()
            self.assertEqual(dec.backend(), BACKEND)
            np.testing.assert_array_equal(np.array(snk.data()), np.concatenate(bits))
            # Every output vector carries its K and iterations tags.
            tags = snk.tags()
            self.assertEqual(sorted(t.offset for t in tags_named(tags, "K")), list(range(5)))
            self.assertTrue(all(pmt_int(t.value) == K for t in tags_named(tags, "K")))
            its = tags_named(tags, "iterations")
            self.assertEqual(sorted(t.offset for t in its), list(range(5)))
            self.assertTrue(all(1 <= pmt_int(t.value) <= 4 for t in its))
            self.assertEqual(tags_named(tags, "crc_ok"), [])  # no CRC early termination

    def test_001b_stream_reports_crc_and_iterations_per_codeword(self):
        # The stream form tags each output vector as the tagged/PDU forms
        # describe each packet: K, iterations used, and crc_ok with CRC early
        # termination, so a live receiver can drop failed codewords.
        K = 512
        good = [crc24b_attach(self.rng.integers(0, 2, K - 24)) for _ in range(3)]
        x = llrs(encode(good, K))
        x[1] = self.rng.normal(0, 1, x.shape[1])  # noise only: the CRC fails
        tb = gr.top_block()
        src = blocks.vector_source_f(x.ravel().tolist(), False, 3 * K + 12)
        dec = gpurx.lte_turbo_decoder(K, 4, "scaled-max-log-map", early_termination="crc24b",
                                      options=options(max_batch=2))
        snk = blocks.vector_sink_b(K)
        tb.connect(src, dec, snk)
        tb.run()
        tags = snk.tags()
        crc = {t.offset: pmt.to_bool(t.value) for t in tags_named(tags, "crc_ok")}
        self.assertEqual(crc, {0: True, 1: False, 2: True})
        its = {t.offset: pmt_int(t.value) for t in tags_named(tags, "iterations")}
        self.assertEqual(sorted(its), [0, 1, 2])
        self.assertEqual(its[1], 4)  # no early stop without a passing CRC
        self.assertTrue(all(1 <= v <= 4 for v in its.values()))

    def test_001c_int8_input_decodes_as_float_over_8(self):
        # input="int8": one char per LLR in steps of 1/8. The decoders must
        # treat v exactly as the float LLR v / 8 (their own quantisation), in
        # every deployment: same bits, same iterations.
        K, n = 512, 3 * 512 + 12
        bits = self.frames(K, 4)
        x = llrs(encode(bits, K)) + self.rng.normal(0, 3.0, (4, n)).astype(np.float32)
        q = np.clip(np.rint(8 * x), -127, 127).astype(np.int8)
        xf = (q.astype(np.float32) / 8).astype(np.float32)
        for alg in ("scaled-max-log-map", "log-map"):
            runs = {}
            for kind, data in (("soft", xf), ("int8", q)):
                tb = gr.top_block()
                if kind == "soft":
                    src = blocks.vector_source_f(data.ravel().tolist(), False, n)
                else:
                    src = blocks.vector_source_b(data.view(np.uint8).ravel().tolist(), False, n)
                dec = gpurx.lte_turbo_decoder(K, 6, alg, options=options(max_batch=2), input=kind)
                snk = blocks.vector_sink_b(K)
                tb.connect(src, dec, snk)
                tb.run()
                its = [pmt_int(t.value) for t in sorted(tags_named(snk.tags(), "iterations"),
                                                          key=lambda t: t.offset)]
                runs[kind] = (list(snk.data()), its)
            self.assertEqual(len(runs["int8"][0]), 4 * K, alg)
            self.assertEqual(runs["int8"], runs["soft"], alg)
            # Tagged stream of chars, one packet per codeword.
            tags = [gr.tag_utils.python_to_tag((i * n, pmt.intern("packet_len"), pmt.from_long(n)))
                    for i in range(4)]
            tb = gr.top_block()
            src = blocks.vector_source_b(q.view(np.uint8).ravel().tolist(), False, 1, tags)
            dec = gpurx.lte_turbo_decoder_tagged(6, alg, options=options(max_batch=2), input="int8")
            snk = blocks.vector_sink_b()
            tb.connect(src, dec, snk)
            tb.run()
            self.assertEqual(list(snk.data()), runs["soft"][0], alg + " tagged")
            # PDUs: s8vector, and u8vector as GNU Radio's byte PDUs come.
            dec = gpurx.lte_turbo_decoder_pdu(6, alg, options=options(max_batch=2, flush_us=100),
                                              input="int8")
            dbg = blocks.message_debug()
            tb = gr.top_block()
            tb.msg_connect(dec, "pdus", dbg, "store")
            tb.start()
            for i in range(4):
                vec = (pmt.init_s8vector(n, q[i].tolist()) if i % 2 == 0
                       else pmt.init_u8vector(n, q[i].view(np.uint8).tolist()))
                dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(pmt.make_dict(), vec))
            deadline = time.time() + 20
            while dbg.num_messages() < 4 and time.time() < deadline:
                time.sleep(0.01)
            tb.stop()
            tb.wait()
            got = [b for i in range(dbg.num_messages())
                   for b in pmt.u8vector_elements(pmt.cdr(dbg.get_message(i)))]
            self.assertEqual(got, runs["soft"][0], alg + " PDU")
        with self.assertRaises(ValueError) as ctx:
            gpurx.lte_turbo_decoder(K, input="int16")
        self.assertIn("input", str(ctx.exception))

    def test_002_nan_frame_dropped_neighbours_intact(self):
        K = 512
        bits = self.frames(K, 7)
        x = llrs(encode(bits, K))
        x[3, 100] = np.nan
        x[5, 7] = np.inf
        tb = gr.top_block()
        src = blocks.vector_source_f(x.ravel().tolist(), False, 3 * K + 12)
        dec = gpurx.lte_turbo_decoder(K, algorithm="log-map", options=options(max_batch=4))
        snk = blocks.vector_sink_b(K)
        tb.connect(src, dec, snk)
        tb.run()
        out = np.array(snk.data()).reshape(-1, K)
        self.assertEqual(out.shape[0], 7)
        for i in (0, 1, 2, 4, 6):
            np.testing.assert_array_equal(out[i], bits[i])
        for i in (3, 5):
            self.assertFalse(out[i].any())
        err = tags_named(snk.tags(), "gpurx_error")
        self.assertEqual(sorted(t.offset for t in err), [3, 5])
        for t in err:  # the value is the reason
            self.assertTrue(pmt.is_symbol(t.value))
            self.assertGreater(len(pmt.symbol_to_string(t.value)), 0)

    def test_003_bad_parameters_name_themselves(self):
        cases = ((dict(K=41), "K=41"), (dict(K=40, iterations=0), "iterations"),
                 (dict(K=40, algorithm="map"), "algorithm"),
                 (dict(K=40, subblocks=-1), "subblocks"), (dict(K=40, scaling=1.5), "scaling"),
                 (dict(K=40, early_termination="crc16"), "early_termination"),
                 (dict(K=0), "K="), (dict(K=-1), "K="))
        for kw, name in cases:
            with self.assertRaises(ValueError, msg=str(kw)) as ctx:
                gpurx.lte_turbo_decoder(**kw)
            self.assertIn(name, str(ctx.exception))
        for kw, name in ((dict(max_batch=0), "max_batch"), (dict(slots=0), "slots"),
                         (dict(flush_us=-5), "flush_us"), (dict(backend="gpu"), "backend"),
                         (dict(devices="x"), "devices"), (dict(cpu_threads=-1), "cpu_threads")):
            o = gpurx.pipeline_options(**kw)
            for make in (lambda: gpurx.lte_turbo_decoder(40, options=o),
                         lambda: gpurx.lte_turbo_decoder_tagged(options=o),
                         lambda: gpurx.lte_turbo_decoder_pdu(options=o)):
                with self.assertRaises(ValueError, msg=str(kw)) as ctx:
                    make()
                self.assertIn(name, str(ctx.exception))
        with self.assertRaises(Exception) as ctx:
            gpurx.lte_turbo_encoder(100)
        self.assertIn("K=100", str(ctx.exception))

    def test_004_tagged_mixed_K_and_bad_packet(self):
        Ks = [40, 1024, 6144, 40, 2048]
        bits = [self.frames(K, 1)[0] for K in Ks]
        packets = [llrs(encode([b], K)[0]) for b, K in zip(bits, Ks)]
        packets.insert(2, np.ones(100, dtype=np.float32))   # fits no K: dropped
        bad = packets[-1].copy()
        bad[3] = np.nan                                      # NaN: dropped
        packets.insert(4, bad)
        data = np.concatenate(packets)
        tags, off = [], 0
        for p in packets:
            tags.append(gr.tag_utils.python_to_tag(
                (off, pmt.intern("packet_len"), pmt.from_long(len(p)))))
            off += len(p)
        tb = gr.top_block()
        src = blocks.vector_source_f(data.tolist(), False, 1, tags)
        dec = gpurx.lte_turbo_decoder_tagged(4, "max-log-map", 4, options=options(max_batch=3))
        snk = blocks.vector_sink_b()
        dbg = blocks.message_debug()
        tb.connect(src, dec, snk)
        tb.msg_connect(dec, "errors", dbg, "store")
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data()), np.concatenate(bits))
        out_tags = sorted(snk.tags(), key=lambda t: t.offset)
        lens = [(t.offset, pmt_int(t.value)) for t in tags_named(out_tags, "packet_len")]
        self.assertEqual([l for _, l in lens], Ks)
        self.assertEqual([o for o, _ in lens], list(np.cumsum([0] + Ks[:-1])))
        self.assertEqual([pmt_int(t.value) for t in tags_named(out_tags, "K")], Ks)
        self.assertEqual([t.offset for t in tags_named(out_tags, "iterations")],
                         [o for o, _ in lens])
        self.assertEqual(tags_named(out_tags, "turbo_iterations"), [])  # the old name is gone
        deadline = time.time() + 5
        while dbg.num_messages() < 2 and time.time() < deadline:
            time.sleep(0.01)
        self.assertEqual(dbg.num_messages(), 2)
        for i in range(2):
            m = dbg.get_message(i)
            self.assertTrue(pmt.is_dict(m))
            self.assertTrue(pmt.dict_has_key(m, pmt.intern("reason")))
            self.assertTrue(pmt.dict_has_key(m, pmt.intern("offset")))
        # The two dropped packets, by their input offsets.
        starts = np.cumsum([0] + [len(p) for p in packets[:-1]])
        self.assertEqual([pmt_int(pmt.dict_ref(dbg.get_message(i), pmt.intern("offset"),
                                                pmt.PMT_NIL)) for i in range(2)],
                         [int(starts[2]), int(starts[4])])

    def test_005_pdu_in_order_with_metadata(self):
        dec = gpurx.lte_turbo_decoder_pdu(6, early_termination="crc24a",
                                          options=options(max_batch=4, flush_us=2000))
        dbg = blocks.message_debug()
        err = blocks.message_debug()
        tb = gr.top_block()
        tb.msg_connect(dec, "pdus", dbg, "store")
        tb.msg_connect(dec, "errors", err, "store")
        Ks = [1024, 40, 6144, 512, 512, 40]
        bits = [self.frames(K, 1)[0] for K in Ks]
        tb.start()
        for i, (b, K) in enumerate(zip(bits, Ks)):
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(i))
            dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(
                meta, pmt.init_f32vector(3 * K + 12, llrs(encode([b], K)[0]).tolist())))
            if i == 2:  # malformed PDUs between good ones
                dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(
                    pmt.make_dict(), pmt.init_f32vector(50, [0.0] * 50)))
                dec.to_basic_block()._post(pmt.intern("pdus"), pmt.intern("junk"))
        deadline = time.time() + 20
        while dbg.num_messages() < len(Ks) and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), len(Ks))
        self.assertEqual(err.num_messages(), 2)
        for i in range(len(Ks)):
            m = dbg.get_message(i)
            meta = pmt.car(m)
            self.assertEqual(pmt.to_long(pmt.dict_ref(meta, pmt.intern("seq"), pmt.PMT_NIL)), i)
            self.assertEqual(pmt_int(pmt.dict_ref(meta, pmt.intern("K"), pmt.PMT_NIL)), Ks[i])
            self.assertTrue(pmt.dict_has_key(meta, pmt.intern("iterations")))
            self.assertFalse(pmt.to_bool(pmt.dict_ref(meta, pmt.intern("crc_ok"), pmt.PMT_T)))
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(m))), bits[i])

    def test_006_encoder_tagged_and_pdu_match_stream_encoder(self):
        Ks = [40, 6144, 100, 1024]  # 100 is not a valid K: dropped
        bits = [self.rng.integers(0, 2, K).astype(np.uint8) for K in Ks]
        tags, off = [], 0
        for b in bits:
            tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"), pmt.from_long(len(b)))))
            off += len(b)
        tb = gr.top_block()
        src = blocks.vector_source_b(np.concatenate(bits).tolist(), False, 1, tags)
        enc = gpurx.lte_turbo_encoder_tagged("packet_len")
        snk = blocks.vector_sink_b()
        tb.connect(src, enc, snk)
        tb.run()
        expect = np.concatenate([encode([b], K)[0] for b, K in zip(bits, Ks) if K != 100])
        np.testing.assert_array_equal(np.array(snk.data()), expect)

    def test_006b_encoder_pdu_reasons(self):
        # An empty u8 PDU is a length problem, not a type problem.
        enc = gpurx.lte_turbo_encoder_pdu()
        dbg = blocks.message_debug()
        tb = gr.top_block()
        tb.msg_connect(enc, "errors", dbg, "store")
        tb.start()
        for vec in (pmt.init_u8vector(0, []), pmt.init_f32vector(40, [0.0] * 40)):
            enc.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(pmt.make_dict(), vec))
        deadline = time.time() + 5
        while dbg.num_messages() < 2 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 2)
        reasons = [pmt.symbol_to_string(pmt.dict_ref(dbg.get_message(i), pmt.intern("reason"),
                                                     pmt.PMT_NIL)) for i in range(2)]
        self.assertIn("length 0", reasons[0])
        self.assertIn("not a PDU of u8 bits", reasons[1])

    def test_006c_encoders_take_the_low_bit_of_non_bit_bytes_and_report_it(self):
        # Bytes 2, 3, 255 are no bits: every encoder takes their low bit (0,
        # 1, 1), as GNU Radio's unpacked-bit blocks do, and says so.
        K = 40
        clean = [self.rng.integers(0, 2, K).astype(np.uint8) for _ in range(3)]
        dirty = [c.copy() for c in clean]
        dirty[1][[0, 7, 8]] = [2 + clean[1][0], 254 + clean[1][7], 2 + clean[1][8]]
        want = encode(clean, K)
        # Stream: the codeword of the vector with such bytes is tagged.
        tb = gr.top_block()
        snk = blocks.vector_sink_b(3 * K + 12)
        tb.connect(blocks.vector_source_b(np.concatenate(dirty).tolist(), False, K),
                   gpurx.lte_turbo_encoder(K), snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data()).reshape(-1, 3 * K + 12), want)
        errs = tags_named(snk.tags(), "gpurx_error")
        self.assertEqual([t.offset for t in errs], [1])
        self.assertIn("3 of the 40", pmt.symbol_to_string(errs[0].value))
        # Tagged: an "errors" message for that packet.
        tags = [gr.tag_utils.python_to_tag((i * K, pmt.intern("packet_len"), pmt.from_long(K)))
                for i in range(3)]
        tb = gr.top_block()
        enc = gpurx.lte_turbo_encoder_tagged("packet_len")
        snk, dbg = blocks.vector_sink_b(), blocks.message_debug()
        tb.connect(blocks.vector_source_b(np.concatenate(dirty).tolist(), False, 1, tags), enc, snk)
        tb.msg_connect(enc, "errors", dbg, "store")
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data()), want.flatten())
        self.assertEqual(dbg.num_messages(), 1)
        self.assertEqual(pmt_int(pmt.dict_ref(dbg.get_message(0), pmt.intern("offset"), pmt.PMT_NIL)), K)
        # PDU: encoded, and an "errors" message.
        enc = gpurx.lte_turbo_encoder_pdu()
        out, dbg = blocks.message_debug(), blocks.message_debug()
        tb = gr.top_block()
        tb.msg_connect(enc, "pdus", out, "store")
        tb.msg_connect(enc, "errors", dbg, "store")
        tb.start()
        for d in dirty:
            enc.to_basic_block()._post(pmt.intern("pdus"),
                                       pmt.cons(pmt.make_dict(), pmt.init_u8vector(K, d.tolist())))
        deadline = time.time() + 5
        while out.num_messages() < 3 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        got = np.array([pmt.u8vector_elements(pmt.cdr(out.get_message(i))) for i in range(3)])
        np.testing.assert_array_equal(got, want)
        self.assertEqual(dbg.num_messages(), 1)
        # The gr-fec encoder object (log only: gr-fec has no way to report).
        from gnuradio import fec
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(np.concatenate(dirty).tolist(), False),
                   fec.extended_encoder(gpurx.lte_turbo_fec_encoder.make(K), threading=None,
                                        puncpat="11"), snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data()), want.flatten())

    def test_007_example_flowgraph_decodes(self):
        import importlib.util
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                            "lte_turbo_ber.py")
        if not os.path.exists(path):
            self.skipTest("example not found next to the test")
        spec = importlib.util.spec_from_file_location("lte_turbo_ber", path)
        ex = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ex)
        tb = ex.turbo_link(1024, 30, 1.5, gpurx.pipeline_options(backend=BACKEND, max_batch=8))
        tb.run()
        rx = np.array(tb.snk.data(), dtype=np.uint8)
        self.assertEqual(len(rx), len(tb.tx_bits))
        self.assertEqual(int(np.count_nonzero(rx != tb.tx_bits)), 0)


if __name__ == '__main__':
    gr_unittest.run(qa_lte_turbo)
