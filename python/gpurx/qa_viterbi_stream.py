#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpurx.viterbi_stream_decoder: a long stream encoded by gr-fec's cc_encoder
in streaming mode (checked against an encoder written here) decodes without
error and without losing a bit at the end; a noisy stream decodes bit for
bit as a reference of the definition written here in numpy (window c:
steps [cL, (c+1)L) from a Viterbi run over [cL - D, (c+1)L + D) clipped to
the stream, from state 0 at the stream's start, else from all states; best
end state, lowest on ties; ties in add-compare-select keep the lower
predecessor); NaN LLRs do not stop it; bad parameters raise naming them."""
import time

import numpy as np
import pmt
from gnuradio import blocks, fec, gr, gr_unittest, gpurx

from qa_helpers import (gated_source, options, require_backend_or_skip, run_with_timeout, wait_for)

require_backend_or_skip()

K = 7
POLYS = [0o133, 0o171]       # the standards' order
GRFEC_POLYS = [109, 79]      # gr-fec's order for the same code


def encode(bits, polys=POLYS, k=K):
    """Streaming encoder written here: the register holds the current input
    in bit K-1 and older ones below; polynomial bit K-1 taps the current bit."""
    reg = 0
    out = np.empty(len(bits) * len(polys), dtype=np.uint8)
    for t, b in enumerate(bits):
        reg = (int(b) << (k - 1)) | (reg >> 1)
        for i, g in enumerate(polys):
            out[t * len(polys) + i] = bin(reg & g).count("1") & 1
    return out


def grfec_stream_encode(bits, frame=1000):
    enc = fec.cc_encoder_make(frame, K, 2, GRFEC_POLYS, 0, fec.CC_STREAMING)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist(), False)
    e = fec.extended_encoder(enc, None, "11")
    snk = blocks.vector_sink_b()
    tb.connect(src, e, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def reference_decode(llr, L, D, polys=POLYS, k=K):
    """The definition, in numpy (no code shared with the decoder)."""
    n = len(polys)
    T = len(llr) // n
    rx = np.asarray(llr[:T * n], dtype=np.float64).reshape(T, n)
    S = 1 << (k - 1)
    s = np.arange(S)
    u = s >> (k - 2)
    preds = [((s << 1) & (S - 1)), ((s << 1) & (S - 1)) | 1]

    def outputs(pred):
        reg = (u << (k - 1)) | pred
        return np.array([[bin(r & g).count("1") & 1 for g in polys] for r in reg])

    signs = [np.where(outputs(p) > 0, 0.5, -0.5) for p in preds]  # S x n
    bits = np.zeros(T, dtype=np.uint8)
    c = 0
    while c * L < T:
        a, b = max(0, c * L - D), min((c + 1) * L + D, T)
        m = np.zeros(S)
        if a == 0:
            m[1:] = -np.inf
        dec = np.zeros((b - a, S), dtype=np.uint8)
        for t in range(a, b):
            m0 = m[preds[0]] + signs[0] @ rx[t]
            m1 = m[preds[1]] + signs[1] @ rx[t]
            d = m1 > m0
            dec[t - a] = d
            m = np.where(d, m1, m0)
        st = int(np.argmax(m))  # the first maximum: the lowest state on ties
        for t in range(b - 1, a - 1, -1):
            if c * L <= t < (c + 1) * L:
                bits[t] = st >> (k - 2)
            st = ((st << 1) & (S - 1)) | int(dec[t - a, st])
        c += 1
    return bits


def decode(items, input="soft", timeout=120, **kw):
    tb = gr.top_block()
    if input == "soft":
        src = blocks.vector_source_f(np.asarray(items, dtype=np.float32).tolist(), False)
    else:
        src = blocks.vector_source_b(np.asarray(items).astype(np.uint8).tolist(), False)
    dec = gpurx.viterbi_stream_decoder(input=input, options=options(), **kw)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    run_with_timeout(tb, timeout)
    return np.array(snk.data(), dtype=np.uint8), dec


def noisy_llrs(coded, ebn0_db, rng, rate=0.5):
    sigma2 = 1.0 / (2 * rate * 10 ** (ebn0_db / 10))
    y = np.where(coded > 0, 1.0, -1.0) + rng.normal(0, np.sqrt(sigma2), coded.size)
    return np.round(2 * y / sigma2 * 8) / 8  # a grid of 1/8: float sums exact


def start_failure_child():
    """Staging the machine's RAM allows but the limited address space does
    not: tb.start() must raise naming max_batch (or the stream end), never
    hang. Prints RESULT and its JSON."""
    import json
    import os
    import resource
    res = {}
    dec = None
    for max_batch in (1 << 16, 1 << 14, 1 << 12):
        try:
            dec = gpurx.viterbi_stream_decoder(options=options(max_batch=max_batch, slots=2))
            res["max_batch"] = max_batch
            break
        except ValueError as e:
            res["ctor_error"] = str(e)
    if dec is not None:
        tb = gr.top_block()
        tb.connect(blocks.vector_source_f([1.0] * 1000, False), dec, blocks.null_sink(1))
        with open("/proc/self/status") as f:
            vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (256 << 20), vm + (256 << 20)))
        try:
            tb.start()
            tb.wait()
            res["finished"] = True
        except Exception as e:  # noqa: BLE001 - reported to the parent
            res["start_error"] = "%s: %s" % (type(e).__name__, e)
    print("RESULT " + json.dumps(res), flush=True)
    os._exit(0)


class qa_viterbi_stream(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(21)

    def test_001_grfec_streaming_encoder_clean_stream(self):
        bits = self.rng.integers(0, 2, 60000).astype(np.uint8)
        coded = grfec_stream_encode(bits)
        np.testing.assert_array_equal(coded, encode(bits))  # the same stream encoder
        llr = np.where(coded > 0, 4.0, -4.0)
        out, dec = decode(llr, K=K, polys=GRFEC_POLYS, gr_fec_order=True)
        self.assertEqual(out.size, bits.size)  # nothing lost at the end
        np.testing.assert_array_equal(out, bits)

    def test_002_noisy_stream_equals_reference(self):
        bits = self.rng.integers(0, 2, 6000).astype(np.uint8)
        llr = noisy_llrs(encode(bits), 2.0, self.rng)
        L, D = 100, 40
        ref = reference_decode(llr, L, D)
        out, _ = decode(llr, traceback=D, chunk=L)
        np.testing.assert_array_equal(out, ref)
        self.assertLess(np.sum(out != bits) * 3, np.sum((llr > 0) != encode(bits)))

    def test_003_int8_and_hard_equal_reference(self):
        bits = self.rng.integers(0, 2, 3000).astype(np.uint8)
        llr = noisy_llrs(encode(bits), 2.0, self.rng)
        q = np.clip(np.round(llr * 4), -127, 127)
        out, _ = decode(q.astype(np.int8).view(np.uint8), input="int8", traceback=30, chunk=64)
        np.testing.assert_array_equal(out, reference_decode(q, 64, 30))
        hard = (llr > 0).astype(np.uint8)
        out, _ = decode(hard, input="hard", traceback=30, chunk=64)
        np.testing.assert_array_equal(out, reference_decode(np.where(hard > 0, 1.0, -1.0), 64, 30))

    def test_004_short_stream_nothing_lost(self):
        for nbits in (1, 5, 95, 97):
            bits = self.rng.integers(0, 2, nbits).astype(np.uint8)
            llr = np.where(encode(bits) > 0, 4.0, -4.0)
            out, _ = decode(llr)
            np.testing.assert_array_equal(out, bits, "%d bits" % nbits)

    def test_004b_a_step_cut_short_at_the_end_is_reported(self):
        # Rate 1/2: an odd number of items ends inside a trellis step. The
        # whole stream of one item used to end without a word.
        for nbits, extra in ((0, 1), (40, 1)):
            bits = self.rng.integers(0, 2, nbits).astype(np.uint8)
            llr = np.concatenate([np.where(encode(bits) > 0, 4.0, -4.0), [4.0] * extra]) \
                if nbits else np.array([4.0] * extra)
            tb = gr.top_block()
            dec = gpurx.viterbi_stream_decoder(options=options())
            snk = blocks.vector_sink_b()
            dbg = blocks.message_debug()
            tb.connect(blocks.vector_source_f(np.asarray(llr, dtype=np.float32).tolist(), False),
                       dec, snk)
            tb.msg_connect(dec, "errors", dbg, "store")
            run_with_timeout(tb, 60)
            what = "%d items" % len(llr)
            if nbits:  # the whole steps before it still decode
                np.testing.assert_array_equal(np.array(snk.data())[:nbits], bits, what)
            self.assertEqual(dbg.num_messages(), 1, what + ": the cut step was not reported")
            m = dbg.get_message(0)
            self.assertEqual(pmt.to_uint64(pmt.dict_ref(m, pmt.intern("dropped"), pmt.PMT_NIL)),
                             extra, what)
            self.assertEqual(pmt.to_uint64(pmt.dict_ref(m, pmt.intern("offset"), pmt.PMT_NIL)),
                             len(llr) - extra, what)
        # A stream that ends on a step boundary reports nothing.
        bits = self.rng.integers(0, 2, 40).astype(np.uint8)
        tb = gr.top_block()
        dec = gpurx.viterbi_stream_decoder(options=options())
        dbg = blocks.message_debug()
        tb.connect(blocks.vector_source_f(np.where(encode(bits) > 0, 4.0, -4.0).tolist(), False),
                   dec, blocks.null_sink(1))
        tb.msg_connect(dec, "errors", dbg, "store")
        run_with_timeout(tb, 60)
        self.assertEqual(dbg.num_messages(), 0)

    def test_004c_staging_that_cannot_be_allocated_never_hangs_start(self):
        import json
        import os
        import subprocess
        import sys
        here = os.path.dirname(os.path.abspath(__file__))
        code = ("import sys; sys.path.insert(0, %r); import qa_viterbi_stream; "
                "qa_viterbi_stream.start_failure_child()" % here)
        try:
            p = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True, text=True,
                               timeout=60)
        except subprocess.TimeoutExpired:
            self.fail("tb.start() did not return (the child hung for 60 s)")
        lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
        self.assertTrue(lines, (p.stdout + p.stderr)[-3000:])
        r = json.loads(lines[-1][len("RESULT "):])
        if "max_batch" not in r:
            self.skipTest("this machine's RAM refuses the staging: " + r.get("ctor_error", ""))
        if "start_error" in r:
            self.assertIn("max_batch", r["start_error"])
        else:
            self.assertTrue(r.get("finished"), r)
            self.assertIn("max_batch", p.stdout + p.stderr)

    def test_005_nan_and_inf_decoded_as_zero(self):
        bits = self.rng.integers(0, 2, 5000).astype(np.uint8)
        llr = np.where(encode(bits) > 0, 4.0, -4.0).astype(np.float32)
        llr[[10, 500, 501, 7000]] = [np.nan, np.inf, -np.inf, np.nan]
        out, dec = decode(llr)
        self.assertEqual(dec.nonfinite_llrs(), 4)
        np.testing.assert_array_equal(out, bits)  # a strong code bridges 4 erasures

    def test_007_lock_unlock_continues_the_stream(self):
        # GNU Radio 3.10 drops items sitting in stream buffers across
        # lock()/unlock(), so the lock is taken once the block has consumed
        # everything sent so far: it then holds a partial window in its
        # framer and decoded bits in a partial batch (flush_us beyond the
        # test). After unlock() the same stream goes on, without a gap.
        bits = self.rng.integers(0, 2, 30000).astype(np.uint8)
        llr = noisy_llrs(encode(bits), 3.0, self.rng)
        first = 2 * 12345  # not a window boundary
        src = gated_source(llr.astype(np.float32), first)
        dec = gpurx.viterbi_stream_decoder(traceback=48, chunk=200,
                                           options=options(max_batch=1000, flush_us=10_000_000))
        snk = blocks.vector_sink_b()
        tb = gr.top_block()
        tb.connect(src, dec, snk)
        state = {}

        def hook(tb):
            state["consumed"] = wait_for(lambda: dec.nitems_read(0) >= first, 20) and dec.nitems_read(0)
            time.sleep(0.05)
            state["before"] = len(snk.data())
            tb.lock()
            tb.unlock()
            src.release()

        run_with_timeout(tb, 120, start_hook=hook)
        out = np.array(snk.data(), dtype=np.uint8)
        self.assertEqual(state["consumed"], first, state)
        self.assertLess(state["before"], first // 2, state)  # bits were held across the lock
        np.testing.assert_array_equal(out, reference_decode(llr, 200, 48))

    def test_006_bad_parameters_name_themselves(self):
        for kw, word in (({"K": 2, "polys": [3, 1]}, "K"),
                         ({"polys": [0o1133, 0o171]}, "polys"),
                         ({"traceback": -1}, "traceback"),
                         # Fewer than K-1 steps beyond a decision: 0 gave a BER of 0.5.
                         ({"traceback": 0, "chunk": 1}, "traceback"),
                         ({"traceback": 5}, "traceback"),
                         ({"polys": [0o133, 0o133]}, "polys"),
                         ({"K": 3, "polys": [0o6, 0o5]}, "polys"),
                         ({"chunk": 0}, "chunk"),
                         ({"puncture": [0, 0]}, "puncture"),
                         ({"input": "complex"}, "input")):
            with self.assertRaises((ValueError, RuntimeError)) as cm:
                gpurx.viterbi_stream_decoder(options=options(), **kw)
            self.assertIn(word, str(cm.exception), kw)
        # K-1 is the least traceback taken.
        gpurx.viterbi_stream_decoder(traceback=6, options=options())


if __name__ == "__main__":
    gr_unittest.run(qa_viterbi_stream)
