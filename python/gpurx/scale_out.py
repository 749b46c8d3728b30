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
  hash ring; remove_endpoint() / add_endpoint() at run time (or commands on
  its "control" port) move only the keys of the endpoint concerned. It
  remembers where each key went: the first PDU of a key that moved, or
  whose decoder lost its buffers, carries "harq_reset" (the decoder starts
  that HARQ buffer afresh) and is reported ("key_moved", "key_reset"). A
  lane whose queue is full drops the PDU and reports it ("queue_full").
- worker_monitor(timeout_ms=1000, startup_ms=30000): takes the workers'
  heartbeats (a zeromq.sub_msg_source) and commands the shard sink:
  "remove" an endpoint silent for timeout_ms (a worker not heard from yet:
  startup_ms), "add" it back when its heartbeats resume (or its process
  was restarted); wait_ready() waits for every worker's first heartbeat.
- pdu_reorder(window=4096, timeout_ms=500): emits PDUs in "seq" order,
  skipping (and reporting) what does not come, and what a worker reports
  it dropped; a jump far beyond the window is one "resync".
- check_endpoint(), zmq_block(): endpoints checked where they are given,
  ZMQ's errors naming them.
- worker_gate(name, decoders=1, max_queue=0): a worker's gate between its
  PULL and its decoders (stale PDUs, bounded queue, routes each PDU by its
  HARQ key to one of the decoders, adds "worker" and "decoder");
  worker_heartbeat(gate, interval_ms=200): that worker's heartbeats.
- worker_flowgraph: what gpurx-worker runs: a PULL, a worker_gate,
  lte_sch_decoder_pdu (one per GPU, or `decoders` of them), a PUSH;
  heartbeats on a PUB. decoder_of(), usable_gpus(), worker_gpus(): which
  decoder takes a key, and which GPUs the decoders go on.
- hash_ring, bounded_ring (shard_ring.py), harq_shard_key(): the hashing
  and balancing, for tests and tools.

pdu_sequencer, pdu_shard_sink, pdu_reorder and worker_gate's block are C++
(a few microseconds of CPU per PDU; worker_gate is a thin Python wrapper
around its block); worker_monitor and the heartbeat, which see a message
per worker every interval and not per PDU, are Python message blocks;
docs/scale-out.md has the measurements.
"""
import os
import re
import struct
import sys
import threading
import time
import traceback
import weakref


import pmt
from gnuradio import gr, zeromq

from .shard_ring import bounded_ring, hash64, hash_ring, load_bound  # noqa: F401 (re-exported)

PDUS = pmt.intern("pdus")
ERRORS = pmt.intern("errors")
SEQ = pmt.intern("seq")
SHARD_KEY = pmt.intern("shard_key")
WORKER = pmt.intern("worker")
DECODER = pmt.intern("decoder")
REASON = pmt.intern("reason")
CONTROL = pmt.intern("control")
HEARTBEATS = pmt.intern("heartbeats")
HARQ_RESET = pmt.intern("harq_reset")
INSTANCE = pmt.intern("worker_instance")
DROPPED = pmt.intern("dropped")
IN = pmt.intern("in")
UINT64_MAX = (1 << 64) - 1
# Report fields that are uint64 (the others integers are longs).
_UINT64_FIELDS = ("seq", "shard_key", "instance", "first", "last", "count")


# The HARQ fields a shard key is made of, and the values lte_sch_decoder_pdu
# accepts (lib/sch/sch_params.cc tb_request::check(): rnti, codeword;
# lib/blocks/sch/sch_metadata.cc: harq_process). A value outside them would
# not be decoded anyway, and one beyond a signed 64-bit integer cannot even
# be hashed (struct.pack raises).
HARQ_FIELDS = (("rnti", 0, 65535), ("harq_process", 0, 15), ("codeword", 0, 1))


class bad_field(ValueError):
    """A metadata field that is there but not valid: field (its name),
    value (as pmt writes it) and expected (what it must be)."""

    def __init__(self, field, value, expected):
        ValueError.__init__(self, "%s = %s: must be %s" % (field, value, expected))
        self.field, self.value, self.expected = field, value, expected

    def report(self, **fields):
        """The report of it on a block's "errors" port."""
        return _error("bad HARQ field", field=self.field, value=self.value,
                      expected=self.expected, **fields)


def _in_range(field, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise bad_field(field, repr(v), "an integer in %d..%d" % (lo, hi))
    return v


def harq_shard_key(rnti, harq_process, codeword=0):
    """The shard key of a HARQ buffer: hash64 of (rnti, harq_process,
    codeword) - what lte_sch_decoder_pdu keys its soft buffers by, so that
    every transmission of a transport block lands on the same worker.
    bad_field (a ValueError) naming a value outside HARQ_FIELDS."""
    values = [_in_range(f, v, lo, hi) for (f, lo, hi), v in zip(HARQ_FIELDS,
                                                                 (rnti, harq_process, codeword))]
    return hash64(struct.pack(">qqq", *values))


def pmt_int(v):
    if pmt.is_uint64(v):
        return pmt.to_uint64(v)
    if pmt.is_integer(v):
        return pmt.to_long(v)
    raise TypeError("not an integer: %s" % pmt.write_string(v))


def _meta_int(meta, key):
    """The integer meta[key], or None when absent; TypeError when not an integer."""
    v = pmt.dict_ref(meta, pmt.intern(key) if isinstance(key, str) else key, pmt.PMT_NIL)
    if pmt.is_null(v):
        return None
    return pmt_int(v)


def _meta_str(meta, key):
    """meta[key] as a str (a symbol), or None when absent or not a symbol."""
    v = pmt.dict_ref(meta, pmt.intern(key), pmt.PMT_NIL)
    return pmt.symbol_to_string(v) if pmt.is_symbol(v) else None


def _error(reason, **fields):
    """A report: a dict with "reason" and the given fields."""
    return _dict(reason=reason, **fields)


def _dict(**fields):
    """A pmt dict of fields (None left out; str as symbols, int as long or,
    for seq, shard_key and instance, uint64)."""
    d = pmt.make_dict()
    for k, v in fields.items():
        if v is None:
            continue
        if isinstance(v, bool):
            v = pmt.from_bool(v)
        elif isinstance(v, int):
            v = pmt.from_uint64(v) if k in _UINT64_FIELDS else pmt.from_long(v)
        elif isinstance(v, str):
            v = pmt.intern(v)
        d = pmt.dict_add(d, pmt.intern(k), v)
    return d


_HARQ_KEYS = tuple((pmt.intern(f), f, lo, hi) for f, lo, hi in HARQ_FIELDS)


def harq_fields(meta):
    """(rnti, harq_process, codeword) of a PDU's metadata, each None when
    absent; bad_field naming the first one that is there but not an
    integer in its HARQ_FIELDS range (a uint64 >= 2^63, a negative value, a
    double, a symbol...)."""
    out = []
    for key, field, lo, hi in _HARQ_KEYS:
        v = pmt.dict_ref(meta, key, pmt.PMT_NIL)
        if pmt.is_null(v):
            out.append(None)
            continue
        try:
            n = pmt_int(v)
        except TypeError:
            raise bad_field(field, pmt.write_string(v),
                            "an integer in %d..%d" % (lo, hi)) from None
        if not lo <= n <= hi:
            raise bad_field(field, str(n), "an integer in %d..%d" % (lo, hi))
        out.append(n)
    return tuple(out)


_ENDPOINT_FORM = "tcp://host:port (port 1..65535), ipc://path or inproc://name"
_TCP_HOST = re.compile(r"^(\*|[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\])$")


def _endpoint_problem(endpoint, bind):
    """What is wrong with endpoint as a ZMQ endpoint this side binds (bind)
    or connects to, or None. ZMQ's own check is loose (it takes port 99999)
    and its errors do not name the endpoint ("Invalid argument")."""
    if not isinstance(endpoint, str):
        return "not a string"
    scheme, sep, address = endpoint.partition("://")
    if not sep or scheme not in ("tcp", "ipc", "inproc"):
        return "the transport must be tcp, ipc or inproc"
    if not address or address != address.strip():
        return "no address" if not address.strip() else "spaces around the address"
    if scheme != "tcp":
        return None
    host, sep, port = address.rpartition(":")
    if not sep or not host:
        return "no host:port"
    if not _TCP_HOST.match(host):
        return "host %r is not a host name or address" % host
    if host == "*" and not bind:
        return "host * only where this side binds"
    if port == "*":
        return None if bind else "port * only where this side binds"
    if not port.isdigit() or not port.isascii() or not 1 <= int(port) <= 65535:
        return "port %r is not in 1..65535" % port
    return None


def check_endpoint(who, param, endpoint, bind=False):
    """endpoint, when it is a ZMQ endpoint (_ENDPOINT_FORM; a "*" host or
    port only where this side binds); else ValueError naming who, the
    parameter and the value."""
    why = _endpoint_problem(endpoint, bind)
    if why is not None:
        raise ValueError("%s: %s %r is not a ZMQ endpoint: %s (%s)"
                         % (who, param, endpoint, why, _ENDPOINT_FORM))
    return endpoint


def zmq_block(who, param, endpoint, make):
    """make(), which builds a gr-zeromq block binding or connecting at
    endpoint; its error (ZMQ's: "Address already in use", "Invalid
    argument") raised again as a RuntimeError naming who, the parameter and
    the endpoint."""
    try:
        return make()
    except RuntimeError as e:
        raise RuntimeError("%s: %s %s: %s" % (who, param, endpoint, e)) from e


def new_instance():
    """A random 63-bit id of one worker process (its heartbeats carry it)."""
    return int.from_bytes(os.urandom(8), "big") >> 1


class _block_thread:
    """A block's background thread (a timer, a heartbeat), run from the
    block's start() to its stop(): target() returns once stop_event is set;
    stop() sets it and joins the thread."""

    def __init__(self, target, name):
        self.stop_event = threading.Event()
        self._target, self._name, self._thread = target, name, None

    def start(self):
        self.stop_event.clear()
        self._thread = threading.Thread(target=self._target, name=self._name, daemon=True)
        self._thread.start()

    def stop(self):
        self.stop_event.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def _set_handler(block, port, handler, errors=True):
    """Sets handler as the message handler of block's input port (a str),
    wrapped so that no exception escapes it: GNU Radio ends a block's
    message thread on one, and every later message would stay queued for
    good (a front end or a worker stalls while its heartbeats go on: issue
    35). An exception is written on stderr (the traceback the first time)
    and, with errors, reported on the block's "errors" port ("internal
    error": port, error); the message is dropped and the block goes on."""
    failures = [0]
    label = type(block).__name__  # (worker_gate's name is its worker's)

    def guarded(msg):
        try:
            handler(msg)
        except Exception as e:  # noqa: BLE001 - whatever it is, the block must go on
            failures[0] += 1
            text = "%s: %s" % (type(e).__name__, e)
            sys.stderr.write("%s: %s handler: %s (message dropped)\n"
                             % (label, port, text))
            if failures[0] == 1:
                traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            if errors:
                try:
                    block.message_port_pub(ERRORS, _error("internal error", port=port,
                                                          error=text))
                except Exception:  # noqa: BLE001 - logged above already
                    pass

    # GNU Radio's Python gateway calls the handler by its name, as an
    # attribute of the block.
    guarded.__name__ = "_guarded_%s_handler" % port
    setattr(block, guarded.__name__, guarded)
    block.set_msg_handler(pmt.intern(port), guarded)


# pdu_sequencer, pdu_shard_sink and pdu_reorder are C++ blocks
# (lib/blocks/scale_out over lib/scale_out): the per-PDU path costs a few
# microseconds a PDU there, against tens to hundreds in Python message
# handlers. Their parameters, ports, reports and methods are those described
# in this module's docstring.
from .gpurx_python import pdu_reorder, pdu_sequencer, pdu_shard_sink  # noqa: E402,F401


class worker_monitor(gr.basic_block):
    """Watches the workers' heartbeats (gpurx-worker --heartbeat: a dict
    with "endpoint", the worker's name as the shard sink knows it, and
    "instance", a random id of its process; through a zeromq.sub_msg_source)
    and commands a pdu_shard_sink on its "control" port:
    - "remove" an endpoint from which no heartbeat came for timeout_ms
      (cause "no heartbeat for N ms"): its keys move to the others;
    - "add" it back when its heartbeats resume (cause "heartbeats resumed"),
      with its instance; an endpoint whose instance changed without a
      timeout (restarted quickly) is "add"ed with the new instance, which
      the shard sink takes as a restart.
    endpoints: those the shard sink starts with. Each is pending from
    start() until its first heartbeat: it stays on the shard sink's ring
    (its PDUs wait in ZMQ and in its lane of the shard sink, up to that
    one's max_queue, for the worker to listen) for up to startup_ms, and
    is removed only then (cause "no heartbeat within N ms of start"); a
    worker takes seconds to start (importing GNU Radio, making its
    decoders), far more than timeout_ms, which counts from its first
    heartbeat on (issue 35: workers started with the front end lost their
    PDUs). pending() lists them, wait_ready() waits for them: a front end
    can hold its input until every worker runs. A heartbeat from an
    endpoint not listed is reported on "errors" ("unknown worker", once
    each: its --name differs from the shard sink's endpoint?), or, with
    accept_new, adds it.

    Ports: "heartbeats" in, "control" out, "errors" out. status() ->
    {endpoint: dict(alive, pending, instance, age_ms, and the last
    heartbeat's counts)}."""

    def __init__(self, timeout_ms=1000, endpoints=(), accept_new=False, startup_ms=30000):
        gr.basic_block.__init__(self, "worker_monitor", None, None)
        if not isinstance(timeout_ms, (int, float)) or not 0 < timeout_ms <= 3600e3:
            raise ValueError("worker_monitor: timeout_ms must be > 0 (and at most an hour), got %r"
                             % (timeout_ms,))
        if isinstance(endpoints, str):
            endpoints = [e.strip() for e in endpoints.split(",") if e.strip()]
        for e in endpoints:
            check_endpoint("worker_monitor", "endpoints:", e)
        if (isinstance(startup_ms, bool) or not isinstance(startup_ms, (int, float))
                or not 0 < startup_ms <= 3600e3):
            raise ValueError("worker_monitor: startup_ms must be > 0 (and at most an hour), got %r"
                             % (startup_ms,))
        self.timeout_s = timeout_ms / 1e3
        self.startup_s = startup_ms / 1e3
        self.accept_new = bool(accept_new)
        self._lock = threading.Lock()
        self._state = {e: dict(alive=True, pending=True, last=None, instance=None)
                       for e in endpoints}
        self._started = None
        self._unknown = set()
        self._timer = _block_thread(self._tick, "worker_monitor timer")
        self._stop = self._timer.stop_event
        self.message_port_register_in(HEARTBEATS)
        self.message_port_register_out(CONTROL)
        self.message_port_register_out(ERRORS)
        _set_handler(self, "heartbeats", self.handle)

    def status(self):
        now = time.monotonic()
        with self._lock:
            out = {}
            for e, st in self._state.items():
                d = {k: v for k, v in st.items() if k != "last"}
                d["age_ms"] = None if st["last"] is None else (now - st["last"]) * 1e3
                out[e] = d
            return out

    def pending(self):
        """The endpoints given that have sent no heartbeat since start()
        (all of them before start())."""
        with self._lock:
            return [e for e, st in self._state.items() if st["pending"]]

    def wait_ready(self, timeout_s, poll_s=0.05):
        """Waits until every endpoint given has sent a heartbeat, for at most
        timeout_s (the flowgraph running); the endpoints still pending
        ([]: all ready)."""
        deadline = time.monotonic() + timeout_s
        while True:
            left = self.pending()
            if not left or time.monotonic() >= deadline:
                return left
            time.sleep(poll_s)

    def _command(self, command, endpoint, cause, instance=None):
        self.message_port_pub(CONTROL, _dict(command=command, endpoint=endpoint, cause=cause,
                                             instance=instance))

    def handle(self, msg):
        if pmt.is_pair(msg) and pmt.is_dict(pmt.car(msg)):
            msg = pmt.car(msg)  # a heartbeat sent as a PDU
        try:
            if not pmt.is_dict(msg):
                raise ValueError("not a dict")
            endpoint = _meta_str(msg, "endpoint")
            instance = _meta_int(msg, "instance")
            if endpoint is None or instance is None:
                raise ValueError("no endpoint or instance")
        except (ValueError, TypeError) as e:
            self.message_port_pub(ERRORS, _error("bad heartbeat: %s" % e,
                                                 message=pmt.write_string(msg)))
            return
        now = time.monotonic()
        counts = {}
        for k in ("beat", "decoded", "dropped", "stale", "queue"):
            try:
                v = _meta_int(msg, k)
            except TypeError:
                v = None
            if v is not None:
                counts[k] = v
        with self._lock:
            st = self._state.get(endpoint)
            if st is None:
                if not self.accept_new:
                    if endpoint not in self._unknown:
                        self._unknown.add(endpoint)
                        self.message_port_pub(ERRORS, _error(
                            "unknown worker", endpoint=endpoint,
                            cause="its heartbeat names an endpoint the monitor was not given "
                                  "(its --name differs from the shard sink's endpoint?)"))
                    return
                st = self._state[endpoint] = dict(alive=False, pending=False, last=None,
                                                  instance=None)
                cause = "new worker"
            else:
                cause = "first heartbeat" if st["pending"] else "heartbeats resumed"
            st.update(counts)
            st["last"], st["pending"] = now, False
            if not st["alive"]:
                st["alive"], st["instance"] = True, instance
                self._command("add", endpoint, cause, instance)
            elif st["instance"] != instance:
                first = st["instance"] is None
                st["instance"] = instance
                self._command("add", endpoint, "first heartbeat" if first else "worker restarted",
                              instance)

    def _check(self):
        now = time.monotonic()
        with self._lock:
            for e, st in self._state.items():
                if not st["alive"]:
                    continue
                if st["pending"]:
                    if now - self._started > self.startup_s:
                        st["alive"] = False
                        self._command("remove", e, "no heartbeat within %d ms of start"
                                      % round(self.startup_s * 1e3))
                elif now - st["last"] > self.timeout_s:
                    st["alive"] = False
                    self._command("remove", e, "no heartbeat for %d ms" % round(
                        (now - st["last"]) * 1e3))

    def _tick(self):
        period = min(0.05, self.timeout_s / 4)
        while not self._stop.wait(period):
            self._check()

    def start(self):
        with self._lock:
            self._started = time.monotonic()
        self._timer.start()
        return True

    def stop(self):
        self._timer.stop()
        return True


def decoder_of(shard_key, n):
    """The decoder (0..n-1) of a worker with n decoders that takes the PDUs
    of a shard key: shard_key % n, the same for every transmission of a
    HARQ key, so each retransmission meets the soft buffer of its key. (The
    front end places a key on a worker by hash64 of the key, not by its low
    bits, so the keys one worker holds still spread evenly here.)"""
    return int(shard_key) % n


class worker_gate:
    """Between a worker's PULL and its decoders: a C++ block
    (worker_gate_block, lib/blocks/scale_out over lib/scale_out/gate_router;
    a few microseconds a PDU) under this thin wrapper, which keeps the
    Python gate's parameters, attributes and watch() (Python decoder blocks
    included); it stands for the block wherever one is expected
    (to_basic_block(), msg_connect, GRC):
    - sends each PDU to one decoder: decoder_of(its "shard_key", decoders),
      the key computed from rnti, harq_process and codeword
      (harq_shard_key()) when the PDU has none; decoder 0 for a PDU with
      neither (the decoder reports what is wrong with it);
    - adds "worker" (name) and "decoder" (that decoder's index) to the
      metadata, which the decoder keeps in its output;
    - a PDU whose "worker_instance" is not instance (queued for a
      predecessor at the same endpoint, before it died) is dropped and
      counted ("stale"; its seq was reported missing at the collector);
    - with max_queue > 0, a PDU arriving while max_queue PDUs already wait
      is dropped: a notice (its metadata plus "dropped" =
      "worker_queue_full", "worker" and "decoder", an empty u8vector) goes
      out on "dropped" (to the collector, whose pdu_reorder reports the seq
      at once instead of waiting for a timeout); the next PDU of its HARQ
      key carries "harq_reset" (its buffer missed a transmission). What
      waits is the gate's own queue plus, once watch(decoder blocks) was
      called, the queue of the decoder the PDU goes to (gpurx-worker does
      so; a GRC flowgraph can from a Python Snippet);
    - a PDU whose rnti, harq_process or codeword is there but not an
      integer in the range the decoder takes (HARQ_FIELDS) is dropped:
      reported on "errors" ("bad HARQ field": field, value, expected, seq,
      worker), and, when it has a seq, a notice (cause "bad_harq_field")
      goes out on "dropped" as for a full queue; counted ("bad");
    - whatever raises while it handles a PDU is reported on "errors"
      ("internal error": port, error) and costs that PDU only;
    - with log_interval > 0, writes a line on stderr when started ("...:
      started, instance ..."), one every log_interval seconds with its rate
      and one when stopped.
    instance: this process's id (new_instance() when None), which the
    heartbeats carry (worker_heartbeat) and the front end stamps on the
    PDUs it sends here. Ports: "pdus" in; "pdus0" .. "pdus<n-1>" out, one
    per decoder (with one decoder "pdus" too: GRC names a port of
    multiplicity 1 without its index); "dropped" out; "errors" out."""

    MAX_DECODERS = 64

    def __init__(self, name, decoders=1, max_queue=0, instance=None, log_interval=0.0):
        if not isinstance(name, str) or not name:
            raise ValueError("worker_gate: name must be a non-empty string, got %r" % (name,))
        if (isinstance(decoders, bool) or not isinstance(decoders, int)
                or not 1 <= decoders <= self.MAX_DECODERS):
            raise ValueError("worker_gate: decoders must be 1..%d, got %r"
                             % (self.MAX_DECODERS, decoders))
        if isinstance(max_queue, bool) or not isinstance(max_queue, int) or max_queue < 0:
            raise ValueError("worker_gate: max_queue must be >= 0 (0: unbounded), got %r"
                             % (max_queue,))
        if instance is None:
            instance = new_instance()
        if (isinstance(instance, bool) or not isinstance(instance, int)
                or not 0 <= instance <= UINT64_MAX):
            raise ValueError("worker_gate: instance must be a uint64 (None: a new random one), "
                             "got %r" % (instance,))
        if (isinstance(log_interval, bool) or not isinstance(log_interval, (int, float))
                or not log_interval >= 0):
            raise ValueError("worker_gate: log_interval must be >= 0 seconds (0: no log), got %r"
                             % (log_interval,))
        from .gpurx_python import worker_gate_block
        self.block = worker_gate_block(name, decoders, max_queue, instance, float(log_interval))
        self.name_str = name
        self.name = pmt.intern(name)
        self.instance = instance
        self.max_queue = max_queue
        self.n = decoders
        self.log_interval = float(log_interval)
        self._decoders = None

    def to_basic_block(self):
        return self.block.to_basic_block()

    def __getattr__(self, attr):
        # The rest of a block's methods (alias, message_subscribers, ...).
        if attr == "block":
            raise AttributeError(attr)
        return getattr(self.block, attr)

    @property
    def passed(self):
        """PDUs sent to a decoder."""
        return self.block.passed()

    @property
    def dropped(self):
        """PDUs dropped because max_queue PDUs waited."""
        return self.block.dropped()

    @property
    def stale(self):
        """PDUs dropped because they were meant for another instance."""
        return self.block.stale()

    @property
    def bad(self):
        """PDUs dropped for a bad HARQ field."""
        return self.block.bad()

    def watch(self, decoders):
        """The decoder blocks on "pdus0" .. "pdus<n-1>", in that order (any
        block with a "pdus" input; pdus_out() where it has one): max_queue
        then counts the decoder's queue too, and counts() and the log have
        what they decoded."""
        decoders = list(decoders)
        if len(decoders) != self.n:
            raise ValueError("worker_gate.watch: %d decoder blocks for a gate of %d decoders"
                             % (len(decoders), self.n))
        self.block.watch([d.to_basic_block() for d in decoders])
        self._decoders = decoders
        # The log (a C++ thread) asks decoded() through a weak reference: the
        # block holding this wrapper alive would be a cycle no collector sees.
        me = weakref.ref(self)
        self.block.set_decoded_source(lambda: me().decoded() if me() is not None else None)

    def queue(self, decoder=None):
        """PDUs waiting for the gate and, when watched, for one decoder
        (decoder None: for every decoder)."""
        return self.block.queue(-1 if decoder is None else decoder)

    def decoded(self):
        """TBs the watched decoders have sent out (pdus_out()), or None when
        not watching decoders that count."""
        if self._decoders is None or not all(hasattr(d, "pdus_out") for d in self._decoders):
            return None
        return sum(d.pdus_out() for d in self._decoders)

    def counts(self):
        """passed, dropped, stale, queue and (when watched) decoded: what a
        heartbeat carries."""
        out = dict(passed=self.passed, dropped=self.dropped, stale=self.stale, bad=self.bad,
                   queue=self.queue())
        decoded = self.decoded()
        if decoded is not None:
            out["decoded"] = decoded
        return out

    def decoder_for(self, meta):
        """The index of the decoder that takes a PDU with metadata meta."""
        return self.block.decoder_for(meta)


def _worker_gate(name, instance, decoders, max_queue):
    """worker_gate(name, len(decoders), max_queue, instance) watching the
    decoder blocks decoders: gpurx-worker's gate."""
    gate = worker_gate(name, len(decoders), max_queue, instance)
    gate.watch(decoders)
    return gate


class _heartbeat(gr.basic_block):
    """Posts a heartbeat every interval_ms on "out": a dict with "endpoint"
    (the worker's name), "instance", "beat" (a count) and the counts
    counts() returns (decoded, dropped, stale, queue)."""

    def __init__(self, name, instance, interval_ms, counts):
        gr.basic_block.__init__(self, "worker_heartbeat", None, None)
        if not isinstance(interval_ms, (int, float)) or not 1 <= interval_ms <= 60e3:
            raise ValueError("worker_heartbeat: interval_ms must be 1..60000, got %r"
                             % (interval_ms,))
        self.name, self.instance = name, instance
        self.interval_s = interval_ms / 1e3
        self.counts = counts
        self.beats = 0
        self._thread = _block_thread(self._run, "worker heartbeat")
        self._stop = self._thread.stop_event
        self.message_port_register_out(pmt.intern("out"))

    def _run(self):
        port = pmt.intern("out")
        while True:
            fields = dict(endpoint=self.name, instance=self.instance, beat=self.beats)
            fields.update(self.counts())
            self.message_port_pub(port, _dict(**fields))
            self.beats += 1
            if self._stop.wait(self.interval_s):
                return

    def start(self):
        self._thread.start()
        return True

    def stop(self):
        self._thread.stop()
        return True


class worker_heartbeat(_heartbeat):
    """The heartbeat of the worker whose gate is gate (a worker_gate): every
    interval_ms a dict on "out" with "endpoint" (the gate's name),
    "instance" (the gate's instance, which the front end's worker_monitor
    learns and stamps on the PDUs it sends), "beat" (a count) and the
    gate's counts() (passed, dropped, stale, queue; decoded when the gate
    watches its decoders). Connect "out" to a zeromq.pub_msg_sink aimed at
    the front end's heartbeat SUB."""

    def __init__(self, gate, interval_ms=200):
        if not isinstance(gate, worker_gate):
            raise ValueError("worker_heartbeat: gate must be a worker_gate, got %r" % (gate,))
        _heartbeat.__init__(self, gate.name_str, gate.instance, interval_ms, gate.counts)
        self.gate = gate


class _error_log(gr.basic_block):
    """Writes each message on "errors" (the reports of a worker's block:
    what, "decoder" or "gate") on stderr; counts them."""

    def __init__(self, name, what="decoder"):
        gr.basic_block.__init__(self, "worker_errors", None, None)
        self.name, self.what, self.count = name, what, 0
        self.message_port_register_in(ERRORS)
        _set_handler(self, "errors", self.handle, errors=False)

    def handle(self, msg):
        self.count += 1
        sys.stderr.write("gpurx-worker %s: %s error: %s\n"
                         % (self.name, self.what, pmt.write_string(msg)))
        sys.stderr.flush()


def keep_freed_memory():
    """Tells glibc's malloc to keep the memory a worker frees for reuse:
    no trimming of heap tops below 1 GiB, blocks up to 32 MiB from the heap
    (not mapped and unmapped each time), the heap grown 64 MiB at a time.
    A worker allocates and frees some 250 kB per heavy TB (the ZMQ message,
    the deserialized LLRs, the decoded bits and their serialization); with
    glibc's defaults (trim above 128 kB, map blocks above 128 kB) those
    pages go back to the kernel and fault in again on the next TB (a few
    microseconds each in a virtual machine). Measured with
    bench/bench_scale_out_worker.py (docs/scale-out.md). False where libc
    has no mallopt."""
    import ctypes
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    return bool(mallopt(m_trim_threshold, 1 << 30) and mallopt(m_top_pad, 64 << 20)
                and mallopt(m_mmap_threshold, 32 << 20))


_DEVICES_FORM = ("\"all\", a CUDA device ordinal or a comma-separated list of them "
                 "(\"0,1\")")


def usable_gpus():
    """The ordinals of the usable CUDA devices, what devices="all" means to
    a decoder: the probe's device count (runtime_report(), as gpurx-info
    prints it), each device checked with cuda_available(). [] without CUDA."""
    from gnuradio import gpurx
    m = re.search(r"^\s*CUDA devices: (\d+)\s*$", gpurx.runtime_report(), re.M)
    n = int(m.group(1)) if m else 0
    return [d for d in range(n) if gpurx.cuda_available(d)]


def parse_devices(devices):
    """A devices setting as ordinals: "all" -> usable_gpus(), "0,1" ->
    [0, 1]. ValueError naming devices on anything else (as the decoders'
    pipeline_options would: negative, repeated or empty entries)."""
    if not isinstance(devices, str):
        raise ValueError("worker: devices must be %s, got %r" % (_DEVICES_FORM, devices))
    if devices == "all":
        return usable_gpus()
    out = []
    for item in devices.split(","):
        item = item.strip()
        if not item.isdigit() or len(item) > 4 or not item.isascii():
            raise ValueError("worker: devices must be %s, got %r (%r is not an ordinal >= 0)"
                             % (_DEVICES_FORM, devices, item))
        if int(item) in out:
            raise ValueError("worker: devices must be %s, got %r (device %s is listed twice)"
                             % (_DEVICES_FORM, devices, item))
        out.append(int(item))
    return out


def worker_gpus(backend, devices):
    """The GPUs a worker's decoders go on, one decoder per GPU by default,
    or None where its decoders run on the CPU (backend "cpu"; "auto" where
    a listed GPU is not usable, or "all" finds none) or where the decoder
    itself is to refuse the request (an unknown backend; "cuda" without a
    usable GPU): the decoders then get the worker's own backend and devices
    strings, and resolve, log or refuse them as any decoder does."""
    from gnuradio import gpurx
    if backend not in ("auto", "cuda"):
        return None
    gpus = parse_devices(devices)
    if not gpus:
        return None
    if backend == "auto" and not all(gpurx.auto_backend(d) == "cuda" for d in gpus):
        return None
    return gpus


class worker_flowgraph(gr.top_block):
    """gpurx-worker's flowgraph: zeromq.pull_msg_source (binds listen) ->
    gate (stale PDUs, max_queue, "worker" = name, default listen; routes
    each PDU to a decoder by its HARQ shard key: worker_gate, watching the
    decoders) -> one or
    more lte_sch_decoder_pdu -> zeromq.push_msg_sink (connects to send,
    where the collector binds; the gate's drop notices go there too): C++
    blocks all along the PDU path. With heartbeat (a ZMQ endpoint), a
    zeromq.pub_msg_sink there (connecting, or binding with heartbeat_bind)
    publishes a heartbeat every heartbeat_interval_ms (the front end's
    worker_monitor takes them). decoded(), dropped(), stale() count PDUs;
    instance is this process's random id.

    Decoders: on CUDA (backend "cuda", or "auto" where every GPU of
    devices is usable) one per GPU of devices ("all": every usable GPU),
    each with its own HARQ soft buffers (harq_buffers of them) on its GPU;
    on the CPU one, each with cpu_threads threads. decoders = N sets the
    number (1..64): decoder i on the i-th GPU, cycling through them. Every
    PDU of a HARQ key goes to the same decoder (decoder_of())."""

    MAX_DECODERS = 64

    def __init__(self, listen, send, channel="dlsch", backend="auto", devices="0",
                 harq_buffers=16, input="float", iterations=6, cpu_threads=0, max_batch=64,
                 max_tbs=97896, max_g=262144, timeout_ms=100, name=None, heartbeat=None,
                 heartbeat_interval_ms=200, heartbeat_bind=False, max_queue=1024,
                 early_termination=True, decoders=None):
        gr.top_block.__init__(self, "gpurx-worker")
        from gnuradio import gpurx
        check_endpoint("worker", "listen", listen, bind=True)
        check_endpoint("worker", "send", send)
        if heartbeat is not None:
            check_endpoint("worker", "heartbeat", heartbeat, bind=bool(heartbeat_bind))
        if not isinstance(max_queue, int) or max_queue < 0:
            raise ValueError("worker: max_queue must be >= 0 (0: unbounded), got %r" % (max_queue,))
        if not isinstance(heartbeat_interval_ms, (int, float)) or not 1 <= heartbeat_interval_ms <= 60e3:
            raise ValueError("worker: heartbeat_interval_ms must be 1..60000, got %r"
                             % (heartbeat_interval_ms,))
        if decoders is not None and (isinstance(decoders, bool) or not isinstance(decoders, int)
                                     or not 1 <= decoders <= self.MAX_DECODERS):
            raise ValueError("worker: decoders must be 1..%d (default: one per GPU on CUDA, 1 on "
                             "the CPU), got %r" % (self.MAX_DECODERS, decoders))
        # The sockets first: a port in use fails at once, not after the
        # decoders took their GPUs.
        self.source = zmq_block("worker", "listen", listen,
                                lambda: zeromq.pull_msg_source(listen, timeout_ms, True))
        self.sink = zmq_block("worker", "send", send,
                              lambda: zeromq.push_msg_sink(send, timeout_ms, False))
        if heartbeat is not None:
            self.heartbeat_sink = zmq_block(
                "worker", "heartbeat", heartbeat,
                lambda: zeromq.pub_msg_sink(heartbeat, timeout_ms, bool(heartbeat_bind)))
        gpus = worker_gpus(backend, devices)
        n = decoders or (len(gpus) if gpus else 1)
        self.gpus = [gpus[i % len(gpus)] for i in range(n)] if gpus else []
        self.decoders = []
        for i in range(n):
            opts = gpurx.pipeline_options(max_batch=max_batch, backend=backend,
                                          devices=str(self.gpus[i]) if gpus else devices,
                                          cpu_threads=cpu_threads)
            self.decoders.append(gpurx.lte_sch_decoder_pdu(
                channel, iterations, "scaled-max-log-map", input, harq_buffers,
                bool(early_termination), max_tbs, max_g, "auto", options=opts))
        self.decoder = self.decoders[0]
        self.name = name or listen
        self.instance = new_instance()
        self.gate = worker_gate(self.name, n, max_queue, self.instance)
        self.gate.watch(self.decoders)
        self.errors = _error_log(self.name)
        self.gate_errors = _error_log(self.name, "gate")
        self.msg_connect(self.source, "out", self.gate, "pdus")
        self.msg_connect(self.gate, "errors", self.gate_errors, "errors")
        self.msg_connect(self.gate, "dropped", self.sink, "in")
        for i, dec in enumerate(self.decoders):
            self.msg_connect(self.gate, "pdus%d" % i, dec, "pdus")
            self.msg_connect(dec, "pdus", self.sink, "in")
            self.msg_connect(dec, "errors", self.errors, "errors")
        self.heartbeat = None
        if heartbeat is not None:
            self.heartbeat = _heartbeat(self.name, self.instance, heartbeat_interval_ms,
                                        self.counts)
            self.msg_connect(self.heartbeat, "out", self.heartbeat_sink, "in")

    def counts(self):
        return dict(decoded=self.decoded(), dropped=self.gate.dropped, stale=self.gate.stale,
                    bad=self.gate.bad, queue=self.gate.queue())

    def decoded(self):
        """TBs decoded, by every decoder together."""
        return sum(self.decoded_by())

    def decoded_by(self):
        """TBs decoded by each decoder."""
        return [d.pdus_out() for d in self.decoders]

    def dropped(self):
        return self.gate.dropped

    def stale(self):
        return self.gate.stale

    def backend(self):
        """The first decoder's backend ("cuda" or "cpu"): all of them run
        on it."""
        return self.decoders[0].backend()

    def describe(self):
        """The backend, and with several decoders how many and their GPUs:
        "cuda", "cuda (2 decoders: GPUs 0, 1)", "cpu (2 decoders)"."""
        n = len(self.decoders)
        if n == 1:
            return self.backend()
        if self.gpus:
            return "%s (%d decoders: GPUs %s)" % (self.backend(), n, ", ".join(map(str, self.gpus)))
        return "%s (%d decoders)" % (self.backend(), n)
