#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Convolutional-code link in a GNU Radio flowgraph, decoded by gpurx:

random bits -> gr-fec cc_encoder (K=7, rate 1/2, 133/171, terminated) ->
BPSK -> AWGN -> soft decision (the real part y) -> LLR = 4 Es/N0 y ->
gpurx.viterbi_decoder -> BER

The encoder, modulation and noise are GNU Radio's own blocks;
gr-fec writes the polynomials bit-reversed (109, 79 for 133, 171), which
the decoder takes with gr_fec_order=True. The same flowgraph is
examples/viterbi_link.grc.

  viterbi_link.py [--frames 100] [--frame-bits 2048] [--ebn0 4.0]
                  [--backend auto] [--input soft|int8] [--seed 1]
                  [--check]  (exit 1 unless every frame comes out and the BER
                              is below --max-ber and a tenth of the channel's)
"""
import math
import sys
import time

import numpy as np
from gnuradio import analog, blocks, digital, fec, gr, gpurx
from gnuradio.gpurx import cli

K = 7
GRFEC_POLYS = [109, 79]  # 0o133, 0o171 in gr-fec's bit-reversed order


def llr_gain(ebn0_db, rate=0.5):
    """Multiplier from the received real part y to a true LLR, and N0.

    With Es = 1 and complex noise of variance N0 (N0/2 per dimension), the
    log-likelihood ratio of bit 1 (+1) over bit 0 (-1) given the received
    real part y is 2y / (N0/2) = 4y/N0 = 4 (Es/N0) y, where Es/N0 = R Eb/N0
    (R = 1/2; the K-1 tail bits are not charged).

    Why y and not digital.constellation_soft_decoder_cf: for BPSK that
    block's output is not proportional to y; it saturates (0.995 at y = 0.5,
    1.83 at 1, 1.97 beyond 2), which throws away exactly the confidence the
    Viterbi decoder weighs, costing about 1 dB here (BER 8.7e-3 instead of
    4.6e-3 at 2 dB).

    For float input the Viterbi path does not depend on this scale (every
    branch metric scales alike), so why get it right: the decoder's reported
    metric is then the path's log-likelihood, the same LLRs can feed any
    other soft decoder (turbo, LDPC), and for int8 input the scale sets the
    quantisation step (here ~10 levels per unit amplitude at 4 dB).
    """
    n0 = 1.0 / (rate * 10 ** (ebn0_db / 10))
    return 4.0 / n0, n0


class viterbi_link(gr.top_block):
    """options: a gpurx.pipeline_options, or a backend name ("auto", "cuda", "cpu")."""

    def __init__(self, frames, frame_bits, ebn0_db, options="auto", input="soft", seed=1):
        gr.top_block.__init__(self, "gpurx Viterbi link")
        if isinstance(options, str):
            options = gpurx.pipeline_options(backend=options)
        rng = np.random.default_rng(seed)
        self.tx_bits = rng.integers(0, 2, frames * frame_bits).astype(np.uint8)
        n_coded = 2 * (frame_bits + K - 1)
        gain, n0 = llr_gain(ebn0_db)
        bpsk = digital.constellation_bpsk().base()

        src = blocks.vector_source_b(self.tx_bits.tolist(), False)
        enc = fec.extended_encoder(fec.cc_encoder_make(frame_bits, K, 2, GRFEC_POLYS, 0, fec.CC_TERMINATED),
                                   None, "11")
        mod = digital.chunks_to_symbols_bc(bpsk.points())          # bit 1 -> +1
        noise = analog.noise_source_c(analog.GR_GAUSSIAN, math.sqrt(n0), seed)
        add = blocks.add_cc()
        soft = blocks.complex_to_real()                            # y, > 0 for bit 1
        llr = blocks.multiply_const_ff(gain)                       # -> 4 Es/N0 y
        self.hard = blocks.vector_sink_b()                         # the channel's own bit errors
        self.connect(soft, blocks.threshold_ff(0.0, 0.0, 0), blocks.float_to_uchar(), self.hard)
        self.connect(src, enc, mod, (add, 0))
        self.connect(noise, (add, 1))
        self.connect(add, soft, llr)
        if input == "int8":
            # int8 LLRs: 2 x LLR rounded and saturated to +-127 (at 4 dB
            # about 10 levels per unit of amplitude); the path sees only the
            # rounding, not the scale.
            q = blocks.float_to_char(1, 2.0)
            s2v = blocks.stream_to_vector(gr.sizeof_char, n_coded)
            self.connect(llr, q, s2v)
        else:
            s2v = blocks.stream_to_vector(gr.sizeof_float, n_coded)
            self.connect(llr, s2v)
        self.dec = gpurx.viterbi_decoder(frame_bits, K, GRFEC_POLYS, "terminated", input=input,
                                         gr_fec_order=True, options=options)
        self.snk = blocks.vector_sink_b(frame_bits)
        self.connect(s2v, self.dec, self.snk)
        self.coded = blocks.vector_sink_b()
        self.connect(enc, self.coded)


def main():
    ap = cli.parser(__doc__.splitlines()[0])
    ap.add_argument("--frames", type=cli.positive_int, default=100)
    ap.add_argument("--frame-bits", type=cli.positive_int, default=2048)
    ap.add_argument("--ebn0", type=float, default=4.0)
    ap.add_argument("--backend", default="auto", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--input", default="soft", choices=["soft", "int8"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-ber", type=float, default=1e-3)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    tb = viterbi_link(a.frames, a.frame_bits, a.ebn0, a.backend, a.input, a.seed)
    t0 = time.time()
    tb.run()
    secs = time.time() - t0
    rx = np.array(tb.snk.data(), dtype=np.uint8)
    nbits = tb.tx_bits.size
    errors = int(np.count_nonzero(rx[:nbits] != tb.tx_bits[:rx.size])) + max(nbits - rx.size, 0)
    coded = np.array(tb.coded.data(), dtype=np.uint8)
    hard = np.array(tb.hard.data(), dtype=np.uint8)[:coded.size]
    raw_ber = np.count_nonzero(hard != coded[:hard.size]) / max(hard.size, 1)
    ber = errors / nbits
    print("backend %s, %s input: %d frames of %d bits at Eb/N0 %.2f dB: %d of %d bits out, "
          "%d bit errors (BER %.2e; channel BER before decoding %.2e), %.2f s"
          % (tb.dec.backend(), a.input, a.frames, a.frame_bits, a.ebn0, rx.size, nbits, errors, ber,
             raw_ber, secs))
    if a.check and (rx.size != nbits or ber > a.max_ber or ber > raw_ber / 10):
        print("CHECK FAILED")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
