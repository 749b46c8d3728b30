#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The MIMO blocks: qam_mapper, qam_demapper, mimo_channel and mimo_detector
(stream, tagged stream, PDU), on the backend named by GPURX_TEST_BACKEND.

References are written here, independently of lib/mimo: the 36.211 7.1
constellations from their closed forms, and an exhaustive max-log detector
(every candidate vector) in numpy. LLRs: L = ln P(b=1)/P(b=0), positive for
bit 1; per vector antenna 0's bits first, b(0) first.
"""
import itertools
import sys
import threading
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import (BACKEND, gated_source, options, pmt_int, require_backend_or_skip, run_with_timeout,
                        tags_named, wait_for)

require_backend_or_skip()

BPS = {"qpsk": 2, "16qam": 4, "64qam": 6, "256qam": 8}
RUN_TIMEOUT_S = 60


def constellation(mod):
    """points[index], index = the bits with b(0) most significant (36.211 7.1)."""
    bps = BPS[mod]
    pts = []
    for idx in range(1 << bps):
        b = [(idx >> (bps - 1 - i)) & 1 for i in range(bps)]
        s = [1 - 2 * x for x in b]  # +1 for bit 0
        if mod == "qpsk":
            re, im, norm = s[0], s[1], np.sqrt(2)
        elif mod == "16qam":
            re, im, norm = s[0] * (2 - s[2]), s[1] * (2 - s[3]), np.sqrt(10)
        elif mod == "64qam":
            re, im, norm = (s[0] * (4 - s[2] * (2 - s[4])), s[1] * (4 - s[3] * (2 - s[5])),
                            np.sqrt(42))
        else:
            re = s[0] * (8 - s[2] * (4 - s[4] * (2 - s[6])))
            im = s[1] * (8 - s[3] * (4 - s[5] * (2 - s[7])))
            norm = np.sqrt(170)
        pts.append(complex(re, im) / norm)
    return np.array(pts)


def bits_of(mod):
    """bits[index, i]: bit b(i) of each point."""
    bps = BPS[mod]
    idx = np.arange(1 << bps)
    return np.array([(idx >> (bps - 1 - i)) & 1 for i in range(bps)]).T


def maxlog_llrs(dist, bits, n0):
    """dist[..., candidate], bits[candidate, i] -> LLRs[..., i]."""
    out = []
    for i in range(bits.shape[1]):
        d0 = np.where(bits[:, i] == 0, dist, np.inf).min(axis=-1)
        d1 = np.where(bits[:, i] == 1, dist, np.inf).min(axis=-1)
        out.append((d0 - d1) / n0)
    return np.stack(out, axis=-1)


def exhaustive_maxlog(H, y, nt, nr, mod, n0, apriori=None):
    """Max-log LLRs of every y vector (rows of y) through H (nr x nt), over all
    Q^nt candidates; with apriori (rows of nt*bps LLRs) the a-posteriori LLRs
    of the metric |y - Hs|^2 / N0 - sum_i b_i La_i."""
    pts, bps = constellation(mod), BPS[mod]
    q = len(pts)
    cands = np.array(list(itertools.product(range(q), repeat=nt)))  # (Q^nt, nt)
    S = pts[cands]                                                    # (C, nt)
    cbits = np.concatenate([bits_of(mod)[cands[:, t]] for t in range(nt)], axis=1)  # (C, nt*bps)
    Hm = np.asarray(H).reshape(nr, nt)
    resid = y[:, None, :] - (S @ Hm.T)[None, :, :]                   # (V, C, nr)
    metric = (np.abs(resid) ** 2).sum(axis=-1) / n0                  # (V, C)
    if apriori is not None:
        metric = metric - apriori @ cbits.T
    return maxlog_llrs(metric, cbits, 1.0)


def cn(rng, *shape):
    return ((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) / np.sqrt(2))


def make_case(rng, nt, nr, mod, channels, vpc, n0):
    """channels of vpc vectors: (H rows (channels, nr*nt), y rows (channels*vpc, nr),
    transmitted bits (channels*vpc, nt*bps))."""
    pts, bps = constellation(mod), BPS[mod]
    H = cn(rng, channels, nr * nt)
    idx = rng.integers(0, len(pts), (channels * vpc, nt))
    s = pts[idx]
    y = np.empty((channels * vpc, nr), dtype=complex)
    for c in range(channels):
        Hm = H[c].reshape(nr, nt)
        sl = slice(c * vpc, (c + 1) * vpc)
        y[sl] = s[sl] @ Hm.T + np.sqrt(n0) * cn(rng, vpc, nr)
    bits = np.concatenate([bits_of(mod)[idx[:, t]] for t in range(nt)], axis=1)
    return H.astype(np.complex64), y.astype(np.complex64), bits


def reference(H, y, nt, nr, mod, n0, vpc, apriori=None):
    out = []
    for c in range(len(H)):
        sl = slice(c * vpc, (c + 1) * vpc)
        out.append(exhaustive_maxlog(H[c].astype(complex), y[sl].astype(complex), nt, nr, mod,
                                     n0, None if apriori is None else apriori[sl]))
    return np.concatenate(out)


def run_detector(det, nt, nr, mod, H, y, vpc, apriori=None, noise=None, y_tags=()):
    """y and H (and a-priori LLRs, N0) through a stream detector: (LLRs as
    (vectors, nt*bps), output tags)."""
    tb = gr.top_block()
    sy = blocks.vector_source_c(y.flatten().tolist(), False, nr, list(y_tags))
    sh = blocks.vector_source_c(H.flatten().tolist(), False, nr * nt)
    snk = blocks.vector_sink_f(nt * BPS[mod])
    tb.connect(sy, (det, 0))
    tb.connect(sh, (det, 1))
    port = 2
    if apriori is not None:
        tb.connect(blocks.vector_source_f(apriori.flatten().tolist(), False, nt * BPS[mod]),
                   (det, port))
        port += 1
    if noise is not None:
        tb.connect(blocks.vector_source_f(list(noise), False), (det, port))
    tb.connect(det, snk)
    run_with_timeout(tb, RUN_TIMEOUT_S)
    return np.array(snk.data(), dtype=np.float32).reshape(-1, nt * BPS[mod]), snk.tags()


def packets(H, y, vpc, apriori=None):
    """The tagged / PDU layout: per channel H, its y's, [a-priori LLRs as pairs]."""
    out = []
    for c in range(len(H)):
        parts = [H[c], y[c * vpc:(c + 1) * vpc].flatten()]
        if apriori is not None:
            a = apriori[c * vpc:(c + 1) * vpc].flatten().astype(np.float32)
            parts.append(a.view(np.complex64))
        out.append(np.concatenate(parts).astype(np.complex64))
    return out


class qa_mimo(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    # ---- mapper / demapper -----------------------------------------------
    def test_001_mapper_matches_36211_table(self):
        for mod, bps in BPS.items():
            n = 64 * (1 << bps) // bps
            bits = self.rng.integers(0, 2, n * bps).astype(np.uint8)
            tb = gr.top_block()
            snk = blocks.vector_sink_c()
            m = gpurx.qam_mapper(mod)
            self.assertEqual(m.bits_per_symbol(), bps)
            tb.connect(blocks.vector_source_b(bits.tolist(), False), m, snk)
            tb.run()
            idx = bits.reshape(-1, bps) @ (1 << np.arange(bps - 1, -1, -1))
            np.testing.assert_allclose(np.array(snk.data()), constellation(mod)[idx],
                                       atol=1e-6, err_msg=mod)
            # Unit average energy over the constellation.
            self.assertAlmostEqual(np.mean(np.abs(constellation(mod)) ** 2), 1.0, places=12)

    def test_002_demapper_is_maxlog(self):
        for mod, bps in BPS.items():
            n0 = 0.2
            pts = constellation(mod)
            s = pts[self.rng.integers(0, len(pts), 500)]
            y = (s + np.sqrt(n0) * cn(self.rng, 500) * 2).astype(np.complex64)
            y[:3] = [0, 5 + 5j, -1e9 + 1e9j]  # on a boundary, beyond the edge, far beyond
            tb = gr.top_block()
            d = gpurx.qam_demapper(mod, n0)
            snk = blocks.vector_sink_f()
            tb.connect(blocks.vector_source_c(y.tolist(), False), d, snk)
            tb.run()
            got = np.array(snk.data()).reshape(-1, bps)
            dist = np.abs(y.astype(complex)[:, None] - pts[None, :]) ** 2
            want = maxlog_llrs(dist, bits_of(mod), n0)
            self.assertTrue(np.all(np.isfinite(got)), mod)
            np.testing.assert_allclose(got[:2], want[:2], rtol=1e-4, atol=1e-3, err_msg=mod)
            np.testing.assert_allclose(got[3:], want[3:], rtol=1e-4, atol=1e-3, err_msg=mod)
            self.assertTrue(np.array_equal(got[2] > 0, want[2] > 0), mod + ": far symbol's signs")
            # Hard decisions of the noiseless points are their bits.
            tb = gr.top_block()
            snk = blocks.vector_sink_f()
            tb.connect(blocks.vector_source_c(pts.astype(np.complex64).tolist(), False),
                       gpurx.qam_demapper(mod, 1.0), snk)
            tb.run()
            hard = (np.array(snk.data()).reshape(-1, bps) > 0).astype(int)
            np.testing.assert_array_equal(hard, bits_of(mod), err_msg=mod)

    def test_003_demapper_errors(self):
        # The floor and ceiling keep every LLR finite: 1e-45 made y = 0 NaN.
        for bad in (0.0, -1.0, float("nan"), float("inf"), 1e-45, 1e-21, 1e21):
            with self.assertRaises(ValueError) as ctx:
                gpurx.qam_demapper("qpsk", bad)
            self.assertIn("noise_var", str(ctx.exception))
            d = gpurx.qam_demapper("qpsk", 1.0)
            with self.assertRaises(ValueError) as ctx:
                d.set_noise_var(bad)
            self.assertIn("noise_var", str(ctx.exception))
        self.assertIn("1e-21", self.demapper_error(1e-21))
        with self.assertRaises(ValueError) as ctx:
            gpurx.qam_mapper("8psk")
        self.assertIn("modulation", str(ctx.exception))
        self.assertIn("8psk", str(ctx.exception))

    def test_001b_mapper_takes_the_low_bit_of_non_bit_bytes_and_tags_them(self):
        bits = self.rng.integers(0, 2, 8 * 4).astype(np.uint8)
        dirty = bits.copy()
        dirty[[8, 9, 13, 24]] += np.array([2, 254, 4, 2], dtype=np.uint8)  # symbols 2, 3, 6
        tb = gr.top_block()
        snk = blocks.vector_sink_c()
        tb.connect(blocks.vector_source_b(dirty.tolist(), False), gpurx.qam_mapper("16qam"), snk)
        tb.run()
        idx = bits.reshape(-1, 4) @ (1 << np.arange(3, -1, -1))
        np.testing.assert_allclose(np.array(snk.data()), constellation("16qam")[idx], atol=1e-6)
        # One tag per run of such symbols (2-3, then 6), on its first symbol.
        self.assertEqual([t.offset for t in tags_named(snk.tags(), "gpurx_error")], [2, 6])

    def demapper_error(self, n0):
        try:
            gpurx.qam_demapper("16qam", n0)
        except ValueError as e:
            return str(e)
        return ""

    def test_004_demapper_finite_at_the_floor_and_reports_nonfinite_input(self):
        for mod, bps in BPS.items():
            y = np.array([0, 1 + 1j, complex("nan"), complex("inf"), 1e30, 0.5j, complex(0, float("nan")),
                          -1], dtype=np.complex64)
            tb = gr.top_block()
            snk = blocks.vector_sink_f()
            tb.connect(blocks.vector_source_c(y.tolist(), False), gpurx.qam_demapper(mod, 1e-20), snk)
            tb.run()
            got = np.array(snk.data()).reshape(-1, bps)
            self.assertTrue(np.all(np.isfinite(got)), mod)
            self.assertFalse(got[[2, 3, 6]].any(), mod + ": NaN/Inf symbols' LLRs are 0")
            # One tag per burst of NaN/Inf symbols, on its first LLR.
            errs = tags_named(snk.tags(), "gpurx_error")
            self.assertEqual([t.offset for t in errs], [2 * bps, 6 * bps], mod)
            # Finite symbols keep their hard decisions (0 for the point's bits).
            pts = constellation(mod)
            nearest = np.abs(np.array([1 + 1j, -1])[:, None] - pts[None, :]).argmin(1)
            np.testing.assert_array_equal((got[[1, 7]] > 0).astype(int), bits_of(mod)[nearest],
                                          err_msg=mod)

    # ---- channel ---------------------------------------------------------
    def run_channel(self, nt, nr, s, **kw):
        tb = gr.top_block()
        ch = gpurx.mimo_channel(nt, nr, **kw)
        sy, sh = blocks.vector_sink_c(nr), blocks.vector_sink_c(nr * nt)
        tb.connect(blocks.vector_source_c(s.flatten().tolist(), False, nt), ch)
        tb.connect((ch, 0), sy)
        tb.connect((ch, 1), sh)
        tb.run()
        return (np.array(sy.data()).reshape(-1, nr), np.array(sh.data()).reshape(-1, nr * nt))

    def test_010_channel_holds_H_and_adds_noise(self):
        nt, nr, vpc, n = 2, 3, 5, 2000
        s = cn(self.rng, n, nt).astype(np.complex64)
        y, H = self.run_channel(nt, nr, s, noise_var=0.0, vectors_per_channel=vpc, seed=7)
        self.assertEqual(H.shape[0], n // vpc)
        for c in range(len(H)):
            sl = slice(c * vpc, (c + 1) * vpc)
            np.testing.assert_allclose(y[sl], s[sl] @ H[c].reshape(nr, nt).T, atol=1e-5)
        self.assertAlmostEqual(np.mean(np.abs(H) ** 2), 1.0, delta=0.1)
        # The same seed, the same channel; noise of the variance asked.
        y2, H2 = self.run_channel(nt, nr, s, noise_var=0.5, vectors_per_channel=vpc, seed=7)
        np.testing.assert_array_equal(H2, H)
        self.assertAlmostEqual(np.mean(np.abs(y2 - y) ** 2), 0.5, delta=0.05)
        _, H3 = self.run_channel(nt, nr, s, noise_var=0.0, vectors_per_channel=vpc, seed=8)
        self.assertFalse(np.array_equal(H3, H))

    def test_011_channel_correlation(self):
        nt, nr, n = 2, 2, 20000
        s = np.zeros((n, nt), dtype=np.complex64)
        _, H = self.run_channel(nt, nr, s, noise_var=0.0, tx_correlation=0.8,
                                rx_correlation=0.5, seed=3)
        H = H.reshape(-1, nr, nt)
        tx = np.mean(H[:, :, 0] * np.conj(H[:, :, 1]))
        rx = np.mean(H[:, 0, :] * np.conj(H[:, 1, :]))
        self.assertAlmostEqual(tx.real, 0.8, delta=0.05)
        self.assertAlmostEqual(rx.real, 0.5, delta=0.05)
        self.assertAlmostEqual(np.mean(np.abs(H) ** 2), 1.0, delta=0.05)

    def test_012_channel_errors(self):
        # nr < nt: a channel mimo_detector cannot take.
        for kw, name in ((dict(nt=0, nr=2), "nt"), (dict(nt=2, nr=9), "nr"),
                         (dict(nt=4, nr=2), "nr"),
                         (dict(nt=2, nr=2, noise_var=-1.0), "noise_var"),
                         (dict(nt=2, nr=2, vectors_per_channel=0), "vectors_per_channel"),
                         (dict(nt=2, nr=2, tx_correlation=1.0), "tx_correlation"),
                         (dict(nt=2, nr=2, rx_correlation=-0.1), "rx_correlation")):
            with self.assertRaises(ValueError) as ctx:
                gpurx.mimo_channel(**kw)
            self.assertIn(name, str(ctx.exception), kw)

    # ---- detector --------------------------------------------------------
    def test_020_detector_equals_exhaustive_maxlog(self):
        # ml is the exhaustive search; mtt is exact for nt <= 2.
        for mod in ("qpsk", "16qam"):
            for alg in ("ml", "mtt"):
                nt = nr = 2
                n0, vpc = 0.3, 3
                H, y, _ = make_case(self.rng, nt, nr, mod, 20, vpc, n0)
                det = gpurx.mimo_detector(nt, nr, mod, alg, noise_var=n0, vectors_per_channel=vpc,
                                          options=options(max_batch=8))
                got, tags = run_detector(det, nt, nr, mod, H, y, vpc)
                want = reference(H, y, nt, nr, mod, n0, vpc)
                what = "%s %s" % (mod, alg)
                self.assertEqual(got.shape, want.shape, what)
                np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-3, err_msg=what)
                ranks = tags_named(tags, "rank")
                self.assertEqual([t.offset for t in ranks], list(range(0, len(y), vpc)), what)
                self.assertEqual({pmt_int(t.value) for t in ranks}, {2}, what)

    def test_021_detector_after_channel_and_noise_input(self):
        # mimo_channel -> mimo_detector: H reused over vpc vectors; N0 per
        # channel from the noise input overrides noise_var.
        nt, nr, mod, vpc, n0 = 2, 3, "16qam", 4, 0.2
        pts = constellation(mod)
        s = pts[self.rng.integers(0, len(pts), (40, nt))].astype(np.complex64)
        tb = gr.top_block()
        ch = gpurx.mimo_channel(nt, nr, n0, vpc, seed=11)
        ysnk, hsnk = blocks.vector_sink_c(nr), blocks.vector_sink_c(nr * nt)
        tb.connect(blocks.vector_source_c(s.flatten().tolist(), False, nt), ch)
        tb.connect((ch, 0), ysnk)
        tb.connect((ch, 1), hsnk)
        tb.run()
        y = np.array(ysnk.data(), dtype=np.complex64).reshape(-1, nr)
        H = np.array(hsnk.data(), dtype=np.complex64).reshape(-1, nr * nt)
        want = reference(H, y, nt, nr, mod, n0, vpc)
        det = gpurx.mimo_detector(nt, nr, mod, "ml", noise_var=5.0, noise_input=True,
                                  vectors_per_channel=vpc, options=options())
        got, _ = run_detector(det, nt, nr, mod, H, y, vpc, noise=[n0] * len(H))
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-3)
        # At this SNR most hard decisions are right.
        bits = np.concatenate([bits_of(mod)[np.abs(s[:, t, None] - pts[None]).argmin(1)]
                               for t in range(nt)], axis=1)
        self.assertGreater(np.mean((got > 0) == bits), 0.9)

    def test_022_bad_channels_tagged_neighbours_intact(self):
        nt = nr = 2
        mod, n0, vpc, channels = "qpsk", 0.5, 2, 8
        H, y, _ = make_case(self.rng, nt, nr, mod, channels, vpc, n0)
        want = reference(H, y, nt, nr, mod, n0, vpc)
        noise = np.full(channels, n0, dtype=np.float32)
        H[1, 2] = np.nan                   # channel 1: NaN in H
        y[2 * vpc + 1, 0] = np.inf         # channel 2: Inf in a y
        noise[4] = 0.0                     # channel 4: N0 = 0
        noise[5] = -1.0                    # channel 5: N0 < 0
        noise[6] = np.nan                  # channel 6: N0 NaN
        bad = {1: "H[", 2: "received vector 1", 4: "noise_var", 5: "noise_var", 6: "noise_var"}
        det = gpurx.mimo_detector(nt, nr, mod, "ml", noise_var=n0, noise_input=True,
                                  vectors_per_channel=vpc, options=options(max_batch=3))
        got, tags = run_detector(det, nt, nr, mod, H, y, vpc, noise=noise)
        self.assertEqual(got.shape, want.shape)
        errs = tags_named(tags, "gpurx_error")
        self.assertEqual([t.offset for t in errs], [c * vpc for c in sorted(bad)])
        for t, c in zip(errs, sorted(bad)):
            self.assertIn(bad[c], pmt.symbol_to_string(t.value))
        for c in range(channels):
            sl = slice(c * vpc, (c + 1) * vpc)
            if c in bad:
                self.assertFalse(got[sl].any(), "channel %d: not zeros" % c)
            else:
                np.testing.assert_allclose(got[sl], want[sl], rtol=2e-4, atol=2e-3,
                                           err_msg="channel %d" % c)

    def test_022b_llrs_finite_for_extreme_n0_and_magnitudes(self):
        # N0 = 1e-45 used to give -Inf (ml, mtt, lmmse); H and y scaled by
        # 1e19 too. Now such a channel is refused and reported, every LLR is
        # finite, and its neighbours are detected.
        nt = nr = 2
        mod, n0, vpc, channels = "qpsk", 0.5, 2, 6
        H, y, _ = make_case(self.rng, nt, nr, mod, channels, vpc, n0)
        want = reference(H, y, nt, nr, mod, n0, vpc)
        noise = np.full(channels, n0, dtype=np.float32)
        noise[1] = 1e-45                   # below the floor
        noise[2] = 1e21                    # above the ceiling
        H[3] *= np.float32(1e19)           # metrics beyond float's range
        y[3 * vpc:4 * vpc] *= np.float32(1e19)
        y[4 * vpc] *= np.float32(1e19)     # one y vector alone
        bad = {1: "noise_var", 2: "noise_var", 3: "float's range", 4: "float's range"}
        for alg in ("ml", "mtt", "lmmse", "kbest", "one-pass"):
            det = gpurx.mimo_detector(nt, nr, mod, alg, noise_var=n0, noise_input=True,
                                      vectors_per_channel=vpc, options=options(max_batch=4))
            got, tags = run_detector(det, nt, nr, mod, H, y, vpc, noise=noise)
            self.assertTrue(np.all(np.isfinite(got)), alg)
            errs = tags_named(tags, "gpurx_error")
            self.assertEqual([t.offset for t in errs], [c * vpc for c in sorted(bad)], alg)
            for t, c in zip(errs, sorted(bad)):
                self.assertIn(bad[c], pmt.symbol_to_string(t.value), alg)
            for c in sorted(bad):
                self.assertFalse(got[c * vpc:(c + 1) * vpc].any(), "%s channel %d" % (alg, c))
            if alg == "ml":
                for c in set(range(channels)) - set(bad):
                    sl = slice(c * vpc, (c + 1) * vpc)
                    np.testing.assert_allclose(got[sl], want[sl], rtol=2e-4, atol=2e-3)
        # Large but representable: H and y x 1e6 with N0 x 1e12 are the same
        # LLRs (the metrics scale with N0), and are detected, not refused.
        c = 1e6
        det = gpurx.mimo_detector(nt, nr, mod, "ml", noise_var=n0 * c * c, vectors_per_channel=vpc,
                                  options=options())
        got, tags = run_detector(det, nt, nr, mod, (H[:1] * c).astype(np.complex64),
                                 (y[:vpc] * c).astype(np.complex64), vpc)
        self.assertEqual(tags_named(tags, "gpurx_error"), [])
        np.testing.assert_allclose(got, want[:vpc], rtol=1e-3, atol=2e-3)
        # The same through the tagged and PDU forms (N0 from noise_var).
        Hb, yb = H[3:4], y[3 * vpc:4 * vpc]
        pkt = packets(Hb, yb, vpc)[0]
        tb = gr.top_block()
        pdu = gpurx.mimo_detector_pdu(nt, nr, mod, "mtt", noise_var=n0, options=options())
        dbg, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(pdu, "pdus", dbg, "store")
        tb.msg_connect(pdu, "errors", err, "store")
        tb.start()
        pdu.to_basic_block()._post(pmt.intern("pdus"),
                                   pmt.cons(pmt.make_dict(), pmt.init_c32vector(len(pkt), pkt.tolist())))
        wait_for(lambda: err.num_messages() >= 1, 5)
        tb.stop()
        tb.wait()
        self.assertEqual((dbg.num_messages(), err.num_messages()), (0, 1))
        reason = pmt.dict_ref(err.get_message(0), pmt.intern("reason"), pmt.PMT_NIL)
        self.assertIn("float's range", pmt.symbol_to_string(reason))

    def test_023_rank_deficient_channel(self):
        nt = nr = 2
        mod, n0, vpc = "16qam", 0.1, 2
        H, y, _ = make_case(self.rng, nt, nr, mod, 3, vpc, n0)
        H[1] = np.array([1, 1, 0.5, 0.5], dtype=np.complex64)  # equal columns: rank 1
        for alg in ("ml", "mtt", "kbest", "lmmse"):
            det = gpurx.mimo_detector(nt, nr, mod, alg, noise_var=n0, vectors_per_channel=vpc,
                                      options=options())
            got, tags = run_detector(det, nt, nr, mod, H, y, vpc)
            self.assertTrue(np.all(np.isfinite(got)), alg)
            deficient = tags_named(tags, "rank_deficient")
            self.assertEqual([t.offset for t in deficient], [vpc], alg)
            ranks = {t.offset: pmt_int(t.value) for t in tags_named(tags, "rank")}
            self.assertEqual(ranks, {0: 2, vpc: 1, 2 * vpc: 2}, alg)
            self.assertEqual(tags_named(tags, "gpurx_error"), [], alg)

    def test_023b_rank_tags_off_tags_only_deficient_channels(self):
        # rank_tags=False: the same LLRs, and tags only where H is below
        # full rank (one "rank" and one "rank_deficient", at that channel).
        nt = nr = 2
        mod, n0, vpc = "16qam", 0.1, 2
        H, y, _ = make_case(self.rng, nt, nr, mod, 3, vpc, n0)
        H[1] = np.array([1, 1, 0.5, 0.5], dtype=np.complex64)  # equal columns: rank 1
        for alg in ("mtt", "lmmse"):
            full, _ = run_detector(gpurx.mimo_detector(nt, nr, mod, alg, noise_var=n0, vectors_per_channel=vpc,
                                                       options=options()), nt, nr, mod, H, y, vpc)
            det = gpurx.mimo_detector(nt, nr, mod, alg, noise_var=n0, vectors_per_channel=vpc,
                                      options=options(), rank_tags=False)
            got, tags = run_detector(det, nt, nr, mod, H, y, vpc)
            np.testing.assert_array_equal(got, full, alg)
            self.assertEqual([(t.offset, pmt_int(t.value)) for t in tags_named(tags, "rank")], [(vpc, 1)], alg)
            self.assertEqual([t.offset for t in tags_named(tags, "rank_deficient")], [vpc], alg)

    def test_024_tagged_and_pdu_equal_stream(self):
        nt = nr = 2
        mod, n0, vpc, channels = "16qam", 0.25, 3, 12
        H, y, _ = make_case(self.rng, nt, nr, mod, channels, vpc, n0)
        kw = dict(noise_var=n0)
        stream, _ = run_detector(gpurx.mimo_detector(nt, nr, mod, "mtt", vectors_per_channel=vpc,
                                                     options=options(max_batch=5), **kw),
                                 nt, nr, mod, H, y, vpc)
        pk = packets(H, y, vpc)
        # Tagged.
        tags, off = [], 0
        for p in pk:
            tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"),
                                                    pmt.from_long(len(p)))))
            off += len(p)
        tb = gr.top_block()
        tdet = gpurx.mimo_detector_tagged(nt, nr, mod, "mtt", options=options(max_batch=5), **kw)
        snk = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_c(np.concatenate(pk).tolist(), False, 1, tags), tdet, snk)
        run_with_timeout(tb, RUN_TIMEOUT_S)
        tagged = np.array(snk.data(), dtype=np.float32).reshape(-1, nt * BPS[mod])
        np.testing.assert_array_equal(tagged, stream)
        lens = tags_named(snk.tags(), "packet_len")
        self.assertEqual([pmt_int(t.value) for t in lens], [vpc * nt * BPS[mod]] * channels)
        # PDU.
        pdet = gpurx.mimo_detector_pdu(nt, nr, mod, "mtt", options=options(max_batch=5), **kw)
        tb = gr.top_block()
        dbg, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(pdet, "pdus", dbg, "store")
        tb.msg_connect(pdet, "errors", err, "store")
        for i, p in enumerate(pk):
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(i))
            pdet.to_basic_block()._post(pmt.intern("pdus"),
                                        pmt.cons(meta, pmt.init_c32vector(len(p), p.tolist())))
        tb.start()
        try:
            wait_for(lambda: dbg.num_messages() >= channels, 20)
        finally:
            tb.stop()
            tb.wait()
        self.assertEqual(dbg.num_messages(), channels)
        self.assertEqual(err.num_messages(), 0)
        for i in range(channels):
            m = dbg.get_message(i)
            self.assertEqual(pmt.to_long(pmt.dict_ref(pmt.car(m), pmt.intern("seq"), pmt.PMT_NIL)), i)
            self.assertEqual(pmt_int(pmt.dict_ref(pmt.car(m), pmt.intern("rank"), pmt.PMT_NIL)), 2)
            np.testing.assert_array_equal(np.array(pmt.f32vector_elements(pmt.cdr(m)), dtype=np.float32),
                                          stream[i * vpc:(i + 1) * vpc].flatten())

    def test_025_packets_of_any_vector_count(self):
        # Tagged packets with different numbers of vectors per channel, and
        # a packet that fits no frame between them.
        nt, nr, mod, n0 = 2, 2, "qpsk", 0.4
        counts = [1, 5, 2, 7]
        pk, wants, segs, tags, off = [], [], [], [], 0
        for i, v in enumerate(counts):
            H, y, _ = make_case(self.rng, nt, nr, mod, 1, v, n0)
            wants.append(reference(H, y, nt, nr, mod, n0, v))
            p = packets(H, y, v)[0]
            tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"),
                                                    pmt.from_long(len(p)))))
            segs.append(p)
            off += len(p)
            if i == 1:
                junk = np.ones(nr * nt + 1, dtype=np.complex64)  # H and half a vector
                tags.append(gr.tag_utils.python_to_tag((off, pmt.intern("packet_len"),
                                                        pmt.from_long(len(junk)))))
                segs.append(junk)
                off += len(junk)
        tb = gr.top_block()
        det = gpurx.mimo_detector_tagged(nt, nr, mod, "ml", noise_var=n0, max_vectors=8,
                                         options=options())
        snk, err = blocks.vector_sink_f(), blocks.message_debug()
        tb.connect(blocks.vector_source_c(np.concatenate(segs).tolist(), False, 1, tags), det, snk)
        tb.msg_connect(det, "errors", err, "store")
        run_with_timeout(tb, RUN_TIMEOUT_S)
        np.testing.assert_allclose(np.array(snk.data()), np.concatenate(wants).flatten(),
                                   rtol=2e-4, atol=2e-3)
        wait_for(lambda: err.num_messages() >= 1, 5)
        self.assertEqual(err.num_messages(), 1)

    def test_026_end_of_stream_loses_nothing(self):
        nt = nr = 2
        mod, n0, vpc = "qpsk", 0.5, 2
        for channels in (1, 7, 70):
            H, y, _ = make_case(self.rng, nt, nr, mod, channels, vpc, n0)
            det = gpurx.mimo_detector(nt, nr, mod, "mtt", noise_var=n0, vectors_per_channel=vpc,
                                      options=options(max_batch=64, flush_us=10_000_000))
            tb = gr.top_block()
            sy = blocks.vector_source_c(y.flatten().tolist(), False, nr)
            sh = blocks.vector_source_c(H.flatten().tolist(), False, nr * nt)
            snk = blocks.vector_sink_f(nt * BPS[mod])
            tb.connect(sy, (det, 0))
            tb.connect(sh, (det, 1))
            tb.connect(det, snk)
            dt = run_with_timeout(tb, RUN_TIMEOUT_S)
            self.assertLess(dt, 3.0, "%d channels: waited for the flush" % channels)
            got = np.array(snk.data(), dtype=np.float32).reshape(-1, nt * BPS[mod])
            np.testing.assert_allclose(got, reference(H, y, nt, nr, mod, n0, vpc),
                                       rtol=2e-4, atol=2e-3)
        # The stream ends inside a channel: its items are not detected, the
        # stream still ends, and the block says how many items it dropped.
        vpc = 4
        H, y, _ = make_case(self.rng, nt, nr, mod, 2, vpc, n0)
        want = reference(H, y, nt, nr, mod, n0, vpc)
        for n_h, n_y, dropped in ((2, 7, [3, 1]), (1, 7, [3, 0]), (2, 3, [3, 2]), (0, 2, [2, 0])):
            det = gpurx.mimo_detector(nt, nr, mod, noise_var=n0, vectors_per_channel=vpc,
                                      options=options())
            tb = gr.top_block()
            snk = blocks.vector_sink_f(nt * BPS[mod])
            dbg = blocks.message_debug()
            tb.connect(blocks.vector_source_c(y[:n_y].flatten().tolist(), False, nr), (det, 0))
            tb.connect(blocks.vector_source_c(H[:n_h].flatten().tolist(), False, nr * nt), (det, 1))
            tb.connect(det, snk)
            tb.msg_connect(det, "errors", dbg, "store")
            run_with_timeout(tb, RUN_TIMEOUT_S)
            what = "%d H, %d y at %d y per H" % (n_h, n_y, vpc)
            got = np.array(snk.data(), dtype=np.float32).reshape(-1, nt * BPS[mod])
            whole = min(n_h, n_y // vpc)
            np.testing.assert_allclose(got, want[:whole * vpc], rtol=2e-4, atol=2e-3, err_msg=what)
            self.assertEqual(dbg.num_messages(), 1, what + ": the cut channel was not reported")
            m = dbg.get_message(0)
            self.assertEqual(list(pmt.s64vector_elements(pmt.dict_ref(m, pmt.intern("dropped"),
                                                                     pmt.PMT_NIL))), dropped, what)
            self.assertEqual(pmt_int(pmt.dict_ref(m, pmt.intern("offset"), pmt.PMT_NIL)),
                             whole * vpc, what)

    def test_027_stream_tags_of_y_follow_their_vectors(self):
        nt = nr = 2
        mod, n0, vpc = "qpsk", 0.5, 3
        H, y, _ = make_case(self.rng, nt, nr, mod, 4, vpc, n0)
        ytags = [gr.tag_utils.python_to_tag((o, pmt.intern("mark"), pmt.from_long(o)))
                 for o in (0, 4, 11)]
        _, tags = run_detector(gpurx.mimo_detector(nt, nr, mod, noise_var=n0, vectors_per_channel=vpc,
                                                   options=options(max_batch=2)),
                               nt, nr, mod, H, y, vpc, y_tags=ytags)
        self.assertEqual([(t.offset, pmt_int(t.value)) for t in tags_named(tags, "mark")],
                         [(0, 0), (4, 4), (11, 11)])

    def test_028_apriori_and_extrinsic(self):
        nt = nr = 2
        mod, n0, vpc = "qpsk", 0.5, 2
        try:
            gpurx.mimo_detector(nt, nr, mod, "ml", apriori=True, options=options())
        except ValueError as e:
            self.assertIn("apriori", str(e))
            self.skipTest("this build's detectors take no a-priori LLRs: %s" % e)
        H, y, _ = make_case(self.rng, nt, nr, mod, 6, vpc, n0)
        la = (self.rng.standard_normal((len(y), nt * BPS[mod])) * 2).astype(np.float32)
        want = reference(H, y, nt, nr, mod, n0, vpc, apriori=la.astype(float))
        for output, expect in (("aposteriori", want), ("extrinsic", want - la)):
            det = gpurx.mimo_detector(nt, nr, mod, "ml", noise_var=n0, vectors_per_channel=vpc,
                                      apriori=True, output=output, options=options())
            got, _ = run_detector(det, nt, nr, mod, H, y, vpc, apriori=la)
            np.testing.assert_allclose(got, expect, rtol=2e-4, atol=2e-3, err_msg=output)
            tdet = gpurx.mimo_detector_pdu(nt, nr, mod, "ml", noise_var=n0, apriori=True,
                                           output=output, options=options())
            self.assertEqual(tdet.backend(), det.backend())

    def test_029_construction_errors_name_parameter_and_value(self):
        cases = [(dict(nt=0, nr=2), "nt", "0"), (dict(nt=2, nr=1), "nr", "1"),
                 (dict(nt=9, nr=9), "nt", "9"),
                 (dict(nt=2, nr=2, modulation="8psk"), "modulation", "8psk"),
                 (dict(nt=2, nr=2, algorithm="zf"), "algorithm", "zf"),
                 (dict(nt=2, nr=2, k=0), "k", "0"),
                 (dict(nt=2, nr=2, clip=0.0), "clip", "0"),
                 (dict(nt=2, nr=2, noise_var=0.0), "noise_var", "0"),
                 (dict(nt=2, nr=2, noise_var=float("nan")), "noise_var", "nan"),
                 (dict(nt=2, nr=2, noise_var=1e-21), "noise_var", "1e-21"),
                 (dict(nt=2, nr=2, noise_var=1e21), "noise_var", "1e+21"),
                 (dict(nt=2, nr=2, vectors_per_channel=0), "vectors_per_channel", "0"),
                 (dict(nt=2, nr=2, output="soft"), "output", "soft"),
                 (dict(nt=2, nr=2, implementation="cpu-zf"), "implementation", "cpu-zf"),
                 (dict(nt=5, nr=5, algorithm="ml"), "nt", "5"),
                 (dict(nt=2, nr=2, options=gpurx.pipeline_options(max_batch=0)), "max_batch", "0")]
        for kw, name, value in cases:
            with self.assertRaises(ValueError, msg=str(kw)) as ctx:
                gpurx.mimo_detector(**kw)
            self.assertIn(name, str(ctx.exception), kw)
            self.assertIn(value, str(ctx.exception), kw)
        for make in (gpurx.mimo_detector_tagged, gpurx.mimo_detector_pdu):
            with self.assertRaises(ValueError) as ctx:
                make(2, 2, max_vectors=0)
            self.assertIn("max_vectors", str(ctx.exception))
            with self.assertRaises(ValueError) as ctx:
                make(2, 2, noise_var=1e-45)
            self.assertIn("noise_var", str(ctx.exception))

    # ---- stop() during a long batch ----------------------------------------
    # K-best with K = 65536 at 8x8 256-QAM: one vector takes seconds on one
    # core (65536 x 256 children per layer), a batch minutes. stop() must
    # not wait for it.
    SLOW = dict(modulation="256qam", algorithm="kbest", k=65536, noise_var=0.1)

    def slow_flowgraph(self, form):
        nt = nr = 8
        H, y, _ = make_case(self.rng, nt, nr, "256qam", 8, 1, 0.1)
        tb = gr.top_block()
        if form == "stream":
            det = gpurx.mimo_detector(nt, nr, vectors_per_channel=1, options=options(max_batch=4),
                                      **self.SLOW)
            tb.connect(blocks.vector_source_c(y.flatten().tolist(), False, nr), (det, 0))
            tb.connect(blocks.vector_source_c(H.flatten().tolist(), False, nr * nt), (det, 1))
            tb.connect(det, blocks.null_sink(gr.sizeof_float * nt * 8))
        elif form == "tagged":
            det = gpurx.mimo_detector_tagged(nt, nr, max_vectors=1, options=options(max_batch=4),
                                             **self.SLOW)
            data = np.concatenate(packets(H, y, 1))
            n = len(data) // len(H)
            tags = [gr.tag_utils.python_to_tag((i * n, pmt.intern("packet_len"), pmt.from_long(n)))
                    for i in range(len(H))]
            tb.connect(blocks.vector_source_c(data.tolist(), False, 1, tags), det,
                       blocks.null_sink(gr.sizeof_float))
        else:
            det = gpurx.mimo_detector_pdu(nt, nr, max_vectors=1,
                                          options=options(max_batch=4, flush_us=1000), **self.SLOW)
            dbg = blocks.message_debug()
            tb.msg_connect(det, "pdus", dbg, "store")
            for x in packets(H, y, 1):
                det.to_basic_block()._post(pmt.intern("pdus"),
                                           pmt.cons(pmt.make_dict(), pmt.init_c32vector(len(x), x.tolist())))
        return tb, det

    def test_030_stop_interrupts_a_long_batch(self):
        if BACKEND != "cpu":
            self.skipTest("a CUDA batch is not run by the block's thread: nothing to cancel")
        for form in ("stream", "tagged", "pdu"):
            tb, det = self.slow_flowgraph(form)
            tb.start()
            time.sleep(1.0)  # inside the first batch: 4 vectors of several seconds each
            t0 = time.monotonic()
            stopper = threading.Thread(target=lambda: (tb.stop(), tb.wait()), daemon=True)
            stopper.start()
            stopper.join(30)
            dt = time.monotonic() - t0
            self.assertFalse(stopper.is_alive(), form + ": stop() and wait() took over 30 s")
            self.assertLess(dt, 2.0, "%s: stop() and wait() took %.1f s" % (form, dt))

    def test_031_a_cancelled_batch_runs_again_after_restart(self):
        # 8x8 16-QAM, K = 4096: about 10 ms a vector, a batch of 16 channels
        # of 64 vectors about 10 s of one core. The stop cancels it; after
        # the restart it runs again and every frame comes out once, in
        # order, detected (noiseless y: every LLR's sign is its bit).
        if BACKEND != "cpu":
            self.skipTest("a CUDA batch is not run by the block's thread: nothing to cancel")
        nt = nr = 8
        mod, vpc, channels = "16qam", 64, 24
        H, y, bits = make_case(self.rng, nt, nr, mod, channels, vpc, 0.0)
        det = gpurx.mimo_detector(nt, nr, mod, "kbest", k=4096, noise_var=0.1, vectors_per_channel=vpc,
                                  options=options(max_batch=16, flush_us=10_000_000))
        first = 16  # one whole batch before the source waits
        sy = gated_source(y.astype(np.complex64), first * vpc)
        sh = gated_source(H.astype(np.complex64), first)
        snk = blocks.vector_sink_f(nt * BPS[mod])
        tb = gr.top_block()
        tb.connect(sy, (det, 0))
        tb.connect(sh, (det, 1))
        tb.connect(det, snk)
        tb.start()
        # The CPU batch runs inside the detector's work() as soon as its
        # 16th channel arrives (nitems_read moves only when it returns).
        self.assertTrue(wait_for(lambda: sh.sent == first and sy.sent == first * vpc, 20),
                        "the sources never sent the first batch")
        time.sleep(1.0)
        t0 = time.monotonic()
        tb.stop()
        tb.wait()
        dt = time.monotonic() - t0
        self.assertLess(dt, 2.0, "stop() and wait() took %.1f s" % dt)
        self.assertLess(len(snk.data()), first * vpc * nt * BPS[mod], "the batch was not cancelled")
        sy.release()
        sh.release()
        run_with_timeout(tb, 120)
        got = np.array(snk.data(), dtype=np.float32).reshape(-1, nt * BPS[mod])
        self.assertEqual(len(got), channels * vpc)
        np.testing.assert_array_equal((got > 0).astype(int), bits)


