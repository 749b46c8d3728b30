#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""mimo_fading_channel (a CPU simulator: registered once, backend-free),
against references written here: the 3GPP TS 36.104 Annex B.2 tables, the
convolution in numpy with the taps each block reports, numpy's FFT of those
taps, the statistics of the taps, the CFO and the noise, a shifted and a
fractionally delayed signal, and the refusal of every bad parameter.
"""
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

try:
    from gnuradio import pdu
except ImportError:  # gr-pdu is part of GNU Radio 3.10; keep the rest running without it
    pdu = None

# 36.104 Table B.2-2 (EPA) and B.2-3 (EVA): (excess delay ns, relative power dB).
EPA = [(0, 0.0), (30, -1.0), (70, -2.0), (90, -3.0), (110, -8.0), (190, -17.2), (410, -20.8)]
EVA = [(0, 0.0), (30, -1.5), (150, -1.4), (310, -3.6), (370, -0.6), (710, -9.1), (1090, -7.0),
       (1730, -12.0), (2510, -16.9)]


def expected_profile(table, fs):
    """Delays rounded to the nearest sample (halves up), powers on one sample added, sum 1."""
    out = {}
    for ns, db in table:
        d = int(np.floor(ns * 1e-9 * fs + 0.5))
        out[d] = out.get(d, 0.0) + 10 ** (db / 10)
    total = sum(out.values())
    ds = sorted(out)
    return ds, [out[d] / total for d in ds]


def cn(rng, *shape):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) / np.sqrt(2)


def pdu_fields(msg):
    meta, data = pmt.car(msg), pmt.cdr(msg)
    get = lambda k: pmt.dict_ref(meta, pmt.intern(k), pmt.PMT_NIL)  # noqa: E731
    return dict(block=pmt.to_uint64(get("block")), offset=pmt.to_uint64(get("offset")),
                nt=pmt.to_long(get("nt")), nr=pmt.to_long(get("nr")), fft_len=pmt.to_long(get("fft_len")),
                delays=list(pmt.s32vector_elements(get("delays"))),
                taps=np.array(pmt.c32vector_elements(get("taps")), dtype=np.complex64),
                H=np.array(pmt.c32vector_elements(data), dtype=np.complex64))


def run_channel(ch, x, nr, n_out=None, blocks_expected=None, tags=None, timeout=60):
    """x: (nt, n) samples into inputs 0..nt-1; returns y (nr, n_out), the PDUs
    on "H" (decoded), and each output's tags."""
    nt, n = x.shape
    n_out = n if n_out is None else n_out
    tb = gr.top_block()
    sinks = [blocks.vector_sink_c() for _ in range(nr)]
    dbg = blocks.message_debug()
    for t in range(nt):
        src = blocks.vector_source_c(x[t].astype(np.complex64).tolist(), False, 1,
                                     tags if (tags is not None and t == 1) else [])
        tb.connect(src, (ch, t))
    for r in range(nr):
        tb.connect((ch, r), sinks[r])
    tb.msg_connect(ch, "H", dbg, "store")
    tb.start()
    # The messages reach message_debug asynchronously: wait for all of them
    # before stopping (a stopped flowgraph drops what is still queued).
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (all(len(s.data()) >= n_out for s in sinks) and
                (blocks_expected is None or dbg.num_messages() >= blocks_expected)):
            break
        time.sleep(0.01)
    time.sleep(0.05)
    tb.stop()
    tb.wait()
    y = np.array([np.array(s.data(), dtype=np.complex64) for s in sinks])
    msgs = [pdu_fields(dbg.get_message(i)) for i in range(dbg.num_messages())]
    return y, msgs, [s.tags() for s in sinks]


class qa_mimo_fading_channel(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def test_001_profiles_are_the_36104_tables(self):
        for fs in (1e9, 30.72e6, 15.36e6, 7.68e6, 3.84e6, 1.92e6):
            for name, table in (("epa", EPA), ("eva", EVA)):
                ch = gpurx.mimo_fading_channel(1, 1, name, sample_rate=fs, fft_len=4096)
                ds, ps = expected_profile(table, fs)
                self.assertEqual(list(ch.tap_delays()), ds, (name, fs))
                np.testing.assert_allclose(ch.tap_powers(), ps, rtol=1e-12, err_msg="%s %g" % (name, fs))
                self.assertAlmostEqual(sum(ch.tap_powers()), 1.0, places=12)
        # At 1 GHz every tap is its own sample: the tables' delays as they are.
        ch = gpurx.mimo_fading_channel(1, 1, "epa", sample_rate=1e9, fft_len=512)
        self.assertEqual(list(ch.tap_delays()), [ns for ns, _ in EPA])
        ch = gpurx.mimo_fading_channel(1, 1, "flat")
        self.assertEqual(list(ch.tap_delays()), [0])
        self.assertEqual(list(ch.tap_powers()), [1.0])
        ch = gpurx.mimo_fading_channel(1, 1, "exponential", num_taps=6, decay_db=2.5)
        p = 10 ** (-0.25 * np.arange(6))
        self.assertEqual(list(ch.tap_delays()), list(range(6)))
        np.testing.assert_allclose(ch.tap_powers(), p / p.sum(), rtol=1e-12)

    def test_002_output_is_the_convolution_and_H_the_fft_of_the_taps(self):
        nt, nr, B, n, N = 2, 3, 250, 1100, 64
        x = cn(self.rng, nt, n).astype(np.complex64)
        tag = gr.tag_t()
        tag.offset, tag.key, tag.value = 10, pmt.intern("mark"), pmt.from_long(7)
        ch = gpurx.mimo_fading_channel(nt, nr, "eva", sample_rate=7.68e6, block_samples=B, fft_len=N,
                                       seed=5)
        d = list(ch.tap_delays())
        self.assertEqual(d[-1], 19)
        nblocks = (n + B - 1) // B
        y, msgs, tags = run_channel(ch, x, nr, blocks_expected=nblocks, tags=[tag])
        self.assertEqual(y.shape, (nr, n))
        self.assertEqual(len(msgs), nblocks)
        L = len(d)
        want = np.zeros((nr, n), dtype=complex)
        for b, m in enumerate(msgs):
            self.assertEqual((m["block"], m["offset"], m["nt"], m["nr"], m["fft_len"]), (b, b * B, nt, nr, N))
            self.assertEqual(m["delays"], d)
            h = m["taps"].reshape(nr, nt, L)
            # The block's samples: y_r[n] = sum_t sum_l h x_t[n - d_l] (zeros before 0).
            for l, dl in enumerate(d):
                for i in range(b * B, min(n, (b + 1) * B)):
                    if i - dl >= 0:
                        want[:, i] += h[:, :, l] @ x[:, i - dl]
            # H[k] (row-major nr x nt per k, k in FFT order) = numpy's FFT of the impulse responses.
            imp = np.zeros((nr, nt, N), dtype=complex)
            for l, dl in enumerate(d):
                imp[:, :, dl] += h[:, :, l]
            H = np.fft.fft(imp, axis=-1).transpose(2, 0, 1)  # (k, r, t)
            np.testing.assert_allclose(m["H"], H.reshape(-1), atol=2e-6, err_msg="block %d" % b)
        np.testing.assert_allclose(y, want, atol=2e-5)
        for r in range(nr):
            fb = [(t.offset, pmt.to_uint64(t.value)) for t in tags[r] if pmt.symbol_to_string(t.key) == "fading_block"]
            self.assertEqual(fb, [(b * B, b) for b in range(nblocks)])
            marks = [t.offset for t in tags[r] if pmt.symbol_to_string(t.key) == "mark"]
            self.assertEqual(marks, [10])  # an input's tag on every output, same sample

    def test_003_flat_profile_is_flat_rayleigh_per_sample(self):
        nt, nr, B, n = 2, 2, 3, 60
        x = cn(self.rng, nt, n).astype(np.complex64)
        ch = gpurx.mimo_fading_channel(nt, nr, "flat", block_samples=B, fft_len=4, seed=1)
        y, msgs, _ = run_channel(ch, x, nr, blocks_expected=n // B)
        self.assertEqual(len(msgs), n // B)
        for b, m in enumerate(msgs):
            H = m["H"].reshape(4, nr, nt)
            for k in range(4):
                np.testing.assert_array_equal(H[k], m["taps"].reshape(nr, nt))
            np.testing.assert_allclose(y[:, b * B:(b + 1) * B], H[0] @ x[:, b * B:(b + 1) * B], atol=1e-5)

    def test_004_tap_statistics(self):
        nt, nr, B, blocks_n = 2, 2, 16, 3000
        ch = gpurx.mimo_fading_channel(nt, nr, "epa", sample_rate=15.36e6, block_samples=B, fft_len=8,
                                       seed=9)
        p = np.array(ch.tap_powers())
        L = len(p)
        _, msgs, _ = run_channel(ch, np.zeros((nt, B * blocks_n), dtype=np.complex64), nr,
                                 blocks_expected=blocks_n, timeout=120)
        self.assertEqual(len(msgs), blocks_n)
        h = np.array([m["taps"] for m in msgs]).reshape(blocks_n, nr * nt, L)
        # Mean power per tap (12000 draws each: 0.9 % standard error).
        np.testing.assert_allclose(np.mean(np.abs(h) ** 2, axis=(0, 1)), p, rtol=0.05)
        # Unit power per antenna pair.
        np.testing.assert_allclose(np.mean(np.sum(np.abs(h) ** 2, axis=2), axis=0), 1.0, rtol=0.05)
        # Independent, circular: pairs, taps and consecutive blocks uncorrelated.
        u = h / np.sqrt(p)
        for a, b in (((0, 0), (1, 0)), ((0, 0), (3, 0)), ((2, 1), (2, 2)), ((1, 0), (1, 4))):
            c = np.mean(u[:, a[0], a[1]] * np.conj(u[:, b[0], b[1]]))
            self.assertLess(abs(c), 0.06, (a, b))
        self.assertLess(abs(np.mean(u[1:] * np.conj(u[:-1]))), 0.03)
        self.assertLess(abs(np.mean(u ** 2)), 0.03)
        # A Rayleigh amplitude: E|h|^4 = 2 (E|h|^2)^2.
        self.assertAlmostEqual(np.mean(np.abs(u) ** 4), 2.0, delta=0.1)
        # block_samples = 0: one set of taps for the run.
        ch = gpurx.mimo_fading_channel(nt, nr, "epa", sample_rate=15.36e6, block_samples=0, fft_len=8)
        _, msgs, _ = run_channel(ch, np.zeros((nt, 5000), dtype=np.complex64), nr, blocks_expected=1)
        self.assertEqual([(m["block"], m["offset"]) for m in msgs], [(0, 0)])

    def test_005_cfo(self):
        nr, n, cfo = 2, 5000, 0.0123
        ch = gpurx.mimo_fading_channel(1, nr, "flat", cfo=cfo, fft_len=1, seed=4)
        self.assertAlmostEqual(ch.cfo(), cfo)
        y, msgs, _ = run_channel(ch, np.ones((1, n), dtype=np.complex64), nr, blocks_expected=1)
        h = msgs[0]["taps"]
        rot = np.exp(2j * np.pi * cfo * np.arange(n))
        for r in range(nr):  # one oscillator: the same phase on every antenna
            np.testing.assert_allclose(y[r], h[r] * rot, atol=2e-5 * max(1, abs(h[r])))
        # Statistically, in noise: the phase step of y[n+1] y[n]* over 4 antennas.
        nr, n, cfo = 4, 40000, -0.0371
        ch = gpurx.mimo_fading_channel(1, nr, "flat", cfo=cfo, noise_var=0.5, fft_len=1, seed=6)
        y, msgs, _ = run_channel(ch, np.ones((1, n), dtype=np.complex64), nr, blocks_expected=1)
        est = np.angle(np.sum(y[:, 1:] * np.conj(y[:, :-1]))) / (2 * np.pi)
        self.assertAlmostEqual(est, cfo, delta=1e-3)
        ch.set_cfo(0.25)
        self.assertEqual(ch.cfo(), 0.25)
        with self.assertRaises(ValueError) as ctx:
            ch.set_cfo(0.6)
        self.assertIn("cfo", str(ctx.exception))

    def test_006_awgn(self):
        nt, nr, n, n0 = 2, 4, 50000, 0.3
        ch = gpurx.mimo_fading_channel(nt, nr, "eva", sample_rate=1.92e6, fft_len=8, noise_var=n0, seed=3)
        self.assertAlmostEqual(ch.noise_var(), n0, places=6)
        y, _, _ = run_channel(ch, np.zeros((nt, n), dtype=np.complex64), nr, blocks_expected=1)
        np.testing.assert_allclose(np.mean(np.abs(y) ** 2, axis=1), n0, rtol=0.03)
        np.testing.assert_allclose(np.mean(y.real ** 2, axis=1), n0 / 2, rtol=0.03)
        np.testing.assert_allclose(np.mean(y.imag ** 2, axis=1), n0 / 2, rtol=0.03)
        self.assertLess(np.max(np.abs(np.mean(y, axis=1))), 0.02)
        c = (y @ y.conj().T) / n  # across antennas: white
        self.assertLess(np.max(np.abs(c - np.diag(np.diag(c)))), 0.02)
        self.assertLess(abs(np.mean(y[:, 1:] * np.conj(y[:, :-1]))), 0.01)  # and in time
        # The same seed, the same taps at another N0: the difference is the noise.
        x = cn(self.rng, nt, 20000).astype(np.complex64)
        y0, m0, _ = run_channel(gpurx.mimo_fading_channel(nt, nr, "epa", block_samples=1000, fft_len=16,
                                                          seed=8), x, nr, blocks_expected=20)
        y1, m1, _ = run_channel(gpurx.mimo_fading_channel(nt, nr, "epa", block_samples=1000, fft_len=16,
                                                          noise_var=n0, seed=8), x, nr, blocks_expected=20)
        self.assertEqual(len(m0), 20)
        for a, b in zip(m0, m1):
            np.testing.assert_array_equal(a["taps"], b["taps"])
        self.assertAlmostEqual(np.mean(np.abs(y1 - y0) ** 2), n0, delta=0.03 * n0)

    def test_007_sampling_offset(self):
        n = 3000
        x = cn(self.rng, 1, n).astype(np.complex64)
        y0, m0, _ = run_channel(gpurx.mimo_fading_channel(1, 1, "flat", fft_len=1, seed=2), x, 1,
                                blocks_expected=1)
        ch = gpurx.mimo_fading_channel(1, 1, "flat", fft_len=1, delay=5.0, seed=2)
        self.assertEqual(ch.lookahead(), 0)
        y5, _, _ = run_channel(ch, x, 1, blocks_expected=1)
        np.testing.assert_array_equal(y5[0, 5:], y0[0, :-5])  # an integer delay: an exact shift
        np.testing.assert_array_equal(y5[0, :5], 0)
        # A fractional one: band-limited tones delayed by 7.4 and by 0.5 samples.
        f = np.array([0.011, -0.17, 0.33, -0.38])
        sig = lambda t: np.exp(2j * np.pi * np.outer(t, f)).sum(axis=1) / 2  # noqa: E731
        x = sig(np.arange(n))[None, :].astype(np.complex64)
        for delay in (7.4, 0.5):
            ch = gpurx.mimo_fading_channel(1, 1, "flat", fft_len=1, delay=delay, seed=2)
            la = max(0, 23 - int(np.floor(delay)))
            self.assertEqual(ch.lookahead(), la)
            y, m, _ = run_channel(ch, x, 1, n_out=n - la, blocks_expected=1)
            self.assertEqual(y.shape[1], n - la)  # the last lookahead() samples stay inside
            h = m[0]["taps"][0]
            t = np.arange(100, n - la)
            err = np.abs(y[0, t] - h * sig(t - delay)) / abs(h)
            self.assertLess(err.max(), 5e-4, delay)

    def test_008_pdu_to_the_detector_layout(self):
        # The documented path to mimo_detector's H input: one nr*nt matrix per subcarrier.
        if pdu is None:
            self.skipTest("gr-pdu is not installed")
        nt, nr, N, B, n = 2, 2, 16, 100, 300
        ch = gpurx.mimo_fading_channel(nt, nr, "epa", block_samples=B, fft_len=N, seed=12)
        tb = gr.top_block()
        srcs = [blocks.vector_source_c([0j] * n) for _ in range(nt)]
        for t in range(nt):
            tb.connect(srcs[t], (ch, t))
        for r in range(nr):
            tb.connect((ch, r), blocks.null_sink(gr.sizeof_gr_complex))
        dbg = blocks.message_debug()
        p2s = pdu.pdu_to_tagged_stream(gr.types.complex_t, "packet_len")
        s2v = blocks.stream_to_vector(gr.sizeof_gr_complex, nr * nt)
        snk = blocks.vector_sink_c(nr * nt)
        tb.msg_connect(ch, "H", p2s, "pdus")
        tb.msg_connect(ch, "H", dbg, "store")
        tb.connect(p2s, s2v, snk)
        tb.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(snk.data()) < 3 * N * nr * nt:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        got = np.array(snk.data()).reshape(-1, nr, nt)
        self.assertEqual(len(got), 3 * N)
        for b in range(3):
            m = pdu_fields(dbg.get_message(b))
            np.testing.assert_array_equal(got[b * N:(b + 1) * N], m["H"].reshape(N, nr, nt))

    def test_009_bad_parameters_named_with_their_values(self):
        for kw, name, value in (
                (dict(nt=0, nr=2), "nt", "got 0"),
                (dict(nt=9, nr=2), "nt", "got 9"),
                (dict(nt=2, nr=0), "nr", "got 0"),
                (dict(nt=2, nr=2, profile="tdl-c"), "profile", '"tdl-c"'),
                (dict(nt=2, nr=2, sample_rate=0.0), "sample_rate", "got 0"),
                (dict(nt=2, nr=2, sample_rate=float("inf")), "sample_rate", "got inf"),
                (dict(nt=2, nr=2, profile="exponential", num_taps=0), "num_taps", "got 0"),
                (dict(nt=2, nr=2, profile="exponential", num_taps=257), "num_taps", "got 257"),
                (dict(nt=2, nr=2, profile="exponential", decay_db=-3.0), "decay_db", "got -3"),
                (dict(nt=2, nr=2, block_samples=-1), "block_samples", "got -1"),
                (dict(nt=2, nr=2, fft_len=0), "fft_len", "got 0"),
                (dict(nt=2, nr=2, fft_len=70000), "fft_len", "got 70000"),
                # EVA at 30.72 MHz reaches 77 samples: a 64-point grid would alias it.
                (dict(nt=2, nr=2, profile="eva", sample_rate=30.72e6, fft_len=64), "fft_len", "got 64"),
                (dict(nt=2, nr=2, cfo=0.51), "cfo", "got 0.51"),
                (dict(nt=2, nr=2, cfo=float("nan")), "cfo", "got nan"),
                (dict(nt=2, nr=2, delay=-1.0), "delay", "got -1"),
                (dict(nt=2, nr=2, delay=5000.0), "delay", "got 5000"),
                (dict(nt=2, nr=2, noise_var=-0.1), "noise_var", "got -0.1")):
            with self.assertRaises(ValueError, msg=str(kw)) as ctx:
                gpurx.mimo_fading_channel(**kw)
            self.assertIn(name, str(ctx.exception), kw)
            self.assertIn(value, str(ctx.exception), kw)
        ch = gpurx.mimo_fading_channel(2, 2)
        with self.assertRaises(ValueError) as ctx:
            ch.set_noise_var(-1.0)
        self.assertIn("noise_var", str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_mimo_fading_channel)
