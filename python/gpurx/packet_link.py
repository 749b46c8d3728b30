# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The packet link (docs/radio-link.md): the transmitter and the receiver as
hierarchical blocks, so that the USRP flowgraphs, the loopback twin and the
two-process twin run the very same chain.

Transmitter: payload bytes (a tagged stream) -> transport block with CRC,
turbo coding and rate matching to the burst (lte_sch_encoder_tagged) ->
scrambling -> QAM -> preamble and pilots (burst_framer) -> root-raised-cosine
pulse shaping.

Receiver: matched filter -> burst_sync (detection, CFO, timing, channel,
equaliser, pilot phase tracking, N0) -> qam_demapper (per-burst gain and N0
from tags) -> lte_sch_decoder_tagged -> packet_counter.
"""
import math

import pmt
from gnuradio import blocks, filter, gr
from gnuradio.filter import firdes

from .gpurx_python import (burst_framer, burst_sync, lte_sch_decoder_tagged,
                           lte_sch_encoder_tagged, packet_counter, packet_tagger,
                           pipeline_options, qam_demapper)

BITS_PER_SYMBOL = {"qpsk": 2, "16qam": 4, "64qam": 6}


def cfo_capture_range(sps):
    """The carrier frequency offset (cycles/sample) burst_sync is stated to
    find, +-3e-3 at sps 4. Its detector aliases at 1/(2 zc_len sps) (3.9e-3
    at sps 4); between the two, noise can flip the estimate's sign."""
    return 3e-3 * 4.0 / sps


def cfo_warning(cfo, sps):
    """A line for a simulation whose CFO lies outside cfo_capture_range(),
    or None."""
    r = cfo_capture_range(sps)
    if abs(cfo) <= r:
        return None
    return ("warning: --cfo %.3g is outside the receiver's stated capture range of +-%.3g "
            "cycles/sample at sps %d: expect estimates of the wrong sign and lost packets" % (cfo, r, sps))


def link_parameters(modulation, payload_bytes, code_rate):
    """The transport block of one burst: dict with qm, tbs (payload bits),
    g (codeword bits) and data_symbols (g / qm), for a code rate of about
    code_rate (TB and CRC bits over codeword bits)."""
    if modulation not in BITS_PER_SYMBOL:
        raise ValueError("modulation must be one of %s, got %r" % (sorted(BITS_PER_SYMBOL), modulation))
    if not 4 <= payload_bytes <= 12237:
        raise ValueError("payload_bytes must be in 4..12237 (a TB of at most 97896 bits), got %r"
                         % (payload_bytes,))
    if not 0.05 <= code_rate <= 0.93:
        raise ValueError("code_rate must be in 0.05..0.93, got %r" % (code_rate,))
    qm = BITS_PER_SYMBOL[modulation]
    tbs = 8 * payload_bytes
    data_symbols = int(math.ceil((tbs + 24) / (code_rate * qm)))
    return {"qm": qm, "tbs": tbs, "g": data_symbols * qm, "data_symbols": data_symbols}


def rrc_taps(sps, rolloff, span=11):
    """Root-raised-cosine taps of unit energy, span symbols long: a symbol of
    unit energy keeps unit energy, and the matched filter's noise keeps the
    channel's variance per sample."""
    taps = firdes.root_raised_cosine(1.0, float(sps), 1.0, rolloff, span * sps + 1)
    e = math.sqrt(sum(t * t for t in taps))
    return [t / e for t in taps]


def tb_tags(p, rnti, cell_id):
    """The lte_sch blocks' per-packet parameters for the link: one
    transmission per TB (rv 0, no HARQ combining)."""
    d = pmt.make_dict()
    for k, v in (("tbs", p["tbs"]), ("rv", 0), ("qm", p["qm"]), ("rnti", rnti), ("cell_id", cell_id),
                 ("subframe", 0), ("harq_process", 0), ("ndi", 0), ("g", p["g"])):
        d = pmt.dict_add(d, pmt.intern(k), pmt.from_long(int(v)))
    return d


def tb_decoding_chain(p, rnti, cell_id, backend, iterations, len_tag_key, input_tags=True, options=None):
    """What every receiver here ends with, for LLR packets of one TB each
    (float, tagged stream of G): the link's TB tags (packet_tagger, unless
    the packets already carry them), lte_sch_decoder_tagged with no HARQ
    combining, packet_counter. Returns the blocks, to connect in order.
    options: the decoder's pipeline_options (default: batches of up to 64
    TBs, 3 in flight, launched 1 ms after their first TB)."""
    decoder = lte_sch_decoder_tagged("dlsch", iterations, "scaled-max-log-map", "float", 0, True,
                                     max(p["tbs"], 16), max(p["g"], 8), "auto", 0, 1, len_tag_key,
                                     options or pipeline_options(64, 3, 1000, backend))
    chain = [decoder, packet_counter(len_tag_key)]
    if input_tags:
        chain.insert(0, packet_tagger(gr.sizeof_float, tb_tags(p, rnti, cell_id), len_tag_key))
    return chain


def expose_counter_ports(hier, counter):
    """packet_counter's message ports "pdus" and "stats" as the hier block's."""
    for port in ("pdus", "stats"):
        hier.message_port_register_hier_out(port)
        hier.msg_connect(counter, port, hier, port)


class packet_link_tx(gr.hier_block2):
    """Payload bytes (a tagged stream, payload_bytes per packet) in; baseband
    bursts out (a tagged stream, len_tag_key = the burst's samples, for
    uhd.usrp_sink's burst mode), sps samples per symbol, amplitude^2 the
    energy per symbol."""

    def __init__(self, modulation="qpsk", payload_bytes=128, code_rate=0.5, sps=4, rolloff=0.35,
                 gap_symbols=64, rnti=4660, cell_id=1, amplitude=1.0, len_tag_key="packet_len"):
        gr.hier_block2.__init__(self, "packet_link_tx",
                                gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        if not 2 <= sps <= 64:
            raise ValueError("sps must be in 2..64, got %r" % (sps,))
        if not 0.0 < amplitude <= 100.0:
            raise ValueError("amplitude must be in (0, 100], got %r" % (amplitude,))
        self.params = link_parameters(modulation, payload_bytes, code_rate)
        p = self.params
        self.unpack = blocks.packed_to_unpacked_bb(1, gr.GR_MSB_FIRST)
        self.bits_len = blocks.tagged_stream_multiply_length(gr.sizeof_char, len_tag_key, 8)
        self.tagger = packet_tagger(gr.sizeof_char, tb_tags(p, rnti, cell_id), len_tag_key)
        self.encoder = lte_sch_encoder_tagged("dlsch", len_tag_key, max(p["tbs"], 16), max(p["g"], 8))
        self.framer = burst_framer(modulation, p["data_symbols"], gap_symbols, len_tag_key)
        self.shaper = filter.interp_fir_filter_ccf(sps, [amplitude * t for t in rrc_taps(sps, rolloff)])
        self.samples_len = blocks.tagged_stream_multiply_length(gr.sizeof_gr_complex, len_tag_key, sps)
        self.connect(self, self.unpack, self.bits_len, self.tagger, self.encoder, self.framer,
                     self.shaper, self.samples_len, self)

    def burst_samples(self):
        """Samples per burst, gap included."""
        return self.framer.burst_symbols() * self.shaper.interpolation()


class packet_link_rx(gr.hier_block2):
    """Baseband samples in (sps per symbol); out, with symbol_output: the
    equalised data symbols, for a constellation display; message ports
    "pdus" (good payloads) and "stats" (packet_counter's counters)."""

    def __init__(self, modulation="qpsk", payload_bytes=128, code_rate=0.5, sps=4, rolloff=0.35,
                 rnti=4660, cell_id=1, backend="auto", iterations=6, threshold=0.25,
                 symbol_output=False, len_tag_key="packet_len"):
        n_out = 1 if symbol_output else 0
        gr.hier_block2.__init__(self, "packet_link_rx",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(n_out, n_out, gr.sizeof_gr_complex))
        if backend not in ("auto", "cpu", "cuda"):
            raise ValueError("backend must be 'auto', 'cpu' or 'cuda', got %r" % (backend,))
        self.params = link_parameters(modulation, payload_bytes, code_rate)
        p = self.params
        self.matched = filter.fft_filter_ccf(1, rrc_taps(sps, rolloff))
        self.sync = burst_sync(sps, p["data_symbols"], threshold, 0.15, len_tag_key)
        self.demapper = qam_demapper(modulation, 1.0)
        self.llr_len = blocks.tagged_stream_multiply_length(gr.sizeof_float, len_tag_key, p["qm"])
        # One TB at a time, at the link's pace: a batch is due 1 ms after
        # its first TB, so a slow link waits at most that long.
        self.tagger, self.decoder, self.counter = tb_decoding_chain(p, rnti, cell_id, backend, iterations,
                                                                    len_tag_key)
        self.connect(self, self.matched, self.sync, self.demapper, self.llr_len, self.tagger,
                     self.decoder, self.counter)
        if symbol_output:
            self.connect(self.sync, self)
        expose_counter_ports(self, self.counter)

    # The counters, for GRC's function probes and the scripts.
    def decoded(self):
        return self.counter.decoded()

    def crc_fail(self):
        return self.counter.crc_fail()

    def lost(self):
        return self.counter.lost()

    def per(self):
        return self.counter.per()

    def snr_db(self):
        return self.counter.snr_db()

    def cfo(self):
        return self.counter.cfo()

    def goodput_bps(self):
        return self.counter.goodput_bps()

    def bursts(self):
        return self.sync.bursts()

    def false_alarms(self):
        return self.sync.false_alarms()

    def backend(self):
        return self.decoder.backend()


class packet_link_genie(gr.hier_block2):
    """The same transport blocks and constellation with a genie receiver:
    the QAM symbols through white noise of Es/N0 snr_db, demapped with the
    true N0, decoded; no burst, no synchronisation, no estimation. Payload
    bytes in; counters as packet_link_rx's. The reference for the
    receiver's implementation loss (docs/radio-link.md)."""

    def __init__(self, modulation="qpsk", payload_bytes=128, code_rate=0.5, snr_db=3.0, seed=1,
                 rnti=4660, cell_id=1, backend="auto", iterations=6, len_tag_key="packet_len"):
        gr.hier_block2.__init__(self, "packet_link_genie",
                                gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(0, 0, 0))
        from gnuradio import analog
        from .gpurx_python import qam_mapper
        self.params = link_parameters(modulation, payload_bytes, code_rate)
        p = self.params
        n0 = 10.0 ** (-snr_db / 10.0)
        self.unpack = blocks.packed_to_unpacked_bb(1, gr.GR_MSB_FIRST)
        self.bits_len = blocks.tagged_stream_multiply_length(gr.sizeof_char, len_tag_key, 8)
        self.tagger = packet_tagger(gr.sizeof_char, tb_tags(p, rnti, cell_id), len_tag_key)
        self.encoder = lte_sch_encoder_tagged("dlsch", len_tag_key, max(p["tbs"], 16), max(p["g"], 8))
        self.mapper = qam_mapper(modulation)
        self.symbols_len = blocks.tagged_stream_multiply_length(gr.sizeof_gr_complex, len_tag_key, 1.0 / p["qm"])
        self.noise = analog.noise_source_c(analog.GR_GAUSSIAN, math.sqrt(n0), seed)
        self.add = blocks.add_cc()
        self.demapper = qam_demapper(modulation, n0)
        self.llr_len = blocks.tagged_stream_multiply_length(gr.sizeof_float, len_tag_key, p["qm"])
        # The encoder's TB tags travel with the symbols to the decoder.
        self.decoder, self.counter = tb_decoding_chain(p, rnti, cell_id, backend, iterations, len_tag_key,
                                                       input_tags=False)
        self.connect(self, self.unpack, self.bits_len, self.tagger, self.encoder, self.mapper,
                     self.symbols_len, (self.add, 0))
        self.connect(self.noise, (self.add, 1))
        self.connect(self.add, self.demapper, self.llr_len, self.decoder, self.counter)

    def decoded(self):
        return self.counter.decoded()

    def crc_fail(self):
        return self.counter.crc_fail()

    def backend(self):
        return self.decoder.backend()
