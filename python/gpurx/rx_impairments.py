# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A receiver front end's impairments for the radio links' twins: gain
steps, phase noise, IQ imbalance, DC offset and a sampling-rate offset."""

import math

import numpy as np
from gnuradio import gr


class rx_impairments(gr.sync_block):
    """A receiver's front end, nr streams in and out, in this order:

    - gain steps, as an AGC or a gain change in a radio's receive chain makes
      them: every gain_step_period samples the gain (signal and noise alike)
      moves between 0 dB and gain_step_db, the first step at sample
      gain_step_period (a square wave; 0 dB or period 0: none);
    - phase noise: one Wiener process for every receive antenna (one local
      oscillator), theta[n] = theta[n-1] + w[n], w normal with standard
      deviation phase_noise (radians per sample; 2 pi linewidth / rate =
      phase_noise ** 2);
    - IQ imbalance: y = mu x + nu conj(x), mu = (1 + g exp(-j phi)) / 2,
      nu = (1 - g exp(j phi)) / 2, g = 10^(iq_amp_db / 20), phi =
      iq_phase_deg (image rejection 20 log10 |mu / nu|);
    - DC offset: a constant of magnitude dc (the signal's rms is 1 per
      antenna) and a phase of its own per antenna;
    - sampling-rate offset: the receiver's clock sro_ppm (>= 0) faster,
      y[n] = x(n / (1 + sro_ppm 1e-6) - D), interpolated by a
      Blackman-windowed sinc of TAPS taps, D = TAPS / 2 + 1 samples of
      delay (it keeps the block causal).
    """
    TAPS = 48

    def __init__(self, nr, phase_noise=0.0, dc=0.0, iq_amp_db=0.0, iq_phase_deg=0.0, sro_ppm=0.0, seed=1,
                 gain_step_db=0.0, gain_step_period=0):
        gr.sync_block.__init__(self, "rx_impairments", in_sig=[np.complex64] * nr, out_sig=[np.complex64] * nr)
        if not 0.0 <= sro_ppm <= 1000.0:
            raise ValueError("sro_ppm must be in 0..1000 (the receiver's clock faster), got %r" % (sro_ppm,))
        if not 0.0 <= phase_noise <= 1.0:
            raise ValueError("phase_noise must be in 0..1 rad per sample, got %r" % (phase_noise,))
        if not -40.0 <= gain_step_db <= 40.0:
            raise ValueError("gain_step_db must be in -40..40 dB, got %r" % (gain_step_db,))
        if gain_step_period < 0:
            raise ValueError("gain_step_period must be >= 0 samples, got %r" % (gain_step_period,))
        self.nr, self.sigma = nr, float(phase_noise)
        self.step_gain = 10.0 ** (gain_step_db / 20.0)
        self.step_period = int(gain_step_period) if gain_step_db else 0
        self.n_in = 0  # input samples seen: the gain steps' clock
        self.rng = np.random.default_rng(seed * 31 + 7)
        self.theta = 0.0
        g, phi = 10.0 ** (iq_amp_db / 20.0), math.radians(iq_phase_deg)
        self.mu, self.nu = (1 + g * np.exp(-1j * phi)) / 2, (1 - g * np.exp(1j * phi)) / 2
        self.dc = [dc * np.exp(1j * (0.5 + 2.1 * r)) for r in range(nr)]
        self.ratio = 1.0 / (1.0 + sro_ppm * 1e-6)
        self.resample = sro_ppm > 0.0
        self.delay = self.TAPS // 2 + 1
        pad = self.delay + self.TAPS
        self.buf = [np.zeros(pad, np.complex128) for _ in range(nr)]
        self.base = -pad  # input index of buf[r][0]
        self.n = 0        # next output index
        self.offsets = np.arange(-self.TAPS // 2 + 1, self.TAPS // 2 + 1)

    def _gains(self, m):
        """The gain of the next m input samples (None: 0 dB throughout)."""
        if not self.step_period:
            return None
        k = (self.n_in + np.arange(m)) // self.step_period
        return np.where(k % 2 == 1, self.step_gain, 1.0)

    def _front_end(self, x, r, theta, gains):
        y = x * np.exp(1j * theta) if self.sigma > 0 else x.astype(np.complex128)
        if gains is not None:
            y = y * gains
        if self.nu != 0:
            y = self.mu * y + self.nu * np.conj(y)
        return y + self.dc[r]

    def work(self, input_items, output_items):
        m = len(output_items[0])
        theta = None
        if self.sigma > 0:
            theta = self.theta + np.cumsum(self.rng.normal(0.0, self.sigma, m))
            self.theta = float(theta[-1]) % (2 * math.pi)
        gains = self._gains(m)
        self.n_in += m
        if not self.resample:
            for r in range(self.nr):
                output_items[r][:] = self._front_end(input_items[r][:m], r, theta, gains)
            return m
        pos = (self.n + np.arange(m)) * self.ratio - self.delay
        i0 = np.floor(pos)
        d = (pos - i0)[:, None] - self.offsets[None, :]  # distance to each tap's sample
        half = self.TAPS / 2.0
        w = np.sinc(d) * (0.42 + 0.5 * np.cos(np.pi * d / half) + 0.08 * np.cos(2 * np.pi * d / half))
        w /= w.sum(axis=1, keepdims=True)
        idx = i0.astype(np.int64)[:, None] + self.offsets[None, :]
        for r in range(self.nr):
            self.buf[r] = np.concatenate([self.buf[r], self._front_end(input_items[r][:m], r, theta, gains)])
            output_items[r][:] = np.sum(self.buf[r][idx - self.base] * w, axis=1)
        self.n += m
        keep = int(math.floor(self.n * self.ratio - self.delay)) + int(self.offsets[0]) - 1
        if keep > self.base:
            for r in range(self.nr):
                self.buf[r] = self.buf[r][keep - self.base:]
            self.base = keep
        return m
