#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Shared by the gr-fec coder object tests (qa_fec_*.py).

The channel is gr-fec's own (fec_test.py, bercurve_generator): bit b is sent
as 2b - 1 (bit 1 as +1) and Gaussian noise of standard deviation
sqrt(N0/2), Es = 1, is added; the decoders get those values as they are.
"""
import math

import numpy as np
from gnuradio import analog, blocks, fec, gr, gpurx

from qa_helpers import BACKEND, run_with_timeout

RUN_TIMEOUT_S = 120.0


def turbo_decoder(K, **kw):
    kw.setdefault("backend", BACKEND)
    return gpurx.lte_turbo_fec_decoder.make(K, **kw)


def viterbi_decoder(frame_bits, **kw):
    kw.setdefault("backend", BACKEND)
    return gpurx.viterbi_fec_decoder.make(frame_bits, **kw)


def noise_sigma(esn0_db):
    """gr-fec's fec_test: sqrt(N0 / 2) with Es = 1."""
    return math.sqrt(10 ** (-esn0_db / 10) / 2)


def random_bits(rng, n):
    return rng.integers(0, 2, n).astype(np.uint8)


class bpsk_link(gr.top_block):
    """bits -> fec.extended_encoder(enc) -> +-1 (+ noise) ->
    fec.extended_decoder(dec) -> bits, as fec_test builds it; puncpat is
    both extended blocks' (the encoder punctures, the decoder depunctures)."""

    def __init__(self, bits, enc, dec, esn0_db=None, threading=None, seed=1, puncpat="11"):
        gr.top_block.__init__(self, "gr-fec link")
        src = blocks.vector_source_b(np.asarray(bits, dtype=np.uint8).tolist(), False)
        encoder = fec.extended_encoder(enc, threading=threading, puncpat=puncpat)
        to_pm1 = blocks.char_to_float(1, 0.5)   # 0/1 -> 0/2
        shift = blocks.add_const_ff(-1.0)       # -> -1/+1: bit 1 is +1
        decoder = fec.extended_decoder(dec, threading=threading, ann=None, puncpat=puncpat,
                                       integration_period=10000)
        self.sink = blocks.vector_sink_b()
        self.connect(src, encoder, to_pm1, shift)
        if esn0_db is None:
            self.connect(shift, decoder)
        else:
            noise = analog.noise_source_f(analog.GR_GAUSSIAN, noise_sigma(esn0_db), seed)
            add = blocks.add_ff()
            self.connect(shift, (add, 0))
            self.connect(noise, (add, 1))
            self.connect(add, decoder)
        self.connect(decoder, self.sink)


def run_link(bits, enc, dec, **kw):
    """Decoded bits of bits through bpsk_link; at least len(bits) of them."""
    tb = bpsk_link(bits, enc, dec, **kw)
    run_with_timeout(tb, RUN_TIMEOUT_S)
    out = np.array(tb.sink.data(), dtype=np.uint8)
    assert out.size >= len(bits), "decoded %d of %d bits" % (out.size, len(bits))
    return out[:len(bits)]
