#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The end of a scale-out collector (docs/scale-out.md, "Front end and
collector"): decoded_tb_sink writes each decoded transport block that
pdu_reorder emits as a line of JSON and counts them and pdu_reorder's
reports."""
import json
import sys
import threading

import numpy as np
import pmt
from gnuradio import gr

PDUS = pmt.intern("pdus")
ERRORS = pmt.intern("errors")
# pdu_reorder's reports that stand for a seq that will never be delivered
# ("duplicate" and "late" are extra copies of seqs already counted); a
# "resync" stands for its "count" of them.
MISSING = ("timeout", "window_full", "dropped", "flush", "resync")
# Metadata written for each TB, when present.
FIELDS = ("seq", "rnti", "harq_process", "ndi", "rv", "tbs", "crc_ok", "transmissions",
          "iterations", "worker", "decoder", "harq_reset")


def plain(v):
    """A pmt scalar or dict as plain Python (for JSON)."""
    if pmt.is_dict(v):
        items = pmt.dict_items(v)
        return {pmt.symbol_to_string(pmt.car(kv)): plain(pmt.cdr(kv))
                for kv in (pmt.nth(i, items) for i in range(pmt.length(items)))}
    if pmt.is_bool(v):
        return pmt.to_bool(v)
    if pmt.is_symbol(v):
        return pmt.symbol_to_string(v)
    if pmt.is_uint64(v):
        return pmt.to_uint64(v)
    if pmt.is_integer(v):
        return pmt.to_long(v)
    if pmt.is_real(v):
        return pmt.to_double(v)
    return pmt.write_string(v)


def bits_hex(bits):
    """0/1 bits (first bit = most significant of the first byte, zero-padded
    to whole bytes) as a hex string."""
    return np.packbits(np.asarray(bits, dtype=np.uint8) & 1).tobytes().hex()


class decoded_tb_sink(gr.basic_block):
    """Writes each decoded TB PDU on "pdus" (metadata + u8vector of 0/1
    bits, lte_sch_decoder_pdu's output) to `path` as a JSON line: the FIELDS
    present and "bits" (bits_hex). Counts delivered TBs, CRC failures, and
    the reports on "errors" (pdu_reorder's: missing seqs by reason); with
    verbose, prints each report on stderr. path "": count only.

    Ports: "pdus" in, "errors" in. counts() -> dict; done(n): n seqs were
    delivered or reported missing."""

    def __init__(self, path="", verbose=True):
        gr.basic_block.__init__(self, "decoded_tb_sink", None, None)
        self._f = open(path, "w") if path else None
        self._verbose = verbose
        self._lock = threading.Lock()
        self._counts = dict(delivered=0, missing=0, crc_fail=0, errors=0)
        self._reasons = {}
        self.message_port_register_in(PDUS)
        self.message_port_register_in(ERRORS)
        self.set_msg_handler(PDUS, self.handle)
        self.set_msg_handler(ERRORS, self.handle_error)

    def handle(self, msg):
        if not (pmt.is_pair(msg) and pmt.is_dict(pmt.car(msg)) and pmt.is_u8vector(pmt.cdr(msg))):
            self.handle_error(pmt.dict_add(pmt.make_dict(), pmt.intern("reason"),
                                           pmt.intern("not a decoded TB PDU")))
            return
        meta = pmt.car(msg)
        out = {}
        for k in FIELDS:
            v = pmt.dict_ref(meta, pmt.intern(k), pmt.PMT_NIL)
            if not pmt.is_null(v):
                out[k] = plain(v)
        out["bits"] = bits_hex(pmt.u8vector_elements(pmt.cdr(msg)))
        with self._lock:
            self._counts["delivered"] += 1
            if not out.get("crc_ok", False):
                self._counts["crc_fail"] += 1
            if self._f:
                self._f.write(json.dumps(out, sort_keys=True) + "\n")

    def handle_error(self, msg):
        report = plain(msg) if pmt.is_dict(msg) else {"reason": pmt.write_string(msg)}
        reason = report.get("reason", "?")
        with self._lock:
            self._counts["errors"] += 1
            self._reasons[reason] = self._reasons.get(reason, 0) + 1
            if reason in MISSING:
                self._counts["missing"] += report.get("count", 1) if reason == "resync" else 1
        if self._verbose:
            sys.stderr.write("collector: %s\n" % json.dumps(report, sort_keys=True))
            sys.stderr.flush()

    def counts(self):
        with self._lock:
            c = dict(self._counts)
            c["reasons"] = dict(self._reasons)
            return c

    def done(self, n):
        with self._lock:
            return self._counts["delivered"] + self._counts["missing"] >= n

    def stop(self):
        with self._lock:
            if self._f:
                self._f.flush()
        return True

    def close(self):
        with self._lock:
            if self._f:
                self._f.close()
                self._f = None
