#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The gr-fec coder objects in gr-fec's packet deployments, where the frame
size changes per packet through set_frame_size():

- tagged streams: fec.extended_tagged_encoder -> +-1 ->
  fec.extended_tagged_decoder, packets of several LTE block sizes (turbo)
  or frame lengths (Viterbi, beside cc_encoder);
- PDUs: fec.async_encoder -> +-1 -> fec.async_decoder, the same;
- the objects' sizes, rates and set_frame_size() answers, and bad
  parameters, which raise ValueError naming the parameter.
"""
import numpy as np
import pmt
from gnuradio import blocks, fec, gr, gr_unittest, gpurx

from qa_fec_helpers import random_bits, turbo_decoder, viterbi_decoder
from qa_helpers import require_backend_or_skip, run_with_timeout, wait_for

require_backend_or_skip()

TAG = "packet_len"
GRFEC_POLYS = [109, 79]
TURBO_SIZES = [40, 1024, 6144, 512, 40]
VITERBI_SIZES = [300, 17, 1000, 64]


def tagged_source(packets):
    data = np.concatenate(packets)
    tags, offset = [], 0
    for p in packets:
        tags.append(gr.tag_utils.python_to_tag((offset, pmt.intern(TAG), pmt.from_long(len(p)))))
        offset += len(p)
    return blocks.vector_source_b(data.tolist(), False, 1, tags)


def run_tagged(packets, enc, dec):
    tb = gr.top_block()
    snk = blocks.vector_sink_b()
    shift = blocks.add_const_ff(-1.0)  # bit 1 -> +1
    # A tagged stream block needs a whole packet in its input buffer: room
    # for the largest codeword, 3 x 6144 + 12 values.
    shift.set_min_output_buffer(1 << 15)
    tb.connect(tagged_source(packets),
               fec.extended_tagged_encoder(enc, puncpat="11", lentagname=TAG, mtu=1500),
               blocks.char_to_float(1, 0.5), shift,
               fec.extended_tagged_decoder(dec, ann=None, puncpat="11", lentagname=TAG, mtu=1500),
               snk)
    run_with_timeout(tb, 120)
    lengths = [pmt.to_long(t.value) for t in snk.tags() if pmt.symbol_to_string(t.key) == TAG]
    return np.array(snk.data(), dtype=np.uint8), lengths


class to_bpsk_pdu(gr.basic_block):
    """u8vector bits -> f32vector of 2b - 1: gr-fec's channel, noiseless."""

    def __init__(self):
        gr.basic_block.__init__(self, "to_bpsk_pdu", None, None)
        self.message_port_register_in(pmt.intern("in"))
        self.message_port_register_out(pmt.intern("out"))
        self.set_msg_handler(pmt.intern("in"), self.handle)

    def handle(self, msg):
        bits = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.float32)
        self.message_port_pub(pmt.intern("out"),
                              pmt.cons(pmt.car(msg), pmt.init_f32vector(len(bits), 2 * bits - 1)))


def run_async(packets, enc, dec):
    tb = gr.top_block()
    aenc = fec.async_encoder(enc, False, True, True, 1500)
    bpsk = to_bpsk_pdu()
    adec = fec.async_decoder(dec, False, True, 1500)
    dbg = blocks.message_debug()
    tb.msg_connect(aenc, "out", bpsk, "in")
    tb.msg_connect(bpsk, "out", adec, "in")
    tb.msg_connect(adec, "out", dbg, "store")
    tb.start()
    try:
        for i, p in enumerate(packets):
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("n"), pmt.from_long(i))
            aenc.to_basic_block()._post(pmt.intern("in"), pmt.cons(meta, pmt.init_u8vector(len(p), p.tolist())))
        wait_for(lambda: dbg.num_messages() >= len(packets), 60)
    finally:
        tb.stop()
        tb.wait()
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


class qa_fec_deployments(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(7)

    def test_tagged_turbo_block_sizes_per_packet(self):
        packets = [random_bits(self.rng, K) for K in TURBO_SIZES]
        out, lengths = run_tagged(packets, gpurx.lte_turbo_fec_encoder.make(1024), turbo_decoder(1024))
        self.assertEqual(lengths, TURBO_SIZES)
        np.testing.assert_array_equal(out, np.concatenate(packets))

    def test_tagged_viterbi_frame_lengths_per_packet(self):
        # Tail-biting and truncated codes: a packet of n x frame_bits values.
        # (Terminated ones carry K-1 tail steps, which GNU Radio 3.10.5's
        # tagged decoder does not take back off the frame size it asks for:
        # gr-fec's own cc_decoder then returns K-1 extra bits per packet too.)
        for term, mode in (("tail-biting", fec.CC_TAILBITING), ("truncated", fec.CC_TRUNCATED)):
            packets = [random_bits(self.rng, n) for n in VITERBI_SIZES]
            enc = fec.cc_encoder_make(1000, 7, 2, GRFEC_POLYS, 0, mode)
            dec = viterbi_decoder(1000, polys=GRFEC_POLYS, gr_fec_order=True, termination=term)
            out, lengths = run_tagged(packets, enc, dec)
            self.assertEqual(lengths, VITERBI_SIZES, term)
            np.testing.assert_array_equal(out, np.concatenate(packets), err_msg=term)

    def check_async(self, packets, msgs):
        self.assertEqual(len(msgs), len(packets))
        for i, (p, m) in enumerate(zip(packets, msgs)):
            self.assertEqual(pmt.to_long(pmt.dict_ref(pmt.car(m), pmt.intern("n"), pmt.PMT_NIL)), i)
            np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8), p,
                                          err_msg="PDU %d" % i)

    def test_async_turbo_pdus(self):
        packets = [random_bits(self.rng, K) for K in TURBO_SIZES]
        dec = turbo_decoder(6144)
        msgs = run_async(packets, gpurx.lte_turbo_fec_encoder.make(6144), dec)
        self.check_async(packets, msgs)
        # get_iterations(): what the last frame ran (async_decoder adds it
        # to the metadata).
        self.assertEqual(dec.get_iterations(), 6.0)

    def test_async_viterbi_pdus(self):
        packets = [random_bits(self.rng, n) for n in VITERBI_SIZES]
        enc = fec.cc_encoder_make(1000, 7, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED)
        msgs = run_async(packets, enc, viterbi_decoder(1000, polys=GRFEC_POLYS, gr_fec_order=True))
        self.check_async(packets, msgs)

    def run_async_pdus(self, dec, pdus):
        """Float PDUs straight into fec.async_decoder: the output PDUs."""
        tb = gr.top_block()
        adec = fec.async_decoder(dec, False, True, 1500)
        dbg = blocks.message_debug()
        tb.msg_connect(adec, "out", dbg, "store")
        tb.start()
        try:
            for i, x in enumerate(pdus):
                meta = pmt.dict_add(pmt.make_dict(), pmt.intern("n"), pmt.from_long(i))
                adec.to_basic_block()._post(pmt.intern("in"), pmt.cons(
                    meta, pmt.init_f32vector(len(x), np.asarray(x, dtype=np.float32).tolist())))
            wait_for(lambda: dbg.num_messages() >= len(pdus), 30)
        finally:
            tb.stop()
            tb.wait()
        return [dbg.get_message(i) for i in range(dbg.num_messages())]

    def assert_refused(self, m, n_values, tail, rate_n, what):
        """A PDU that is no codeword: no decoded bit comes out (its bits are
        zeros, as many as gr-fec derives from its length: n / rate_n - tail)
        and its iterations are 0."""
        bits = np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)
        self.assertEqual(len(bits), n_values // rate_n - tail, what)
        self.assertFalse(bits.any(), what + ": decoded bits came out")
        it = pmt.dict_ref(pmt.car(m), pmt.intern("iterations"), pmt.PMT_NIL)
        self.assertEqual(pmt.to_double(it), 0.0, what + ": iterations")

    def test_async_turbo_malformed_pdus_refused_not_reinterpreted(self):
        cw = lambda b: 2.0 * encode(b) - 1.0  # noqa: E731 - bit 1 is +1
        enc40, enc1024 = gpurx.lte_turbo_fec_encoder.make(40), gpurx.lte_turbo_fec_encoder.make(1024)

        def encode(b):
            e = enc40 if len(b) == 40 else enc1024
            out = np.zeros(e.get_output_size(), dtype=np.uint8)
            run = gr.top_block()
            snk = blocks.vector_sink_b()
            run.connect(blocks.vector_source_b(b.tolist(), False), fec.extended_encoder(
                e, threading=None, puncpat="11"), snk)
            run.run()
            out[:] = snk.data()
            return out

        a, b, c = (random_bits(self.rng, 40) for _ in range(3))
        big = random_bits(self.rng, 1024)
        two = np.concatenate([cw(a), cw(b)])                 # two K=40 codewords: 264 values
        extra = np.concatenate([cw(a), np.ones(12)])          # one, then 12 more: 144 values
        pdus = [cw(a), two, extra, cw(big), np.zeros(0), cw(c)]
        msgs = self.run_async_pdus(turbo_decoder(40), pdus)
        self.assertEqual(len(msgs), len(pdus))
        out = [np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8) for m in msgs]
        np.testing.assert_array_equal(out[0], a)
        self.assert_refused(msgs[1], 264, 4, 3, "two K=40 codewords in one PDU")
        self.assert_refused(msgs[2], 144, 4, 3, "a K=40 codeword and 12 more values")
        np.testing.assert_array_equal(out[3], big, err_msg="K=1024 after the refused PDUs")
        self.assertEqual(len(out[4]), 0, "an empty PDU")  # gr-fec's own answer to it
        np.testing.assert_array_equal(out[5], c, err_msg="K=40 after the empty PDU")

    def test_async_viterbi_malformed_pdus_refused(self):
        polys = GRFEC_POLYS
        enc = fec.cc_encoder_make(32, 7, 2, polys, 0, fec.CC_TERMINATED)

        def coded(b):
            tb = gr.top_block()
            snk = blocks.vector_sink_b()
            tb.connect(blocks.vector_source_b(b.tolist(), False),
                       fec.extended_encoder(enc, threading=None, puncpat="11"), snk)
            tb.run()
            return 2.0 * np.array(snk.data(), dtype=np.float32) - 1.0

        a, b = random_bits(self.rng, 32), random_bits(self.rng, 32)
        two = np.concatenate([coded(a), coded(b)])  # 152 values: two frames of the largest size
        pdus = [coded(a), two, np.zeros(0), coded(b)]
        dec = viterbi_decoder(32, polys=polys, gr_fec_order=True)
        msgs = self.run_async_pdus(dec, pdus)
        self.assertEqual(len(msgs), len(pdus))
        out = [np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8) for m in msgs]
        np.testing.assert_array_equal(out[0], a)
        bits = out[1]
        self.assertEqual(len(bits), 152 // 2 - 6, "two frames in one PDU")
        self.assertFalse(bits.any(), "two frames in one PDU: decoded bits came out")
        self.assertEqual(len(out[2]), 0, "an empty PDU")
        np.testing.assert_array_equal(out[3], b, err_msg="a frame after the refused PDUs")

    def test_huge_finite_values_are_not_nan(self):
        # 1.7e38 x llr_scale 2 is beyond float's range: a strong LLR, not a
        # NaN or Inf (finiteness is checked before the scale).
        K = 40
        bits = random_bits(self.rng, K)
        tb = gr.top_block()
        snk = blocks.vector_sink_b()
        tb.connect(blocks.vector_source_b(bits.tolist(), False),
                   fec.extended_encoder(gpurx.lte_turbo_fec_encoder.make(K), threading=None,
                                        puncpat="11"), snk)
        tb.run()
        x = 2.0 * np.array(snk.data(), dtype=np.float32) - 1.0
        x[::7] *= np.float32(1.7e38)
        self.assertTrue(np.all(np.isfinite(x)))
        msgs = self.run_async_pdus(turbo_decoder(K), [x])
        np.testing.assert_array_equal(np.array(pmt.u8vector_elements(pmt.cdr(msgs[0]))), bits)
        it = pmt.to_double(pmt.dict_ref(pmt.car(msgs[0]), pmt.intern("iterations"), pmt.PMT_NIL))
        self.assertGreater(it, 0.0, "the frame was refused")

    def test_frame_sizes_never_wrap(self):
        # gr-fec computes a negative size for a packet shorter than the
        # tail, and passes it wrapped to unsigned: refused, sizes kept.
        for d, size in ((turbo_decoder(40), (132, 40)), (viterbi_decoder(32), (76, 32))):
            for wrapped in (2 ** 32 - 3, 2 ** 32 - 4, 2 ** 31):
                self.assertFalse(d.set_frame_size(wrapped), wrapped)
                self.assertEqual((d.get_input_size(), d.get_output_size()), size, wrapped)
            # A huge non-negative size: refused, and the sizes reported stay ints.
            self.assertTrue(d.set_frame_size(2 ** 31 - 1))
            self.assertGreater(d.get_input_size(), 0)
            self.assertGreater(d.get_output_size(), 0)
            self.assertLessEqual(d.get_input_size(), 2 ** 31 - 1)

    def test_sizes_and_set_frame_size(self):
        d = turbo_decoder(1024)
        self.assertEqual((d.get_input_size(), d.get_output_size(), d.rate()), (3084, 1024, 1 / 3))
        self.assertEqual(fec.get_decoder_input_conversion(d), "none")
        self.assertEqual(fec.get_shift(d), 0.0)
        self.assertEqual(fec.get_history(d), 0)
        self.assertEqual(d.llr_scale(), 2.0)
        self.assertIn(d.backend(), ("cpu", "cuda"))
        self.assertTrue(d.set_frame_size(6144))
        self.assertEqual((d.get_input_size(), d.block_size()), (18444, 6144))
        # Not an LTE size: refused, K kept; a frame of it would come out as
        # that many zeros (gr-fec sizes its output from get_output_size()).
        self.assertTrue(d.set_frame_size(6145))
        self.assertEqual((d.get_output_size(), d.block_size()), (6145, 6144))
        self.assertTrue(d.set_frame_size(12000))
        self.assertEqual(d.block_size(), 6144)
        # K+4 is K: (3K+12)/3, as GNU Radio 3.10.5's tagged decoder asks
        # (it never reads get_input_size())...
        self.assertTrue(d.set_frame_size(1028))
        self.assertEqual((d.block_size(), d.get_output_size()), (1024, 1024))
        # ... but not after reading both sizes: that caller (the async
        # decoder) took the tail off, and K+4 is a codeword with 12 more values.
        d.get_input_size()
        d.get_output_size()
        self.assertTrue(d.set_frame_size(1028))
        self.assertEqual((d.block_size(), d.get_output_size()), (1024, 1028))
        self.assertTrue(d.set_frame_size(1024))
        self.assertEqual((d.block_size(), d.get_output_size()), (1024, 1024))
        e = gpurx.lte_turbo_fec_encoder.make(40)
        self.assertEqual((e.get_input_size(), e.get_output_size(), e.rate()), (40, 132, 3.0))
        self.assertTrue(e.set_frame_size(48))
        self.assertFalse(e.set_frame_size(49))
        self.assertEqual(e.block_size(), 48)
        v = viterbi_decoder(100)
        self.assertEqual((v.get_input_size(), v.get_output_size(), v.rate()), (212, 100, 0.5))
        self.assertEqual(v.llr_scale(), 1.0)
        self.assertTrue(v.set_frame_size(10))
        self.assertEqual((v.get_input_size(), v.frame_bits()), (32, 10))
        self.assertFalse(v.set_frame_size(101))    # larger than constructed: clamped
        self.assertEqual(v.frame_bits(), 100)
        # ... unless the caller took the tail off (the async decoder): then
        # the packet holds more than one frame, refused.
        v.get_input_size()
        v.get_output_size()
        self.assertTrue(v.set_frame_size(101))
        self.assertEqual((v.frame_bits(), v.get_output_size()), (100, 101))
        v3 = viterbi_decoder(100, K=9, polys=[0o557, 0o663, 0o711], termination="truncated")
        self.assertEqual((v3.get_input_size(), v3.rate()), (300, 1 / 3))

    def test_bad_parameters_name_the_parameter(self):
        T, V = gpurx.lte_turbo_fec_decoder.make, gpurx.viterbi_fec_decoder.make
        cases = [
            (lambda: T(41), "K"), (lambda: T(6208), "K"),
            (lambda: T(40, iterations=0), "iterations"), (lambda: T(40, iterations=17), "iterations"),
            (lambda: T(40, algorithm="bcjr"), "algorithm"),
            (lambda: T(40, subblocks=-1), "subblocks"),
            (lambda: T(40, scaling=0.0), "scaling"),
            (lambda: T(40, early_termination="crc16"), "early_termination"),
            (lambda: T(40, llr_scale=0.0), "llr_scale"), (lambda: T(40, llr_scale=-4.0), "llr_scale"),
            (lambda: T(40, llr_scale=float("nan")), "llr_scale"),
            (lambda: T(40, backend="gpu"), "backend"),
            (lambda: gpurx.lte_turbo_fec_encoder.make(39), "K"),
            (lambda: V(0), "frame_bits"), (lambda: V(1 << 25), "frame_bits"),
            (lambda: V(100, K=2), "K"), (lambda: V(100, K=10), "K"),
            (lambda: V(100, polys=[0o133]), "polys"), (lambda: V(100, polys=[-1, 3]), "polys"),
            (lambda: V(100, termination="flushed"), "termination"),
            (lambda: V(4, termination="tail-biting"), "frame_bits"),
            (lambda: V(100, chunk=0), "chunk"),
            (lambda: V(100, llr_scale=0.0), "llr_scale"),
            (lambda: V(100, backend="opencl"), "backend"),
        ]
        for make, name in cases:
            with self.assertRaises(ValueError, msg=name) as ctx:
                make()
            self.assertIn(name, str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_fec_deployments)
