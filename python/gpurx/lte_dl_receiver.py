# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The LTE downlink receiver as a hierarchical block (docs/lte-downlink.md):
n_rx sample streams (a USRP Source, file sources) -> lte_dl_decoder, its
message ports "tbs", "stats" and "status" passed through, and the counters a
GUI shows (function probes, QT GUI labels or number sinks): subframes, TBs
decoded and delivered, BLER, subframes per second, the cell's state.

The same block serves the USRP flowgraph (examples/lte_dl_usrp.grc), the file
twin (examples/lte_dl_file.grc) and gpurx-lte-dl --usrp
(apps/gpurx_lte_dl_usrp.py).
"""
import threading
import time

from gnuradio import gr

from .gpurx_python import lte_dl_decoder

LTE_RATES = (1.92e6, 3.84e6, 7.68e6, 15.36e6, 23.04e6, 30.72e6)


class lte_dl_receiver(gr.hier_block2):
    """n_rx complex sample streams at sample_rate (a standard LTE rate,
    1.92e6 .. 30.72e6) in; message ports "tbs" (a PDU per transport block),
    "stats" (a dict per subframe) and "status" (the cell found, lost,
    searched for), as lte_dl_decoder's. Parameters as lte_dl_decoder's;
    ValueError names a bad one. Counters for a GUI: subframes(), tbs(),
    tbs_ok(), bler(), subframes_per_second(), mbps(), state(), stats_text()."""

    def __init__(self, sample_rate=7.68e6, n_rx=1, rnti="all", backend="auto", devices="0",
                 ue_category=4, detector="lmmse", pcap="", tm=0):
        if isinstance(n_rx, bool) or not isinstance(n_rx, int) or n_rx not in (1, 2):
            raise ValueError("n_rx must be 1 or 2, got %r" % (n_rx,))
        gr.hier_block2.__init__(self, "lte_dl_receiver",
                                gr.io_signature(n_rx, n_rx, gr.sizeof_gr_complex),
                                gr.io_signature(0, 0, 0))
        self.sample_rate = float(sample_rate)
        self.n_rx = n_rx
        self.decoder = lte_dl_decoder(float(sample_rate), n_rx, str(rnti), str(backend), str(devices),
                                      int(ue_category), str(detector), str(pcap), int(tm))
        for a in range(n_rx):
            self.connect((self, a), (self.decoder, a))
        for port in ("tbs", "stats", "status"):
            self.message_port_register_hier_out(port)
            self.msg_connect(self.decoder, port, self, port)
        # Rates over the interval between two calls (the GUI's poll), at
        # least half a second long.
        self._lock = threading.Lock()
        self._t0 = time.monotonic()
        self._last = (self._t0, 0, 0)
        self._rate = (0.0, 0.0)

    # The decoder's counters (thread-safe: read from GUI threads).
    def subframes(self):
        return self.decoder.subframes()

    def subframes_lost(self):
        return self.decoder.subframes_lost()

    def tbs(self):
        """TBs delivered (decoded or failed), retransmissions of TBs already
        delivered excepted."""
        return self.decoder.tbs()

    def tbs_ok(self):
        return self.decoder.tbs_ok()

    def duplicates(self):
        return self.decoder.duplicates()

    def bler(self):
        """Block error rate of the TBs delivered so far (0 before any)."""
        n = self.decoder.tbs()
        return 1.0 - self.decoder.tbs_ok() / n if n else 0.0

    def gaps(self):
        return self.decoder.gaps()

    def samples_lost(self):
        return self.decoder.samples_lost()

    def state(self):
        return self.decoder.state()

    def cell_id(self):
        return self.decoder.cell_id()

    def backend(self):
        return self.decoder.backend()

    def _rates(self):
        with self._lock:
            now = time.monotonic()
            t, sf, bits = self._last
            if now - t >= 0.5:
                sf_now, bits_now = self.decoder.subframes(), self.decoder.ok_bits()
                self._rate = ((sf_now - sf) / (now - t), (bits_now - bits) / (now - t) / 1e6)
                self._last = (now, sf_now, bits_now)
            return self._rate

    def subframes_per_second(self):
        """Subframes processed per second of wall time, over the last half
        second or more (1000 keeps up with a live cell)."""
        return self._rates()[0]

    def mbps(self):
        """TB bits whose CRC passed, Mbit/s of wall time, as subframes_per_second."""
        return self._rates()[1]

    def stats_text(self):
        """One line for a GUI label or a progress line."""
        cell = self.decoder.cell_id()
        where = ("cell %d" % cell) if cell >= 0 else self.decoder.state()
        return "%s | subframes %d (%d lost) | TBs %d/%d ok | BLER %.4f | %.0f subframes/s | %.2f Mbit/s" % (
            where, self.decoder.subframes(), self.decoder.subframes_lost(), self.decoder.tbs_ok(),
            self.decoder.tbs(), self.bler(), self.subframes_per_second(), self.mbps())
