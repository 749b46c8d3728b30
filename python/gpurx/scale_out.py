#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Decoding beyond one machine (docs/scale-out.md): transport-block PDUs
spread over worker processes by GNU Radio's own ZeroMQ message blocks, and
put back in order.

- pdu_sequencer(key="harq"): stamps each PDU's metadata with "seq" (uint64,
  from 0) and "shard_key" (uint64).
- pdu_shard_sink(endpoints): sends each PDU to one of N ZMQ PUSH endpoints
  (one zeromq.push_msg_sink each) chosen by its shard_key on a consistent
  hash ring; remove_endpoint() / add_endpoint() at run time move only the
  keys of the endpoint concerned.
- pdu_reorder(window=4096, timeout_ms=500): emits PDUs in "seq" order,
  skipping (and reporting) what does not come.
- worker_flowgraph: what gpurx-worker runs: a PULL, lte_sch_decoder_pdu, a
  PUSH.
- hash_ring, harq_shard_key(): the hashing, for tests and tools.

These are Python message blocks (gr.basic_block): at the rates a decoder
process sustains (thousands of PDUs a second) their cost per PDU (tens of
microseconds) is small beside the decoding; docs/scale-out.md has the
measurements.
"""
import bisect
import hashlib
import struct
import sys
import threading
import time
from collections import deque

import pmt
from gnuradio import gr, zeromq

PDUS = pmt.intern("pdus")
ERRORS = pmt.intern("errors")
SEQ = pmt.intern("seq")
SHARD_KEY = pmt.intern("shard_key")
WORKER = pmt.intern("worker")
REASON = pmt.intern("reason")
UINT64_MAX = (1 << 64) - 1


def hash64(data):
    """A stable 64-bit hash of bytes (BLAKE2b, 8 bytes, big-endian): the same
    in every process and on every host (Python's hash() is not)."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def harq_shard_key(rnti, harq_process, codeword=0):
    """The shard key of a HARQ buffer: hash64 of (rnti, harq_process,
    codeword) - what lte_sch_decoder_pdu keys its soft buffers by, so that
    every transmission of a transport block lands on the same worker."""
    return hash64(struct.pack(">qqq", int(rnti), int(harq_process), int(codeword)))


def pmt_int(v):
    if pmt.is_uint64(v):
        return pmt.to_uint64(v)
    if pmt.is_integer(v):
        return pmt.to_long(v)
    raise TypeError("not an integer: %s" % pmt.write_string(v))


def _meta_int(meta, key):
    """The integer meta[key], or None when absent; TypeError when not an integer."""
    v = pmt.dict_ref(meta, pmt.intern(key), pmt.PMT_NIL)
    if pmt.is_null(v):
        return None
    return pmt_int(v)


def _error(reason, **fields):
    d = pmt.make_dict()
    d = pmt.dict_add(d, REASON, pmt.intern(reason))
    for k, v in fields.items():
        if isinstance(v, int):
            v = pmt.from_uint64(v) if k == "seq" else pmt.from_long(v)
        elif isinstance(v, str):
            v = pmt.intern(v)
        d = pmt.dict_add(d, pmt.intern(k), v)
    return d


def _is_pdu(msg):
    return pmt.is_pair(msg) and pmt.is_dict(pmt.car(msg))


class hash_ring:
    """A consistent hash ring: each endpoint owns `vnodes` points
    (hash64("endpoint#i")); a key goes to the endpoint owning the first
    point at or after hash64(key) (wrapping). Removing an endpoint moves
    only its keys (to the endpoints owning the next points); adding one
    takes keys only from the others, about 1/N of them."""

    def __init__(self, endpoints=(), vnodes=64):
        if not isinstance(vnodes, int) or not 1 <= vnodes <= 4096:
            raise ValueError("vnodes must be 1..4096, got %r" % (vnodes,))
        self.vnodes = vnodes
        self._points = []  # sorted (point, endpoint)
        self._endpoints = []
        for e in endpoints:
            self.add(e)

    def endpoints(self):
        return list(self._endpoints)

    def add(self, endpoint):
        if endpoint in self._endpoints:
            raise ValueError("endpoint %r is already on the ring" % endpoint)
        self._endpoints.append(endpoint)
        for i in range(self.vnodes):
            bisect.insort(self._points, (hash64(("%s#%d" % (endpoint, i)).encode()), endpoint))

    def remove(self, endpoint):
        if endpoint not in self._endpoints:
            raise ValueError("endpoint %r is not on the ring" % endpoint)
        self._endpoints.remove(endpoint)
        self._points = [p for p in self._points if p[1] != endpoint]

    def lookup(self, key):
        """The endpoint of an integer key (None on an empty ring)."""
        if not self._points:
            return None
        h = hash64(struct.pack(">Q", int(key) & UINT64_MAX))
        i = bisect.bisect_left(self._points, (h, ""))
        return self._points[i % len(self._points)][1]


class pdu_sequencer(gr.basic_block):
    """Stamps each PDU's metadata with "seq" (uint64: 0, 1, 2, ... in
    arrival order) and "shard_key" (uint64). key "harq": a stable hash of
    (rnti, harq_process, codeword) from the metadata (codeword 0 when
    absent), so that all transmissions of a transport block share a key;
    "round_robin": the seq itself. A PDU that is not a (dict . vector) pair,
    or lacks rnti / harq_process with key "harq", is dropped and reported on
    "errors" (dict: "reason"); it takes no seq.

    Ports: "pdus" in, "pdus" out, "errors" out."""

    KEYS = ("harq", "round_robin")

    def __init__(self, key="harq"):
        gr.basic_block.__init__(self, "pdu_sequencer", None, None)
        if key not in self.KEYS:
            raise ValueError("pdu_sequencer: key must be one of %s, got %r" % (self.KEYS, key))
        self.key = key
        self._seq = 0
        self.message_port_register_in(PDUS)
        self.message_port_register_out(PDUS)
        self.message_port_register_out(ERRORS)
        self.set_msg_handler(PDUS, self.handle)

    def next_seq(self):
        """The seq the next PDU will get (= how many were stamped)."""
        return self._seq

    def handle(self, msg):
        if not _is_pdu(msg):
            self.message_port_pub(ERRORS, _error("not a PDU (a pair of a dict and a vector)"))
            return
        meta = pmt.car(msg)
        seq = self._seq
        if self.key == "harq":
            try:
                rnti = _meta_int(meta, "rnti")
                hp = _meta_int(meta, "harq_process")
                cw = _meta_int(meta, "codeword")
            except TypeError as e:
                self.message_port_pub(ERRORS, _error("ill-typed HARQ field: %s" % e))
                return
            if rnti is None or hp is None:
                missing = "rnti" if rnti is None else "harq_process"
                self.message_port_pub(ERRORS, _error("missing %s (key harq)" % missing))
                return
            shard = harq_shard_key(rnti, hp, cw or 0)
        else:
            shard = seq
        self._seq += 1
        meta = pmt.dict_add(meta, SEQ, pmt.from_uint64(seq))
        meta = pmt.dict_add(meta, SHARD_KEY, pmt.from_uint64(shard))
        self.message_port_pub(PDUS, pmt.cons(meta, pmt.cdr(msg)))


class _relay(gr.basic_block):
    def __init__(self):
        gr.basic_block.__init__(self, "pdu_shard_lane", None, None)
        self.message_port_register_in(PDUS)
        self.message_port_register_out(PDUS)
        self.set_msg_handler(PDUS, self.handle)

    def handle(self, msg):
        self.message_port_pub(PDUS, msg)


class _lane:
    """One endpoint: a relay and a zeromq.push_msg_sink (connecting, not
    binding) in a flowgraph of their own, so that an endpoint can come and
    go while the others run, and one whose peer has stopped reading blocks
    only its own lane."""

    def __init__(self, endpoint, timeout_ms):
        self.endpoint = endpoint
        self.tb = gr.top_block("pdu_shard_lane " + endpoint)
        self.relay = _relay()
        self.sink = zeromq.push_msg_sink(endpoint, timeout_ms, False)
        self.tb.msg_connect(self.relay, "pdus", self.sink, "in")
        self.running = False
        self.sent = 0

    def start(self):
        if not self.running:
            self.tb.start()
            self.running = True

    def stop(self):
        if self.running:
            self.tb.stop()
            self.tb.wait()
            self.running = False

    def post(self, msg):
        self.sent += 1
        self.relay.to_basic_block()._post(PDUS, msg)


class pdu_shard_sink(gr.basic_block):
    """Sends each PDU to one of N ZeroMQ PUSH endpoints (workers' PULL
    sockets, which bind; this side connects), chosen by its "shard_key"
    (uint64, pdu_sequencer's) on a consistent hash ring with `vnodes`
    virtual nodes per endpoint. Each endpoint has its own
    zeromq.push_msg_sink. remove_endpoint(e) / add_endpoint(e), also while
    running, move only the keys of e. A PDU without a shard_key, or with no
    endpoint left, is dropped and reported on "errors".

    Ports: "pdus" in, "errors" out. sent() -> {endpoint: PDUs sent}."""

    def __init__(self, endpoints, vnodes=64, timeout_ms=100):
        gr.basic_block.__init__(self, "pdu_shard_sink", None, None)
        if isinstance(endpoints, str):
            endpoints = [e.strip() for e in endpoints.split(",") if e.strip()]
        endpoints = list(endpoints)
        if not endpoints:
            raise ValueError("pdu_shard_sink: endpoints must name at least one ZMQ endpoint")
        for e in endpoints:
            if not isinstance(e, str) or "://" not in e:
                raise ValueError("pdu_shard_sink: endpoints: %r is not a ZMQ endpoint "
                                 "(transport://address)" % (e,))
        if len(set(endpoints)) != len(endpoints):
            raise ValueError("pdu_shard_sink: endpoints: %r lists one twice" % (endpoints,))
        if not isinstance(timeout_ms, int) or timeout_ms < 0:
            raise ValueError("pdu_shard_sink: timeout_ms must be >= 0, got %r" % (timeout_ms,))
        self._ring = hash_ring(endpoints, vnodes)  # raises naming vnodes
        self._timeout_ms = timeout_ms
        self._lock = threading.Lock()
        self._lanes = {e: _lane(e, timeout_ms) for e in endpoints}
        self._retired = {}
        self._running = False
        self.message_port_register_in(PDUS)
        self.message_port_register_out(ERRORS)
        self.set_msg_handler(PDUS, self.handle)

    def endpoints(self):
        with self._lock:
            return self._ring.endpoints()

    def endpoint_of(self, shard_key):
        with self._lock:
            return self._ring.lookup(shard_key)

    def sent(self):
        with self._lock:
            out = {e: l.sent for e, l in self._retired.items()}
            out.update({e: l.sent for e, l in self._lanes.items()})
            return out

    def remove_endpoint(self, endpoint):
        """Takes endpoint off the ring: its keys go to the others from the
        next PDU on. What was already handed to its socket stays there."""
        with self._lock:
            self._ring.remove(endpoint)
            self._retired[endpoint] = self._lanes.pop(endpoint)

    def add_endpoint(self, endpoint):
        """Puts endpoint on the ring (a new push_msg_sink, started at once
        when running): it takes about 1/N of the keys, from the others."""
        if not isinstance(endpoint, str) or "://" not in endpoint:
            raise ValueError("add_endpoint: %r is not a ZMQ endpoint" % (endpoint,))
        with self._lock:
            lane = self._retired.pop(endpoint, None) or _lane(endpoint, self._timeout_ms)
            self._ring.add(endpoint)
            self._lanes[endpoint] = lane
            if self._running:
                lane.start()

    def start(self):
        with self._lock:
            self._running = True
            for lane in self._lanes.values():
                lane.start()
        return True

    def stop(self):
        with self._lock:
            self._running = False
            lanes = list(self._lanes.values()) + list(self._retired.values())
        for lane in lanes:
            lane.stop()
        return True

    def handle(self, msg):
        if not _is_pdu(msg):
            self.message_port_pub(ERRORS, _error("not a PDU (a pair of a dict and a vector)"))
            return
        meta = pmt.car(msg)
        try:
            key = _meta_int(meta, "shard_key")
        except TypeError:
            key = None
        if key is None:
            self.message_port_pub(ERRORS, _error("missing or ill-typed shard_key"))
            return
        with self._lock:
            e = self._ring.lookup(key)
            lane = self._lanes.get(e)
        if lane is None:
            self.message_port_pub(ERRORS, _error("no endpoint left"))
            return
        lane.post(msg)


class pdu_reorder(gr.basic_block):
    """Emits PDUs in "seq" order (0, 1, 2, ...), whatever order they arrive
    in. Reported on "errors", each as a dict with "reason" and "seq":
    - "timeout": a seq that had not come when a later PDU had waited
      timeout_ms for it: skipped, the stream goes on (so a PDU never waits
      longer than timeout_ms for the ones before it);
    - "window_full": a seq skipped because a PDU arrived window or more
      beyond the next one due (the oldest gaps are forced out);
    - "duplicate": a seq already held or emitted: dropped;
    - "late": a seq that was skipped before it came: dropped.
    A PDU without an integer "seq" is dropped and reported ("no seq").
    Missing seqs after the last PDU that arrived are not known, so not
    reported; flush() emits what is held, reporting its gaps ("flush").

    Ports: "pdus" in, "pdus" out, "errors" out. stats() -> dict of counts."""

    def __init__(self, window=4096, timeout_ms=500, first_seq=0):
        gr.basic_block.__init__(self, "pdu_reorder", None, None)
        if not isinstance(window, int) or not 1 <= window <= 1 << 24:
            raise ValueError("pdu_reorder: window must be 1..16777216, got %r" % (window,))
        if not isinstance(timeout_ms, (int, float)) or not 0 < timeout_ms <= 3600e3:
            raise ValueError("pdu_reorder: timeout_ms must be > 0 (and at most an hour), got %r"
                             % (timeout_ms,))
        if not isinstance(first_seq, int) or first_seq < 0:
            raise ValueError("pdu_reorder: first_seq must be >= 0, got %r" % (first_seq,))
        self.window, self.timeout_s = window, timeout_ms / 1e3
        self._next = first_seq
        self._held = {}            # seq -> msg
        self._arrivals = deque()   # (time, seq), in arrival order
        self._skipped = set()      # seqs skipped lately (to tell "late" from "duplicate")
        self._lock = threading.Lock()
        self._stats = dict(emitted=0, timeout=0, window_full=0, duplicate=0, late=0, no_seq=0,
                           flush=0)
        self._stop = threading.Event()
        self._timer = None
        self.message_port_register_in(PDUS)
        self.message_port_register_out(PDUS)
        self.message_port_register_out(ERRORS)
        self.set_msg_handler(PDUS, self.handle)

    def stats(self):
        with self._lock:
            s = dict(self._stats)
            s["held"], s["next_seq"] = len(self._held), self._next
            return s

    # Called with the lock held.
    def _report(self, reason, seq):
        self._stats[reason] += 1
        self.message_port_pub(ERRORS, _error(reason, seq=seq))

    def _emit_ready(self):
        while self._next in self._held:
            self.message_port_pub(PDUS, self._held.pop(self._next))
            self._stats["emitted"] += 1
            self._next += 1

    def _skip_to(self, seq, reason):
        """Skips (reporting) every missing seq below seq, emitting what is held."""
        while self._next < seq:
            if self._next in self._held:
                self._emit_ready()
                continue
            self._report(reason, self._next)
            self._skipped.add(self._next)
            self._next += 1
        if len(self._skipped) > 2 * self.window:
            floor = self._next - self.window
            self._skipped = {s for s in self._skipped if s >= floor}
        self._emit_ready()

    def handle(self, msg):
        seq = None
        if _is_pdu(msg):
            try:
                seq = _meta_int(pmt.car(msg), "seq")
            except TypeError:
                seq = None
        with self._lock:
            if seq is None or seq < 0:
                self._stats["no_seq"] += 1
                self.message_port_pub(ERRORS, _error("no seq"))
                return
            if seq in self._held:
                self._report("duplicate", seq)
                return
            if seq < self._next:
                # Skipped before it came (late: remembered for about a
                # window of seqs), or emitted already (duplicate).
                self._report("late" if seq in self._skipped else "duplicate", seq)
                self._skipped.discard(seq)
                return
            if seq - self._next >= self.window:
                self._skip_to(seq - self.window + 1, "window_full")
            self._held[seq] = msg
            self._arrivals.append((time.monotonic(), seq))
            self._emit_ready()
            self._expire(time.monotonic())

    def _expire(self, now):
        """Skips the gaps before every held PDU that has waited timeout_s."""
        limit = -1
        while self._arrivals and now - self._arrivals[0][0] >= self.timeout_s:
            limit = max(limit, self._arrivals.popleft()[1])
        if limit >= self._next:
            self._skip_to(limit, "timeout")
        # Arrivals already emitted need no timer.
        while self._arrivals and self._arrivals[0][1] < self._next:
            self._arrivals.popleft()

    def flush(self):
        """Emits everything held, in order, reporting the gaps ("flush")."""
        with self._lock:
            if self._held:
                self._skip_to(max(self._held) + 1, "flush")
            self._arrivals.clear()

    def _tick(self):
        period = min(0.05, self.timeout_s / 4)
        while not self._stop.wait(period):
            with self._lock:
                if self._arrivals:
                    self._expire(time.monotonic())

    def start(self):
        self._stop.clear()
        self._timer = threading.Thread(target=self._tick, name="pdu_reorder timer", daemon=True)
        self._timer.start()
        return True

    def stop(self):
        self._stop.set()
        if self._timer is not None:
            self._timer.join()
            self._timer = None
        return True


class _worker_stamp(gr.basic_block):
    """Adds "worker" (a symbol) to each decoded PDU's metadata and counts them."""

    def __init__(self, name):
        gr.basic_block.__init__(self, "worker_stamp", None, None)
        self.name = pmt.intern(name)
        self.count = 0
        self.message_port_register_in(PDUS)
        self.message_port_register_out(PDUS)
        self.set_msg_handler(PDUS, self.handle)

    def handle(self, msg):
        self.count += 1
        self.message_port_pub(PDUS, pmt.cons(pmt.dict_add(pmt.car(msg), WORKER, self.name),
                                             pmt.cdr(msg)))


class _error_log(gr.basic_block):
    def __init__(self, name):
        gr.basic_block.__init__(self, "worker_errors", None, None)
        self.name, self.count = name, 0
        self.message_port_register_in(ERRORS)
        self.set_msg_handler(ERRORS, self.handle)

    def handle(self, msg):
        self.count += 1
        sys.stderr.write("gpurx-worker %s: decoder error: %s\n" % (self.name, pmt.write_string(msg)))
        sys.stderr.flush()


class worker_flowgraph(gr.top_block):
    """gpurx-worker's flowgraph: zeromq.pull_msg_source (binds listen) ->
    lte_sch_decoder_pdu -> "worker" stamp (name, default listen) ->
    zeromq.push_msg_sink (connects to send, where the collector binds).
    decoded() counts the PDUs sent on."""

    def __init__(self, listen, send, channel="dlsch", backend="auto", devices="0",
                 harq_buffers=16, input="float", iterations=6, cpu_threads=0, max_batch=64,
                 max_tbs=97896, max_g=262144, timeout_ms=100, name=None):
        gr.top_block.__init__(self, "gpurx-worker")
        from gnuradio import gpurx
        for param, v in (("listen", listen), ("send", send)):
            if not isinstance(v, str) or "://" not in v:
                raise ValueError("worker: %s must be a ZMQ endpoint (transport://address), got %r"
                                 % (param, v))
        opts = gpurx.pipeline_options(max_batch=max_batch, backend=backend, devices=devices,
                                      cpu_threads=cpu_threads)
        self.decoder = gpurx.lte_sch_decoder_pdu(channel, iterations, "scaled-max-log-map", input,
                                                 harq_buffers, True, max_tbs, max_g, "auto", opts)
        self.source = zeromq.pull_msg_source(listen, timeout_ms, True)
        self.stamp = _worker_stamp(name or listen)
        self.sink = zeromq.push_msg_sink(send, timeout_ms, False)
        self.errors = _error_log(listen)
        self.msg_connect(self.source, "out", self.decoder, "pdus")
        self.msg_connect(self.decoder, "pdus", self.stamp, "pdus")
        self.msg_connect(self.stamp, "pdus", self.sink, "in")
        self.msg_connect(self.decoder, "errors", self.errors, "errors")

    def decoded(self):
        return self.stamp.count

    def backend(self):
        return self.decoder.backend()
