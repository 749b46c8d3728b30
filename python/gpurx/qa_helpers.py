#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Shared by the QA tests.

- BACKEND: the backend the tests run on, from the GPURX_TEST_BACKEND
  environment variable ("cpu", the default, or "cuda").
- require_backend_or_skip(): call once at import; with BACKEND == "cuda" and
  no usable CUDA device it exits 77 (ctest: Skipped) with the reason - CUDA
  cases are never passed silently.
- options(**kw): gpurx.pipeline_options on BACKEND, other fields as given.
- llrs(), encode_turbo(): noiseless LTE turbo codewords as LLRs.
- run_with_timeout(): tb.run() that fails instead of hanging.
"""
import os
import sys
import threading
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gpurx

BACKEND = os.environ.get("GPURX_TEST_BACKEND", "cpu")
if BACKEND not in ("cpu", "cuda"):
    raise SystemExit("GPURX_TEST_BACKEND must be cpu or cuda, got %r" % BACKEND)


def require_cuda_or_skip():
    if not gpurx.cuda_available(0):
        try:
            reason = gpurx.backend_reason("auto", 0)
        except Exception as e:  # noqa: BLE001 - report whatever the probe said
            reason = str(e)
        print("skipped: no CUDA device (%s)" % reason)
        sys.exit(77)


def require_backend_or_skip():
    """Exit 77 (Skipped) when BACKEND is cuda and no CUDA device is usable."""
    if BACKEND == "cuda":
        require_cuda_or_skip()


def options(**kw):
    """gpurx.pipeline_options on the test backend; other fields from kw."""
    kw.setdefault("backend", BACKEND)
    return gpurx.pipeline_options(**kw)


def llrs(codebits, amp=4.0):
    """Noiseless LLRs of code bits: +amp for a 1, -amp for a 0 (gr-gpurx's
    convention, L = ln P(b=1)/P(b=0))."""
    return np.where(np.asarray(codebits) > 0, amp, -amp).astype(np.float32)


def encode_turbo(bits_frames, K):
    """LTE turbo codewords (3K+12 bits each, uint8) of equally long frames."""
    tb = gr.top_block()
    src = blocks.vector_source_b(np.concatenate(bits_frames).astype(np.uint8).tolist(), False, K)
    enc = gpurx.lte_turbo_encoder(K)
    snk = blocks.vector_sink_b(3 * K + 12)
    tb.connect(src, enc, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8).reshape(-1, 3 * K + 12)


def run_with_timeout(tb, timeout_s, start_hook=None, exit_if_stuck=True):
    """Run tb to completion in a thread; return the seconds it took.

    If it has not returned after timeout_s, the flowgraph is asked to stop
    and AssertionError is raised. start_hook(tb), if given, runs right after
    start(). A flowgraph that does not stop either (a block spinning inside
    work()) would burn CPU and memory under every later test: then, with
    exit_if_stuck, the process says so and exits 1 at once."""
    done = threading.Event()
    err = []

    def body():
        try:
            tb.start()
            if start_hook is not None:
                start_hook(tb)
            tb.wait()
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller
            err.append(e)
        finally:
            done.set()

    t0 = time.monotonic()
    th = threading.Thread(target=body, daemon=True)
    th.start()
    if not done.wait(timeout_s):
        msg = "the flowgraph did not finish within %g s" % timeout_s
        threading.Thread(target=tb.stop, daemon=True).start()
        if not done.wait(10) and exit_if_stuck:
            sys.stderr.write("\nFAIL: %s, and it did not stop when asked (a block stuck in "
                             "work()?): exiting, the remaining tests cannot run in this "
                             "process\n" % msg)
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(1)
        raise AssertionError(msg)
    if err:
        raise err[0]
    return time.monotonic() - t0


def pmt_int(v):
    """A pmt integer (long or uint64) as a Python int."""
    if pmt.is_uint64(v):
        return pmt.to_uint64(v)
    if pmt.is_integer(v):
        return pmt.to_long(v)
    raise TypeError("not a pmt integer: %s" % pmt.write_string(v))


def wait_for(predicate, timeout_s, poll_s=0.01):
    """Poll predicate() until it is true or timeout_s passes; its last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        v = predicate()
        if v or time.monotonic() >= deadline:
            return v
        time.sleep(poll_s)


def tags_named(tags, name):
    """The tags called \p name, by offset."""
    return sorted((t for t in tags if pmt.symbol_to_string(t.key) == name), key=lambda t: t.offset)


class gated_source(gr.sync_block):
    """Source of `items` (one item per element of a 1-D array, or one vector
    per row of a 2-D one) that sends the first `first`, then waits until
    release() before sending the rest (and then ends the stream)."""

    def __init__(self, items, first):
        vlen = 1 if items.ndim == 1 else items.shape[1]
        gr.sync_block.__init__(self, "gated_source", None,
                               [items.dtype if vlen == 1 else (items.dtype, vlen)])
        self.items, self.first, self.sent = items, first, 0
        self.go = threading.Event()

    def release(self):
        self.go.set()

    def work(self, input_items, output_items):
        if self.sent == len(self.items):
            return -1
        limit = len(self.items) if self.go.is_set() else self.first
        k = min(len(output_items[0]), limit - self.sent)
        if k <= 0:
            self.go.wait(0.001)
            return 0
        out = output_items[0][:k]
        out[:] = self.items[self.sent:self.sent + k].reshape(out.shape)
        self.sent += k
        return k


def run_two_process_twin(examples, rx_script, tx_script, common, backend, timeout_s):
    """A two-process twin: the receiver example started first (it binds and
    waits up to 20 s without a packet), then the transmitter to the end.
    Returns (transmitter's CompletedProcess, receiver's return code, its
    stdout, its stderr); the receiver is killed if it is still running."""
    import subprocess
    rx = subprocess.Popen([sys.executable, "-B", os.path.join(examples, rx_script),
                           "--backend", backend, "--idle", "20"] + common,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        tx = subprocess.run([sys.executable, "-B", os.path.join(examples, tx_script)] + common,
                            capture_output=True, text=True, timeout=timeout_s)
        if tx.returncode != 0:
            return tx, None, "", ""
        out, err = rx.communicate(timeout=timeout_s)
    finally:
        if rx.poll() is None:
            rx.kill()
            rx.communicate()
    return tx, rx.returncode, out, err
