#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LTE turbo link in a GNU Radio flowgraph, with its BER:

random bits -> CRC24B -> gpurx turbo encoder -> BPSK -> AWGN -> real part y
-> LLR = 4 y / N0 -> gpurx turbo decoder -> BER

The modulation and noise are GNU Radio's own blocks (chunks_to_symbols,
noise_source). Bit 1 is sent as +1 (Es = 1), so y > 0 favours bit 1, which is
gr-gpurx's LLR convention, and the exact LLR of BPSK in complex AWGN of
density N0 is L = 4 Re(y) / N0. Take the real part, not
digital.constellation_soft_decoder_cf: that block's output saturates at +-2
and shrinks as the noise grows, so no constant turns it into an LLR (scaling
it as if it were 2y costs 0.2-0.3 dB at the turbo code's waterfall).
The same flowgraph, without the CRC, is examples/lte_turbo_ber.grc.

  lte_turbo_ber.py [--K 1024] [--frames 40] [--ebn0 1.5] [--backend auto]
                   [--devices 0] [--max-batch 64] [--slots 3] [--flush-us 1000]
                   [--cpu-threads 0]
                   [--check]   (exit 1 unless every frame decodes without error
                                and the LLRs are consistent: see llr_consistency())

The decoder's batching, backend and GPUs are one gpurx.pipeline_options.
"""
import sys
import time

import numpy as np
from gnuradio import analog, blocks, digital, gr, gpurx
from gnuradio.gpurx import cli


def crc24b_attach(bits):
    """Append the 24 CRC24B parity bits (TS 36.212 5.1.1) to a 0/1 array."""
    g = 0x800063
    r = 0
    for b in bits:
        fb = ((r >> 23) & 1) ^ int(b)
        r = (r << 1) & 0xFFFFFF
        if fb:
            r ^= g
    return np.concatenate([bits, [(r >> (23 - i)) & 1 for i in range(24)]]).astype(np.uint8)


def llr_consistency(llrs, code_bits):
    """E[L s] / (var(L s) / 2), s = +1 for bit 1 and -1 for bit 0: 1 for true
    LLRs of a symmetric channel (L s is then Gaussian with variance twice its
    mean on AWGN). A soft value scaled by the wrong constant, or one that
    saturates (constellation_soft_decoder_cf), is far from 1."""
    ls = np.asarray(llrs, dtype=np.float64) * (2.0 * np.asarray(code_bits, dtype=np.float64) - 1.0)
    return ls.mean() / (ls.var() / 2.0)


class turbo_link(gr.top_block):
    """options: a gpurx.pipeline_options, or a backend name ("auto", "cuda",
    "cpu") for the default options on that backend."""

    def __init__(self, K, frames, ebn0_db, options=None, seed=1):
        gr.top_block.__init__(self, "gpurx LTE turbo link")
        if options is None:
            options = gpurx.pipeline_options()
        elif isinstance(options, str):
            options = gpurx.pipeline_options(backend=options)
        rng = np.random.default_rng(seed)
        self.tx_bits = np.concatenate(
            [crc24b_attach(rng.integers(0, 2, K - 24)) for _ in range(frames)])
        n = 3 * K + 12
        esn0_db = ebn0_db + 10 * np.log10(K / n)
        n0 = 10 ** (-esn0_db / 10)  # Es = 1
        bpsk = digital.constellation_bpsk().base()                  # points -1, +1

        src = blocks.vector_source_b(self.tx_bits.tolist(), False, K)
        enc = gpurx.lte_turbo_encoder(K)
        v2s = blocks.vector_to_stream(1, n)
        mod = digital.chunks_to_symbols_bc(bpsk.points())          # bit 1 -> +1
        noise = analog.noise_source_c(analog.GR_GAUSSIAN, np.sqrt(n0), seed)
        add = blocks.add_cc()
        soft = blocks.complex_to_real()                            # y, > 0 for bit 1
        llr = blocks.multiply_const_ff(4.0 / n0)                   # L = 4 y / N0
        s2v = blocks.stream_to_vector(gr.sizeof_float, n)
        self.dec = gpurx.lte_turbo_decoder(K, 8, "scaled-max-log-map",
                                           early_termination="crc24b", options=options)
        self.snk = blocks.vector_sink_b(K)
        self.llr_snk = blocks.vector_sink_f()
        self.code_snk = blocks.vector_sink_b()
        self.connect(src, enc, v2s, mod, (add, 0))
        self.connect(noise, (add, 1))
        self.connect(add, soft, llr, s2v, self.dec, self.snk)
        self.connect(llr, self.llr_snk)
        self.connect(v2s, self.code_snk)


def main():
    ap = cli.parser(__doc__.splitlines()[0])
    ap.add_argument("--K", type=int, default=1024)
    ap.add_argument("--frames", type=cli.positive_int, default=40)
    ap.add_argument("--ebn0", type=float, default=1.5)
    ap.add_argument("--backend", default="auto", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--devices", default="0", help='GPUs: "0", "0,1" or "all"')
    ap.add_argument("--max-batch", type=cli.positive_int, default=64)
    ap.add_argument("--slots", type=cli.positive_int, default=3)
    ap.add_argument("--flush-us", type=int, default=1000)
    ap.add_argument("--cpu-threads", type=int, default=0)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    opts = gpurx.pipeline_options(max_batch=a.max_batch, slots=a.slots, flush_us=a.flush_us,
                                  backend=a.backend, devices=a.devices,
                                  cpu_threads=a.cpu_threads)
    tb = turbo_link(a.K, a.frames, a.ebn0, opts)
    t0 = time.time()
    tb.run()
    rx = np.array(tb.snk.data(), dtype=np.uint8)
    nbits = len(tb.tx_bits)
    errors = int(np.count_nonzero(rx[:nbits] != tb.tx_bits[:len(rx)])) if len(rx) else nbits
    ferr = sum(int(np.any(rx[i * a.K:(i + 1) * a.K] != tb.tx_bits[i * a.K:(i + 1) * a.K]))
               for i in range(a.frames))
    print("backend %s: K=%d, %d frames at Eb/N0 %.2f dB: %d of %d bits out, "
          "%d bit errors (BER %.2e), %d frame errors, %.2f s"
          % (tb.dec.backend(), a.K, a.frames, a.ebn0, len(rx), nbits, errors,
             errors / nbits, ferr, time.time() - t0))
    consistency = llr_consistency(tb.llr_snk.data(), tb.code_snk.data())
    print("LLR consistency E[Ls]/(var(Ls)/2) = %.3f (1 for exact LLRs)" % consistency)
    if a.check and (len(rx) != nbits or errors or abs(consistency - 1) > 0.1):
        print("CHECK FAILED")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
