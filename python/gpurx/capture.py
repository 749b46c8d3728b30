#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Transport-block symbol captures for the scale-out front end
(docs/scale-out.md, "Front end and collector").

A capture is two files:

- NAME.c64: complex64 QAM symbols (numpy's complex64, GNU Radio's
  gr_complex), transport-block transmissions back to back;
- NAME.jsonl: one JSON object per transmission, in the same order:
  "symbols" (how many of the .c64's symbols it takes), "n0" (the noise
  variance E|n|^2 of those symbols) and the metadata lte_sch_decoder_pdu
  needs: "tbs", "rv", "qm", "rnti", "cell_id", "subframe", "harq_process",
  "ndi", "codeword" (and optionally any other integer field the decoder
  takes: "nl", "n_soft", ...).

- read_sidecar(path), write_sidecar(path, entries): the JSON lines, checked.
- capture_tagger(entries): a sync block on the symbol stream that tags each
  transmission's first symbol with "n0", a length tag (packet_len =
  symbols * qm, in LLRs) and one tag per metadata field, so that after
  qam_demapper a pdu.tagged_stream_to_pdu makes one LLR PDU per
  transmission with that metadata.
- llrs_to_int8(): float LLRs -> int8 (numpy), for tests and scripts; the
  flowgraph's block is gpurx.llr_pdu_to_int8 (C++, the decoders' own
  quantiser, lib/common/llr_int8.h), what gpurx-worker --input int8 takes.
"""
import json

import numpy as np
import pmt
from gnuradio import gr

# The fields every sidecar line must have (integers), besides "symbols" and "n0".
TB_FIELDS = ("tbs", "rv", "qm", "rnti", "cell_id", "subframe", "harq_process", "ndi", "codeword")
QM = (2, 4, 6, 8)
PDUS = pmt.intern("pdus")


def check_entry(entry, line=None):
    """Raises ValueError naming the field and value of a bad sidecar entry."""
    where = "sidecar line %d: " % line if line is not None else "sidecar: "
    if not isinstance(entry, dict):
        raise ValueError(where + "not a JSON object: %r" % (entry,))
    for k in ("symbols",) + TB_FIELDS:
        v = entry.get(k)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(where + "%s must be an integer, got %r" % (k, v))
    if entry["symbols"] < 1:
        raise ValueError(where + "symbols must be >= 1, got %r" % entry["symbols"])
    if entry["qm"] not in QM:
        raise ValueError(where + "qm must be one of %s, got %r" % (QM, entry["qm"]))
    n0 = entry.get("n0")
    if not isinstance(n0, (int, float)) or isinstance(n0, bool) or not 1e-20 <= n0 <= 1e20:
        raise ValueError(where + "n0 must be a number in 1e-20..1e20, got %r" % (n0,))
    for k, v in entry.items():
        if k != "n0" and (not isinstance(v, int) or isinstance(v, bool)):
            raise ValueError(where + "%s must be an integer, got %r" % (k, v))


def read_sidecar(path):
    """The entries of a sidecar (a list of dicts), each checked."""
    out = []
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError as e:
                raise ValueError("sidecar line %d: not JSON: %s" % (i, e))
            check_entry(entry, i)
            out.append(entry)
    return out


def write_sidecar(path, entries):
    with open(path, "w") as f:
        for i, e in enumerate(entries, 1):
            check_entry(e, i)
            f.write(json.dumps(e, sort_keys=True) + "\n")


def check_capture(symbol_path, entries):
    """Raises ValueError when the .c64 file does not hold exactly the
    symbols the sidecar lists."""
    import os
    size = os.path.getsize(symbol_path)
    want = sum(e["symbols"] for e in entries) * 8
    if size != want:
        raise ValueError("capture %s: %d bytes, the sidecar lists %d symbols (%d bytes)"
                         % (symbol_path, size, want // 8, want))


class capture_tagger(gr.sync_block):
    """Tags a symbol stream by a capture's sidecar entries: on each
    transmission's first symbol, "n0" (float: qam_demapper sets its noise
    variance from that symbol on), the length tag (symbols * qm: the
    transmission's LLR count after the demapper) and each metadata field
    (a long). Symbols pass unchanged.

    Why the symbol stream and not the LLRs: qam_demapper reads "n0" on
    symbols, and as a sync_interpolator with GNU Radio's default tag
    propagation it moves every tag from symbol k to LLR k * qm, the first
    LLR of that symbol, so one block tags both what the demapper needs and
    what pdu.tagged_stream_to_pdu collects into each PDU's metadata (all
    tags of the packet; "n0" rides along, which the decoder ignores).

    Symbols after the last entry are passed untagged (tagged() says how
    many entries were tagged)."""

    def __init__(self, entries, length_tag="packet_len"):
        gr.sync_block.__init__(self, "capture_tagger", in_sig=[np.complex64],
                               out_sig=[np.complex64])
        if isinstance(entries, str):
            entries = read_sidecar(entries)
        entries = list(entries)
        for i, e in enumerate(entries, 1):
            check_entry(e, i)
        if not isinstance(length_tag, str) or not length_tag:
            raise ValueError("capture_tagger: length_tag must be a non-empty string, got %r"
                             % (length_tag,))
        self._length_key = pmt.intern(length_tag)
        self._n0_key = pmt.intern("n0")
        # Each entry's first symbol and its tags, made once.
        self._starts = []
        self._tags = []
        at = 0
        for e in entries:
            self._starts.append(at)
            tags = [(self._n0_key, pmt.from_double(float(e["n0"]))),
                    (self._length_key, pmt.from_long(e["symbols"] * e["qm"]))]
            tags += [(pmt.intern(k), pmt.from_long(v)) for k, v in sorted(e.items())
                     if k not in ("symbols", "n0")]
            self._tags.append(tags)
            at += e["symbols"]
        self._total = at
        self._next = 0

    def tagged(self):
        return self._next

    def symbols(self):
        """Symbols the entries cover."""
        return self._total

    def work(self, input_items, output_items):
        n = len(output_items[0])
        output_items[0][:] = input_items[0][:n]
        first = self.nitems_written(0)
        while self._next < len(self._starts) and self._starts[self._next] < first + n:
            at = self._starts[self._next]
            for key, value in self._tags[self._next]:
                self.add_item_tag(0, at, key, value)
            self._next += 1
        return n


def llrs_to_int8(llrs):
    """float LLRs -> int8 LLRs, value = round(8 L) clipped to +-127 (the
    decoders' input "int8": L = value / 8)."""
    return np.clip(np.rint(np.asarray(llrs, dtype=np.float32) * 8.0), -127, 127).astype(np.int8)


