#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Several GPUs per pipeline, in flowgraphs: a decoder spread over every GPU
gives the same bits, in the same order, as one GPU, across batch sizes; two
decoders in one flowgraph each get their own GPU. Needs two CUDA devices:
with fewer (or on the CPU run) it exits 77, ctest's Skipped, with the reason."""
import sys

import numpy as np
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import BACKEND, encode_turbo, llrs


def gpu_count():
    n = 0
    while gpurx.cuda_available(n):
        n += 1
    return n


if BACKEND != "cuda" or gpu_count() < 2:
    print("skipped: needs two CUDA devices (backend %s, %d usable)"
          % (BACKEND, gpu_count() if BACKEND == "cuda" else 0))
    sys.exit(77)


def decode(data, K, devices, max_batch, noise_seed=0):
    tb = gr.top_block()
    src = blocks.vector_source_f(data.tolist(), False, 3 * K + 12)
    dec = gpurx.lte_turbo_decoder(K, 6, options=gpurx.pipeline_options(
        max_batch=max_batch, backend="cuda", devices=devices))
    snk = blocks.vector_sink_b(K)
    tb.connect(src, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


class qa_multi_gpu(gr_unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(3)
        self.K = 1024
        self.bits = rng.integers(0, 2, size=(300, self.K), dtype=np.uint8)
        clean = llrs(encode_turbo(self.bits, self.K))
        noisy = clean + rng.normal(0, 2.5, size=clean.shape)  # noisy, not all frames alike
        self.data = noisy.astype(np.float32).ravel()

    def test_all_gpus_equal_one_gpu_in_order(self):
        for max_batch in (1, 7, 64):
            one = decode(self.data, self.K, "0", max_batch)
            every = decode(self.data, self.K, "all", max_batch)
            self.assertEqual(len(one), self.bits.size)
            np.testing.assert_array_equal(every, one, "max_batch=%d" % max_batch)
        # The decoder works: few errors at this noise.
        self.assertLess(np.mean(one != self.bits.ravel()), 1e-3)

    def test_two_decoders_own_gpus(self):
        tb = gr.top_block()
        outs = []
        for dev in ("0", "1"):
            src = blocks.vector_source_f(self.data.tolist(), False, 3 * self.K + 12)
            dec = gpurx.lte_turbo_decoder(self.K, 6, options=gpurx.pipeline_options(
                max_batch=16, backend="cuda", devices=dev))
            snk = blocks.vector_sink_b(self.K)
            tb.connect(src, dec, snk)
            outs.append(snk)
        tb.run()
        np.testing.assert_array_equal(np.array(outs[0].data()), np.array(outs[1].data()))
        self.assertEqual(len(outs[0].data()), self.bits.size)


if __name__ == "__main__":
    gr_unittest.run(qa_multi_gpu)
