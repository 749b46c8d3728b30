#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Where pdu_shard_sink sends a shard key (docs/scale-out.md, "Balance"):

- hash_ring: plain consistent hashing (a key goes to the owner of the first
  virtual node clockwise of its hash). Stateless: the same in every process,
  but the shares of a few hundred keys are uneven (the busiest of 8
  endpoints got 1.36 of an even share of 512 HARQ keys with 64 virtual
  nodes).
- bounded_ring: consistent hashing with bounded loads (Mirrokni, Thorup,
  Zadimoghaddam 2018). A new key goes to the first endpoint clockwise whose
  count of keys is below ceil((1 + eps) * keys / endpoints); a key, once
  placed, stays until its endpoint leaves, or a new endpoint takes it to
  fill its share. No endpoint holds more than that bound.

Both hash with hash64 (BLAKE2b), which is stable across processes and hosts.
"""
import bisect
import hashlib
import heapq
import math
import struct

UINT64_MAX = (1 << 64) - 1
RING = 1 << 64


def hash64(data):
    """A stable 64-bit hash of bytes (BLAKE2b, 8 bytes, big-endian): the same
    in every process and on every host (Python's hash() is not)."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def key_point(key):
    """Where an integer key sits on the ring."""
    return hash64(struct.pack(">Q", int(key) & UINT64_MAX))


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

    def points_of(self, endpoint):
        return sorted(hash64(("%s#%d" % (endpoint, i)).encode()) for i in range(self.vnodes))

    def add(self, endpoint):
        if endpoint in self._endpoints:
            raise ValueError("endpoint %r is already on the ring" % endpoint)
        self._endpoints.append(endpoint)
        for p in self.points_of(endpoint):
            bisect.insort(self._points, (p, endpoint))

    def remove(self, endpoint):
        if endpoint not in self._endpoints:
            raise ValueError("endpoint %r is not on the ring" % endpoint)
        self._endpoints.remove(endpoint)
        self._points = [p for p in self._points if p[1] != endpoint]

    def lookup(self, key):
        """The endpoint of an integer key (None on an empty ring)."""
        if not self._points:
            return None
        i = bisect.bisect_left(self._points, (key_point(key), ""))
        return self._points[i % len(self._points)][1]

    def clockwise(self, key):
        """The endpoints in the order a walk clockwise from the key meets
        their first point (each once)."""
        n = len(self._points)
        i = bisect.bisect_left(self._points, (key_point(key), ""))
        seen = []
        for j in range(n):
            e = self._points[(i + j) % n][1]
            if e not in seen:
                seen.append(e)
                if len(seen) == len(self._endpoints):
                    break
        return seen


def load_bound(keys, endpoints, eps):
    """ceil((1 + eps) * keys / endpoints): the most keys one endpoint may
    hold (integer arithmetic on eps in millionths, so every process rounds
    alike)."""
    m = round(eps * 1000000)
    return -(-(1000000 + m) * keys // (1000000 * endpoints))


class bounded_ring:
    """Consistent hashing with bounded loads. It remembers the endpoint of
    every key it placed (count per endpoint):

    - place(key): a known key's endpoint; a new key goes to the first
      endpoint clockwise (over the virtual nodes, as hash_ring) whose count
      is below load_bound(keys + 1, endpoints, eps);
    - remove(e): only e's keys move, each (in key order) to the first
      endpoint clockwise below load_bound(keys, endpoints - 1, eps);
    - add(e): e takes floor(keys / endpoints) keys, one at a time from the
      endpoint that holds most (ties: the least endpoint string), the one of
      its keys nearest counterclockwise of a point of e; only keys going to
      e move;
    - forget(key): the key is no longer counted (pdu_shard_sink forgets the
      least recently seen beyond max_keys).

    So no endpoint holds more than load_bound(keys, endpoints, eps) keys
    after place() and remove() (the first endpoint below the bound exists:
    N endpoints at the bound would hold more than all the keys); add() only
    lowers the others' counts."""

    def __init__(self, endpoints=(), vnodes=64, eps=0.01):
        if not isinstance(eps, (int, float)) or not 0 < eps <= 10:
            raise ValueError("eps must be in (0, 10], got %r" % (eps,))
        self.eps = float(eps)
        self._ring = hash_ring((), vnodes)  # raises naming vnodes
        self.vnodes = vnodes
        self._owner = {}   # key -> endpoint
        self._count = {}   # endpoint -> keys it holds
        for e in endpoints:
            self.add(e)

    def endpoints(self):
        return self._ring.endpoints()

    def counts(self):
        return dict(self._count)

    def keys(self):
        return len(self._owner)

    def bound(self):
        """The most keys an endpoint may hold now."""
        n = len(self._count)
        return load_bound(len(self._owner), n, self.eps) if n else 0

    def lookup(self, key):
        """The endpoint of a key placed already, else None."""
        return self._owner.get(key)

    def _first_below(self, key, limit):
        for e in self._ring.clockwise(key):
            if self._count[e] < limit:
                return e
        raise AssertionError("no endpoint below the load bound")  # cannot happen (see above)

    def place(self, key):
        """The endpoint of key, placing it when new (None on an empty ring)."""
        e = self._owner.get(key)
        if e is not None or not self._count:
            return e
        e = self._first_below(key, load_bound(len(self._owner) + 1, len(self._count), self.eps))
        self._owner[key] = e
        self._count[e] += 1
        return e

    def forget(self, key):
        e = self._owner.pop(key, None)
        if e is not None:
            self._count[e] -= 1

    def remove(self, endpoint):
        """Takes endpoint off; returns {key: new endpoint} of its keys (each
        None when it was the last endpoint: the keys are forgotten)."""
        self._ring.remove(endpoint)  # raises when it is not there
        del self._count[endpoint]
        mine = sorted(k for k, e in self._owner.items() if e == endpoint)
        moved = {}
        if not self._count:
            for k in mine:
                del self._owner[k]
                moved[k] = None
            return moved
        limit = load_bound(len(self._owner), len(self._count), self.eps)
        for k in mine:
            e = self._first_below(k, limit)
            self._owner[k] = e
            self._count[e] += 1
            moved[k] = e
        return moved

    def add(self, endpoint):
        """Puts endpoint on; returns {key: its old endpoint} of the keys it
        took."""
        self._ring.add(endpoint)  # raises when it is there already
        self._count[endpoint] = 0
        target = len(self._owner) // len(self._count)
        if target == 0:
            return {}
        points = self._ring.points_of(endpoint)

        def gap(k):
            # Clockwise distance from the key to endpoint's next point.
            h = key_point(k)
            i = bisect.bisect_left(points, h)
            return (points[i % len(points)] - h) % RING

        # Each donor's keys, nearest first.
        near = {}
        for k, e in self._owner.items():
            near.setdefault(e, []).append((gap(k), k))
        for e in near:
            heapq.heapify(near[e])
        taken = {}
        while len(taken) < target:
            donor = min((e for e in near if near[e]), key=lambda e: (-self._count[e], e))
            _, k = heapq.heappop(near[donor])
            self._count[donor] -= 1
            self._owner[k] = endpoint
            taken[k] = donor
        self._count[endpoint] = target
        return taken
