#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The two-process twin's transmitter (docs/radio-link.md): payloads ->
packet_link_tx -> the impaired channel of the loopback twin -> a ZMQ PUSH
socket, where packet_link_zmq_rx.py (another process, as another radio
would be) pulls the samples. Takes the loopback twin's options."""
import sys
import time

from gnuradio import gr, zeromq

from gnuradio import gpurx

import packet_link_loopback


class zmq_tx(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "packet_link_zmq_tx")
        self.source = gpurx.payload_source(a.payload_bytes, a.packets, a.seed)
        self.tx = gpurx.packet_link_tx(a.modulation, a.payload_bytes, a.code_rate, a.sps)
        self.channel = gpurx.impaired_channel(a.snr_db, a.cfo, a.sro_ppm, a.delay, a.phase_noise,
                                              not a.no_multipath, a.seed, a.sps)
        # No timeout on a full queue: the receiver's pace holds the sender.
        self.sink = zeromq.push_sink(gr.sizeof_gr_complex, 1, a.address, 100, False, -1)
        self.connect(self.source, self.tx, self.channel, self.sink)


def main(argv=None):
    p = packet_link_loopback.parser()
    p.add_argument("--address", default="tcp://127.0.0.1:52001", help="the ZMQ PUSH socket to bind")
    a = p.parse_args(argv)
    tb = zmq_tx(a)
    tb.run()
    # The socket sends what it queued before the process ends.
    time.sleep(1.0)
    print("transmitter: sent %d packets" % tb.source.sent())
    return 0


if __name__ == "__main__":
    sys.exit(main())
