#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""mimo_detector (stream, tagged stream, PDU) with llr_type="int8", on the
backend named by GPURX_TEST_BACKEND: char (int8) items equal to the
quantisation of the float output of the same block configuration on the
same input, v = round(8 L) (half to even) saturated to +-127 - the unit of
lte_turbo_decoder(input="int8"), computed here with numpy; and a bad
llr_type is a ValueError naming it.
"""
import sys

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import BACKEND, options, pmt_int, require_backend_or_skip, run_with_timeout, wait_for
from qa_mimo import BPS, make_case, packets, run_detector, tags_named

require_backend_or_skip()

RUN_TIMEOUT_S = 60


def quantised(llr):
    """The int8 LLRs of float LLRs: rint (half to even) of 8 L, saturated."""
    return np.clip(np.rint(8.0 * np.asarray(llr, dtype=np.float64)), -127, 127).astype(np.int8)


def run_stream_int8(det, nt, nr, mod, H, y):
    """y and H through a stream detector making char vectors: (int8 LLRs as
    (vectors, nt*bps), output tags)."""
    n = nt * BPS[mod]
    tb = gr.top_block()
    snk = blocks.vector_sink_b(n)
    tb.connect(blocks.vector_source_c(y.flatten().tolist(), False, nr), (det, 0))
    tb.connect(blocks.vector_source_c(H.flatten().tolist(), False, nr * nt), (det, 1))
    tb.connect(det, snk)
    run_with_timeout(tb, RUN_TIMEOUT_S)
    # vector_sink_b holds unsigned chars: the same bytes, read as int8.
    return np.array(snk.data(), dtype=np.uint8).view(np.int8).reshape(-1, n), snk.tags()


def run_tagged(det, pk, int8):
    tags, off = [], 0
    for p in pk:
        tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"), pmt.from_long(len(p)))))
        off += len(p)
    tb = gr.top_block()
    snk = blocks.vector_sink_b() if int8 else blocks.vector_sink_f()
    tb.connect(blocks.vector_source_c(np.concatenate(pk).tolist(), False, 1, tags), det, snk)
    run_with_timeout(tb, RUN_TIMEOUT_S)
    if int8:
        return np.array(snk.data(), dtype=np.uint8).view(np.int8), snk.tags()
    return np.array(snk.data(), dtype=np.float32), snk.tags()


def run_pdus(det, pk):
    """The PDUs through a PDU detector: the output PDUs, in order."""
    tb = gr.top_block()
    dbg, err = blocks.message_debug(), blocks.message_debug()
    tb.msg_connect(det, "pdus", dbg, "store")
    tb.msg_connect(det, "errors", err, "store")
    for i, p in enumerate(pk):
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(i))
        det.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_c32vector(len(p), p.tolist())))
    tb.start()
    try:
        wait_for(lambda: dbg.num_messages() >= len(pk), 20)
    finally:
        tb.stop()
        tb.wait()
    assert err.num_messages() == 0, "errors reported"
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


class qa_mimo_int8(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(88)

    def test_001_stream_int8_is_quantised_float(self):
        # Low and high noise: LLRs beyond the int8 range (saturated) and
        # within it; every algorithm.
        nt = nr = 2
        for mod, n0 in (("16qam", 0.02), ("qpsk", 0.5), ("64qam", 0.1)):
            H, y, _ = make_case(self.rng, nt, nr, mod, 10, 3, n0)
            for alg in ("ml", "mtt", "one-pass", "kbest", "lmmse"):
                what = "%s %s n0=%g" % (mod, alg, n0)
                make = lambda **kw: gpurx.mimo_detector(nt, nr, mod, alg, noise_var=n0, vectors_per_channel=3,
                                                        options=options(max_batch=4), **kw)
                want, ftags = run_detector(make(), nt, nr, mod, H, y, 3)
                got, tags = run_stream_int8(make(llr_type="int8"), nt, nr, mod, H, y)
                self.assertEqual(got.shape, want.shape, what)
                np.testing.assert_array_equal(got, quantised(want), err_msg=what)
                # The per-channel tags are the float form's.
                self.assertEqual([(t.offset, pmt_int(t.value)) for t in tags_named(tags, "rank")],
                                 [(t.offset, pmt_int(t.value)) for t in tags_named(ftags, "rank")], what)
                self.assertTrue(np.any(got != 0), what)

    def test_002_positional_options_then_llr_type(self):
        # llr_type is the last parameter: every earlier positional call keeps
        # its meaning, and a positional llr_type follows options.
        nt, nr, mod, n0 = 2, 2, "qpsk", 0.3
        H, y, _ = make_case(self.rng, nt, nr, mod, 4, 1, n0)
        det = gpurx.mimo_detector(nt, nr, mod, "ml", 16, 16.0, n0, False, 1, False, False, "aposteriori",
                                  "auto", options(), "int8")
        got, _ = run_stream_int8(det, nt, nr, mod, H, y)
        want, _ = run_detector(gpurx.mimo_detector(nt, nr, mod, "ml", 16, 16.0, n0, False, 1, False, False,
                                                   "aposteriori", "auto", options()),
                               nt, nr, mod, H, y, 1)
        np.testing.assert_array_equal(got, quantised(want))
        self.assertEqual(det.output_signature().sizeof_stream_item(0), nt * BPS[mod])

    def test_003_tagged_and_pdu_int8_are_quantised_float(self):
        nt, nr, mod, n0, vpc, channels = 2, 2, "16qam", 0.05, 3, 6
        H, y, _ = make_case(self.rng, nt, nr, mod, channels, vpc, n0)
        pk = packets(H, y, vpc)
        per = vpc * nt * BPS[mod]
        kw = dict(noise_var=n0, options=options(max_batch=4))
        want, _ = run_tagged(gpurx.mimo_detector_tagged(nt, nr, mod, "mtt", **kw), pk, False)
        got, tags = run_tagged(gpurx.mimo_detector_tagged(nt, nr, mod, "mtt", llr_type="int8", **kw), pk, True)
        self.assertEqual(len(want), channels * per)
        np.testing.assert_array_equal(got, quantised(want))
        self.assertEqual([pmt_int(t.value) for t in tags_named(tags, "packet_len")], [per] * channels)
        # PDU: an s8vector per channel, with the metadata of the float form.
        fl = run_pdus(gpurx.mimo_detector_pdu(nt, nr, mod, "mtt", **kw), pk)
        s8 = run_pdus(gpurx.mimo_detector_pdu(nt, nr, mod, "mtt", llr_type="int8", **kw), pk)
        self.assertEqual(len(s8), channels)
        for i in range(channels):
            self.assertTrue(pmt.is_s8vector(pmt.cdr(s8[i])), "PDU %d is not an s8vector" % i)
            v = np.array(pmt.s8vector_elements(pmt.cdr(s8[i])), dtype=np.int8)
            f = np.array(pmt.f32vector_elements(pmt.cdr(fl[i])), dtype=np.float32)
            np.testing.assert_array_equal(v, quantised(f), err_msg="PDU %d" % i)
            np.testing.assert_array_equal(v, got[i * per:(i + 1) * per], err_msg="PDU %d" % i)
            for key in ("seq", "rank"):
                self.assertEqual(pmt_int(pmt.dict_ref(pmt.car(s8[i]), pmt.intern(key), pmt.PMT_NIL)),
                                 pmt_int(pmt.dict_ref(pmt.car(fl[i]), pmt.intern(key), pmt.PMT_NIL)))

    def test_004_apriori_extrinsic_int8(self):
        nt = nr = 2
        mod, n0, vpc = "qpsk", 0.2, 2
        H, y, _ = make_case(self.rng, nt, nr, mod, 5, vpc, n0)
        la = (self.rng.standard_normal((len(y), nt * BPS[mod])) * 4).astype(np.float32)
        for output in ("aposteriori", "extrinsic"):
            kw = dict(noise_var=n0, vectors_per_channel=vpc, apriori=True, output=output, options=options())
            want, _ = run_detector(gpurx.mimo_detector(nt, nr, mod, "mtt", **kw), nt, nr, mod, H, y, vpc,
                                   apriori=la)
            det = gpurx.mimo_detector(nt, nr, mod, "mtt", llr_type="int8", **kw)
            tb = gr.top_block()
            n = nt * BPS[mod]
            snk = blocks.vector_sink_b(n)
            tb.connect(blocks.vector_source_c(y.flatten().tolist(), False, nr), (det, 0))
            tb.connect(blocks.vector_source_c(H.flatten().tolist(), False, nr * nt), (det, 1))
            tb.connect(blocks.vector_source_f(la.flatten().tolist(), False, n), (det, 2))
            tb.connect(det, snk)
            run_with_timeout(tb, RUN_TIMEOUT_S)
            got = np.array(snk.data(), dtype=np.uint8).view(np.int8).reshape(-1, n)
            np.testing.assert_array_equal(got, quantised(want), err_msg=output)

    def test_005_bad_llr_type_names_it(self):
        for bad in ("x", "int16", "Float", ""):
            for make in (lambda: gpurx.mimo_detector(2, 2, llr_type=bad),
                         lambda: gpurx.mimo_detector_tagged(2, 2, llr_type=bad),
                         lambda: gpurx.mimo_detector_pdu(2, 2, llr_type=bad)):
                with self.assertRaises(ValueError) as ctx:
                    make()
                msg = str(ctx.exception)
                self.assertIn("llr_type", msg)
                self.assertIn('"%s"' % bad, msg)
                self.assertIn('"float" or "int8"', msg)


if __name__ == '__main__':
    if BACKEND == "cuda":
        try:
            gpurx.mimo_detector(2, 2, options=options())
        except RuntimeError as e:
            print("skipped: %s" % e)
            sys.exit(77)
    gr_unittest.run(qa_mimo_int8)
