#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpurx.batch_copy in a flowgraph. Runs on the backend named by the
GPURX_TEST_BACKEND environment variable (default cpu)."""
import numpy as np
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import BACKEND, options, require_backend_or_skip

require_backend_or_skip()


class qa_batch_copy(gr_unittest.TestCase):

    def run_copy(self, nframes, vlen, scale=1.0, **kw):
        rng = np.random.default_rng(nframes * 7919 + vlen)
        data = rng.standard_normal(nframes * vlen).astype(np.float32)
        tb = gr.top_block()
        src = blocks.vector_source_f(data.tolist(), False, vlen)
        blk = gpurx.batch_copy(vlen, scale, options=options(**kw))
        snk = blocks.vector_sink_f(vlen)
        tb.connect(src, blk, snk)
        tb.run()
        self.assertEqual(blk.backend(), BACKEND)
        out = np.array(snk.data(), dtype=np.float32)
        return data, out

    def test_001_every_frame_once_in_order(self):
        # slots 1..4, batch sizes 1..1000, flush timeouts 0..10 ms; the frame
        # count is never a multiple of the batch size, so the stream ends in a
        # partial batch that only the end-of-stream drain can deliver.
        for slots in (1, 2, 3, 4):
            for max_batch in (1, 13, 1000):
                for flush_us in (0, 500, 10000):
                    n = 2 * max_batch + 5
                    data, out = self.run_copy(n, 19, 1.0, max_batch=max_batch,
                                              slots=slots, flush_us=flush_us)
                    self.assertEqual(len(out), len(data),
                                     "slots=%d batch=%d flush=%d" % (slots, max_batch, flush_us))
                    np.testing.assert_array_equal(out, data)

    def test_002_scale(self):
        data, out = self.run_copy(100, 64, -2.5, max_batch=8)
        np.testing.assert_array_equal(out, data * np.float32(-2.5))

    def test_003_stops_mid_batch_losing_nothing(self):
        # head stops the stream after 1001 frames, mid-batch, with a flush
        # timeout far longer than the run: only the drain can deliver the tail.
        vlen = 16
        tb = gr.top_block()
        src = blocks.vector_source_f(list(np.arange(vlen * 64, dtype=np.float32)), True, vlen)
        head = blocks.head(gr.sizeof_float * vlen, 1001)
        blk = gpurx.batch_copy(vlen, 1.0, options=options(max_batch=100, slots=3,
                                                          flush_us=10_000_000))
        snk = blocks.vector_sink_f(vlen)
        tb.connect(src, head, blk, snk)
        tb.run()
        out = np.array(snk.data()).reshape(-1, vlen)
        self.assertEqual(out.shape[0], 1001)
        expect = np.tile(np.arange(vlen * 64, dtype=np.float32).reshape(64, vlen), (17, 1))[:1001]
        np.testing.assert_array_equal(out, expect)

    def test_004_tags_stay_with_their_frame(self):
        vlen = 4
        tag = gr.tag_utils.python_to_tag((37, gr.pmt.intern("frame"), gr.pmt.from_long(37)))
        src = blocks.vector_source_f([float(i) for i in range(100 * vlen)], False, vlen, [tag])
        blk = gpurx.batch_copy(vlen, 1.0, options=options(max_batch=16))
        snk = blocks.vector_sink_f(vlen)
        tb = gr.top_block()
        tb.connect(src, blk, snk)
        tb.run()
        tags = snk.tags()
        self.assertEqual(len(tags), 1)
        self.assertEqual(tags[0].offset, 37)

    def test_005_bad_parameters_name_themselves(self):
        for kw, name in ((dict(max_batch=0), "max_batch"), (dict(max_batch=1048577), "max_batch"),
                         (dict(slots=0), "slots"), (dict(slots=65), "slots"),
                         (dict(flush_us=-1), "flush_us"), (dict(flush_us=10_000_001), "flush_us"),
                         (dict(cpu_threads=-1), "cpu_threads"),
                         (dict(cpu_threads=1025), "cpu_threads"),
                         (dict(backend="gpu"), "backend"), (dict(devices="x"), "devices")):
            with self.assertRaises(ValueError, msg=str(kw)) as ctx:
                gpurx.batch_copy(8, options=gpurx.pipeline_options(**kw))
            self.assertIn(name, str(ctx.exception))
        for vlen in (0, -1, 16777217, 1 << 29):
            with self.assertRaises(ValueError) as ctx:
                gpurx.batch_copy(vlen)
            self.assertIn("vlen", str(ctx.exception))
        for scale in (float("nan"), float("inf")):
            with self.assertRaises(ValueError) as ctx:
                gpurx.batch_copy(8, scale)
            self.assertIn("scale", str(ctx.exception))

    def test_006_cuda_without_gpu_fails_at_construction(self):
        if gpurx.cuda_available(0):
            self.skipTest("a CUDA device is present")
        with self.assertRaises(Exception) as ctx:
            gpurx.batch_copy(8, options=gpurx.pipeline_options(backend="cuda"))
        self.assertIn("cuda", str(ctx.exception))

    def test_007_options_object(self):
        o = gpurx.pipeline_options()
        self.assertEqual((o.max_batch, o.slots, o.flush_us, o.backend, o.devices, o.cpu_threads),
                         (64, 3, 1000, "auto", "0", 0))
        o.max_batch, o.cpu_threads, o.devices = 5, 2, "all"
        self.assertEqual((o.max_batch, o.cpu_threads, o.devices), (5, 2, "all"))
        self.assertEqual(gpurx.pipeline_options(devices=1).devices, "1")
        self.assertEqual(gpurx.pipeline_options(devices=[0, 1]).devices, "0,1")
        # cpu_threads and a CPU run with the devices field present: it is ignored on the CPU.
        data, out = self.run_copy(37, 5, 3.0, max_batch=4, cpu_threads=1)
        np.testing.assert_array_equal(out, data * np.float32(3.0))


if __name__ == '__main__':
    gr_unittest.run(qa_batch_copy)
