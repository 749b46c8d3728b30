#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""mimo_ofdm_channel_estimator (docs/mimo-ofdm.md) feeding mimo_detector on
the backend named by GPURX_TEST_BACKEND (the detector's; the estimator runs
on the CPU). Frames are built here from the header's definitions (Hadamard
cover, Zadoff-Chu training, the used subcarriers' FFT bins) over a
frequency-selective channel: the estimated H against the true one (the
least-squares bound), N0, and the detector's decisions on estimated
channels against the bits sent."""
import numpy as np
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import BACKEND, options, require_backend_or_skip

require_backend_or_skip()


def hadamard(nt):
    h = np.array([[1.0]])
    while h.shape[0] < nt:
        h = np.block([[h, h], [h, -h]])
    return h


def zc(used):
    n = used if used % 2 else used + 1
    k = np.arange(used)
    return np.exp(-1j * np.pi * k * (k + 1) / n)


def bins(fft_len, used):
    return np.concatenate([np.arange(fft_len - used // 2, fft_len), np.arange(1, used // 2 + 1)])


def make_frames(nt, nr, fft_len, used, repeats, data, frames, n0, rng, taps=4):
    """Time-domain-free construction: per subcarrier y = H[k] x + w."""
    T = repeats * nt
    P, L, b = hadamard(nt), zc(used), bins(fft_len, used)
    streams = [[] for _ in range(nr)]
    truth, bits_all = [], []
    for _ in range(frames):
        h_taps = (rng.normal(size=(nr, nt, taps)) + 1j * rng.normal(size=(nr, nt, taps))) / np.sqrt(2 * taps)
        Hk = np.fft.fft(h_taps, fft_len, axis=2)[:, :, b]  # nr x nt x used
        truth.append(np.transpose(Hk, (2, 0, 1)))  # used x nr x nt
        sym = np.zeros((nr, T + data, fft_len), complex)
        for t in range(T):
            x = P[:, t % nt][:, None] * L[None, :]  # nt x used
            y = np.einsum("rjk,jk->rk", Hk, x)
            sym[:, t, b] = y
        bits = rng.integers(0, 2, size=(used, data, nt, 2))
        bits_all.append(bits)
        x = ((1 - 2 * bits[..., 0]) + 1j * (1 - 2 * bits[..., 1])) / np.sqrt(2)  # used x data x nt
        for s in range(data):
            sym[:, T + s, b] = np.einsum("rjk,kj->rk", Hk, x[:, s, :])
        noise = np.sqrt(n0 / 2) * (rng.normal(size=sym.shape) + 1j * rng.normal(size=sym.shape))
        sym = sym + noise
        for r in range(nr):
            streams[r].append(sym[r])
    return [np.concatenate(s).astype(np.complex64) for s in streams], truth, bits_all


class qa_mimo_ofdm(gr_unittest.TestCase):

    def run_chain(self, nt, nr, group, n0, frames=3, used=48, fft_len=64, data=4, repeats=2, algorithm="mtt",
                  taps=4):
        rng = np.random.default_rng(nt * 10 + nr + group)
        streams, truth, bits = make_frames(nt, nr, fft_len, used, repeats, data, frames, n0, rng, taps)
        tb = gr.top_block()
        est = gpurx.mimo_ofdm_channel_estimator(nt, nr, fft_len, used, repeats, data, group, BACKEND)
        self.assertEqual(est.implementation(), BACKEND)
        det = gpurx.mimo_detector(nt, nr, "qpsk", algorithm, noise_input=True,
                                  vectors_per_channel=est.vectors_per_channel(), options=options())
        h_sink = blocks.vector_sink_c(nr * nt)
        n_sink = blocks.vector_sink_f()
        llr_sink = blocks.vector_sink_f(nt * 2)
        for r in range(nr):
            tb.connect(blocks.vector_source_c(streams[r].reshape(-1).tolist(), False, fft_len), (est, r))
        tb.connect((est, 0), (det, 0))
        tb.connect((est, 1), (det, 1))
        tb.connect((est, 2), (det, 2))
        tb.connect((est, 1), h_sink)
        tb.connect((est, 2), n_sink)
        tb.connect(det, llr_sink)
        tb.run()
        self.assertEqual(est.frames(), frames)
        h = np.array(h_sink.data()).reshape(frames, used // group, nr, nt)
        llr = np.array(llr_sink.data()).reshape(frames, used, data, nt, 2)
        return h, np.array(n_sink.data()), llr, truth, bits

    def test_01_estimate_meets_the_ls_bound_and_n0(self):
        for nt, nr in ((2, 2), (4, 4)):
            n0 = 0.05
            h, n0_est, _, truth, _ = self.run_chain(nt, nr, 1, n0, frames=6, used=240, fft_len=256)
            err = np.mean(np.abs(h - np.array(truth)) ** 2)
            bound = n0 / (2 * nt)
            print("%dx%d: MSE %.4g, LS bound %.4g, N0 %.4g (true %.4g)" % (nt, nr, err, bound, n0_est.mean(), n0))
            self.assertAlmostEqual(err / bound, 1.0, delta=0.15)
            self.assertAlmostEqual(n0_est.mean() / n0, 1.0, delta=0.1)

    def test_02_detector_on_estimated_channels_decides_right(self):
        for nt, nr, group in ((2, 2, 1), (2, 4, 1), (4, 4, 1)):
            _, _, llr, _, bits = self.run_chain(nt, nr, group, 0.002)
            decided = (llr > 0).astype(int)
            sent = np.array(bits)
            self.assertEqual(int(np.count_nonzero(decided != sent)), 0, "%dx%d" % (nt, nr))

    def test_03_groups_one_h_per_group(self):
        # A 2-tap channel averaged over 4 subcarriers of 256 (its phase turns
        # by 2 pi / 256 per subcarrier at most): still the right decisions
        # at a high SNR.
        h, n0, llr, truth, bits = self.run_chain(2, 2, 4, 0.0005, used=240, fft_len=256, taps=2)
        self.assertEqual(h.shape[1], 60)
        self.assertEqual(len(n0), 3 * 60)
        self.assertEqual(int(np.count_nonzero((llr > 0).astype(int) != np.array(bits))), 0)

    def test_04_bad_parameters_are_named(self):
        for args, name in (((3, 3, 64, 48, 2, 4, 1), "nt"), ((2, 1, 64, 48, 2, 4, 1), "nr"),
                           ((2, 2, 64, 47, 2, 4, 1), "used"), ((2, 2, 64, 48, 1, 4, 1), "repeats"),
                           ((2, 2, 64, 48, 2, 0, 1), "data_symbols"), ((2, 2, 64, 48, 2, 4, 5), "group")):
            with self.assertRaises(ValueError) as e:
                gpurx.mimo_ofdm_channel_estimator(*args, implementation="cpu")
            self.assertIn(name, str(e.exception))
        with self.assertRaises(ValueError) as e:
            gpurx.mimo_ofdm_channel_estimator(2, 2, 64, 48, 2, 4, 1, "gpu")
        self.assertIn("implementation", str(e.exception))
        for kwargs, name in (({"pilots": 3}, "pilots"), ({"pilots": 26}, "pilots"), ({"pilots": 4, "group": 2}, "group"),
                             ({"pilots": 4, "track_phase": False, "track_slope": True}, "track_slope"),
                             ({"pilots": 2, "track_slope": True}, "track_slope")):
            args = {"group": 1, **kwargs}
            with self.assertRaises(ValueError) as e:
                gpurx.mimo_ofdm_channel_estimator(2, 2, 64, 48, 2, 4, implementation="cpu", **args)
            self.assertIn(name, str(e.exception))
        est = gpurx.mimo_ofdm_channel_estimator(2, 2, 64, 48, 2, 4, implementation="cpu", pilots=4)
        self.assertEqual(est.vectors_per_channel(), 4)


if __name__ == "__main__":
    gr_unittest.run(qa_mimo_ofdm)
