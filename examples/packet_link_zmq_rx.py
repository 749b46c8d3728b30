#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The two-process twin's receiver (docs/radio-link.md): a ZMQ PULL socket
(packet_link_zmq_tx.py's samples) -> packet_link_rx. Runs until --packets
bursts are accounted for or no packet arrived for --idle seconds, then
prints the loopback twin's final line

    packets: sent N, decoded M, crc_fail F, missed D
"""
import sys
import time

from gnuradio import gr, zeromq

from gnuradio import gpurx

import packet_link_loopback


class zmq_rx(gr.top_block):
    def __init__(self, a):
        gr.top_block.__init__(self, "packet_link_zmq_rx")
        self.source = zeromq.pull_source(gr.sizeof_gr_complex, 1, a.address, 100, False, -1)
        self.rx = gpurx.packet_link_rx(a.modulation, a.payload_bytes, a.code_rate, a.sps, backend=a.backend)
        self.connect(self.source, self.rx)


def main(argv=None):
    p = packet_link_loopback.parser()
    p.add_argument("--address", default="tcp://127.0.0.1:52001", help="the transmitter's ZMQ socket")
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
    print("receiver: backend %s, %d bursts, %d false alarms, mean snr %.2f dB, mean cfo %.3g"
          % (tb.rx.backend(), tb.rx.bursts(), tb.rx.false_alarms(), tb.rx.snr_db(), tb.rx.cfo()))
    print("packets: sent %d, decoded %d, crc_fail %d, missed %d"
          % (a.packets, decoded, fail, max(0, a.packets - decoded - fail)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
