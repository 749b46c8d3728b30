# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The MIMO-OFDM link (docs/mimo-ofdm.md): transmitter, receiver, a
simulated multi-antenna channel and a genie receiver, as hierarchical
blocks.

Transmitter: payload bytes -> LTE transport block (lte_sch_encoder_tagged)
-> QAM -> mimo_ofdm_framer (sync symbol, Hadamard-covered training, data
spread over nt antennas) -> nt sample streams, each scaled by 1/sqrt(nt)
(the total transmit power of one antenna).

Receiver: nr sample streams -> mimo_ofdm_sync (one timing and frequency for
all) -> mimo_ofdm_channel_estimator (H per subcarrier, N0) -> mimo_detector
-> lte_sch_decoder_tagged -> packet_counter; with idd_passes > 1 (or
idd_block) the detector and decoder are one mimo_idd_decoder, P passes of
iterative detection and decoding per frame.
"""
import math

import numpy as np
from gnuradio import analog, blocks, filter, gr

from .gpurx_python import (lte_sch_encoder_tagged, mimo_detector, mimo_idd_decoder, mimo_ofdm_channel_estimator,
                           mimo_ofdm_framer, mimo_ofdm_sync, packet_counter, packet_tagger, pipeline_options,
                           qam_mapper)
from .rx_impairments import rx_impairments
from .packet_link import BITS_PER_SYMBOL, expose_counter_ports, tb_decoding_chain, tb_tags


class ofdm_numerology:
    """The frame's fixed numbers: FFT, CP, used subcarriers, training, and
    the pilot subcarriers of every data symbol (None: one in 12 used
    subcarriers, an even number, at least 2: 4 of 48, 100 of 1200)."""

    def __init__(self, fft_len=64, cp_len=16, used=48, repeats=4, pilots=None):
        self.fft_len, self.cp_len, self.used, self.repeats = fft_len, cp_len, used, repeats
        self.pilots = max(2, (used // 24) * 2) if pilots is None else int(pilots)
        if self.pilots < 0 or self.pilots % 2 or self.pilots > used // 2:
            raise ValueError("pilots must be even and in 0..used/2, got %r" % (pilots,))

    @property
    def data_carriers(self):
        """Used subcarriers that carry data in a data symbol."""
        return self.used - self.pilots

    def pilot_indices(self):
        """Used-subcarrier indices of the pilots (lib/ofdm/ofdm_pilots.h):
        +-o_i from DC, o_i = floor((2i + 1) (used/2) / pilots) + 1."""
        h = self.used // 2
        idx = []
        for i in range(self.pilots // 2):
            o = (2 * i + 1) * h // self.pilots + 1
            idx += [h - o, h + o - 1]
        return sorted(idx)

    def data_indices(self):
        """Used-subcarrier indices of the data carriers, ascending."""
        pilots = set(self.pilot_indices())
        return [k for k in range(self.used) if k not in pilots]


def mimo_link_parameters(nt, modulation, payload_bytes, code_rate, num):
    """The transport block of one frame: dict with qm, tbs, g, data_symbols
    (OFDM data symbols), res (codeword symbols), for a code rate of about
    code_rate."""
    if modulation not in BITS_PER_SYMBOL:
        raise ValueError("modulation must be one of %s, got %r" % (sorted(BITS_PER_SYMBOL), modulation))
    if not 0.05 <= code_rate <= 0.93:
        raise ValueError("code_rate must be in 0.05..0.93, got %r" % (code_rate,))
    qm = BITS_PER_SYMBOL[modulation]
    tbs = 8 * payload_bytes
    per_symbol = num.data_carriers * nt * qm
    data_symbols = int(math.ceil((tbs + 24) / (code_rate * per_symbol)))
    return {"qm": qm, "tbs": tbs, "g": data_symbols * per_symbol, "data_symbols": data_symbols,
            "res": data_symbols * num.data_carriers * nt}


# mimo_ofdm_tx's amplitude for a radio: every I/Q value of data and sync
# symbols within +-1.0 full scale, at 2 and 4 antennas, every modulation
# (qa_mimo_ofdm_link test_tx_within_full_scale measures it).
USRP_AMPLITUDE = 0.25


class mimo_ofdm_tx(gr.hier_block2):
    """Payload bytes (a tagged stream) in; nt streams of samples out."""

    def __init__(self, nt=2, modulation="qpsk", payload_bytes=128, code_rate=0.5, num=None, gap=200,
                 rnti=4660, cell_id=1, len_tag_key="packet_len", amplitude=1.0):
        num = num or ofdm_numerology()
        # amplitude scales every antenna: 1.0 is a total transmit power of 1
        # (what the simulation channels assume). OFDM peaks reach several
        # times the rms, so a radio needs it lower (USRP_AMPLITUDE).
        if not 0.0 < amplitude <= 100.0:
            raise ValueError("amplitude must be in (0, 100], got %r" % (amplitude,))
        gr.hier_block2.__init__(self, "mimo_ofdm_tx", gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(nt, nt, gr.sizeof_gr_complex))
        self.params = p = mimo_link_parameters(nt, modulation, payload_bytes, code_rate, num)
        self.unpack = blocks.packed_to_unpacked_bb(1, gr.GR_MSB_FIRST)
        self.bits_len = blocks.tagged_stream_multiply_length(gr.sizeof_char, len_tag_key, 8)
        self.tagger = packet_tagger(gr.sizeof_char, tb_tags(p, rnti, cell_id), len_tag_key)
        self.encoder = lte_sch_encoder_tagged("dlsch", len_tag_key, max(p["tbs"], 16), max(p["g"], 8))
        self.mapper = qam_mapper(modulation)
        self.symbols_len = blocks.tagged_stream_multiply_length(gr.sizeof_gr_complex, len_tag_key, 1.0 / p["qm"])
        self.framer = mimo_ofdm_framer(nt, num.fft_len, num.cp_len, num.used, num.repeats, p["data_symbols"],
                                       gap, len_tag_key, num.pilots)
        self.connect(self, self.unpack, self.bits_len, self.tagger, self.encoder, self.mapper, self.symbols_len,
                     self.framer)
        # Every block here passes whole packets, so each buffer must hold one
        # (GNU Radio's default of 8192 items is less than a 20 MHz frame's).
        for b, items in ((self.unpack, p["tbs"]), (self.bits_len, p["tbs"]), (self.tagger, p["tbs"]),
                         (self.encoder, p["g"]), (self.mapper, p["res"]), (self.symbols_len, p["res"])):
            b.set_min_output_buffer(2 * items)
        self.scale = []
        for j in range(nt):
            s = blocks.multiply_const_cc(amplitude / math.sqrt(nt))
            self.scale.append(s)
            self.connect((self.framer, j), s, (self, j))


class mimo_ofdm_rx(gr.hier_block2):
    """nr streams of samples in; counters (packet_counter's methods) and
    message ports "pdus", "stats".

    idd_passes: 1 (default) the detector and lte_sch_decoder_tagged as
    they are; 2..8 one mimo_idd_decoder running that many passes of
    iterative detection and decoding per frame (its turbo decoder in float,
    extrinsic_scale damping what it feeds back). idd_block: the IDD block
    also for idd_passes 1 (one pass through it: the baseline of its gain).
    track_phase: turn each data symbol back by the common phase error its
    pilots show (False: the pilots are only left out). track_slope: also by
    a phase slope across subcarriers (a timing drift since the training, a
    sample clock's offset over a long frame); None: with 16 pilots or more
    (the 20 MHz numerology's 100, not the 64-point link's 4)."""

    def __init__(self, nt=2, nr=2, modulation="qpsk", payload_bytes=128, code_rate=0.5, num=None,
                 algorithm="mtt", backend="auto", iterations=6, rnti=4660, cell_id=1, len_tag_key="packet_len",
                 frames_in_flight=8, detector_batch_frames=1, flush_us=1000, idd_passes=1, idd_block=False,
                 extrinsic_scale=0.75, sync_threads=-1, track_phase=True, track_slope=None):
        num = num or ofdm_numerology()
        gr.hier_block2.__init__(self, "mimo_ofdm_rx", gr.io_signature(nr, nr, gr.sizeof_gr_complex),
                                gr.io_signature(0, 0, 0))
        if backend not in ("auto", "cpu", "cuda"):
            raise ValueError("backend must be 'auto', 'cpu' or 'cuda', got %r" % (backend,))
        if not isinstance(frames_in_flight, int) or not 2 <= frames_in_flight <= 256:
            raise ValueError("frames_in_flight must be an integer in 2..256, got %r" % (frames_in_flight,))
        if not isinstance(detector_batch_frames, int) or not 1 <= detector_batch_frames <= frames_in_flight:
            raise ValueError("detector_batch_frames must be an integer in 1..frames_in_flight (%d), got %r"
                             % (frames_in_flight, detector_batch_frames))
        if not isinstance(idd_passes, int) or not 1 <= idd_passes <= 8:
            raise ValueError("idd_passes must be an integer in 1..8, got %r" % (idd_passes,))
        self.params = p = mimo_link_parameters(nt, modulation, payload_bytes, code_rate, num)
        self.sync = mimo_ofdm_sync(nt, nr, num.fft_len, num.cp_len, num.used, num.repeats, p["data_symbols"],
                                   threads=sync_threads)
        # The channel within the cyclic prefix: LMMSE smoothing over it. The
        # estimator batches OFDM frames on the receiver's backend, half the
        # frames in flight per batch, as the decoder does; it leaves the
        # pilots out and tracks the common phase on them.
        self.estimator = mimo_ofdm_channel_estimator(
            nt, nr, num.fft_len, num.used, num.repeats, p["data_symbols"], 1, "auto", num.cp_len,
            options=pipeline_options(max(2, frames_in_flight // 2), 3, flush_us, backend), pilots=num.pilots,
            track_phase=track_phase,
            track_slope=bool(track_phase and (num.pilots >= 16 if track_slope is None else track_slope)))
        for r in range(nr):
            self.connect((self, r), (self.sync, r))
            self.connect((self.sync, r), (self.estimator, r))
        symbols = num.repeats * nt + p["data_symbols"]
        y_per_frame = num.data_carriers * p["data_symbols"]
        if idd_passes > 1 or idd_block:
            self._idd_chain(p, num, nt, nr, modulation, algorithm, backend, iterations, rnti, cell_id, len_tag_key,
                            frames_in_flight, flush_us, idd_passes, extrinsic_scale, symbols, y_per_frame)
        else:
            self._plain_chain(p, num, nt, nr, modulation, algorithm, backend, iterations, rnti, cell_id,
                              len_tag_key, frames_in_flight, detector_batch_frames, flush_us, symbols, y_per_frame)
        expose_counter_ports(self, self.counter)

    def _plain_chain(self, p, num, nt, nr, modulation, algorithm, backend, iterations, rnti, cell_id, len_tag_key,
                     frames_in_flight, detector_batch_frames, flush_us, symbols, y_per_frame):
        """estimator -> mimo_detector -> lte_sch_decoder_tagged -> packet_counter."""
        # A detector frame is one subcarrier's data symbols: a batch of
        # detector_batch_frames OFDM frames' subcarriers (1200 each at 20
        # MHz) keeps the GPU busy on few launches.
        opts = pipeline_options(max(64, num.data_carriers * detector_batch_frames), 3, flush_us, backend)
        # Tags only for channels below full rank: one per subcarrier (1200
        # per frame at 20 MHz) through every block downstream cost more than
        # the detection.
        self.detector = mimo_detector(nt, nr, modulation, algorithm, noise_input=True,
                                      vectors_per_channel=self.estimator.vectors_per_channel(), options=opts,
                                      rank_tags=False)
        self.v2s = blocks.vector_to_stream(gr.sizeof_float, nt * p["qm"])
        self.packets = blocks.stream_to_tagged_stream(gr.sizeof_float, 1, p["g"], len_tag_key)
        # The decoder launches a batch as soon as it holds the frames in
        # flight (or 1 ms after its first TB).
        self.tagger, self.decoder, self.counter = tb_decoding_chain(
            p, rnti, cell_id, backend, iterations, len_tag_key,
            options=pipeline_options(max(2, frames_in_flight // 2), 3, flush_us, backend))
        for port in range(3):
            self.connect((self.estimator, port), (self.detector, port))
        self.connect(self.detector, self.v2s, self.packets, self.tagger, self.decoder, self.counter)
        # Whole packets again (see mimo_ofdm_tx), frames_in_flight of them
        # in every buffer: with room for fewer, each stage waits for the
        # next one's batch to come back before it can go on, and the stages
        # run by turns instead of at once.
        for b, items in ((self.sync, symbols), (self.estimator, y_per_frame), (self.detector, p["res"] // nt),
                         (self.v2s, p["g"]), (self.packets, p["g"]), (self.tagger, p["g"]), (self.decoder, p["tbs"])):
            b.set_min_output_buffer(frames_in_flight * items)

    def _idd_chain(self, p, num, nt, nr, modulation, algorithm, backend, iterations, rnti, cell_id, len_tag_key,
                   frames_in_flight, flush_us, passes, extrinsic_scale, symbols, y_per_frame):
        """estimator -> mimo_idd_decoder -> packet_counter: one TB (OFDM
        frame) is num.data_carriers channels (subcarriers) of data_symbols vectors,
        the detector's order of the TB's G coded bits."""
        opts = pipeline_options(max(2, frames_in_flight // 2), 3, flush_us, backend)
        self.detector = None
        self.decoder = mimo_idd_decoder(nt, nr, modulation, algorithm, num.data_carriers,
                                        self.estimator.vectors_per_channel(), p["tbs"], passes, iterations,
                                        extrinsic_scale, "dlsch", rnti, cell_id, 0, "auto", opts)
        self.packets = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, p["tbs"], len_tag_key)
        self.counter = packet_counter(len_tag_key)
        for port in range(3):
            self.connect((self.estimator, port), (self.decoder, port))
        self.connect(self.decoder, self.packets, self.counter)
        for b, items in ((self.sync, symbols), (self.estimator, y_per_frame), (self.decoder, p["tbs"]),
                         (self.packets, p["tbs"])):
            b.set_min_output_buffer(frames_in_flight * items)

    def decoded(self):
        return self.counter.decoded()

    def crc_fail(self):
        return self.counter.crc_fail()

    def frames(self):
        return self.sync.frames()

    def cfo(self):
        return self.sync.cfo()

    def backend(self):
        return self.decoder.backend()


def profile_taps(profile, seed_rng, nr, nt):
    """Sample-spaced power-delay profiles for the simulated channel:
    "flat" (1 tap), "exponential" (6 taps, 2 dB per tap), "epa" (EPA's
    delays at 15.36 MS/s rounded to samples: 0, 0, 1, 1, 2, 3, 6; powers 0,
    -1, -2, -3, -8, -17.2, -20.8 dB). Independent Rayleigh taps per antenna
    pair, unit total power per pair."""
    if profile == "flat":
        delays, powers_db = [0], [0.0]
    elif profile == "exponential":
        delays, powers_db = list(range(6)), [-2.0 * i for i in range(6)]
    elif profile == "epa":
        delays, powers_db = [0, 0, 1, 1, 2, 3, 6], [0, -1, -2, -3, -8, -17.2, -20.8]
    else:
        raise ValueError("profile must be 'flat', 'exponential' or 'epa', got %r" % (profile,))
    p = 10.0 ** (np.array(powers_db) / 10.0)
    p = p / p.sum()
    taps = np.zeros((nr, nt, max(delays) + 1), complex)
    for r in range(nr):
        for j in range(nt):
            g = (seed_rng.normal(size=len(delays)) + 1j * seed_rng.normal(size=len(delays))) * np.sqrt(p / 2)
            for d, v in zip(delays, g):
                taps[r, j, d] += v
    return taps


class mimo_ofdm_channel(gr.hier_block2):
    """nt streams in, nr out: y_r = sum_j h_rj * x_j (fixed taps from the
    profile and seed), then a common delay (integer samples), frequency
    offset (cycles/sample) and white noise of variance n0 per antenna; with
    any of phase_noise, dc, iq_imbalance ((amplitude dB, phase degrees)),
    sro_ppm, gain_step ((dB, period in samples)) not zero, the receiver's
    front end after them (rx_impairments)."""

    def __init__(self, nt, nr, profile="exponential", n0=0.1, cfo=0.0, delay=0, seed=1, phase_noise=0.0, dc=0.0,
                 iq_imbalance=(0.0, 0.0), sro_ppm=0.0, gain_step=(0.0, 0)):
        gr.hier_block2.__init__(self, "mimo_ofdm_channel", gr.io_signature(nt, nt, gr.sizeof_gr_complex),
                                gr.io_signature(nr, nr, gr.sizeof_gr_complex))
        self.taps = profile_taps(profile, np.random.default_rng(seed), nr, nt)
        self.keep = []
        self.front_end = None
        if phase_noise or dc or iq_imbalance[0] or iq_imbalance[1] or sro_ppm or gain_step[0]:
            self.front_end = rx_impairments(nr, phase_noise, dc, iq_imbalance[0], iq_imbalance[1], sro_ppm, seed,
                                            gain_step[0], gain_step[1])
        for r in range(nr):
            add = blocks.add_cc()
            for j in range(nt):
                f = filter.fir_filter_ccc(1, self.taps[r, j].tolist())
                self.keep.append(f)
                self.connect((self, j), f, (add, j))
            noise = analog.noise_source_c(analog.GR_GAUSSIAN, math.sqrt(n0), seed * 16 + r)
            rot = blocks.rotator_cc(2.0 * math.pi * cfo)
            dly = blocks.delay(gr.sizeof_gr_complex, int(delay))
            sum_noise = blocks.add_cc()
            self.keep += [add, noise, rot, dly, sum_noise]
            self.connect(add, dly, rot, (sum_noise, 0))
            self.connect(noise, (sum_noise, 1))
            if self.front_end is None:
                self.connect(sum_noise, (self, r))
            else:
                self.connect(sum_noise, (self.front_end, r), (self, r))


def run_genie(nt, nr, modulation, payload_bytes, code_rate, num, profile, snr_db, packets, seed,
              algorithm="mtt", backend="auto", rnti=4660, cell_id=1):
    """The genie receiver: the transmitter's codeword symbols through the
    channel of mimo_ofdm_channel(profile, seed) in the frequency domain,
    y = H x / sqrt(nt) + n with N0 = 10^(-snr_db/10), detected with the
    true H / sqrt(nt) and N0, decoded. No synchronisation, no estimation.
    Returns (decoded, crc_fail)."""
    from .gpurx_python import payload_source
    p = mimo_link_parameters(nt, modulation, payload_bytes, code_rate, num)
    # 1. The codeword symbols.
    tb = gr.top_block()
    src = payload_source(payload_bytes, packets, seed)
    tx = mimo_ofdm_tx(nt, modulation, payload_bytes, code_rate, num, rnti=rnti, cell_id=cell_id)
    sink = blocks.vector_sink_c()
    tb.connect(src, tx.unpack)  # the transmitter's chain up to its QAM symbols
    tb.connect(tx.unpack, tx.bits_len, tx.tagger, tx.encoder, tx.mapper, sink)
    tb.run()
    x = np.array(sink.data(), np.complex64).reshape(packets, num.data_carriers, p["data_symbols"], nt)
    # 2. The channel per subcarrier, the noise.
    n0 = 10.0 ** (-snr_db / 10.0)
    taps = profile_taps(profile, np.random.default_rng(seed), nr, nt)
    k = np.array(num.data_indices())
    bins = np.where(k < num.used // 2, num.fft_len - num.used // 2 + k, k - num.used // 2 + 1)
    H = np.fft.fft(taps, num.fft_len, axis=2)[:, :, bins] / math.sqrt(nt)  # nr x nt x data carriers
    rng = np.random.default_rng(seed + 99)
    y = np.einsum("rjk,pksj->pksr", H, x)
    y = y + math.sqrt(n0 / 2) * (rng.normal(size=y.shape) + 1j * rng.normal(size=y.shape))
    h_frame = np.transpose(H, (2, 0, 1)).reshape(num.data_carriers, nr * nt)
    # 3. Detection with the true H and N0, decoding.
    tb = gr.top_block()
    ys = blocks.vector_source_c(y.astype(np.complex64).reshape(-1).tolist(), False, nr)
    hs = blocks.vector_source_c(np.tile(h_frame, (packets, 1)).astype(np.complex64).reshape(-1).tolist(),
                                False, nr * nt)
    ns = blocks.vector_source_f([n0] * (packets * num.data_carriers), False)
    opts = pipeline_options(64, 3, 1000, backend)
    det = mimo_detector(nt, nr, modulation, algorithm, noise_input=True, vectors_per_channel=p["data_symbols"],
                        options=opts)
    v2s = blocks.vector_to_stream(gr.sizeof_float, nt * p["qm"])
    pk = blocks.stream_to_tagged_stream(gr.sizeof_float, 1, p["g"], "packet_len")
    tg, dec, cnt = tb_decoding_chain(p, rnti, cell_id, backend, 6, "packet_len")
    tb.connect(ys, (det, 0))
    tb.connect(hs, (det, 1))
    tb.connect(ns, (det, 2))
    tb.connect(det, v2s, pk, tg, dec, cnt)
    tb.run()
    return cnt.decoded(), cnt.crc_fail()
