#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the Python benchmarks check before they print a figure (bench_checks.h
is the same for the C++ ones):

1. Their frames decoded: every frame came out, and the frames sampled from the
   output (sampled(): one in SAMPLE_EVERY, a prime, so they cycle through the
   distinct frames of a repeating source) carry the transmitted bits, within
   a stated bit error rate (check_frames()). The blocks reject only frames
   with non-finite values (zeros out, tagged gpurx_error): the sources are
   checked finite (check_finite()), and a rejected frame among the sampled
   ones would fail the bit check.
2. The figure is not above its physical bound (check_bound()): through a GPU,
   PCIe for the bytes each frame moves (descriptor, parameters and aligned
   input in; result and aligned output out) at a stated link rate
   (--pcie-gbs: the pinned rate bench_pipeline measures; on the H100 host 55
   GB/s each way, 97 GB/s both at once, docs/benchmarks.md); on the CPU, the
   hardware threads' vector issue (256 bytes of lanes per clock at the highest
   clock) for the lane bytes a bit needs at least.

A failed check prints "error: ..." on stderr naming the figure and its bound
(or the frames) and exits with status 1; the figure is not printed.
"""
import glob
import os
import sys

import numpy as np

SAMPLE_EVERY = 61
BOUND_MARGIN = 0.05  # measured link rates and timers are good to a few percent
FRAME_DESC_BYTES = 24  # pipeline/frame.h


def fail(what):
    sys.stdout.flush()
    sys.stderr.write("error: %s\n" % what)
    sys.exit(1)


def check_bound(figure, value, bound, unit, why):
    """value when it is a finite number not above bound (plus BOUND_MARGIN); else fail."""
    if not np.isfinite(value) or value < 0:
        fail("%s: the measurement gave %r %s, not a figure" % (figure, value, unit))
    if not (bound > 0 and np.isfinite(bound)):
        fail("%s: no bound to check %.4g %s against (%s)" % (figure, value, unit, why))
    if value > bound * (1 + BOUND_MARGIN):
        fail("%s = %.4g %s is above its physical bound %.4g %s (%s), %.3g times it: not printed as a result"
             % (figure, value, unit, bound, unit, why, value / bound))
    return value


def align16(n):
    return (n + 15) & ~15


def pcie_bound_gbps(bits, in_bytes, out_bytes, param_bytes, result_bytes, each_way_gbs, both_gbs):
    """Gbit/s of frames of `bits` bits through the pipeline's PCIe copies."""
    h2d = FRAME_DESC_BYTES + param_bytes + align16(in_bytes)
    d2h = result_bytes + align16(out_bytes)
    ns = max(h2d / each_way_gbs, d2h / each_way_gbs, (h2d + d2h) / both_gbs)
    why = ("PCIe: %d B in and %d B out per frame at %.3g GB/s each way, %.3g GB/s both at once (--pcie-gbs)"
           % (h2d, d2h, each_way_gbs, both_gbs))
    return bits / ns, why


def cpu_limits():
    """(hardware threads, highest clock in GHz, where the clock comes from)."""
    threads = os.cpu_count() or 1
    khz = 0.0
    for f in glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/cpuinfo_max_freq"):
        try:
            with open(f) as fh:
                khz = max(khz, float(fh.read().strip()))
        except (OSError, ValueError):
            pass
    if khz > 0:
        return threads, khz * 1e-6, "cpuinfo_max_freq"
    return threads, 6.5, "no cpufreq: 6.5 GHz, above any shipping core"


def cpu_bound_gbps(threads, lane_bytes_per_bit):
    """Gbit/s that `threads` threads (0: all) can reach at most when a bit
    takes at least lane_bytes_per_bit bytes of vector lanes."""
    have, ghz, src = cpu_limits()
    t = min(threads or have, have)
    return t * ghz * 256.0 / lane_bytes_per_bit, ("CPU: %d threads x 256 lane bytes per clock x %.3g GHz (%s), at "
                                                  "least %.4g lane bytes per bit" % (t, ghz, src, lane_bytes_per_bit))


def sampled(blocks, itemsize, m=1, offset=0):
    """A keep_m_in_n that passes m items in SAMPLE_EVERY * m (from `offset`),
    without carrying tags (which would cost it time for every frame)."""
    from gnuradio import gr
    k = blocks.keep_m_in_n(itemsize, m, SAMPLE_EVERY * m, offset)
    k.set_tag_propagation_policy(gr.TPP_DONT)
    return k


def check_frames(what, got, sent, first=0, max_ber=0.0, expected_count=None):
    """got: the sampled frames out (rows, uint8 bits); sent: the distinct
    frames' transmitted bits (rows), repeated by the source; frame i of the
    sample is frame first + i * SAMPLE_EVERY of the stream. Fails unless
    expected_count frames were sampled (when given) and their bit errors
    stay at most max_ber of the bits. Returns a summary."""
    got = np.asarray(got, dtype=np.uint8)
    if expected_count is not None and got.shape[0] != expected_count:
        fail("%s: %d frames sampled from the output, %d expected: frames lost, no figure"
             % (what, got.shape[0], expected_count))
    if got.shape[0] == 0:
        fail("%s: no frame sampled from the output: no figure" % what)
    idx = (first + np.arange(got.shape[0]) * SAMPLE_EVERY) % len(sent)
    want = np.asarray(sent, dtype=np.uint8)[idx]
    if got.shape != want.shape:
        fail("%s: frames of %s bits out, %s expected: no figure" % (what, got.shape[1:], want.shape[1:]))
    errors = int(np.count_nonzero(got != (want != 0)))
    frames_wrong = int(np.count_nonzero(np.any(got != (want != 0), axis=1)))
    bits = got.size
    if errors > max_ber * bits:
        fail("%s: %d bit errors in %d sampled frames (%d bits; %d frames wrong), more than %.3g of the bits: "
             "no figure" % (what, errors, got.shape[0], bits, frames_wrong, max_ber))
    return "%d frames sampled, %d bit errors in %d bits" % (got.shape[0], errors, bits)


def check_finite(what, values):
    """The blocks reject a frame only when an input value is not finite (its
    output is then zeros, tagged gpurx_error): fails when one is."""
    if not np.all(np.isfinite(np.asarray(values, dtype=np.float64))):
        fail("%s: the source holds values that are not finite: frames would be rejected" % what)
