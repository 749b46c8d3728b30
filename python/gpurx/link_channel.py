# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The packet link's simulated air (docs/radio-link.md): what the loopback
twins put between packet_link_tx and packet_link_rx."""
import math

from gnuradio import analog, blocks, channels, filter, gr

from .packet_link import rrc_taps
from .rx_impairments import rx_impairments


# Sample-spaced; normalised below so that the shaped signal's power is kept.
MULTIPATH = [1.0, 0.3j, 0.15 - 0.1j]


def in_band_unit_power(taps, pulse):
    """taps scaled so that the pulse-shaped signal leaves them with the power
    it came with: Es/N0 is then the received one. (Unit tap energy is not
    enough: the signal occupies part of the band only, where these taps
    gain 0.48 dB.)"""
    def r(d):
        d = abs(d)
        return sum(pulse[n] * pulse[n + d] for n in range(len(pulse) - d))
    g = sum((taps[k] * taps[l].conjugate() * r(k - l)).real
            for k in range(len(taps)) for l in range(len(taps))) / r(0)
    return [t / math.sqrt(g) for t in taps]


class impaired_channel(gr.hier_block2):
    """Delay (integer and fractional), phase noise (a low-pass random walk
    of phase_noise radians rms, correlation time about 1000 samples), then
    GNU Radio's channel_model: multipath, frequency offset, sampling-rate
    offset and noise; then, with any of dc, iq_imbalance ((amplitude dB,
    phase degrees)) or gain_step ((dB, period in samples)) not zero, the
    receiver's front end (rx_impairments: gain steps, IQ imbalance, DC
    offset of magnitude dc x amplitude, the symbols' rms)."""

    def __init__(self, snr_db, cfo, sro_ppm, delay, phase_noise, multipath, seed, sps=4, amplitude=1.0,
                 dc=0.0, iq_imbalance=(0.0, 0.0), gain_step=(0.0, 0)):
        gr.hier_block2.__init__(self, "impaired_channel",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        whole = int(math.floor(delay))
        frac = delay - whole
        self.delay = blocks.delay(gr.sizeof_gr_complex, whole)
        self.frac = filter.mmse_resampler_cc(frac, 1.0)
        alpha = 1e-3
        self.pn_source = analog.noise_source_f(analog.GR_GAUSSIAN, phase_noise * math.sqrt(2.0 / alpha), seed + 1)
        self.pn_filter = filter.single_pole_iir_filter_ff(alpha)
        self.pn_mod = analog.phase_modulator_fc(1.0)
        self.pn_mix = blocks.multiply_cc()
        taps = in_band_unit_power(MULTIPATH, rrc_taps(sps, 0.35)) if multipath else [1.0]
        self.model = channels.channel_model(
            noise_voltage=amplitude * 10.0 ** (-snr_db / 20.0),
            frequency_offset=cfo,
            epsilon=1.0 + sro_ppm * 1e-6,
            taps=taps,
            noise_seed=seed,
            block_tags=False)
        self.connect(self, self.delay, self.frac, (self.pn_mix, 0))
        self.connect(self.pn_source, self.pn_filter, self.pn_mod, (self.pn_mix, 1))
        if dc or iq_imbalance[0] or iq_imbalance[1] or gain_step[0]:
            self.front_end = rx_impairments(1, dc=dc * amplitude, iq_amp_db=iq_imbalance[0],
                                            iq_phase_deg=iq_imbalance[1], seed=seed,
                                            gain_step_db=gain_step[0], gain_step_period=gain_step[1])
            self.connect(self.pn_mix, self.model, self.front_end, self)
        else:
            self.connect(self.pn_mix, self.model, self)
