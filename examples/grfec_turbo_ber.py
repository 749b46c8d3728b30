#!/usr/bin/python3
# -*- coding: utf-8 -*-

#
# SPDX-License-Identifier: GPL-3.0
#
# GNU Radio Python Flow Graph
# Title: gr-fec BER curve of the gr-gpurx LTE turbo code
# Author: gr-gpurx authors
# Copyright: 2026 gr-gpurx authors, GPL-3.0-or-later
# Description: GNU Radio's own BER curve generator (gr-fec) with the gr-gpurx LTE turbo code as gr-fec coder objects: random bits -> LTE Turbo Encoder Definition -> BPSK (bit 1 = +1) + AWGN at each Es/N0 -> LTE Turbo Decoder Definition (its LLR scale turns the values y into LLRs) -> bit errors per Es/N0 point. Parallelism 2: one list per point (Dimension 1 = the number of points) of two objects each, threaded "capillary". Headless: counts a fixed number of bits per point and prints the errors.
# GNU Radio version: 3.10.5.1

from gnuradio import blocks
from gnuradio import fec
import numpy
from gnuradio import gpurx
from gnuradio import gr
from gnuradio.filter import firdes
from gnuradio.fft import window
import sys
import signal
from argparse import ArgumentParser
from gnuradio.eng_arg import eng_float, intx
from gnuradio import eng_notation


def snipfcn_report(self):
    got = numpy.array(self.rx.data(), dtype=numpy.uint8).reshape(-1, 2 * len(self.esno))
    nbits = 8 * got.shape[0]
    errors = [int(numpy.unpackbits(got[:, 2 * i] ^ got[:, 2 * i + 1]).sum()) for i in range(len(self.esno))]
    print('\n'.join('Es/N0 %5.1f dB: %d bit errors in %d bits (BER %.2e)' % (e, n, nbits, n / nbits) for e, n in zip(self.esno, errors)))


def snippets_main_after_stop(tb):
    snipfcn_report(tb)


class grfec_turbo_ber(gr.top_block):

    def __init__(self):
        gr.top_block.__init__(self, "gr-fec BER curve of the gr-gpurx LTE turbo code", catch_exceptions=True)

        ##################################################
        # Variables
        ##################################################
        self.frames = frames = 100
        self.esno = esno = [-5.0, -4.5, -4.0, -3.0]
        self.K = K = 1024
        self.turbo_enc = turbo_enc = [[gpurx.lte_turbo_fec_encoder.make(K) for _ in range(2)] for _ in range(len(esno))]
        self.turbo_dec = turbo_dec = [[gpurx.lte_turbo_fec_decoder.make(K, 6, "scaled-max-log-map", 0, 0.75, "none", 2.0, "auto") for _ in range(2)] for _ in range(len(esno))]
        self.nbytes = nbytes = frames * K // 8

        ##################################################
        # Blocks
        ##################################################

        self.rx = blocks.vector_sink_b(1, 1024)
        self.head = blocks.head(gr.sizeof_char*1, (2 * len(esno) * nbytes))
        self.gather = blocks.interleave(gr.sizeof_char*1, 1)
        self.ber_gen = fec.bercurve_generator(
            turbo_enc, #size
            turbo_dec, #name
            esno, #range of esnos
            3200000, #throttle
            "capillary", #threading mode
            '11', #puncture pattern
            0) # noise gen. seed


        ##################################################
        # Connections
        ##################################################
        self.connect((self.ber_gen, 4), (self.gather, 4))
        self.connect((self.ber_gen, 7), (self.gather, 7))
        self.connect((self.ber_gen, 3), (self.gather, 3))
        self.connect((self.ber_gen, 2), (self.gather, 2))
        self.connect((self.ber_gen, 0), (self.gather, 0))
        self.connect((self.ber_gen, 5), (self.gather, 5))
        self.connect((self.ber_gen, 1), (self.gather, 1))
        self.connect((self.ber_gen, 6), (self.gather, 6))
        self.connect((self.gather, 0), (self.head, 0))
        self.connect((self.head, 0), (self.rx, 0))


    def get_frames(self):
        return self.frames

    def set_frames(self, frames):
        self.frames = frames
        self.set_nbytes(self.frames * self.K // 8)

    def get_esno(self):
        return self.esno

    def set_esno(self, esno):
        self.esno = esno
        self.head.set_length((2 * len(self.esno) * self.nbytes))

    def get_K(self):
        return self.K

    def set_K(self, K):
        self.K = K
        self.set_nbytes(self.frames * self.K // 8)

    def get_turbo_enc(self):
        return self.turbo_enc

    def set_turbo_enc(self, turbo_enc):
        self.turbo_enc = turbo_enc

    def get_turbo_dec(self):
        return self.turbo_dec

    def set_turbo_dec(self, turbo_dec):
        self.turbo_dec = turbo_dec

    def get_nbytes(self):
        return self.nbytes

    def set_nbytes(self, nbytes):
        self.nbytes = nbytes
        self.head.set_length((2 * len(self.esno) * self.nbytes))




def main(top_block_cls=grfec_turbo_ber, options=None):
    tb = top_block_cls()

    def sig_handler(sig=None, frame=None):
        tb.stop()
        tb.wait()
        snippets_main_after_stop(tb)
        sys.exit(0)

    signal.signal(signal.SIGINT, sig_handler)
    signal.signal(signal.SIGTERM, sig_handler)

    tb.start()

    tb.wait()
    snippets_main_after_stop(tb)

if __name__ == '__main__':
    main()
