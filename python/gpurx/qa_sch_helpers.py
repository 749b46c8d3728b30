#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Shared by the shared-channel (DL-SCH / UL-SCH) QA: transport-block
metadata as pmt, PDUs through a block, the encoder block as a function, a
bits-to-LLRs PDU block, and a capture of GNU Radio's log (for the lines a
test must see).

- tb_meta(**fields): a pmt dict of integer entries (None: left out).
- run_pdus(blk, pdus, n_out, n_err): PDUs through a message block in one
  flowgraph; (output messages, "errors" messages).
- encode(channel, tbs): codewords (numpy uint8) of [(bits, fields)] by
  lte_sch_encoder_pdu.
- noiseless_llrs(bits, amp), awgn_llrs(bits, sigma, rng): LLRs of code bits
  (positive for 1), the latter as BPSK per bit in AWGN, L = 2 y / sigma^2.
- bits_to_llrs: a PDU block mapping u8vector bits to +-amp LLRs (f32vector,
  or s8vector in the module's int8 unit, 8 steps per LLR unit).
- captured_log(): a context manager whose .text is what was written to the
  process's stdout and stderr (file descriptors 1 and 2) inside it.
"""
import ctypes
import os
import sys
import tempfile
import threading

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx

from qa_helpers import wait_for


def tb_meta(**fields):
    d = pmt.make_dict()
    for k, v in fields.items():
        if v is not None:
            d = pmt.dict_add(d, pmt.intern(k), pmt.from_long(int(v)))
    return d


def meta_get(meta, key):
    return pmt.dict_ref(meta, pmt.intern(key), pmt.PMT_NIL)


def reason(msg):
    return pmt.symbol_to_string(meta_get(msg, "reason"))


def run_pdus(blk, pdus, n_out, n_err=0, timeout=60.0, one_at_a_time=False):
    """Posts pdus to blk's "pdus" port, runs the flowgraph until n_out PDUs
    and n_err errors came out (or timeout), stops it; (outputs, errors).
    one_at_a_time: each PDU is posted once the one before has come out."""
    tb = gr.top_block()
    out, err = blocks.message_debug(), blocks.message_debug()
    tb.msg_connect(blk, "pdus", out, "store")
    tb.msg_connect(blk, "errors", err, "store")
    port = pmt.intern("pdus")
    for p in pdus[:1] if one_at_a_time else pdus:
        blk.to_basic_block()._post(port, p)
    tb.start()
    try:
        if one_at_a_time:
            for i, p in enumerate(pdus[1:]):
                wait_for(lambda: out.num_messages() + err.num_messages() > i, timeout)
                blk.to_basic_block()._post(port, p)
        wait_for(lambda: out.num_messages() >= n_out and err.num_messages() >= n_err, timeout)
        # Anything more (a wrong extra output or error) would follow at once.
        wait_for(lambda: False, 0.2)
    finally:
        stop_or_exit(tb)
    return ([out.get_message(i) for i in range(out.num_messages())],
            [err.get_message(i) for i in range(err.num_messages())])


def stop_or_exit(tb, timeout_s=10.0):
    """tb.stop() and tb.wait(), bounded: a block stuck in its message handler
    (which GNU Radio cannot interrupt) would hang the process at tb.wait();
    then it says so and exits 1, as run_with_timeout() does."""
    done = threading.Event()

    def body():
        tb.stop()
        tb.wait()
        done.set()

    threading.Thread(target=body, daemon=True).start()
    if not done.wait(timeout_s):
        sys.stderr.write("\nFAIL: the flowgraph did not stop within %g s of being asked (a block "
                         "stuck in a message handler?): exiting, the remaining tests cannot run in "
                         "this process\n" % timeout_s)
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(1)


def encode(channel, tbs, max_tbs=97896, max_g=262144):
    """[(bits, fields)] -> [codeword bits], by lte_sch_encoder_pdu."""
    enc = gpurx.lte_sch_encoder_pdu(channel, max_tbs=max_tbs, max_g=max_g)
    pdus = [pmt.cons(tb_meta(**f), pmt.init_u8vector(len(b), [int(x) for x in b])) for b, f in tbs]
    outs, errs = run_pdus(enc, pdus, len(pdus))
    if errs or len(outs) != len(pdus):
        raise AssertionError("the encoder gave %d of %d codewords, errors %s"
                             % (len(outs), len(pdus), [reason(e) for e in errs]))
    return [np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8) for m in outs]


def noiseless_llrs(bits, amp=4.0):
    return np.where(np.asarray(bits) > 0, amp, -amp).astype(np.float32)


def awgn_llrs(bits, sigma, rng):
    y = (2.0 * np.asarray(bits, dtype=np.float64) - 1.0) + sigma * rng.standard_normal(len(bits))
    return (2.0 * y / sigma ** 2).astype(np.float32)


def llr_pdu(meta, llrs):
    return pmt.cons(meta, pmt.init_f32vector(len(llrs), [float(x) for x in llrs]))


class bits_to_llrs(gr.basic_block):
    """PDU in: u8vector of code bits; out: the same metadata, +-amp LLRs
    (f32vector), or with int8 the module's int8 LLRs (s8vector, 8 a unit)."""

    def __init__(self, amp=4.0, int8=False):
        gr.basic_block.__init__(self, "bits_to_llrs", None, None)
        self.amp, self.int8 = amp, int8
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self.handle)

    def handle(self, msg):
        bits = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)
        if self.int8:
            v = np.where(bits > 0, int(8 * self.amp), -int(8 * self.amp)).astype(np.int8)
            vec = pmt.init_s8vector(len(v), v.tolist())
        else:
            vec = pmt.init_f32vector(len(bits), noiseless_llrs(bits, self.amp).tolist())
        self.message_port_pub(pmt.intern("pdus"), pmt.cons(pmt.car(msg), vec))


class captured_log:
    """with captured_log() as log: ...; log.text: what file descriptors 1
    and 2 received meanwhile (GNU Radio's log goes to one of them)."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        # Info lines must be written whatever the machine's GNU Radio
        # configuration says (its log level, or a log file): the blocks made
        # inside get the default level and a console sink for the capture.
        logging = gr.logging()
        self.level = logging.default_level()
        if int(self.level) > int(gr.log_levels.info):
            logging.set_default_level(gr.log_levels.info)
        if gr.prefs().get_string("LOG", "log_file", "stdout") not in ("stdout", "stderr"):
            logging.add_default_console_sink()
        self.file = tempfile.TemporaryFile()
        self.saved = [os.dup(1), os.dup(2)]
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.file.fileno(), 2)
        self.text = ""
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        sys.stderr.flush()
        # GNU Radio's console log sink may write through C's stdout, which
        # is fully buffered when it is a pipe (ctest): flush it before the
        # descriptors go back, or the lines land after the capture.
        ctypes.CDLL(None).fflush(None)
        gr.logging().set_default_level(self.level)
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        for fd in self.saved:
            os.close(fd)
        self.file.seek(0)
        self.text = self.file.read().decode(errors="replace")
        self.file.close()
        # Shown again, so that a failing test's log is still seen.
        sys.stdout.write(self.text)
        return False
