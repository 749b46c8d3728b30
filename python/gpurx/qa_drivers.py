#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Regression cases for the deployments every block family shares - stream,
tagged stream and PDU - run over every family in FAMILIES, on the backend
named by GPURX_TEST_BACKEND (default cpu).

A family is a table entry (a Family subclass): how to build its stream,
tagged and PDU blocks, a valid frame and its expected output. To cover a new
family (MIMO detection, Viterbi decoding), add an entry to FAMILIES; a family
without a tagged or PDU form leaves make_tagged / make_pdu as None and the
cases of that deployment skip it; one without a stream form (the shared
channel: a frame needs its metadata) sets has_stream = False. A family whose
frames need metadata gives it in meta(shape): the tagged cases put it as
tags on each packet's first item, the PDU cases in each PDU's metadata. A
family on the continuous driver (the Viterbi stream decoder) is a stream
form whose frames are not pipeline frames: it says how many frames come out
while a batch is held (frames_in_full_batches, frames_held).

The cases:
  a. tagged: the largest frames (K=6144: 18444 LLRs) with GNU Radio's default
     buffers: every packet comes back, bit-exact, with its tags.
  b. tagged: malformed length tags (double, symbol, nil, vector, uint64 >=
     2**31, longs <= 0, lengths that fit no frame) between valid packets:
     run() returns, one "errors" message per bad tag at its offset, the valid
     packets come out bit-exact and in order.
  c. end of a finite stream (stream and tagged) with flush_us = 10 s: the
     last partial batch leaves at once.
  d. PDU: more PDUs than a batch, with a long flush timeout: all delivered in
     order with their metadata; an empty and a u8vector PDU each give one
     "errors" message; PDUs held at stop() come out first, in order, when
     the flowgraph starts again.
  e. soft-input families: finite LLRs of magnitude 1e37 and 3e38 decode
     correctly with every algorithm.
  f. stream: tb.lock(); tb.unlock() while a partial batch is held loses,
     repeats or reorders no frame.
  g. construction errors name the parameter or pipeline option at fault.
  h. tagged: max_batch=1048576 either starts quickly or is refused at
     construction naming max_batch.
  j. stream and tagged: tb.stop() with frames in the pipeline (a partial
     batch) delivers none of them; tb.start() again delivers them first, at
     once (not after flush_us), once and in order, then the rest.
  k. stream: tags on the input (malformed length tags, other keys) change
     nothing: every frame comes out bit-exact, none is rejected.
  i. every deployment: staging that passes the construction check (the
     machine's RAM) but cannot be allocated (the process's address space
     limited with RLIMIT_AS) makes tb.start() raise naming max_batch, or the
     flowgraph finish; it never hangs.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, gpurx

from qa_helpers import (BACKEND, encode_turbo, gated_source, llrs, options, pmt_int, require_backend_or_skip,
                        run_with_timeout, tags_named, wait_for)
from qa_sch_helpers import encode as sch_encode

require_backend_or_skip()

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_TIMEOUT_S = 60

# Stream item types: numpy dtype, vector source and sink, PDU vector in and out.
ITEM_TYPES = {
    "f": dict(dtype=np.float32, source=blocks.vector_source_f,
              sink=blocks.vector_sink_f, to_pdu=pmt.init_f32vector,
              from_pdu=pmt.f32vector_elements),
    "c": dict(dtype=np.complex64, source=blocks.vector_source_c,
              sink=blocks.vector_sink_c, to_pdu=pmt.init_c32vector,
              from_pdu=pmt.c32vector_elements),
    "b": dict(dtype=np.uint8, source=blocks.vector_source_b,
              sink=blocks.vector_sink_b, to_pdu=pmt.init_u8vector,
              from_pdu=pmt.u8vector_elements),
}


class Family:
    """One block family, as the deployment tests see it.

    shape: the family's frame parameter (K for turbo, vlen for batch_copy);
    shapes lists a few valid ones, smallest first, largest last.
    """
    name = None
    in_type = "f"           # ITEM_TYPES key of the input items
    out_type = "b"          # ITEM_TYPES key of the output items
    shapes = ()
    # Parameter sets of a soft-input family that case e runs (e.g. each algorithm).
    soft_params = ()
    # Output tags every frame carries: key -> "shape" (value = the frame's
    # shape) or None (any value).
    frame_tags = {}
    make_tagged = None      # (options, **params) -> block, or None: no tagged form
    make_pdu = None         # (options, **params) -> block, or None: no PDU form
    has_stream = True       # False: no stream form (make_stream unused)

    def meta(self, shape):
        """Per-frame metadata (key -> int) frames of this shape need: tags on a
        packet's first item, entries of a PDU's metadata. Default: none."""
        return {}

    def in_len(self, shape):
        """Input items per frame."""
        raise NotImplementedError

    def out_len(self, shape):
        """Output items per frame."""
        raise NotImplementedError

    def make_stream(self, shape, opts, **params):
        raise NotImplementedError

    def frames(self, rng, shape, n, **kw):
        """n valid frames: (inputs, expected outputs), lists of numpy arrays."""
        raise NotImplementedError

    def bad_constructions(self):
        """[(description, thunk, text the error message must contain)]."""
        return []

    def frames_in_full_batches(self, shape, sent, batch):
        """Frames out once `sent` frames have gone in and every full batch of
        `batch` has left: the partial batch is held (flush_us far away)."""
        return sent // batch * batch

    def frames_held(self, shape, sent):
        """Frames out once `sent` frames have gone in and the partial batch
        has left too (the end of the stream, or a restart), before more
        input arrives."""
        return sent

    def deployments(self):
        """name -> (options -> block), for every form the family has."""
        d = {"stream": lambda o: self.make_stream(self.shapes[0], o)} if self.has_stream else {}
        if self.make_tagged is not None:
            d["tagged"] = lambda o: self.make_tagged(o)
        if self.make_pdu is not None:
            d["pdu"] = lambda o: self.make_pdu(o)
        return d


class LteTurbo(Family):
    name = "lte-turbo"
    in_type, out_type = "f", "b"
    shapes = (40, 1024, 6144)
    soft_params = tuple(dict(algorithm=a) for a in ("log-map", "max-log-map",
                                                    "scaled-max-log-map"))
    frame_tags = {"K": "shape", "iterations": None}
    params = dict(iterations=4)

    def in_len(self, K):
        return 3 * K + 12

    def out_len(self, K):
        return K

    def make_stream(self, K, opts, **params):
        return gpurx.lte_turbo_decoder(K, options=opts, **{**self.params, **params})

    def make_tagged(self, opts, **params):
        return gpurx.lte_turbo_decoder_tagged(options=opts, **{**self.params, **params})

    def make_pdu(self, opts, **params):
        return gpurx.lte_turbo_decoder_pdu(options=opts, **{**self.params, **params})

    def frames(self, rng, K, n, amp=4.0):
        bits = [rng.integers(0, 2, K).astype(np.uint8) for _ in range(n)]
        cw = encode_turbo(bits, K)
        return [llrs(c, amp) for c in cw], bits

    def bad_constructions(self):
        return [("K=0", lambda: gpurx.lte_turbo_decoder(0), "K="),
                ("K=-1", lambda: gpurx.lte_turbo_decoder(-1), "K="),
                ("K=41", lambda: gpurx.lte_turbo_decoder(41), "K=41")]


class BatchCopy(Family):
    """The pipeline's own test family: a scaled copy; stream form only."""
    name = "batch-copy"
    in_type, out_type = "f", "f"
    shapes = (1, 64, 4096)
    scale = -0.5  # exact in float32

    def in_len(self, vlen):
        return vlen

    def out_len(self, vlen):
        return vlen

    def make_stream(self, vlen, opts, **params):
        return gpurx.batch_copy(vlen, self.scale, options=opts)

    def frames(self, rng, vlen, n, **kw):
        x = [rng.standard_normal(vlen).astype(np.float32) for _ in range(n)]
        return x, [v * np.float32(self.scale) for v in x]

    def bad_constructions(self):
        return [("vlen=0", lambda: gpurx.batch_copy(0), "vlen"),
                ("vlen=2**29", lambda: gpurx.batch_copy(1 << 29), "vlen"),
                ("scale=nan", lambda: gpurx.batch_copy(8, float("nan")), "scale")]


def conv_encode(bits, K=7, polys=(0o133, 0o171)):
    """An independent rate-1/n terminated convolutional encoder: the newest
    input bit is the polynomials' most significant tap; K-1 zero tail bits."""
    reg, out = 0, []
    for u in list(bits) + [0] * (K - 1):
        reg = (int(u) << (K - 1)) | (reg >> 1)
        out.extend(bin(reg & g).count("1") & 1 for g in polys)
    return np.array(out, dtype=np.uint8)


class Viterbi(Family):
    """The Viterbi decoder, K=7 (133, 171), terminated, soft input."""
    name = "viterbi"
    in_type, out_type = "f", "b"
    shapes = (40, 2048, 16384)
    soft_params = (dict(),)
    frame_tags = {"frame_bits": "shape", "metric": None}

    def in_len(self, frame_bits):
        return 2 * (frame_bits + 6)

    def out_len(self, frame_bits):
        return frame_bits

    def make_stream(self, frame_bits, opts, **params):
        return gpurx.viterbi_decoder(frame_bits, options=opts, **params)

    def make_tagged(self, opts, **params):
        return gpurx.viterbi_decoder_tagged(options=opts, **params)

    def make_pdu(self, opts, **params):
        return gpurx.viterbi_decoder_pdu(options=opts, **params)

    def frames(self, rng, frame_bits, n, amp=4.0):
        bits = [rng.integers(0, 2, frame_bits).astype(np.uint8) for _ in range(n)]
        return [llrs(conv_encode(b), amp) for b in bits], bits

    def bad_constructions(self):
        return [("frame_bits=0", lambda: gpurx.viterbi_decoder(0), "frame_bits"),
                ("K=2", lambda: gpurx.viterbi_decoder(64, 2, [3, 1]), "K"),
                ("K=10", lambda: gpurx.viterbi_decoder(64, 10, [0o1755, 0o1123]), "K"),
                ("polys of the wrong degree", lambda: gpurx.viterbi_decoder(64, 7, [0o1133, 0o171]), "polys"),
                ("rate 1/5", lambda: gpurx.viterbi_decoder(64, 7, [0o133] * 5), "polys"),
                ("identical polys", lambda: gpurx.viterbi_decoder(64, 7, [0o133, 0o133]), "polys"),
                # (1 + D, 1 + D^2): a common factor 1 + D over GF(2).
                ("catastrophic polys", lambda: gpurx.viterbi_decoder(64, 3, [0o6, 0o5]), "polys"),
                ("catastrophic rate 1/3",
                 lambda: gpurx.viterbi_decoder(64, 4, [0o17, 0o11, 0o14]), "polys"),
                ("puncture keeps nothing", lambda: gpurx.viterbi_decoder(64, puncture=[0, 0]), "puncture"),
                ("termination", lambda: gpurx.viterbi_decoder(64, termination="zero-tail"), "termination"),
                ("input", lambda: gpurx.viterbi_decoder(64, input="llr"), "input")]


class MimoStreamAdapter(gr.hier_block2):
    """The MIMO detector's stream form has two inputs (y vectors, one H per
    `vectors` of them) and one LLR vector per y. The shared cases feed one
    vector per frame, so this splits each frame vector (H, then the y's, as
    the tagged and PDU forms take it) onto the detector's ports and joins a
    frame's LLR vectors into one: the cases then drive the multi-port stream
    driver itself."""

    def __init__(self, det, nt, nr, vectors, bps):
        c, f = gr.sizeof_gr_complex, gr.sizeof_float
        n_h, n_in = nr * nt, nr * nt + vectors * nr
        gr.hier_block2.__init__(self, "mimo_stream_adapter", gr.io_signature(1, 1, c * n_in),
                                gr.io_signature(1, 1, f * vectors * nt * bps))
        self.det = det
        flat = blocks.vector_to_stream(c, n_in)
        keep_h = blocks.keep_m_in_n(c, n_h, n_in, 0)
        keep_y = blocks.keep_m_in_n(c, vectors * nr, n_in, n_h)
        self.connect(self, flat)
        self.connect(flat, keep_h, blocks.stream_to_vector(c, n_h), (det, 1))
        self.connect(flat, keep_y, blocks.stream_to_vector(c, nr), (det, 0))
        self.connect(det, blocks.stream_to_vector(f * nt * bps, vectors), self)

    def backend(self):
        return self.det.backend()

    def nitems_read(self, port):
        return self.det.nitems_read(1)  # H: one per frame


class Mimo(Family):
    """The MIMO detector, 2x2 QPSK (mtt). A frame is one channel and `shape`
    received vectors. H = [[0, 2], [2, 0]] and noiseless y = H s make every
    LLR exactly +-8 at N0 = 1 (a QPSK bit flip moves s by sqrt(2), H doubles
    it), so outputs compare exactly; antenna 0's symbol arrives on antenna 1."""
    name = "mimo"
    in_type, out_type = "c", "f"
    shapes = (1, 16, 4096)
    frame_tags = {"rank": None}
    nt = nr = 2
    bps = 2
    params = dict(modulation="qpsk", algorithm="mtt", noise_var=1.0)
    H = np.array([0, 2, 2, 0], dtype=np.complex64)

    def in_len(self, vectors):
        return self.nr * self.nt + vectors * self.nr

    def out_len(self, vectors):
        return vectors * self.nt * self.bps

    def make_stream(self, vectors, opts, **params):
        det = gpurx.mimo_detector(self.nt, self.nr, vectors_per_channel=vectors, options=opts,
                                  **{**self.params, **params})
        return MimoStreamAdapter(det, self.nt, self.nr, vectors, self.bps)

    def make_tagged(self, opts, **params):
        return gpurx.mimo_detector_tagged(self.nt, self.nr, max_vectors=self.shapes[-1],
                                          options=opts, **{**self.params, **params})

    def make_pdu(self, opts, **params):
        return gpurx.mimo_detector_pdu(self.nt, self.nr, max_vectors=self.shapes[-1],
                                       options=opts, **{**self.params, **params})

    def frames(self, rng, vectors, n, **kw):
        ins, outs = [], []
        for _ in range(n):
            bits = rng.integers(0, 2, (vectors, self.nt, 2))
            s = ((1 - 2 * bits[..., 0]) + 1j * (1 - 2 * bits[..., 1])) / np.sqrt(2)
            y = s @ self.H.reshape(2, 2).T
            ins.append(np.concatenate([self.H, y.flatten()]).astype(np.complex64))
            outs.append((8.0 * (2 * bits.reshape(vectors, -1) - 1)).flatten().astype(np.float32))
        return ins, outs

    def bad_constructions(self):
        return [("nt=0", lambda: gpurx.mimo_detector(0, 2), "nt"),
                ("nr<nt", lambda: gpurx.mimo_detector(3, 2), "nr"),
                ("modulation", lambda: gpurx.mimo_detector(2, 2, "8psk"), "modulation"),
                ("algorithm", lambda: gpurx.mimo_detector(2, 2, algorithm="zf"), "algorithm"),
                ("noise_var=0", lambda: gpurx.mimo_detector(2, 2, noise_var=0.0), "noise_var"),
                ("vectors_per_channel=0",
                 lambda: gpurx.mimo_detector(2, 2, vectors_per_channel=0), "vectors_per_channel"),
                ("max_vectors=0", lambda: gpurx.mimo_detector_tagged(2, 2, max_vectors=0),
                 "max_vectors")]


class ViterbiStreamAdapter(gr.hier_block2):
    """The Viterbi stream decoder takes one unbounded stream of LLRs and
    gives one bit per trellis step. The shared cases feed one vector per
    frame, so this flattens the frames into that stream and cuts the bits
    into one vector per frame: the cases then drive the continuous driver
    itself."""

    def __init__(self, dec, in_len, out_len):
        gr.hier_block2.__init__(self, "viterbi_stream_adapter",
                                gr.io_signature(1, 1, gr.sizeof_float * in_len),
                                gr.io_signature(1, 1, out_len))
        self.dec, self.in_len = dec, in_len
        self.connect(self, blocks.vector_to_stream(gr.sizeof_float, in_len), dec,
                     blocks.stream_to_vector(1, out_len), self)

    def backend(self):
        return self.dec.backend()

    def nitems_read(self, port):
        return self.dec.nitems_read(0) // self.in_len  # whole frames


class ViterbiStream(Family):
    """The Viterbi stream decoder, K=7 (133, 171), soft input. A frame is a
    terminated codeword: frames one after another are the stream of their
    bits with K-1 zeros after each, from state 0, so each frame's output is
    its bits and the K-1 zeros. The decoder cuts the stream into pipeline
    frames of whole windows (chunk steps and traceback after them) by
    itself: a stream's frame is no pipeline frame (frames_in_full_batches,
    frames_held)."""
    name = "viterbi-stream"
    in_type, out_type = "f", "b"
    shapes = (40, 600, 2048)
    soft_params = (dict(),)
    chunk, traceback = 512, 96
    # A pipeline frame holds up to this many steps (the block's own bound).
    steps_per_pipeline_frame = 65536

    def in_len(self, frame_bits):
        return 2 * (frame_bits + 6)

    def out_len(self, frame_bits):
        return frame_bits + 6

    def make_stream(self, frame_bits, opts, **params):
        dec = gpurx.viterbi_stream_decoder(traceback=self.traceback, chunk=self.chunk, options=opts,
                                           **params)
        return ViterbiStreamAdapter(dec, self.in_len(frame_bits), self.out_len(frame_bits))

    def frames(self, rng, frame_bits, n, amp=4.0):
        bits = [rng.integers(0, 2, frame_bits).astype(np.uint8) for _ in range(n)]
        return ([llrs(conv_encode(b), amp) for b in bits],
                [np.concatenate([b, np.zeros(6, dtype=np.uint8)]) for b in bits])

    def decodable_steps(self, steps):
        # Before the end, a window of chunk steps is decoded once the
        # traceback steps after it have arrived.
        L, D = self.chunk, self.traceback
        return (steps - D) // L * L if steps >= L + D else 0

    def frames_in_full_batches(self, shape, sent, batch):
        steps = self.decodable_steps(sent * self.out_len(shape))
        full = steps // (batch * self.steps_per_pipeline_frame) * batch * self.steps_per_pipeline_frame
        return full // self.out_len(shape)

    def frames_held(self, shape, sent):
        return self.decodable_steps(sent * self.out_len(shape)) // self.out_len(shape)

    def bad_constructions(self):
        return [("K=2", lambda: gpurx.viterbi_stream_decoder(2, [3, 1]), "K"),
                ("K=10", lambda: gpurx.viterbi_stream_decoder(10, [0o1755, 0o1123]), "K"),
                ("identical polys", lambda: gpurx.viterbi_stream_decoder(7, [0o133, 0o133]), "polys"),
                ("traceback < K-1", lambda: gpurx.viterbi_stream_decoder(traceback=5), "traceback"),
                ("chunk=0", lambda: gpurx.viterbi_stream_decoder(chunk=0), "chunk"),
                ("puncture keeps nothing",
                 lambda: gpurx.viterbi_stream_decoder(puncture=[0, 0]), "puncture"),
                ("input", lambda: gpurx.viterbi_stream_decoder(input="llr"), "input")]


class LteSch(Family):
    """The shared-channel decoder (DL-SCH): a frame is one transport block,
    shape its TBS; G LLRs in, the TB's bits out. No stream form (a TB needs
    its metadata). harq_buffers=0: the frames share one HARQ key and are not
    retransmissions of one another (qa_lte_sch.py covers HARQ)."""
    name = "lte-sch"
    in_type, out_type = "f", "b"
    has_stream = False
    shapes = (40, 1000, 75376)
    layout = {40: (240, 2), 1000: (3000, 4), 75376: (86400, 6)}  # G, qm
    frame_tags = {"tbs": "shape", "crc_ok": None, "iterations": None, "transmissions": None}
    params = dict(harq_buffers=0)

    def meta(self, tbs):
        G, qm = self.layout[tbs]
        return dict(tbs=tbs, g=G, qm=qm, rv=0, rnti=61, cell_id=1, subframe=3, harq_process=0,
                    ndi=0)

    def in_len(self, tbs):
        return self.layout[tbs][0]

    def out_len(self, tbs):
        return tbs

    def make_tagged(self, opts, **params):
        return gpurx.lte_sch_decoder_tagged(options=opts, **{**self.params, **params})

    def make_pdu(self, opts, **params):
        return gpurx.lte_sch_decoder_pdu(options=opts, **{**self.params, **params})

    def frames(self, rng, tbs, n, amp=4.0):
        bits = [rng.integers(0, 2, tbs).astype(np.uint8) for _ in range(n)]
        cws = sch_encode("dlsch", [(b, self.meta(tbs)) for b in bits])
        return [llrs(c, amp) for c in cws], bits

    def bad_constructions(self):
        return [("channel", lambda: gpurx.lte_sch_decoder_pdu("nrsch"), "channel"),
                ("iterations=0", lambda: gpurx.lte_sch_decoder_tagged(iterations=0), "iterations"),
                ("harq_buffers=-1", lambda: gpurx.lte_sch_decoder_pdu(harq_buffers=-1),
                 "harq_buffers"),
                ("max_g=1", lambda: gpurx.lte_sch_decoder_tagged(max_g=1), "max_g")]


# Every family. The MIMO family's expected LLRs are its CPU implementation's,
# exact in double precision: on CUDA (fp32, equal to them within the
# registry's tolerance, not bit for bit) its blocks are covered by
# qa_mimo.py.
FAMILIES = ([LteTurbo(), BatchCopy(), Viterbi(), ViterbiStream(), LteSch()]
            + ([Mimo()] if BACKEND == "cpu" else []))
FAMILIES_BY_NAME = {f.name: f for f in FAMILIES}


# --------------------------------------------------------------------------
# Flowgraph helpers
# --------------------------------------------------------------------------

def make_tag(offset, key, value):
    return gr.tag_utils.python_to_tag((offset, pmt.intern(key), value))


def run_stream(fam, shape, opts, inputs, tags=(), **params):
    """inputs (with tags on their vectors) through fam's stream block;
    (outputs as an (n, out_len) array, output tags, seconds run() took, the
    block, the sink)."""
    it, ot = ITEM_TYPES[fam.in_type], ITEM_TYPES[fam.out_type]
    n_in = fam.in_len(shape)
    tb = gr.top_block()
    src = it["source"](np.concatenate(inputs).astype(it["dtype"]).tolist(), False, n_in, list(tags))
    blk = fam.make_stream(shape, opts, **params)
    snk = ot["sink"](fam.out_len(shape))
    tb.connect(src, blk, snk)
    dt = run_with_timeout(tb, RUN_TIMEOUT_S)
    out = np.array(snk.data(), dtype=ot["dtype"]).reshape(-1, fam.out_len(shape))
    return out, snk.tags(), dt, blk, snk


class gated_tagged_source(gated_source):
    """Item source with length tags: sends its first `first` items, then
    waits until release() before sending the rest (and then ends)."""

    def __init__(self, items, tags, first):
        gated_source.__init__(self, items, first)
        self.tags = sorted(tags, key=lambda t: t.offset)

    def work(self, input_items, output_items):
        before = self.sent
        k = gated_source.work(self, input_items, output_items)
        # Offsets from this run's start: a restart begins counting again.
        base = self.nitems_written(0) - before
        for t in self.tags:
            if k > 0 and before <= t.offset < before + k:
                self.add_item_tag(0, base + t.offset, t.key, t.value)
        return k


def packet_stream(segments, meta=None):
    """segments: [(tag value or None, items)] -> (items, tags). A segment with
    a tag value starts with a packet_len tag carrying that value, and with a
    tag for each entry of meta (a family's frame metadata, key -> int)."""
    data, tags, off = [], [], 0
    for value, items in segments:
        if value is not None:
            tags.append(make_tag(off, "packet_len", value))
            for k, v in (meta or {}).items():
                tags.append(make_tag(off, k, pmt.from_long(v)))
        data.append(items)
        off += len(items)
    return np.concatenate(data), tags


def run_tagged(fam, blk, data, tags, timeout=RUN_TIMEOUT_S, exit_if_stuck=True):
    """data (with its length tags) through a tagged block; (outputs, output
    tags, errors message_debug, seconds)."""
    it, ot = ITEM_TYPES[fam.in_type], ITEM_TYPES[fam.out_type]
    tb = gr.top_block()
    src = it["source"](np.asarray(data, dtype=it["dtype"]).tolist(), False, 1, tags)
    snk = ot["sink"]()
    dbg = blocks.message_debug()
    tb.connect(src, blk, snk)
    tb.msg_connect(blk, "errors", dbg, "store")
    dt = run_with_timeout(tb, timeout, exit_if_stuck=exit_if_stuck)
    return np.array(snk.data(), dtype=ot["dtype"]), snk.tags(), dbg, dt


def error_dicts(dbg, expected, timeout=5.0):
    """The messages of an "errors" message_debug, once expected have arrived
    (or timeout passed)."""
    wait_for(lambda: dbg.num_messages() >= expected, timeout)
    return [dbg.get_message(i) for i in range(dbg.num_messages())]


def dict_get(d, key):
    return pmt.dict_ref(d, pmt.intern(key), pmt.PMT_NIL)


# --------------------------------------------------------------------------
# Case h runs in a child process: a block that fails inside the scheduler
# thread leaves a flowgraph that never finishes, which must not hang the suite.
# --------------------------------------------------------------------------
HUGE_BATCH = 1048576
HUGE_BATCH_BUDGET_S = 5.0


def huge_batch_child(family_name):
    fam = FAMILIES_BY_NAME[family_name]
    res = {}
    t0 = time.monotonic()
    try:
        blk = fam.make_tagged(options(max_batch=HUGE_BATCH))
    except Exception as e:  # noqa: BLE001 - reported to the parent
        res["ctor_error"] = "%s: %s" % (type(e).__name__, e)
    else:
        res["ctor_s"] = time.monotonic() - t0
        shape = fam.shapes[0]
        ins, exp = fam.frames(np.random.default_rng(5), shape, 3)
        data, tags = packet_stream([(pmt.from_long(len(x)), x) for x in ins], fam.meta(shape))
        try:
            out, _, _, dt = run_tagged(fam, blk, data, tags,
                                       timeout=max(0.5, HUGE_BATCH_BUDGET_S - res["ctor_s"]),
                                       exit_if_stuck=False)
            res["run_s"] = dt
            res["ok"] = bool(np.array_equal(out, np.concatenate(exp)))
        except AssertionError as e:
            res["hang"] = str(e)
        except Exception as e:  # noqa: BLE001
            res["run_error"] = "%s: %s" % (type(e).__name__, e)
    sys.stdout.write("RESULT " + json.dumps(res) + "\n")
    sys.stdout.flush()
    os._exit(0)  # never wait for a scheduler thread that did not finish


# --------------------------------------------------------------------------
# Case i runs in a child process: it limits the address space (RLIMIT_AS),
# and a flowgraph that hangs in start() must not hang the suite.
# --------------------------------------------------------------------------
STAGING_HEADROOM = 256 << 20  # address space left for everything but the staging


def vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def start_failure_child(family_name, form):
    import resource
    fam = FAMILIES_BY_NAME[family_name]
    make = fam.deployments()[form]
    res = {}
    # The largest staging the construction check (against the machine's
    # RAM) lets through: it must not fit the limited address space.
    blk = None
    for max_batch in (1 << 20, 1 << 18, 1 << 16, 1 << 14):
        for slots in (64, 16, 4, 2):
            try:
                blk = make(options(max_batch=max_batch, slots=slots))
                res["options"] = [max_batch, slots]
                break
            except ValueError as e:
                res["ctor_error"] = str(e)
        if blk is not None:
            break
    if blk is None:
        sys.stdout.write("RESULT " + json.dumps(res) + "\n")
        sys.stdout.flush()
        os._exit(0)
    res.pop("ctor_error", None)
    tb = gr.top_block()
    shape = fam.shapes[0]
    ins, _ = fam.frames(np.random.default_rng(3), shape, 3)
    it, ot = ITEM_TYPES[fam.in_type], ITEM_TYPES[fam.out_type]
    if form == "pdu":
        dbg = blocks.message_debug()
        tb.msg_connect(blk, "pdus", dbg, "store")
        tb.msg_connect(blk, "errors", dbg, "store")
    elif form == "tagged":
        data, tags = packet_stream([(pmt.from_long(len(x)), x) for x in ins], fam.meta(shape))
        tb.connect(it["source"](np.asarray(data, dtype=it["dtype"]).tolist(), False, 1, tags), blk,
                   ot["sink"]())
    else:
        tb.connect(it["source"](np.concatenate(ins).astype(it["dtype"]).tolist(), False,
                                fam.in_len(shape)), blk, ot["sink"](fam.out_len(shape)))
    limit = vm_size() + STAGING_HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    t0 = time.monotonic()
    try:
        tb.start()
    except Exception as e:  # noqa: BLE001 - reported to the parent
        res["start_error"] = "%s: %s" % (type(e).__name__, e)
    else:
        if form != "pdu":
            tb.wait()
            res["finished"] = True
        else:
            tb.stop()
            tb.wait()
            res["started"] = True
    res["seconds"] = time.monotonic() - t0
    sys.stdout.write("RESULT " + json.dumps(res) + "\n")
    sys.stdout.flush()
    os._exit(0)


class qa_drivers(gr_unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(2026)

    def families(self, form):
        fams = [f for f in FAMILIES if (f.has_stream if form == "stream"
                                        else getattr(f, "make_" + form) is not None)]
        self.assertTrue(fams, "no family has a %s form" % form)
        return fams

    def assert_frame_tags(self, fam, shape, tags, offsets, what):
        for key, want in fam.frame_tags.items():
            got = tags_named(tags, key)
            self.assertEqual([t.offset for t in got], list(offsets), "%s: %s tags" % (what, key))
            if want == "shape":
                self.assertEqual({pmt_int(t.value) for t in got}, {shape}, what + ": " + key)

    # ---- a ----------------------------------------------------------------
    def test_a_tagged_largest_frames_default_buffers(self):
        for fam in self.families("tagged"):
            shape = fam.shapes[-1]
            ins, exp = fam.frames(self.rng, shape, 20)
            data, tags = packet_stream([(pmt.from_long(len(x)), x) for x in ins], fam.meta(shape))
            blk = fam.make_tagged(options())
            out, otags, dbg, _ = run_tagged(fam, blk, data, tags)
            what = "%s tagged, %d packets of %d items" % (fam.name, len(ins), len(ins[0]))
            self.assertEqual(len(out), sum(len(e) for e in exp), what)
            np.testing.assert_array_equal(out, np.concatenate(exp), err_msg=what)
            offs = [i * fam.out_len(shape) for i in range(len(ins))]
            lens = tags_named(otags, "packet_len")
            self.assertEqual([t.offset for t in lens], offs, what)
            self.assertEqual([pmt_int(t.value) for t in lens], [fam.out_len(shape)] * len(ins))
            self.assert_frame_tags(fam, shape, otags, offs, what)
            self.assertEqual(dbg.num_messages(), 0, what + ": unexpected errors")

    # ---- b ----------------------------------------------------------------
    def test_b_tagged_malformed_length_tags(self):
        for fam in self.families("tagged"):
            shape = fam.shapes[0]
            L = fam.in_len(shape)
            # (description, tag value, items under the bad tag). Where the
            # junk is a valid frame, a block that wrongly accepted the tag
            # would emit an extra packet; 20000 items span several buffers.
            junk_frame = fam.frames(self.rng, shape, 1)[0][0]
            bad = [("double %g" % float(L), pmt.from_double(float(L)), junk_frame),
                   ("symbol", pmt.intern("x"), np.full(7, 1.0)),
                   ("symbol 12", pmt.intern("12"), np.full(12, 1.0)),
                   ("nil", pmt.PMT_NIL, np.full(1, 1.0)),
                   ("u8vector", pmt.init_u8vector(1, [1]), np.full(50, -1.0)),
                   ("uint64 2**32", pmt.from_uint64(2 ** 32), junk_frame),
                   ("uint64 2**31", pmt.from_uint64(2 ** 31), np.full(300, 2.0)),
                   ("long 0", pmt.from_long(0), np.full(3, 1.0)),
                   ("long -5", pmt.from_long(-5), np.full(20000, 1.0)),
                   ("long 10**6", pmt.from_long(10 ** 6), np.full(5000, -2.0)),
                   ("long 10**9", pmt.from_long(10 ** 9), np.full(64, 1.0))]
            ins, exp = fam.frames(self.rng, shape, len(bad) + 1)
            segments, bad_offsets, off = [], [], 0
            for i, x in enumerate(ins):
                segments.append((pmt.from_long(len(x)), x))
                off += len(x)
                if i < len(bad):
                    segments.append((bad[i][1], np.real(bad[i][2]).astype(np.float32)))
                    bad_offsets.append(off)
                    off += len(bad[i][2])
            data, tags = packet_stream(segments, fam.meta(shape))
            blk = fam.make_tagged(options(max_batch=4))
            out, otags, dbg, _ = run_tagged(fam, blk, data, tags)
            what = fam.name + " tagged with malformed tags"
            np.testing.assert_array_equal(out, np.concatenate(exp), err_msg=what)
            lens = tags_named(otags, "packet_len")
            self.assertEqual([pmt_int(t.value) for t in lens], [fam.out_len(shape)] * len(ins))
            self.assertEqual([t.offset for t in lens],
                             [i * fam.out_len(shape) for i in range(len(ins))], what)
            msgs = error_dicts(dbg, len(bad))
            self.assertEqual(len(msgs), len(bad),
                             "%s: %d errors messages for %d bad tags (%s)"
                             % (what, len(msgs), len(bad), [pmt.write_string(m) for m in msgs]))
            # The reason says what the value is, not only that it is wrong:
            # a symbol "12" prints as 12.
            says = {"symbol 12": ("symbol", '"12"'), "double %g" % float(L): ("double",),
                    "nil": ("nil",), "u8vector": ("vector",)}
            for (desc, _, _), want, m in zip(bad, bad_offsets, msgs):
                self.assertTrue(pmt.is_dict(m), desc)
                self.assertTrue(pmt.is_symbol(dict_get(m, "reason")), desc)
                for word in says.get(desc, ()):
                    self.assertIn(word, pmt.symbol_to_string(dict_get(m, "reason")),
                                  "%s: %s" % (what, desc))
                self.assertEqual(pmt_int(dict_get(m, "offset")), want,
                                 "%s: %s reported at the wrong offset (%s)"
                                 % (what, desc, pmt.write_string(m)))

    def test_b2_tagged_conflicting_length_tags_at_one_item(self):
        # Two packet_len tags at one item with different values: the first
        # (in the order added) is used, and an "errors" message names both.
        for fam in self.families("tagged"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, 4)
            L = len(ins[0])
            data, tags = packet_stream([(pmt.from_long(L), x) for x in ins], fam.meta(shape))
            # Packet 1: its length, then a wrong one; packet 2: the same
            # length twice (no conflict).
            first = next(i for i, t in enumerate(tags)
                         if t.offset == L and pmt.symbol_to_string(t.key) == "packet_len")
            tags.insert(first + 1, make_tag(L, "packet_len", pmt.from_long(L + 5)))
            tags.append(make_tag(2 * L, "packet_len", pmt.from_long(L)))
            out, _, dbg, _ = run_tagged(fam, fam.make_tagged(options(max_batch=4)), data, tags)
            what = fam.name + " tagged, conflicting length tags"
            np.testing.assert_array_equal(out, np.concatenate(exp), err_msg=what)
            msgs = error_dicts(dbg, 1)
            self.assertEqual(len(msgs), 1, what)
            reason = pmt.symbol_to_string(dict_get(msgs[0], "reason"))
            self.assertEqual(pmt_int(dict_get(msgs[0], "offset")), L, what)
            for word in (str(L), str(L + 5), "first"):
                self.assertIn(word, reason, what)

    # ---- c ----------------------------------------------------------------
    def test_c_stream_end_of_stream_launches_partial_batch(self):
        opts = options(flush_us=10_000_000, max_batch=64)
        for fam in self.families("stream"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, 10)
            out, tags, dt, blk, _ = run_stream(fam, shape, opts, ins)
            what = "%s stream, 10 frames, flush_us=10 s" % fam.name
            self.assertEqual(blk.backend(), BACKEND, what)
            self.assertLess(dt, 3.0, what + ": the end of the stream waited for the flush")
            self.assertEqual(out.shape[0], 10, what)
            np.testing.assert_array_equal(out, np.array(exp), err_msg=what)
            self.assert_frame_tags(fam, shape, tags, range(10), what)

    def test_c_tagged_end_of_stream_launches_partial_batch(self):
        opts = options(flush_us=10_000_000, max_batch=64)
        for fam in self.families("tagged"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, 10)
            data, tags = packet_stream([(pmt.from_long(len(x)), x) for x in ins], fam.meta(shape))
            out, _, dbg, dt = run_tagged(fam, fam.make_tagged(opts), data, tags)
            what = "%s tagged, 10 packets, flush_us=10 s" % fam.name
            self.assertLess(dt, 3.0, what + ": the end of the stream waited for the flush")
            np.testing.assert_array_equal(out, np.concatenate(exp), err_msg=what)
            self.assertEqual(dbg.num_messages(), 0, what)

    # ---- d ----------------------------------------------------------------
    def pdu_flowgraph(self, blk):
        tb = gr.top_block()
        out, err = blocks.message_debug(), blocks.message_debug()
        tb.msg_connect(blk, "pdus", out, "store")
        tb.msg_connect(blk, "errors", err, "store")
        return tb, out, err

    def pdu(self, fam, shape, x, seq):
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(seq))
        for k, v in fam.meta(shape).items():
            meta = pmt.dict_add(meta, pmt.intern(k), pmt.from_long(v))
        it = ITEM_TYPES[fam.in_type]
        return pmt.cons(meta, it["to_pdu"](len(x), np.asarray(x, dtype=it["dtype"]).tolist()))

    def check_pdus(self, fam, shape, dbg, exp, what):
        ot = ITEM_TYPES[fam.out_type]
        self.assertEqual(dbg.num_messages(), len(exp), what)
        for i in range(len(exp)):
            m = dbg.get_message(i)
            meta = pmt.car(m)
            self.assertEqual(pmt.to_long(dict_get(meta, "seq")), i, what + ": out of order")
            for key, want in fam.frame_tags.items():
                self.assertTrue(pmt.dict_has_key(meta, pmt.intern(key)), "%s: no %s" % (what, key))
                if want == "shape":
                    self.assertEqual(pmt_int(dict_get(meta, key)), shape, what + ": " + key)
            np.testing.assert_array_equal(np.array(ot["from_pdu"](pmt.cdr(m)), dtype=ot["dtype"]),
                                          exp[i], err_msg="%s: PDU %d" % (what, i))

    def test_d_pdu_batches_flush_and_errors(self):
        for fam in self.families("pdu"):
            shape = fam.shapes[0]
            n = 64 + 6  # one full batch, then a partial one that only the flush sends
            ins, exp = fam.frames(self.rng, shape, n)
            blk = fam.make_pdu(options(max_batch=64, flush_us=1_500_000))
            tb, dbg, err = self.pdu_flowgraph(blk)
            port = pmt.intern("pdus")
            for i, x in enumerate(ins):  # queued before start: handled once it runs
                blk.to_basic_block()._post(port, self.pdu(fam, shape, x, i))
                if i == 10:
                    blk.to_basic_block()._post(port, pmt.cons(
                        pmt.make_dict(), ITEM_TYPES[fam.in_type]["to_pdu"](0, [])))
                if i == 40:
                    blk.to_basic_block()._post(port, pmt.cons(
                        pmt.make_dict(), pmt.init_u8vector(len(x), [1] * len(x))))
            tb.start()
            try:
                wait_for(lambda: dbg.num_messages() >= n and err.num_messages() >= 2, 30)
            finally:
                tb.stop()
                tb.wait()
            what = "%s PDU, %d PDUs, max_batch=64" % (fam.name, n)
            self.check_pdus(fam, shape, dbg, exp, what)
            self.assertEqual(err.num_messages(), 2, what + ": errors for the empty and u8 PDUs")
            for i in range(2):
                self.assertTrue(pmt.is_symbol(dict_get(err.get_message(i), "reason")), what)

    def test_d2_pdu_stop_holds_pdus_restart_publishes_them(self):
        # flush_us far beyond the test: the 5 PDUs wait in the partial batch
        # when the flowgraph stops; the restart launches them at once.
        for fam in self.families("pdu"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, 5)
            blk = fam.make_pdu(options(max_batch=64, flush_us=10_000_000))
            tb, dbg, err = self.pdu_flowgraph(blk)
            for i, x in enumerate(ins):
                blk.to_basic_block()._post(pmt.intern("pdus"), self.pdu(fam, shape, x, i))
            tb.start()
            time.sleep(0.5)
            before = dbg.num_messages()
            tb.stop()
            tb.wait()
            self.assertEqual(before, 0, fam.name + ": the partial batch left before the stop")
            tb.start()
            try:
                wait_for(lambda: dbg.num_messages() >= len(exp), 5)
            finally:
                tb.stop()
                tb.wait()
            what = "%s PDU stop() with %d PDUs held (%d out before stop)" % (fam.name, 5, before)
            self.check_pdus(fam, shape, dbg, exp, what)
            self.assertEqual(err.num_messages(), 0, what)

    # ---- k ----------------------------------------------------------------
    def test_k_stream_input_tags_change_nothing(self):
        n = 8
        for fam in self.families("stream"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, n)
            values = [pmt.from_double(3.5), pmt.intern("x"), pmt.PMT_NIL, pmt.from_long(-1),
                      pmt.from_uint64(1 << 40), pmt.init_u8vector(2, [1, 2])]
            tags = [make_tag(i, "packet_len", v) for i, v in enumerate(values)]
            tags += [make_tag(i, "iterations", pmt.intern("not a count")) for i in range(n)]
            out, out_tags, _, _, _ = run_stream(fam, shape, options(max_batch=4), ins, tags)
            what = "%s stream, %d frames with tags on the input" % (fam.name, n)
            self.assertEqual(out.shape[0], n, what)
            np.testing.assert_array_equal(out, np.array(exp), err_msg=what)
            self.assertEqual(tags_named(out_tags, "gpurx_error"), [], what)

    # ---- e ----------------------------------------------------------------
    def test_e_huge_finite_llrs(self):
        fams = [f for f in FAMILIES if f.soft_params and f.has_stream]
        self.assertTrue(fams)
        for fam in fams:
            for shape in fam.shapes[:2]:
                for amp in (1e37, 3e38):
                    ins, exp = fam.frames(self.rng, shape, 4, amp=amp)
                    self.assertTrue(np.all(np.isfinite(np.concatenate(ins))))
                    for params in fam.soft_params:
                        out, tags, _, _, _ = run_stream(fam, shape, options(max_batch=4), ins,
                                                        **params)
                        what = "%s %s shape=%d |LLR|=%g" % (fam.name, params, shape, amp)
                        self.assertEqual(out.shape[0], len(exp), what)
                        self.assertTrue(out.any(), what + ": all zeros")
                        np.testing.assert_array_equal(out, np.array(exp), err_msg=what)
                        self.assertEqual(tags_named(tags, "gpurx_error"), [], what)

    # ---- f ----------------------------------------------------------------
    def test_f_lock_unlock_mid_run(self):
        # GNU Radio 3.10 itself drops items that sit in its stream buffers
        # across lock()/unlock() (any block, e.g. blocks.copy), so the lock
        # is taken when every buffer is empty: the source has sent `first`
        # frames and waits, the block has consumed them all and delivered its
        # full batches, and holds a partial batch (flush_us far beyond the
        # test). The frames the block holds must come out after unlock(),
        # once, before the rest, and nothing may be repeated or reordered.
        for fam in self.families("stream"):
            shape = fam.shapes[0]
            n, first, batch = 300, 100, 64
            ins, exp = fam.frames(self.rng, shape, n)
            it, ot = ITEM_TYPES[fam.in_type], ITEM_TYPES[fam.out_type]
            src = gated_source(np.array(ins, dtype=it["dtype"]), first)
            blk = fam.make_stream(shape, options(max_batch=batch, flush_us=10_000_000))
            snk = ot["sink"](fam.out_len(shape))
            tb = gr.top_block()
            tb.connect(src, blk, snk)
            got = lambda: len(snk.data()) // fam.out_len(shape)  # noqa: E731
            full, held = fam.frames_in_full_batches(shape, first, batch), fam.frames_held(shape, first)
            state = {}

            def hook(tb):
                state["consumed"] = wait_for(lambda: blk.nitems_read(0) >= first, 20) and \
                    blk.nitems_read(0)
                state["before"] = wait_for(lambda: got() >= full, 20) and got()
                time.sleep(0.05)
                state["before"] = got()
                tb.lock()
                tb.unlock()
                state["after_unlock"] = wait_for(lambda: got() >= held, 3) and got()
                src.release()

            run_with_timeout(tb, RUN_TIMEOUT_S, start_hook=hook)
            out = np.array(snk.data(), dtype=ot["dtype"]).reshape(-1, fam.out_len(shape))
            what = ("%s stream, lock()/unlock() holding a partial batch (%s)"
                    % (fam.name, state))
            self.assertEqual(state["consumed"], first, what)
            self.assertEqual(state["before"], full, what + ": the partial batch left before the lock")
            self.assertGreaterEqual(state["after_unlock"], held,
                                    what + ": the held frames did not come out after unlock()")
            self.assertEqual(out.shape[0], n, what)
            np.testing.assert_array_equal(out, np.array(exp), err_msg=what)

    # ---- j ----------------------------------------------------------------
    def stop_restart(self, tb, src, sink_frames, consumed, full, held, what):
        """Runs tb until the block holds a partial batch (the source sent its
        first frames, consumed() says the block has taken them all, and the
        `full` frames of the full batches are out), stops it, checks that the
        stop delivered nothing more, starts it again and checks that the
        held frames come out at once (`held` frames out in all); then lets
        the source finish."""
        tb.start()
        try:
            self.assertTrue(wait_for(consumed, 20), what + ": the first frames were never consumed")
            self.assertTrue(wait_for(lambda: sink_frames() >= full, 20),
                            what + ": the full batches never came out")
            time.sleep(0.2)
            self.assertEqual(sink_frames(), full, what + ": the partial batch left before the stop")
        finally:
            tb.stop()
            tb.wait()
        self.assertEqual(sink_frames(), full, what + ": frames held at stop() came out without a restart")

        def hook(tb):
            ok = wait_for(lambda: sink_frames() >= held, 5)
            self.assertTrue(ok, "%s: the %d frames held at stop() did not come out within 5 s "
                            "of the restart (%d out)" % (what, held - full, sink_frames()))
            src.release()

        run_with_timeout(tb, RUN_TIMEOUT_S, start_hook=hook)

    def test_j_stop_holds_frames_restart_delivers_them(self):
        n, first, batch = 150, 100, 64
        opts = dict(max_batch=batch, flush_us=10_000_000)
        for fam in self.families("stream"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, n)
            it, ot = ITEM_TYPES[fam.in_type], ITEM_TYPES[fam.out_type]
            src = gated_source(np.array(ins, dtype=it["dtype"]), first)
            snk = ot["sink"](fam.out_len(shape))
            blk = fam.make_stream(shape, options(**opts))
            tb = gr.top_block()
            tb.connect(src, blk, snk)
            full, held = fam.frames_in_full_batches(shape, first, batch), fam.frames_held(shape, first)
            what = "%s stream, stop()/start() holding %d frames" % (fam.name, held - full)
            self.stop_restart(tb, src, lambda: len(snk.data()) // fam.out_len(shape),
                              lambda: blk.nitems_read(0) >= first, full, held, what)
            out = np.array(snk.data(), dtype=ot["dtype"]).reshape(-1, fam.out_len(shape))
            self.assertEqual(out.shape[0], n, what)
            np.testing.assert_array_equal(out, np.array(exp), err_msg=what)
        for fam in self.families("tagged"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, n)
            data, tags = packet_stream([(pmt.from_long(len(x)), x) for x in ins], fam.meta(shape))
            it, ot = ITEM_TYPES[fam.in_type], ITEM_TYPES[fam.out_type]
            src = gated_tagged_source(np.asarray(data, dtype=it["dtype"]), tags, first * len(ins[0]))
            snk = ot["sink"]()
            dbg = blocks.message_debug()
            blk = fam.make_tagged(options(**opts))
            tb = gr.top_block()
            tb.connect(src, blk, snk)
            tb.msg_connect(blk, "errors", dbg, "store")
            what = "%s tagged, stop()/start() holding %d packets" % (fam.name, first % batch)
            self.stop_restart(tb, src, lambda: len(snk.data()) // fam.out_len(shape),
                              lambda: blk.nitems_read(0) >= first * len(ins[0]),
                              first // batch * batch, first, what)
            np.testing.assert_array_equal(np.array(snk.data(), dtype=ot["dtype"]),
                                          np.concatenate(exp), err_msg=what)
            # (Offsets count from each run's start: only the values compare.)
            lens = tags_named(snk.tags(), "packet_len")
            self.assertEqual([pmt_int(t.value) for t in lens], [fam.out_len(shape)] * n, what)
            self.assertEqual(dbg.num_messages(), 0, what)

    # ---- g ----------------------------------------------------------------
    def test_g_construction_errors_name_the_parameter(self):
        for fam in FAMILIES:
            for desc, make, name in fam.bad_constructions():
                with self.assertRaises(ValueError, msg="%s %s" % (fam.name, desc)) as ctx:
                    make()
                self.assertIn(name, str(ctx.exception), "%s %s" % (fam.name, desc))
        bad_options = [(dict(max_batch=0), "max_batch"), (dict(max_batch=1048577), "max_batch"),
                       (dict(slots=0), "slots"), (dict(slots=65), "slots"),
                       (dict(flush_us=-1), "flush_us"), (dict(flush_us=10_000_001), "flush_us"),
                       (dict(cpu_threads=-1), "cpu_threads"),
                       (dict(cpu_threads=1025), "cpu_threads"),
                       (dict(backend="gpu"), "backend"), (dict(backend=""), "backend"),
                       (dict(devices="x"), "devices"), (dict(devices="0,x"), "devices"),
                       (dict(devices=-1), "devices"), (dict(devices=""), "devices")]
        # An empty list names no GPU: refused by pipeline_options itself.
        with self.assertRaises(ValueError) as ctx:
            gpurx.pipeline_options(devices=[])
        self.assertIn("devices", str(ctx.exception))
        if gpurx.cuda_available(0):
            # An ordinal that does not exist is an error even with auto.
            bad_options.append((dict(devices="99", backend="auto"), "devices"))
            bad_options.append((dict(devices="99", backend="cuda"), "devices"))
        for fam in FAMILIES:
            for form, make in fam.deployments().items():
                for kw, name in bad_options:
                    what = "%s %s with %s" % (fam.name, form, kw)
                    with self.assertRaises(ValueError, msg=what) as ctx:
                        make(gpurx.pipeline_options(**kw))
                    self.assertIn(name, str(ctx.exception), what)
                # backend="cpu" ignores the devices field.
                for devices in ("0", "all", "-1", "7"):
                    blk = make(gpurx.pipeline_options(backend="cpu", devices=devices))
                    self.assertEqual(blk.backend(), "cpu")
        # ... and runs.
        for fam in self.families("stream"):
            shape = fam.shapes[0]
            ins, exp = fam.frames(self.rng, shape, 3)
            out, _, _, blk, _ = run_stream(fam, shape, gpurx.pipeline_options(backend="cpu",
                                                                              devices="0"), ins)
            self.assertEqual(blk.backend(), "cpu")
            np.testing.assert_array_equal(out, np.array(exp), err_msg=fam.name)

    # ---- h ----------------------------------------------------------------
    def test_h_huge_max_batch_starts_or_is_refused(self):
        for fam in self.families("tagged"):
            code = ("import sys; sys.path.insert(0, %r); import qa_drivers; "
                    "qa_drivers.huge_batch_child(%r)" % (HERE, fam.name))
            what = "%s tagged, max_batch=%d" % (fam.name, HUGE_BATCH)
            try:
                p = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True,
                                   text=True, timeout=120)
            except subprocess.TimeoutExpired:
                self.fail(what + ": the child process did not finish in 120 s")
            lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
            # GNU Radio's log, which may go to either stream, for the messages.
            log = "\n".join(l for l in (p.stdout + "\n" + p.stderr).splitlines()
                            if l.strip() and not l.startswith("RESULT ")
                            and "buffer_double_mapped" not in l)[-3000:]
            self.assertTrue(lines, "%s: child exited %d without a result; log:\n%s"
                            % (what, p.returncode, log))
            r = json.loads(lines[-1][len("RESULT "):])
            if "ctor_error" in r:
                self.assertIn("max_batch", r["ctor_error"], what)
                continue
            self.assertNotIn("hang", r, "%s: constructed without an error, but the flowgraph "
                             "did not finish (an error raised in the scheduler thread, at "
                             "start()?); log:\n%s" % (what, log))
            self.assertNotIn("run_error", r, "%s; log:\n%s" % (what, log))
            self.assertTrue(r.get("ok"), what + ": wrong output")
            self.assertLess(r["ctor_s"] + r["run_s"], HUGE_BATCH_BUDGET_S, what)


    # ---- i ----------------------------------------------------------------
    def test_i_staging_that_cannot_be_allocated_never_hangs_start(self):
        ran, skipped = 0, []
        for fam in FAMILIES:
            for form in fam.deployments():
                what = "%s %s, large max_batch under RLIMIT_AS" % (fam.name, form)
                code = ("import sys; sys.path.insert(0, %r); import qa_drivers; "
                        "qa_drivers.start_failure_child(%r, %r)" % (HERE, fam.name, form))
                try:
                    p = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True,
                                       text=True, timeout=60)
                except subprocess.TimeoutExpired:
                    self.fail(what + ": tb.start() did not return (the child hung for 60 s)")
                lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
                log = (p.stdout + p.stderr)[-3000:]
                self.assertTrue(lines, "%s: child exited %d without a result; log:\n%s"
                                % (what, p.returncode, log))
                r = json.loads(lines[-1][len("RESULT "):])
                # Refused at construction even at 2 slots of 2**14 frames
                # (gigabytes): a machine too small for this case.
                if "options" not in r:
                    skipped.append("%s (%s)" % (what, r.get("ctor_error")))
                    continue
                ran += 1
                # Either start() raised, naming what to lower, or the block
                # reported the failure and the flowgraph finished (stream,
                # tagged) or stopped (PDU).
                if "start_error" in r:
                    self.assertIn("max_batch", r["start_error"], what)
                else:
                    self.assertTrue(r.get("finished") or r.get("started"), "%s: %s" % (what, r))
                    self.assertIn("max_batch", log, what + ": the failure was not logged")
        if not ran:
            self.skipTest("no staging passes this machine's RAM check: " + "; ".join(skipped))


if __name__ == '__main__':
    gr_unittest.run(qa_drivers)
