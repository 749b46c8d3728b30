#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a new user hit, each kept fixed by a test (CPU backend):

- examples' arguments: a packet count of 0 or -5 is refused by argparse in
  one line (0 ran forever, -5 reached pybind as a TypeError); a negative
  number in scientific notation is a value (`--cfo -3e-3` was refused);
- a CFO outside the packet link's capture range is warned about;
- Debian's GNU Radio logs at debug level to stdout: a twin's output has no
  per-burst line in it;
- the MIMO-OFDM transmitter at its radio amplitude keeps every I/Q value of
  data and sync symbols within +-1.0 full scale;
- a packet_counter survives length tags of the wrong type;
- the SCH decoders' "errors" messages say whether the PDU was dropped or
  still decoded, and a dead (all-zero) input is not a decoded TB.
"""

import os
import subprocess
import sys
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx
from gnuradio.gpurx import cli, mimo_ofdm_link

EXAMPLES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
sys.path.insert(0, EXAMPLES)
import mimo_ofdm_link_loopback  # noqa: E402
import packet_link_loopback  # noqa: E402


def run_example(name, *args, timeout=300):
    p = subprocess.run([sys.executable, "-B", os.path.join(EXAMPLES, name)] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class test_arguments(unittest.TestCase):
    def test_packet_count_must_be_positive(self):
        for bad in ("0", "-5", "x"):
            rc, out, err = run_example("packet_link_loopback.py", "--packets", bad, timeout=60)
            self.assertEqual(rc, 2, "--packets %s: %s" % (bad, err))
            self.assertIn("--packets", err)
            self.assertNotIn("Traceback", err)
            self.assertNotIn("TypeError", err)

    def test_negative_numbers_in_scientific_notation(self):
        a = packet_link_loopback.parser().parse_args(["--cfo", "-3e-3", "--snr-db", "-1.5E+0"])
        self.assertEqual(a.cfo, -3e-3)
        self.assertEqual(a.snr_db, -1.5)
        a = mimo_ofdm_link_loopback.parser().parse_args(["--cfo", "-2e-3"])
        self.assertEqual(a.cfo, -2e-3)
        # Options still parse as options.
        with self.assertRaises(SystemExit):
            packet_link_loopback.parser().parse_args(["--cfo", "--packets"])

    def test_estimate_without_a_frame(self):
        self.assertEqual(cli.estimate(float("nan"), True), "n/a")
        self.assertEqual(cli.estimate(0.0, False), "n/a")
        self.assertEqual(cli.estimate(1e-3, True), "0.001")

    def test_cfo_outside_the_capture_range_warns(self):
        self.assertIsNone(gpurx.packet_link.cfo_warning(3e-3, 4))
        self.assertIsNone(gpurx.packet_link.cfo_warning(-2e-3, 4))
        self.assertIn("capture range", gpurx.packet_link.cfo_warning(-3.2e-3, 4))
        self.assertIn("capture range", gpurx.packet_link.cfo_warning(2e-3, 8))


class test_logs(unittest.TestCase):
    def test_twin_output_has_no_per_burst_lines(self):
        # GNU Radio's own configuration (Debian: log_level = debug, to stdout).
        rc, out, err = run_example("packet_link_loopback.py", "--packets", "20", "--backend", "cpu")
        self.assertEqual(rc, 0, err)
        both = out + err
        self.assertIn("packets: sent 20,", out)
        self.assertNotIn("burst at sample", both)
        self.assertLess(len(both.splitlines()), 40, both[-3000:])


class test_mimo_ofdm_full_scale(unittest.TestCase):
    def peaks(self, nt, modulation, amplitude, packets=20):
        tb = gr.top_block()
        src = gpurx.payload_source(128, packets, 3)
        tx = mimo_ofdm_link.mimo_ofdm_tx(nt, modulation, 128, 0.5, amplitude=amplitude)
        sinks = [blocks.vector_sink_c() for _ in range(nt)]
        tb.connect(src, tx)
        for j in range(nt):
            tb.connect((tx, j), sinks[j])
        tb.run()
        x = np.concatenate([np.asarray(s.data(), dtype=np.complex64) for s in sinks])
        self.assertGreater(x.size, packets * 80 * nt)
        return np.maximum(np.abs(x.real), np.abs(x.imag))

    def test_radio_amplitude_within_full_scale(self):
        for nt in (2, 4):
            for modulation in ("qpsk", "16qam", "64qam"):
                m = self.peaks(nt, modulation, mimo_ofdm_link.USRP_AMPLITUDE)
                self.assertLessEqual(float(m.max()), 1.0, "%dx %s" % (nt, modulation))

    def test_simulation_scale_would_clip(self):
        # The check above is not vacuous: at amplitude 1.0 (total power 1)
        # some 2x2 values pass full scale, as the issue measured.
        m = self.peaks(2, "16qam", 1.0)
        self.assertGreater(float(np.mean(m > 1.0)), 1e-3)

    def test_bad_amplitude_names_it(self):
        with self.assertRaisesRegex(ValueError, "amplitude"):
            mimo_ofdm_link.mimo_ofdm_tx(2, "qpsk", 128, 0.5, amplitude=0)


class test_packet_counter_tag_types(unittest.TestCase):
    def test_wrong_length_tag_types_are_skipped(self):
        # Three packets of 8 items; the first two carry length tags a
        # tagged-stream source should not write (a double, a symbol); the
        # third a uint64, which is a length. The flowgraph must end.
        data = [1] * 24
        tags = []
        for i, v in enumerate((pmt.from_double(8.0), pmt.intern("eight"), pmt.from_uint64(8))):
            tags.append(gr.tag_utils.python_to_tag((8 * i, pmt.intern("packet_len"), v, pmt.PMT_NIL)))
        tb = gr.top_block()
        src = blocks.vector_source_b(data, False, 1, tags)
        counter = gpurx.packet_counter("packet_len")
        tb.connect(src, counter)
        tb.run()
        self.assertEqual(counter.decoded() + counter.crc_fail(), 1)


class test_llr_pdu_to_int8(unittest.TestCase):
    def test_the_decoders_quantiser(self):
        # The C++ block quantises as the decoders do (llr_int8.h: round half
        # to even, clip to +-127); the numpy twin scripts use must agree.
        from gnuradio.gpurx.capture import llrs_to_int8
        rng = np.random.default_rng(4)
        x = np.concatenate([rng.normal(0, 8, 5000), np.arange(-40, 40) / 16.0, [0.0, 1e9, -1e9]]).astype(np.float32)
        blk = gpurx.llr_pdu_to_int8()
        dbg = blocks.message_debug()
        tb = gr.top_block()
        tb.msg_connect((blk, "pdus"), (dbg, "store"))
        tb.start()
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(7))
        blk.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_f32vector(len(x), x.tolist())))
        blk.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_u8vector(3, [1, 2, 3])))
        deadline = time.time() + 10
        while dbg.num_messages() < 2 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 2)
        got = np.array(pmt.u8vector_elements(pmt.cdr(dbg.get_message(0))), dtype=np.uint8).view(np.int8)
        np.testing.assert_array_equal(got, llrs_to_int8(x))
        self.assertEqual(pmt.to_long(pmt.dict_ref(pmt.car(dbg.get_message(0)), pmt.intern("seq"), pmt.PMT_NIL)), 7)
        self.assertEqual(list(pmt.u8vector_elements(pmt.cdr(dbg.get_message(1)))), [1, 2, 3])
        self.assertEqual((blk.converted(), blk.passed()), (1, 1))


def sch_meta(**kw):
    m = dict(tbs=2000, rv=0, qm=2, rnti=61, cell_id=1, subframe=3, harq_process=0, ndi=0)
    m.update(kw)
    d = pmt.make_dict()
    for k, v in m.items():
        d = pmt.dict_add(d, pmt.intern(k), pmt.from_long(v))
    return d


class test_sch_decoder_reports(unittest.TestCase):
    def run_pdus(self, pdus, **kw):
        tb = gr.top_block()
        dec = gpurx.lte_sch_decoder_pdu("dlsch", options=gpurx.pipeline_options(backend="cpu"), **kw)
        out, errs = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect((dec, "pdus"), (out, "store"))
        tb.msg_connect((dec, "errors"), (errs, "store"))
        tb.start()
        for meta, llrs in pdus:
            dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_f32vector(len(llrs), llrs)))
        deadline = time.time() + 30
        while out.num_messages() + errs.num_messages() < len(pdus) and time.time() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        tb.stop()
        tb.wait()
        outs = [pmt.to_python(pmt.car(out.get_message(i))) for i in range(out.num_messages())]
        errors = [pmt.to_python(errs.get_message(i)) for i in range(errs.num_messages())]
        return outs, errors

    def test_dead_input_is_not_a_decoded_tb(self):
        outs, errors = self.run_pdus([(sch_meta(), [0.0] * 6000)])
        self.assertEqual(len(outs), 1)
        self.assertFalse(outs[0]["crc_ok"])
        self.assertEqual(outs[0]["no_information"], 1)

    def test_dropped_pdu_says_dropped(self):
        outs, errors = self.run_pdus([(sch_meta(g=-5), [1.0] * 6000), (sch_meta(kc=1 << 30, n_soft=1000000), [1.0] * 6000)])
        self.assertEqual(outs, [])
        self.assertEqual(len(errors), 2)
        self.assertEqual([e["action"] for e in errors], ["dropped", "dropped"])
        self.assertIn("g=-5", errors[0]["reason"])
        self.assertIn("kc=1073741824", errors[1]["reason"])

    def test_huge_soft_buffers_name_harq_buffers(self):
        # 65536 buffers of max_tbs 97896 are about 38.7 GB of host memory.
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        if ram / 2 > 39e9:
            self.skipTest("this machine has room for them (%.0f GB of RAM)" % (ram / 1e9))
        with self.assertRaisesRegex(Exception, "harq_buffers=65536 needs"):
            gpurx.lte_sch_decoder_pdu("dlsch", harq_buffers=65536, options=gpurx.pipeline_options(backend="cpu"))


if __name__ == "__main__":
    unittest.main()
