#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpurx-lte-dl --usrp: every transport block of a live LTE downlink cell,
received with a USRP (B2x0, X3x0, N2x0, ...) through gr-uhd's USRP Source
and decoded by gpurx.lte_dl_receiver. gpurx-lte-dl runs this program when
--usrp is given, passing its arguments through; it writes the same JSON
lines, pcap, progress line and summary as gpurx-lte-dl does for a capture.

  gpurx-lte-dl --usrp "type=b200" --freq 806e6 --gain 40 [--rate 30.72e6]
               [--channels 1|2] [--rnti all] [--jsonl F] [--pcap F] ...

The sample rate must be a standard LTE rate at least as wide as the cell
(30.72e6, the default, takes any; 7.68e6 a 5 MHz cell or narrower), and one
the device gives exactly: a B2x0 gives every one; an X3x0 with
master_clock_rate=184.32e6 in --usrp gives 30.72e6, 15.36e6 and 7.68e6 (not
at its default 200 MHz); an N2x0 (100 MHz) gives none, so the program
refuses the rate it cannot give. Clock and time sources are set only when
given (an N2x0 refuses "internal"). The USRP's rx_time tags mark each
overflow ("O"): those subframes are reported lost, never decoded as if the
stream were contiguous.

--replay FILE[,FILE2] runs the same program on cf32 captures in place of the
radio (the check of this program where no radio is attached).
"""
import argparse
import json
import os
import signal
import sys
import threading
import time

import pmt
from gnuradio import blocks, gr

from gnuradio import gpurx

LTE_RATES = (1.92e6, 3.84e6, 7.68e6, 15.36e6, 23.04e6, 30.72e6)


def parser():
    p = argparse.ArgumentParser(
        prog="gpurx-lte-dl --usrp",
        description="Every transport block of a live LTE downlink cell, from a USRP "
                    "(docs/lte-downlink.md).")
    radio = p.add_argument_group("radio")
    radio.add_argument("--usrp", metavar="ARGS", default=None,
                       help='UHD device arguments ("" for the first device, "type=b200", '
                            '"addr=192.168.10.2")')
    radio.add_argument("--freq", type=float, help="downlink centre frequency, Hz (the EARFCN's)")
    radio.add_argument("--gain", type=float, default=None, help="receive gain, dB (default: the device's)")
    radio.add_argument("--rate", type=float, default=30.72e6,
                       help="sample rate, a standard LTE rate (default 30.72e6: any bandwidth)")
    radio.add_argument("--channels", type=int, default=1, choices=(1, 2),
                       help="receive channels (antennas), 1 or 2 (default 1)")
    radio.add_argument("--antenna", default="", help='antenna port of every channel (e.g. "RX2"; default: the device\'s)')
    radio.add_argument("--subdev", default="", help='subdevice spec (e.g. "A:A A:B" for 2 channels of a B210)')
    radio.add_argument("--bandwidth", type=float, default=0.0, help="analog filter bandwidth, Hz (0: the device's)")
    radio.add_argument("--clock-source", default="",
                       help='reference clock source ("internal", "external", "gpsdo"; default: the '
                            'device\'s - N2x0 refuses "internal")')
    radio.add_argument("--time-source", default="", help='time source ("external", "gpsdo"; default: the device\'s)')
    radio.add_argument("--duration", type=float, default=0.0, help="seconds to receive (default: until Ctrl-C)")
    radio.add_argument("--replay", metavar="FILE[,FILE2]", default=None,
                       help="cf32 capture(s) in place of the radio (checks this program without one)")
    ues = p.add_argument_group("UEs and receiver (as gpurx-lte-dl's)")
    ues.add_argument("--rnti", default="all", help='all (default) or a comma list of C-RNTIs (decimal or 0x-hex)')
    ues.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    ues.add_argument("--devices", default="0", help='CUDA devices ("0", "0,1", "all")')
    ues.add_argument("--ue-category", type=int, default=4)
    ues.add_argument("--detector", default="lmmse", help="TM3/TM4 MIMO detector: lmmse, mtt, kbest, ml, one-pass")
    ues.add_argument("--tm", type=int, default=0, choices=range(0, 8), metavar="0..7",
                     help="the UEs' transmission mode (the DCI formats searched: 1A and the mode's own; "
                          "6 receives 1B, 5 1D); 0 (default): not known, 1A, 1, 2A and 2")
    ues.add_argument("--max-subframes", type=int, default=0, help="stop after N subframes of samples")
    out = p.add_argument_group("output")
    out.add_argument("--jsonl", default="", help="one JSON object per decoded TB (gpurx-lte-dl's keys)")
    out.add_argument("--pcap", default="", help="a MAC-LTE pcap for Wireshark (DLT 147, mac-lte-framed)")
    out.add_argument("--quiet", action="store_true", help="no progress line")
    return p


def bits_hex(bits):
    """TB bits (0/1, MSB first) as lowercase hex, as gpurx-lte-dl writes them."""
    out = bytearray()
    for i in range(0, len(bits), 8):
        chunk = list(bits[i:i + 8]) + [0] * (8 - len(bits[i:i + 8]))
        v = 0
        for b in chunk:
            v = (v << 1) | (b & 1)
        out.append(v)
    return out.hex()


class tb_recorder(gr.basic_block):
    """The receiver's messages: TBs to the JSON lines and the per-RNTI
    counts, subframes and the cell's status to the summary."""

    def __init__(self, jsonl_path):
        gr.basic_block.__init__(self, "lte_dl_recorder", in_sig=None, out_sig=None)
        self.jsonl = open(jsonl_path, "w") if jsonl_path else None
        self.lock = threading.Lock()
        self.per_rnti = {}
        self.subframes = self.lost = self.no_control = self.pdschs = 0
        self.tbs = self.tbs_ok = self.duplicates = self.ok_bits = 0
        self.cell = None
        for port, handler in (("tbs", self.on_tb), ("stats", self.on_stats), ("status", self.on_status)):
            self.message_port_register_in(pmt.intern(port))
            self.set_msg_handler(pmt.intern(port), handler)

    def on_tb(self, msg):
        meta = pmt.to_python(pmt.car(msg))
        bits = pmt.u8vector_elements(pmt.cdr(msg))
        with self.lock:
            if meta["duplicate"]:
                self.duplicates += 1
                return
            self.tbs += 1
            c = self.per_rnti.setdefault(meta["rnti"], [0, 0, 0])
            c[0] += 1
            if meta["crc_ok"]:
                self.tbs_ok += 1
                self.ok_bits += meta["tbs"]
                c[1] += 1
                c[2] += meta["tbs"]
            if self.jsonl:
                self.jsonl.write(json.dumps({
                    "sfn": meta["sfn"], "subframe": meta["subframe"], "rnti": meta["rnti"], "tb": meta["tb"],
                    "tbs": meta["tbs"], "mcs": meta["mcs"], "rv": meta["rv"], "ndi": meta["ndi"],
                    "harq": meta["harq_process"], "crc_ok": bool(meta["crc_ok"]),
                    "payload": bits_hex(bits) if len(bits) else ""}, separators=(",", ":")) + "\n")

    def on_stats(self, msg):
        d = pmt.to_python(msg)
        with self.lock:
            self.subframes += 1
            self.pdschs += d["pdschs"]
            if d["outcome"] == "lost":
                self.lost += 1
            elif d["outcome"] == "no_control":
                self.no_control += 1

    def on_status(self, msg):
        d = pmt.to_python(msg)
        with self.lock:
            if d["state"] == "found":
                self.cell = d
            sys.stderr.write("\n%s%s\n" % (d["state"], (": " + d["reason"]) if d.get("reason") else (
                " cell %d, %d PRB, %d port(s)" % (d["cell_id"], d["n_prb"], d["ports"]) if "cell_id" in d else "")))

    def close(self):
        if self.jsonl:
            self.jsonl.close()
            self.jsonl = None


class lte_dl_usrp(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "gpurx-lte-dl --usrp")
        self.rx = gpurx.lte_dl_receiver(sample_rate=a.rate, n_rx=a.channels, rnti=a.rnti, backend=a.backend,
                                        devices=a.devices, ue_category=a.ue_category, detector=a.detector,
                                        pcap=a.pcap, tm=a.tm)
        self.recorder = tb_recorder(a.jsonl)
        for port in ("tbs", "stats", "status"):
            self.msg_connect(self.rx, port, self.recorder, port)
        if a.replay:
            self.sources = [blocks.file_source(gr.sizeof_gr_complex, f, False) for f in a.replay.split(",")]
        else:
            self.sources = [self.make_usrp(a)]
        heads = None
        if a.max_subframes > 0 or a.duration > 0:
            # A stream that ends: the last subframes are decoded and posted.
            n = int(a.max_subframes * a.rate / 1000) if a.max_subframes > 0 else int(a.duration * a.rate)
            heads = [blocks.head(gr.sizeof_gr_complex, n) for _ in range(a.channels)]
        for ch in range(a.channels):
            src = (self.sources[ch], 0) if a.replay else (self.sources[0], ch)
            if heads:
                self.connect(src, heads[ch], (self.rx, ch))
            else:
                self.connect(src, (self.rx, ch))

    @staticmethod
    def make_usrp(a):
        from gnuradio import uhd
        channels = list(range(a.channels))
        src = uhd.usrp_source(a.usrp, uhd.stream_args(cpu_format="fc32", channels=channels))
        # Clock and time sources only when asked: the devices differ in
        # what they take (an N2x0 refuses "internal").
        if a.clock_source:
            src.set_clock_source(a.clock_source, 0)
        if a.time_source:
            src.set_time_source(a.time_source, 0)
        if a.subdev:
            src.set_subdev_spec(a.subdev, 0)
        src.set_samp_rate(a.rate)
        actual = src.get_samp_rate()
        if abs(actual - a.rate) > 1e-6 * a.rate:
            raise SystemExit("--rate %g: the device gives %g S/s; choose a rate (or a master clock in --usrp, "
                             "e.g. master_clock_rate=30.72e6) it gives exactly" % (a.rate, actual))
        # Both channels from one time: gr-uhd starts a multi-channel
        # stream at a time a little ahead, aligned.
        src.set_time_now(uhd.time_spec(0.0), uhd.ALL_MBOARDS)
        for ch in channels:
            src.set_center_freq(a.freq, ch)
            if a.gain is not None:
                src.set_gain(a.gain, ch)
            if a.antenna:
                src.set_antenna(a.antenna, ch)
            if a.bandwidth > 0:
                src.set_bandwidth(a.bandwidth, ch)
        return src


def summary(rx, rec, rate, channels, wall):
    c = rec.cell
    if c is None and rec.subframes == 0:
        print("no cell found: %s" % rx.state())
        return 1
    if c is not None:
        print("cell %d: %d PRB, %d port(s), %s CP, CFO %.0f Hz, first SFN %d, %.2f MS/s, %d rx" % (
            c["cell_id"], c["n_prb"], c["ports"], c["cp"], c["cfo_hz"], c["sfn"], rate / 1e6, channels))
    print("subframes: %d seen, %d skipped (%d lost, %d without a readable control region)" % (
        rec.subframes, rec.lost + rec.no_control, rec.lost, rec.no_control))
    print("PDSCH: %d; TBs: %d decoded of %d (%d duplicates not decoded again)" % (
        rec.pdschs, rec.tbs_ok, rec.tbs, rec.duplicates))
    if rx.gaps():
        print("stream: %d discontinuities (rx_time), %d samples lost" % (rx.gaps(), rx.samples_lost()))
    seconds = rec.subframes * 1e-3
    print("%-8s %8s %8s %10s" % ("rnti", "TBs", "BLER", "Mbit/s"))
    for rnti in sorted(rec.per_rnti):
        n, ok, bits = rec.per_rnti[rnti]
        print("%-8d %8d %8.4f %10.3f" % (rnti, n, 1.0 - ok / n if n else 0.0, bits / seconds / 1e6 if seconds else 0.0))
    print("throughput: %.3f Mbit/s of TB bits over %.3f s of signal; wall time %.3f s, %.0f subframes/s" % (
        rec.ok_bits / seconds / 1e6 if seconds else 0.0, seconds, wall, rec.subframes / wall if wall else 0.0))
    return 0


def main(argv=None):
    a = parser().parse_args(argv)
    if a.replay is None and a.usrp is None:
        raise SystemExit("gpurx-lte-dl: --usrp ARGS (or --replay FILE) is required")
    if a.replay is None and a.freq is None:
        raise SystemExit("gpurx-lte-dl: --usrp needs --freq HZ")
    if not any(abs(a.rate - r) < 1.0 for r in LTE_RATES):
        raise SystemExit("gpurx-lte-dl: --rate %g: not a standard LTE rate (%s)" % (
            a.rate, ", ".join("%g" % r for r in LTE_RATES)))
    if a.replay is not None and len(a.replay.split(",")) != a.channels:
        raise SystemExit("gpurx-lte-dl: --replay: give one file per channel (--channels %d)" % a.channels)
    try:
        tb = lte_dl_usrp(a)
    except ValueError as e:
        raise SystemExit("gpurx-lte-dl: %s" % e)
    sys.stderr.write("%s\n" % tb.rx.backend())
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    t0 = time.monotonic()
    tb.start()
    # The flowgraph ends by itself with --max-subframes, --duration or
    # --replay; else at Ctrl-C (what the last batch held may then be lost).
    done = threading.Event()
    threading.Thread(target=lambda: (tb.wait(), done.set()), daemon=True).start()
    while not done.is_set() and not stop.is_set():
        done.wait(0.5)
        if not a.quiet:
            sys.stderr.write("\r  %s   " % tb.rx.stats_text())
    if not done.is_set():
        tb.stop()
        tb.wait()
    wall = time.monotonic() - t0
    if not a.quiet:
        sys.stderr.write("\n")
    rec = tb.recorder
    with rec.lock:
        rec.close()
        return summary(tb.rx, rec, a.rate, a.channels, wall)


if __name__ == "__main__":
    sys.exit(main())
