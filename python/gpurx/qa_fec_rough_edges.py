#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Three rough edges of the gr-fec coder objects with gr-fec's deployments:

- puncturing: fec.extended_decoder depunctures bytes (depuncture_bb), so a
  puncpat other than "11" needs an object with input_conversion="uchar";
  punctured links decode error-free at high SNR, beside gr-fec's own
  cc_decoder on the same link;
- packed PDUs: fec.async_encoder(packed=True) packs get_output_size() // 8
  bytes, which drops the last 4 of the turbo code's 3K+12 bits;
  pad_to_bytes=True keeps them;
- set_frame_size() refusals are logged once per size, not per packet (the
  log is read from a child process's output, where GNU Radio writes it).
"""
import json
import os
import subprocess
import sys

import numpy as np
import pmt
from gnuradio import blocks, fec, gr, gr_unittest, gpurx

from qa_fec_helpers import RUN_TIMEOUT_S, bpsk_link, random_bits, turbo_decoder, viterbi_decoder
from qa_helpers import require_backend_or_skip, run_with_timeout, wait_for

require_backend_or_skip()

HERE = os.path.dirname(os.path.abspath(__file__))
GRFEC_POLYS = [109, 79]
FRAME = 1000            # Viterbi frame: 2 x (1000 + 6) = 2012 coded bits
PUNCPATS = ("1101", "110")
ESN0_DB = 7.0           # high SNR for every punctured rate here (<= 3/4)


def run_punctured(bits, frame, enc, dec, puncpat, **kw):
    """bits through qa_fec_helpers.bpsk_link with puncpat, one frame of
    random bits after them: with noise, the link ends one frame short (so
    does gr-fec's cc_decoder on it, punctured or not). The decoded bits of
    bits."""
    flush = np.random.default_rng(0).integers(0, 2, frame).astype(np.uint8)
    tb = bpsk_link(np.concatenate([bits, flush]), enc, dec, puncpat=puncpat, **kw)
    run_with_timeout(tb, RUN_TIMEOUT_S)
    out = np.array(tb.sink.data(), dtype=np.uint8)
    assert out.size >= len(bits), "decoded %d of %d bits" % (out.size, len(bits))
    return out[:len(bits)]


def run_async(block, pdus, timeout_s=30):
    """PDUs (meta, vector) posted to a gr-fec async block: its output PDUs."""
    tb = gr.top_block()
    dbg = blocks.message_debug()
    tb.msg_connect(block, "out", dbg, "store")
    tb.start()
    try:
        for p in pdus:
            block.to_basic_block()._post(pmt.intern("in"), pmt.cons(pmt.make_dict(), p))
        wait_for(lambda: dbg.num_messages() >= len(pdus), timeout_s)
    finally:
        tb.stop()
        tb.wait()
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


def u8(msg):
    return np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)


class qa_fec_rough_edges(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(23)

    # ---- puncturing ---------------------------------------------------------
    def test_input_conversion_properties(self):
        # What gr-fec's extended decoders read to build the chain before the
        # object: "uchar" makes them convert to bytes (48 y + 128), which
        # depuncture_bb needs; "none" (the default) keeps floats.
        for make in (lambda **kw: turbo_decoder(40, **kw), lambda **kw: viterbi_decoder(32, **kw)):
            d = make()
            self.assertEqual((fec.get_decoder_input_conversion(d), fec.get_shift(d),
                              fec.get_decoder_input_item_size(d)), ("none", 0.0, 4))
            u = make(input_conversion="uchar")
            self.assertEqual((fec.get_decoder_input_conversion(u), fec.get_shift(u),
                              fec.get_decoder_input_item_size(u)), ("uchar", 128.0, 1))
            self.assertEqual(fec.get_decoder_output_item_size(u), 1)
            with self.assertRaises(ValueError) as ctx:
                make(input_conversion="packed_bits")
            self.assertIn("input_conversion", str(ctx.exception))

    def test_float_object_still_fails_with_puncpat(self):
        # The default: gr-fec cannot depuncture floats (the reported error).
        with self.assertRaises(Exception) as ctx:
            fec.extended_decoder(viterbi_decoder(FRAME), threading=None, ann=None, puncpat="110")
        self.assertIn("itemsize mismatch", str(ctx.exception))

    def test_punctured_viterbi_decodes_error_free(self):
        bits = random_bits(self.rng, 6 * FRAME)  # 6 frames: whole puncturing periods
        for puncpat in PUNCPATS:
            for name, make_dec in (
                    ("gpurx", lambda: viterbi_decoder(FRAME, polys=GRFEC_POLYS, gr_fec_order=True,
                                                      input_conversion="uchar")),
                    ("gr-fec cc_decoder", lambda: fec.cc_decoder.make(
                        FRAME, 7, 2, GRFEC_POLYS, 0, -1, fec.CC_TERMINATED))):
                what = "%s, puncpat %s" % (name, puncpat)
                enc = fec.cc_encoder_make(FRAME, 7, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED)
                out = run_punctured(bits, FRAME, enc, make_dec(), puncpat, esn0_db=ESN0_DB, seed=5)
                np.testing.assert_array_equal(out, bits, err_msg=what)

    def test_punctured_turbo_decodes_error_free(self):
        # 3K+12 = 3084 values a codeword: a whole number of "1101" and "110"
        # periods, so every codeword is punctured alike.
        K = 1024
        bits = random_bits(self.rng, 4 * K)
        for puncpat in PUNCPATS:
            out = run_punctured(bits, K, gpurx.lte_turbo_fec_encoder.make(K),
                                turbo_decoder(K, input_conversion="uchar"), puncpat,
                                esn0_db=ESN0_DB, seed=6)
            np.testing.assert_array_equal(out, bits, err_msg="turbo, puncpat " + puncpat)

    def test_uchar_object_decodes_unpunctured_noisy_link(self):
        # The 8-bit values decode a noisy rate-1/3 link, at an Es/N0 where
        # the decoder must correct errors (about 8% of the hard decisions
        # are wrong at 0 dB) and values clip at 2.67.
        K = 1024
        bits = random_bits(self.rng, 4 * K)
        out = run_punctured(bits, K, gpurx.lte_turbo_fec_encoder.make(K),
                            turbo_decoder(K, input_conversion="uchar"), "11", esn0_db=0.0, seed=8)
        np.testing.assert_array_equal(out, bits)

    # ---- packed async encoder ----------------------------------------------
    def test_packed_async_turbo_keeps_all_coded_bits(self):
        for K in (40, 1024, 6144):
            bits = random_bits(self.rng, K)
            # The unpacked path: 3K+12 unpacked coded bits, tail included.
            ref = u8(run_async(fec.async_encoder(gpurx.lte_turbo_fec_encoder.make(K), False,
                                                 False, False, 1500),
                               [pmt.init_u8vector(K, bits.tolist())])[0])
            self.assertEqual(len(ref), 3 * K + 12)
            packed_in = pmt.init_u8vector(K // 8, np.packbits(bits).tolist())
            # Without padding gr-fec drops the last 4 bits (the reported bug,
            # gr-fec's own rounding; the default stays as it was).
            short = u8(run_async(fec.async_encoder(gpurx.lte_turbo_fec_encoder.make(K), True,
                                                   False, False, 1500), [packed_in])[0])
            self.assertEqual(len(short), (3 * K + 8) // 8, K)
            # pad_to_bytes: (3K+16)/8 bytes, the 3K+12 coded bits, 4 zeros.
            enc = gpurx.lte_turbo_fec_encoder.make(K, pad_to_bytes=True)
            self.assertEqual(enc.get_output_size(), 3 * K + 16)
            out = u8(run_async(fec.async_encoder(enc, True, False, False, 1500), [packed_in])[0])
            self.assertEqual(len(out), (3 * K + 16) // 8, K)
            coded = np.unpackbits(out)
            np.testing.assert_array_equal(coded[:3 * K + 12], ref, err_msg="K=%d" % K)
            np.testing.assert_array_equal(coded[3 * K + 12:], np.zeros(4, np.uint8))
            # A receiver drops the 4 pad bits: the decoder takes the 3K+12.
            y = 2.0 * coded[:3 * K + 12].astype(np.float32) - 1.0
            dec = run_async(fec.async_decoder(turbo_decoder(K), False, True, 1500),
                            [pmt.init_f32vector(len(y), y.tolist())])
            np.testing.assert_array_equal(u8(dec[0]), bits, err_msg="decoded, K=%d" % K)

    # ---- refusals logged once per size -------------------------------------
    def test_refused_sizes_logged_once_per_size(self):
        code = "import sys; sys.path.insert(0, %r); import qa_fec_rough_edges as q; q.log_child()" % HERE
        env = dict(os.environ, GR_CONF_LOG_LOG_LEVEL="info")
        try:
            p = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True, text=True,
                               timeout=120, env=env)
        except subprocess.TimeoutExpired:
            self.fail("the child process did not finish in 120 s")
        log = p.stdout + "\n" + p.stderr
        results = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
        self.assertTrue(results, "child exited %d without a result:\n%s" % (p.returncode, log[-3000:]))
        r = json.loads(results[-1][len("RESULT "):])
        # The objects answered every request as before (refused, sizes kept).
        self.assertEqual(r, {"encoder": [False] * 6 + [True], "turbo_K": 1024, "viterbi_bits": 100})
        if "log probe" not in log:
            self.skipTest("GNU Radio's log does not reach the console here (its own info line "
                          "did not): the refusals' log lines cannot be counted")
        for text, what in (("frame size 1026 is not an LTE block size", "encoder, 1026"),
                           ("frame size 1030 is not an LTE block size", "encoder, 1030"),
                           ("gr-fec asked for frame size 6145", "turbo decoder, 6145"),
                           ("frame size 150 is larger than frame_bits=100", "Viterbi decoder, 150")):
            # Exactly once: at most once is the fix, at least once shows the
            # log was captured at all.
            self.assertEqual(log.count(text), 1, "%s:\n%s" % (what, log[-3000:]))


def log_child():
    """Run in a child process: what the tagged and async deployments do per
    packet, set_frame_size() with each packet's size, several packets alike."""
    # Info lines to the console whatever this machine's GNU Radio
    # configuration says (a log file, another level), as captured_log does.
    logging = gr.logging()
    logging.set_default_level(gr.log_levels.info)
    if gr.prefs().get_string("LOG", "log_file", "stdout") not in ("stdout", "stderr"):
        logging.add_default_console_sink()
    # Whether this machine's GNU Radio log reaches the console at all: a
    # line of our own.
    gr.logger("qa_fec_rough_edges").info("log probe")
    enc = gpurx.lte_turbo_fec_encoder.make(1024)
    answers = [enc.set_frame_size(s) for s in (1026, 1026, 1030, 1026, 1030, 1026)]
    answers.append(enc.set_frame_size(1024))
    dec = turbo_decoder(1024)
    for _ in range(4):
        dec.set_frame_size(6145)
    dec.set_frame_size(1024)
    vit = viterbi_decoder(100)
    for _ in range(4):
        vit.set_frame_size(150)
    vit.set_frame_size(100)
    print("RESULT " + json.dumps({"encoder": answers, "turbo_K": dec.block_size(),
                                  "viterbi_bits": vit.frame_bits()}), flush=True)
    # The console sink may write through C's stdout, fully buffered in a pipe.
    import ctypes
    ctypes.CDLL(None).fflush(None)


if __name__ == "__main__":
    gr_unittest.run(qa_fec_rough_edges)
