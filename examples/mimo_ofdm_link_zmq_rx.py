#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The MIMO-OFDM link's two-process twin, receiver side (docs/mimo-ofdm.md):
a ZMQ PULL socket (mimo_ofdm_link_zmq_tx.py's vectors of nr samples) ->
mimo_ofdm_rx. Runs until --packets frames are accounted for or none
arrived for --idle seconds, then prints

    packets: sent N, decoded M, crc_fail F, missed D
"""
import sys
import time

from gnuradio import blocks, gr, zeromq

from gnuradio.gpurx import mimo_ofdm_link as link

import mimo_ofdm_link_loopback


class zmq_rx(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "mimo_ofdm_link_zmq_rx")
        self.source = zeromq.pull_source(gr.sizeof_gr_complex, a.nr, a.address, 100, False, -1)
        self.unpack = blocks.vector_to_streams(gr.sizeof_gr_complex, a.nr)
        self.rx = link.mimo_ofdm_rx(a.nt, a.nr, a.modulation, a.payload_bytes, a.code_rate,
                                    link.ofdm_numerology(), a.algorithm, a.backend)
        self.connect(self.source, self.unpack)
        for r in range(a.nr):
            self.connect((self.unpack, r), (self.rx, r))


def main(argv=None):
    p = mimo_ofdm_link_loopback.parser()
    p.add_argument("--address", default="tcp://127.0.0.1:52101", help="the transmitter's ZMQ socket")
    p.add_argument("--idle", type=float, default=5.0, help="seconds without a packet before giving up")
    a = p.parse_args(argv)
    tb = zmq_rx(a)
    tb.start()
    last, seen_at = -1, time.time()
    while True:
        seen = tb.rx.decoded() + tb.rx.crc_fail()
        if seen >= a.packets:
            break
        if seen != last:
            last, seen_at = seen, time.time()
        elif time.time() - seen_at > a.idle:
            break
        time.sleep(0.05)
    tb.stop()
    tb.wait()
    decoded, fail = tb.rx.decoded(), tb.rx.crc_fail()
    print("receiver: %dx%d %s, backend %s, %d frames" % (a.nt, a.nr, a.modulation, tb.rx.backend(), tb.rx.frames()))
    print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
          % (a.packets, decoded, fail, max(0, a.packets - decoded - fail)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
