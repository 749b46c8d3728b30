#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""BER/FER of GNU Radio's own Viterbi decoder (gr-fec cc_decoder), BPSK over
AWGN, in a flowgraph: the comparison curve for gpurx-viterbi-ber --grfec,
with the same options, stopping rule and CSV columns.

random bits -> gr-fec cc_encoder -> BPSK (bit 1 -> +1) -> + Gaussian noise
-> gr-fec cc_decoder (fec.extended_decoder) -> bit errors per frame

gr-fec's cc_decoder takes the channel values y themselves, not LLRs:
extended_decoder scales them by 48 and offsets them by 128 into unsigned
bytes (so +-1 maps to 80..176 and |y| > 2.67 saturates). Its Viterbi is
K=7 rate 1/2 only (volk_8u_x4_conv_k7_r2), so this script refuses other
codes. Eb/N0 is charged as in gpurx-viterbi-ber: Es/N0 = R Eb/N0 with
R = 1/2 (or frame_bits / coded bits with --charge-tail).

The noise samples are not gpurx-viterbi-ber's (another generator); for a
comparison on identical frames see python/gpurx/qa_viterbi_grfec.py.

  gpurx_viterbi_ber_grfec.py [--K 7] [--polys 133,171] [--termination terminated]
      [--frame-bits 2048] [--ebn0 0:6:0.5] [--min-frame-errors 100]
      [--max-frames 100000] [--keep-going] [--charge-tail] [--seed 1]
      [--csv FILE] [--quiet]

Exit status: 0 success, 1 run-time failure, 2 bad arguments.
"""
import math
import sys
import time

import numpy as np
from gnuradio.gpurx import cli

CSV_COLUMNS = ("curve,K,polys,termination,puncture,rate,input,implementation,backend,frame_bits,"
               "ebn0_db,esn0_db,frames,frame_errors,bits,bit_errors,ber,ber_stderr,fer")
BATCH_FRAMES = 256  # frames per flowgraph run: ~0.5 Mbit, a fraction of a second


def reverse_bits(x, k):
    """A polynomial in the standards' order (MSB taps the current bit) in
    gr-fec's order (LSB taps the current bit), and back."""
    return int(format(x, "0%db" % k)[::-1], 2)


def parse_args(argv):
    ap = cli.parser(__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("--K", type=int, default=7)
    ap.add_argument("--polys", default="133,171", help="octal, the standards' order")
    ap.add_argument("--termination", default="terminated",
                    choices=["terminated", "truncated", "tail-biting"])
    ap.add_argument("--puncture", default="none", help='only "none" (gr-fec: no puncturing here)')
    ap.add_argument("--frame-bits", type=cli.positive_int, default=2048)
    ap.add_argument("--ebn0", default="0:6:0.5", help="start:stop:step in dB")
    ap.add_argument("--min-frame-errors", type=cli.positive_int, default=100)
    ap.add_argument("--max-frames", type=cli.positive_int, default=100000)
    ap.add_argument("--keep-going", action="store_true")
    ap.add_argument("--charge-tail", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv", default="")
    ap.add_argument("--label", default="gr-fec cc_decoder")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    try:
        polys = [int(p, 8) for p in a.polys.split(",")]
    except ValueError:
        ap.error("--polys wants octal polynomials such as 133,171, got %r" % a.polys)
    if a.K != 7 or len(polys) != 2:
        ap.error("gr-fec's cc_decoder decodes K=7 rate 1/2 codes only, got --K %d with %d polynomials"
                 % (a.K, len(polys)))
    if any(p <= 0 or p >= 1 << a.K for p in polys):
        ap.error("--polys: each polynomial must be in 1..%o for K=%d, got %r" % ((1 << a.K) - 1, a.K, a.polys))
    if a.puncture not in ("none", "11"):
        ap.error("--puncture: this comparison runs unpunctured codes only, got %r" % a.puncture)
    if a.frame_bits < 1:
        ap.error("--frame-bits must be positive, got %d" % a.frame_bits)
    try:
        e0, e1, step = (float(x) for x in a.ebn0.split(":"))
    except ValueError:
        ap.error("--ebn0 wants start:stop:step in dB, got %r" % a.ebn0)
    if step <= 0 or e1 < e0:
        ap.error("--ebn0 wants start <= stop and step > 0, got %r" % a.ebn0)
    if a.min_frame_errors < 1 or a.max_frames < 1:
        ap.error("--min-frame-errors and --max-frames must be positive")
    a.grfec_polys = [reverse_bits(p, a.K) for p in polys]
    a.points = [e0 + i * step for i in range(int(math.floor((e1 - e0) / step + 1e-9)) + 1)]
    return a


class grfec_link:
    """One flowgraph per batch of frames: encoder, BPSK, noise, decoder."""

    def __init__(self, a):
        from gnuradio import fec
        self.a = a
        self.mode = {"terminated": fec.CC_TERMINATED, "truncated": fec.CC_TRUNCATED,
                     "tail-biting": fec.CC_TAILBITING}[a.termination]
        tail = a.K - 1 if a.termination == "terminated" else 0
        self.coded_per_frame = 2 * (a.frame_bits + tail)
        self.rate = a.frame_bits / self.coded_per_frame if a.charge_tail else 0.5

    def run(self, bits, sigma, seed):
        from gnuradio import analog, blocks, fec, gr
        a = self.a
        enc = fec.cc_encoder_make(a.frame_bits, a.K, 2, a.grfec_polys, 0, self.mode)
        dec = fec.cc_decoder.make(a.frame_bits, a.K, 2, a.grfec_polys, 0, -1, self.mode)
        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist(), False)
        e = fec.extended_encoder(enc, None, "11")
        to_f = blocks.char_to_float(1, 0.5)           # 0/1 -> 0/2
        bpsk = blocks.add_const_ff(-1.0)               # -> -1/+1: bit 1 -> +1
        noise = analog.noise_source_f(analog.GR_GAUSSIAN, sigma, seed)
        add = blocks.add_ff()
        d = fec.extended_decoder(dec, threading=None, ann=None, puncpat="11", integration_period=10000)
        snk = blocks.vector_sink_b()
        tb.connect(src, e, to_f, bpsk, (add, 0))
        tb.connect(noise, (add, 1))
        tb.connect(add, d, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.uint8)


def run_point(a, link, ebn0, point_index):
    esn0 = ebn0 + 10 * math.log10(link.rate)
    sigma = math.sqrt(1.0 / (2 * 10 ** (esn0 / 10)))   # N0/2 with Es = 1
    rng = np.random.default_rng([a.seed, point_index])
    frames = ferr = berr = 0
    sumsq = 0.0
    t0 = time.time()
    batch = 0
    while ferr < a.min_frame_errors and frames < a.max_frames:
        n = min(BATCH_FRAMES, a.max_frames - frames)
        bits = rng.integers(0, 2, n * a.frame_bits).astype(np.uint8)
        out = link.run(bits, sigma, (a.seed * 1000003 + point_index * 7919 + batch) % (1 << 31))
        batch += 1
        if out.size < bits.size:
            raise RuntimeError("gr-fec returned %d of %d bits" % (out.size, bits.size))
        e = np.count_nonzero((out[:bits.size] != bits).reshape(n, a.frame_bits), axis=1)
        frames += n
        ferr += int(np.count_nonzero(e))
        berr += int(e.sum())
        sumsq += float(np.sum(e.astype(np.float64) ** 2))
        if not a.quiet:
            secs = time.time() - t0
            sys.stderr.write("\r  %-22s Eb/N0 %5.2f dB  frames %9d  frame errors %6d  BER %.2e  %6.2f Mbit/s   "
                             % (a.label, ebn0, frames, ferr, berr / (frames * a.frame_bits),
                                frames * a.frame_bits / max(secs, 1e-9) / 1e6))
    if not a.quiet:
        sys.stderr.write("\n")
    nbits = frames * a.frame_bits
    ber = berr / nbits
    # Standard error over frames: errors come in bursts within a frame.
    if frames > 1:
        mean = berr / frames
        var = max(sumsq / frames - mean * mean, 0.0) * frames / (frames - 1)
        se = math.sqrt(var / frames) / a.frame_bits
    else:
        se = float("nan")
    return dict(ebn0=ebn0, esn0=esn0, frames=frames, ferr=ferr, bits=nbits, berr=berr, ber=ber, se=se,
                fer=ferr / frames)


def main(argv):
    a = parse_args(argv)
    try:
        out = open(a.csv, "w") if a.csv else None
    except OSError as e:
        sys.stderr.write("gpurx_viterbi_ber_grfec.py: --csv: cannot write %r: %s\n" % (a.csv, e.strerror))
        return 1
    try:
        link = grfec_link(a)
    except ImportError as e:
        sys.stderr.write("gpurx_viterbi_ber_grfec.py: GNU Radio's gr-fec is needed (%s); run this with "
                         "GNU Radio's Python (/usr/bin/python3 on Debian)\n" % e)
        return 1
    if out:
        out.write(CSV_COLUMNS + "\n")
    print("| Eb/N0 (dB) | BER | BER std. error | FER | frame errors | bit errors | bits |")
    print("|---|---|---|---|---|---|---|")
    for i, ebn0 in enumerate(a.points):
        p = run_point(a, link, ebn0, i)
        print("| %.2f | %.3e | %.1e | %.3e | %d | %d | %d |"
              % (ebn0, p["ber"], p["se"], p["fer"], p["ferr"], p["berr"], p["bits"]))
        sys.stdout.flush()
        if out:
            out.write("%s,%d,%s,%s,none,%.6f,soft,gr-fec cc_decoder,cpu,%d,%.3f,%.4f,%d,%d,%d,%d,%.6e,%.3e,%.6e\n"
                      % (a.label, a.K, a.polys.replace(",", " "), a.termination, link.rate, a.frame_bits,
                         ebn0, p["esn0"], p["frames"], p["ferr"], p["bits"], p["berr"], p["ber"], p["se"],
                         p["fer"]))
            out.flush()
        if p["berr"] == 0 and not a.keep_going and i + 1 < len(a.points):
            sys.stderr.write("  Eb/N0 %.2f dB: no errors in %d bits (BER < %.1e at 95%%); the sweep stops here, "
                             "points above %.2f dB are not run (--keep-going runs them)\n"
                             % (ebn0, p["bits"], 3.0 / p["bits"], ebn0))
            break
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
