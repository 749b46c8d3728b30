#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the packet link's and the MIMO-OFDM link's GRC flowgraphs
(examples/packet_link_*.grc, examples/mimo_ofdm_*.grc)
through GNU Radio Companion's own platform, so that every block carries
GRC's defaults for the parameters not set here (the UHD blocks have
hundreds). Run from the repository root after changing a link block's YAML:

    /usr/bin/python3 scripts/make-packet-link-grc.py
"""
import os

from gnuradio import gr
from gnuradio.grc.core.platform import Platform

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def platform():
    p = Platform(version=gr.version(),
                 version_parts=(gr.major_version(), gr.api_version(), gr.minor_version()),
                 prefs=gr.prefs())
    p.build_library([os.path.join(ROOT, "grc"), os.path.join(gr.prefix(), "share", "gnuradio", "grc", "blocks")])
    return p


class graph:
    def __init__(self, p, gid, title, description, gui):
        self.p = p
        self.fg = p.make_flow_graph()
        o = self.fg.options_block
        for k, v in (("id", gid), ("title", title), ("author", "gr-gpurx authors"),
                     ("copyright", "2026 gr-gpurx authors, GPL-3.0-or-later"), ("description", description),
                     ("generate_options", "qt_gui" if gui else "no_gui"),
                     ("run_options", "prompt" if gui else "run")):
            o.params[k].set_value(v)
        self.x, self.y = 200, 8

    def block(self, key, grc_id, at=None, **params):
        b = self.fg.new_block(key)
        b.params["id"].set_value(grc_id)
        for k, v in params.items():
            b.params[k].set_value(str(v))
        if at is None:
            at = (self.x, self.y)
            self.x += 180
            if self.x > 1000:
                self.x, self.y = 200, self.y + 80
        b.states["coordinate"] = at
        b.rewrite()
        return b

    def connect(self, a, b, pa=0, pb=0):
        src = [s for s in a.sources if s.key == str(pa)][0]
        dst = [s for s in b.sinks if s.key == str(pb)][0]
        self.fg.connect(src, dst)

    def save(self, name):
        self.fg.rewrite()
        self.fg.validate()
        errors = [e for e in self.fg.iter_error_messages()]
        if errors:
            raise SystemExit("%s: %s" % (name, errors))
        self.p.save_flow_graph(os.path.join(ROOT, "examples", name), self.fg)
        print("wrote examples/%s" % name)


def parameter(g, name, label, value, kind, at):
    return g.block("parameter", name, at, label=label, value=value, type=kind, hide="none")


def loopback(p):
    g = graph(p, "packet_link_loopback", "gr-gpurx packet link: loopback twin",
              "The packet link of the USRP flowgraphs (packet_link_usrp_tx/rx.grc) through a simulated "
              "channel: frequency offset, sampling-rate offset, fractional delay, 3-path multipath, "
              "phase noise, AWGN. Headless; the same as packet_link_loopback.py. Prints: packets: sent N, "
              "decoded M, crc_fail F, missed D. Options: --snr-db --cfo --sro-ppm --delay --packets --seed "
              "--modulation --backend.", gui=False)
    pars = [("snr_db", "Es/N0 (dB)", "3.0", "eng_float"), ("cfo", "CFO (cycles/sample)", "1e-3", "eng_float"),
            ("sro_ppm", "SRO (ppm)", "50.0", "eng_float"), ("delay", "Delay (samples)", "123.4", "eng_float"),
            ("packets", "Packets", "100", "intx"), ("seed", "Seed", "1", "intx"),
            ("modulation", "Modulation", "qpsk", "str"), ("backend", "Decoder backend", "auto", "str")]
    for i, (n, l, v, t) in enumerate(pars):
        parameter(g, n, l, v, t, (200 + 150 * (i % 4), 8 + 100 * (i // 4)))
    g.x, g.y = 8, 260
    src = g.block("gpurx_payload_source", "source", (8, 260), payload_bytes="128", packets="packets", seed="seed")
    tx = g.block("gpurx_packet_link_tx", "tx", (220, 260), modulation="modulation", payload_bytes="128")
    ch = g.block("gpurx_impaired_channel", "channel", (500, 260), snr_db="snr_db", cfo="cfo", sro_ppm="sro_ppm",
                 delay="delay", seed="seed")
    rx = g.block("gpurx_packet_link_rx", "rx", (780, 260), modulation="modulation", payload_bytes="128",
                 decoder_backend="backend", symbol_output="False")
    g.block("snippet", "report", (8, 420), section="main_after_stop", priority="0",
            code="sent, decoded, fail = self.source.sent(), self.rx.decoded(), self.rx.crc_fail()\n"
                 "print('receiver: backend %s, %d bursts, %d false alarms, mean snr %.2f dB, mean cfo %.3g'"
                 " % (self.rx.backend(), self.rx.bursts(), self.rx.false_alarms(), self.rx.snr_db(), self.rx.cfo()))\n"
                 "print('packets: sent %d, decoded %d, crc_fail %d, missed %d'"
                 " % (sent, decoded, fail, max(0, sent - decoded - fail)))")
    g.connect(src, tx)
    g.connect(tx, ch)
    g.connect(ch, rx)
    g.save("packet_link_loopback.grc")


def usrp_tx(p):
    g = graph(p, "packet_link_usrp_tx", "gr-gpurx packet link: USRP transmitter",
              "Payloads (a sequence number and random bytes) -> Packet Link Transmitter -> USRP Sink in burst "
              "mode (length tag packet_len). Pair with packet_link_usrp_rx.grc at the same frequency, "
              "rate and link parameters. docs/radio-link.md lists the settings.", gui=True)
    g.block("variable", "samp_rate", (200, 8), value="1e6")
    g.block("variable", "freq", (300, 8), value="915e6")
    g.block("variable", "modulation", (400, 8), value='"qpsk"')
    g.block("variable_qtgui_range", "tx_gain", (560, 8), label="TX gain (dB)", value="40", start="0",
            stop="89", step="1")
    src = g.block("gpurx_payload_source", "source", (8, 200), payload_bytes="128", packets="0")
    tx = g.block("gpurx_packet_link_tx", "tx", (220, 200), modulation="modulation", payload_bytes="128",
                 amplitude="0.6")
    sink = g.block("uhd_usrp_sink", "usrp", (520, 200), samp_rate="samp_rate", center_freq0="freq",
                   gain0="tx_gain", ant0='"TX/RX"', len_tag_name='"packet_len"', clock_source0='', sync='pc_clock',
                   time_source0='')
    g.connect(src, tx)
    g.connect(tx, sink)
    g.save("packet_link_usrp_tx.grc")


def usrp_rx(p):
    g = graph(p, "packet_link_usrp_rx", "gr-gpurx packet link: USRP receiver",
              "USRP Source -> Packet Link Receiver (burst detection, sync, equaliser, N0, soft demapping, "
              "LTE SCH decoder on the GPU when usable) -> constellation, PER, CFO and SNR displays. Pair with "
              "packet_link_usrp_tx.grc. docs/radio-link.md lists the settings.", gui=True)
    g.block("variable", "samp_rate", (200, 8), value="1e6")
    g.block("variable", "freq", (300, 8), value="915e6")
    g.block("variable", "modulation", (400, 8), value='"qpsk"')
    g.block("variable_qtgui_range", "rx_gain", (560, 8), label="RX gain (dB)", value="30", start="0",
            stop="76", step="1")
    probes = []
    for i, (name, fn, label, fmt) in enumerate((("per", "per", "PER", "lambda x: '%.2e' % x"),
                                                 ("cfo", "cfo", "CFO (cycles/sample)", "lambda x: '%.3g' % x"),
                                                 ("snr", "snr_db", "SNR (dB)", "lambda x: '%.1f' % x"),
                                                 ("decoded", "decoded", "Decoded", "None"),
                                                 ("crc_fail", "crc_fail", "CRC failures", "None"))):
        g.block("variable_function_probe", name + "_probe", (8 + 200 * i, 150), block_id="rx",
                function_name=fn, function_args="", poll_rate="2", value="0")
        g.block("variable_qtgui_label", name + "_label", (8 + 200 * i, 270), label=label,
                type="raw", value=name + "_probe", formatter=fmt,
                gui_hint="1,%d,1,1" % i)
    src = g.block("uhd_usrp_source", "usrp", (8, 390), samp_rate="samp_rate", center_freq0="freq",
                  gain0="rx_gain", ant0='"RX2"', clock_source0='', time_source0='', sync='pc_clock')
    rx = g.block("gpurx_packet_link_rx", "rx", (330, 390), modulation="modulation", payload_bytes="128",
                 symbol_output="True")
    const = g.block("qtgui_const_sink_x", "constellation", (640, 390), name='"Equalised symbols"',
                    size="1024", gui_hint="0,0,1,5")
    g.connect(src, rx)
    g.connect(rx, const)
    g.save("packet_link_usrp_rx.grc")


def mimo_loopback(p):
    g = graph(p, "mimo_ofdm_link_loopback", "gr-gpurx MIMO-OFDM link: loopback twin",
              "The MIMO-OFDM link of mimo_ofdm_usrp_tx/rx.grc through a simulated channel: independent taps "
              "per antenna pair (exponential profile), a delay, a frequency offset, AWGN. Headless; as "
              "mimo_ofdm_link_loopback.py (2x2 here). Prints: packets: sent N, decoded M, crc_fail F, missed D.",
              gui=False)
    pars = [("snr_db", "Es/N0 (dB)", "15.0", "eng_float"), ("cfo", "CFO (cycles/sample)", "2e-3", "eng_float"),
            ("delay", "Delay (samples)", "37", "intx"), ("packets", "Packets", "50", "intx"),
            ("seed", "Seed", "1", "intx"), ("backend", "Backend", "auto", "str")]
    for i, (n, l, v, t) in enumerate(pars):
        parameter(g, n, l, v, t, (200 + 150 * (i % 4), 8 + 100 * (i // 4)))
    src = g.block("gpurx_payload_source", "source", (8, 260), payload_bytes="128", packets="packets", seed="seed")
    tx = g.block("gpurx_mimo_ofdm_tx", "tx", (220, 260), nt="2", modulation='"16qam"')
    ch = g.block("gpurx_mimo_ofdm_channel", "channel", (480, 260), nt="2", nr="2", snr_db="snr_db", cfo="cfo",
                 delay="delay", seed="seed")
    rx = g.block("gpurx_mimo_ofdm_rx", "rx", (760, 260), nt="2", nr="2", modulation='"16qam"',
                 decoder_backend="backend")
    g.block("snippet", "report", (8, 420), section="main_after_stop", priority="0",
            code="sent, decoded, fail = self.source.sent(), self.rx.decoded(), self.rx.crc_fail()\n"
                 "print('packets: sent %d, decoded %d, crc_fail %d, missed %d'"
                 " % (sent, decoded, fail, max(0, sent - decoded - fail)))")
    g.connect(src, tx)
    for j in range(2):
        g.connect(tx, ch, j, j)
        g.connect(ch, rx, j, j)
    g.save("mimo_ofdm_link_loopback.grc")


def mimo_usrp_tx(p):
    g = graph(p, "mimo_ofdm_usrp_tx", "gr-gpurx MIMO-OFDM link: 2x2 USRP transmitter",
              "Payloads -> MIMO-OFDM Link Transmitter (2 antennas) -> a two-channel USRP Sink in burst mode "
              "(B210, or an X310/N310 with two daughterboards). Pair with mimo_ofdm_usrp_rx.grc. "
              "docs/mimo-ofdm.md lists the settings.", gui=True)
    g.block("variable", "samp_rate", (200, 8), value="1e6")
    g.block("variable", "freq", (300, 8), value="915e6")
    g.block("variable_qtgui_range", "tx_gain", (560, 8), label="TX gain (dB)", value="40", start="0",
            stop="89", step="1")
    src = g.block("gpurx_payload_source", "source", (8, 200), payload_bytes="128", packets="0")
    tx = g.block("gpurx_mimo_ofdm_tx", "tx", (220, 200), nt="2", modulation='"16qam"', amplitude="0.25")
    sink = g.block("uhd_usrp_sink", "usrp", (520, 200), nchan="2", samp_rate="samp_rate",
                   center_freq0="freq", gain0="tx_gain", ant0='"TX/RX"', center_freq1="freq", gain1="tx_gain",
                   ant1='"TX/RX"', len_tag_name='"packet_len"', clock_source0='', sync='pc_clock',
                   time_source0='')
    g.connect(src, tx)
    g.connect(tx, sink, 0, 0)
    g.connect(tx, sink, 1, 1)
    g.save("mimo_ofdm_usrp_tx.grc")


def mimo_usrp_rx(p):
    g = graph(p, "mimo_ofdm_usrp_rx", "gr-gpurx MIMO-OFDM link: 2x2 USRP receiver",
              "A two-channel USRP Source -> MIMO-OFDM Link Receiver (sync, channel estimation, MIMO "
              "detector and LTE SCH decoder on the GPU when usable) -> decoded, CRC-failure and CFO "
              "displays. Pair with mimo_ofdm_usrp_tx.grc. docs/mimo-ofdm.md lists the settings.", gui=True)
    g.block("variable", "samp_rate", (200, 8), value="1e6")
    g.block("variable", "freq", (300, 8), value="915e6")
    g.block("variable_qtgui_range", "rx_gain", (560, 8), label="RX gain (dB)", value="30", start="0",
            stop="76", step="1")
    for i, (name, fn, label, fmt) in enumerate((("decoded", "decoded", "Decoded", "None"),
                                                 ("crc_fail", "crc_fail", "CRC failures", "None"),
                                                 ("frames", "frames", "Frames found", "None"),
                                                 ("cfo", "cfo", "CFO (cycles/sample)", "lambda x: '%.3g' % x"))):
        g.block("variable_function_probe", name + "_probe", (8 + 200 * i, 150), block_id="rx",
                function_name=fn, function_args="", poll_rate="2", value="0")
        g.block("variable_qtgui_label", name + "_label", (8 + 200 * i, 270), label=label, type="raw",
                value=name + "_probe", formatter=fmt, gui_hint="0,%d,1,1" % i)
    src = g.block("uhd_usrp_source", "usrp", (8, 390), nchan="2", samp_rate="samp_rate", center_freq0="freq",
                  gain0="rx_gain", ant0='"RX2"', center_freq1="freq", gain1="rx_gain", ant1='"RX2"',
                  clock_source0='', time_source0='', sync='pc_clock')
    rx = g.block("gpurx_mimo_ofdm_rx", "rx", (330, 390), nt="2", nr="2", modulation='"16qam"')
    g.connect(src, rx, 0, 0)
    g.connect(src, rx, 1, 1)
    g.save("mimo_ofdm_usrp_rx.grc")


if __name__ == "__main__":
    p = platform()
    loopback(p)
    usrp_tx(p)
    usrp_rx(p)
    mimo_loopback(p)
    mimo_usrp_tx(p)
    mimo_usrp_rx(p)
