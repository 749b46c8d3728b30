#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Coded MIMO link in a GNU Radio flowgraph, with its BER:

random bits -> gpurx LTE turbo encoder -> padding -> gpurx QAM mapper ->
gpurx MIMO channel (Rayleigh, AWGN) -> gpurx MIMO detector -> padding removed
-> gpurx LTE turbo decoder -> BER

The detector's LLRs (L = ln P(b=1)/P(b=0), positive for bit 1) are the turbo
decoder's input as they are: both blocks use GNU Radio's convention. Each
codeword (3K+12 bits) is padded with zero bits to whole channels of
vectors_per_channel vectors of nt x bits-per-symbol bits, so a channel never
spans two codewords; the padding's LLRs are dropped before the decoder. The
SNR is per receive antenna: nt / N0 with unit-energy symbols and CN(0,1)
channel gains.

  mimo_turbo_ber.py [--K 1024] [--frames 20] [--nt 2] [--nr 2]
                    [--modulation 16qam] [--algorithm mtt] [--snr-db 14]
                    [--vectors-per-channel 8] [--iterations 6] [--seed 1]
                    [--backend auto] [--devices 0] [--max-batch 64] [--slots 3]
                    [--flush-us 1000] [--cpu-threads 0]
                    [--check MAX_BER]  (exit 1 if bits are lost or the BER exceeds it)

The detector's and decoder's batching, backend and GPUs are one
gpurx.pipeline_options.
"""
import sys
import time

import numpy as np
from gnuradio import blocks, gr, gpurx
from gnuradio.gpurx import cli

BPS = {"qpsk": 2, "16qam": 4, "64qam": 6, "256qam": 8}


def padded_length(n, bits_per_channel):
    """The codeword length n rounded up to whole channels."""
    return -(-n // bits_per_channel) * bits_per_channel


class mimo_turbo_link(gr.top_block):
    def __init__(self, K=1024, frames=20, nt=2, nr=2, modulation="16qam", algorithm="mtt",
                 snr_db=14.0, vectors_per_channel=8, iterations=6, seed=1, options=None):
        gr.top_block.__init__(self, "gpurx MIMO turbo link")
        if options is None:
            options = gpurx.pipeline_options()
        bps = BPS[modulation]
        n = 3 * K + 12
        N = padded_length(n, nt * bps * vectors_per_channel)
        self.n0 = nt / 10 ** (snr_db / 10)
        rng = np.random.default_rng(seed)
        self.tx_bits = rng.integers(0, 2, K * frames).astype(np.uint8)

        src = blocks.vector_source_b(self.tx_bits.tolist(), False, K)
        enc = gpurx.lte_turbo_encoder(K)
        cw = blocks.vector_to_stream(gr.sizeof_char, n)
        # n code bits, then N - n zero bits; the zeros' source stops when
        # the mux, its only reader, is done.
        pad = blocks.stream_mux(gr.sizeof_char, [n, N - n])
        zeros = blocks.null_source(gr.sizeof_char)
        mapper = gpurx.qam_mapper(modulation)
        tx = blocks.stream_to_vector(gr.sizeof_gr_complex, nt)
        self.channel = gpurx.mimo_channel(nt, nr, self.n0, vectors_per_channel, seed=seed)
        self.det = gpurx.mimo_detector(nt, nr, modulation, algorithm, noise_var=self.n0,
                                       vectors_per_channel=vectors_per_channel, options=options)
        llrs = blocks.vector_to_stream(gr.sizeof_float, nt * bps)
        unpad = blocks.keep_m_in_n(gr.sizeof_float, n, N, 0)
        rx = blocks.stream_to_vector(gr.sizeof_float, n)
        self.dec = gpurx.lte_turbo_decoder(K, iterations, "scaled-max-log-map", options=options)
        self.snk = blocks.vector_sink_b(K)

        self.connect(src, enc, cw, (pad, 0))
        self.connect(zeros, (pad, 1))
        self.connect(pad, mapper, tx, self.channel)
        self.connect((self.channel, 0), (self.det, 0))
        self.connect((self.channel, 1), (self.det, 1))
        self.connect(self.det, llrs, unpad, rx, self.dec, self.snk)


def run_link(tb):
    """Runs tb; (bits out, bit errors, frame errors)."""
    tb.run()
    rx = np.array(tb.snk.data(), dtype=np.uint8)
    K = tb.dec.output_signature().sizeof_stream_item(0)
    m = min(len(rx), len(tb.tx_bits))
    errors = int(np.count_nonzero(rx[:m] != tb.tx_bits[:m])) + (len(tb.tx_bits) - m)
    frames = len(tb.tx_bits) // K
    ferr = sum(int(len(rx) < (i + 1) * K or np.any(rx[i * K:(i + 1) * K] != tb.tx_bits[i * K:(i + 1) * K]))
               for i in range(frames))
    return len(rx), errors, ferr


def main():
    ap = cli.parser(__doc__.splitlines()[0])
    ap.add_argument("--K", type=int, default=1024, help="LTE code block size (40..6144)")
    ap.add_argument("--frames", type=cli.positive_int, default=20)
    ap.add_argument("--nt", type=cli.positive_int, default=2)
    ap.add_argument("--nr", type=cli.positive_int, default=2)
    ap.add_argument("--modulation", default="16qam", choices=sorted(BPS))
    ap.add_argument("--algorithm", default="mtt", choices=["mtt", "one-pass", "kbest", "ml", "lmmse"])
    ap.add_argument("--snr-db", type=float, default=14.0, help="SNR per receive antenna, nt/N0")
    ap.add_argument("--vectors-per-channel", type=cli.positive_int, default=8)
    ap.add_argument("--iterations", type=cli.positive_int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="auto", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--devices", default="0", help='GPUs: "0", "0,1" or "all"')
    ap.add_argument("--max-batch", type=cli.positive_int, default=64)
    ap.add_argument("--slots", type=cli.positive_int, default=3)
    ap.add_argument("--flush-us", type=int, default=1000)
    ap.add_argument("--cpu-threads", type=int, default=0)
    ap.add_argument("--check", type=float, metavar="MAX_BER", default=None,
                    help="exit 1 if bits are lost or the BER exceeds MAX_BER")
    a = ap.parse_args()
    if a.frames < 1:
        ap.error("--frames must be at least 1, got %d" % a.frames)
    opts = gpurx.pipeline_options(max_batch=a.max_batch, slots=a.slots, flush_us=a.flush_us,
                                  backend=a.backend, devices=a.devices,
                                  cpu_threads=a.cpu_threads)
    try:
        tb = mimo_turbo_link(a.K, a.frames, a.nt, a.nr, a.modulation, a.algorithm, a.snr_db,
                             a.vectors_per_channel, a.iterations, a.seed, opts)
    except ValueError as e:
        ap.error(str(e))
    t0 = time.time()
    nout, errors, ferr = run_link(tb)
    nbits = len(tb.tx_bits)
    print("detector %s, decoder %s: %dx%d %s %s, K=%d, %d frames at SNR %.1f dB (N0 %.4g): "
          "%d of %d bits out, %d bit errors (BER %.2e), %d frame errors, %.2f s"
          % (tb.det.backend(), tb.dec.backend(), a.nt, a.nr, a.modulation, a.algorithm, a.K,
             a.frames, a.snr_db, tb.n0, nout, nbits, errors, errors / nbits, ferr,
             time.time() - t0))
    if a.check is not None and (nout != nbits or errors / nbits > a.check):
        print("CHECK FAILED")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
