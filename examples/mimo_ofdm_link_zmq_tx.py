#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The MIMO-OFDM link's two-process twin, transmitter side
(docs/mimo-ofdm.md): payloads -> mimo_ofdm_tx -> the twin's multi-antenna
channel -> the nr receive streams, interleaved as vectors of nr samples, to
a ZMQ PUSH socket, where mimo_ofdm_link_zmq_rx.py (another process, as a
second radio would be) pulls them. Takes the loopback twin's options."""
import sys
import time

from gnuradio import blocks, gr, zeromq

from gnuradio import gpurx
from gnuradio.gpurx import mimo_ofdm_link as link

import mimo_ofdm_link_loopback


class zmq_tx(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "mimo_ofdm_link_zmq_tx")
        num = link.ofdm_numerology()
        self.source = gpurx.payload_source(a.payload_bytes, a.packets, a.seed)
        self.tx = link.mimo_ofdm_tx(a.nt, a.modulation, a.payload_bytes, a.code_rate, num)
        self.channel = link.mimo_ofdm_channel(a.nt, a.nr, a.profile, 10.0 ** (-a.snr_db / 10.0), a.cfo, a.delay,
                                              a.seed)
        self.pack = blocks.streams_to_vector(gr.sizeof_gr_complex, a.nr)
        self.sink = zeromq.push_sink(gr.sizeof_gr_complex, a.nr, a.address, 100, False, -1)
        self.connect(self.source, self.tx)
        for j in range(a.nt):
            self.connect((self.tx, j), (self.channel, j))
        for r in range(a.nr):
            self.connect((self.channel, r), (self.pack, r))
        self.connect(self.pack, self.sink)


def main(argv=None):
    p = mimo_ofdm_link_loopback.parser()
    p.add_argument("--address", default="tcp://127.0.0.1:52101", help="the ZMQ PUSH socket to bind")
    a = p.parse_args(argv)
    tb = zmq_tx(a)
    tb.run()
    time.sleep(1.0)  # the socket sends what it queued before the process ends
    print("transmitter: sent %d packets" % tb.source.sent())
    return 0


if __name__ == "__main__":
    sys.exit(main())
