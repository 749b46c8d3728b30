#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""A plain reference of pdu_shard_sink's routing, for qa_scale_out: where
each PDU goes, which PDUs carry harq_reset and what is reported, replayed
from the shard keys in seq order and the endpoint changes (docs/scale-out.md,
"Balance" and "HARQ when a key moves"). Written from the documented rules,
without the module's data structures: exact fractions for the load bound,
walks over a sorted list of points, nearest keys found by scanning."""
import math
from fractions import Fraction

from gnuradio.gpurx.shard_ring import hash64, key_point

RING = 1 << 64


class ref_router:
    """balance "bounded": consistent hashing with bounded loads; "ring":
    the first virtual node clockwise of the key."""

    def __init__(self, endpoints, balance="bounded", vnodes=64, eps=0.01):
        self.balance, self.vnodes, self.eps = balance, vnodes, Fraction(str(eps))
        self.endpoints = []
        self.owner = {}
        for e in endpoints:
            self.add(e)

    def points(self, e):
        return [hash64(("%s#%d" % (e, i)).encode()) for i in range(self.vnodes)]

    def walk(self, key):
        """Endpoints in the order met clockwise from the key (a point equal
        to the key's counts as met)."""
        pts = sorted((p, e) for e in self.endpoints for p in self.points(e))
        h = key_point(key)
        start = next((i for i, (p, _) in enumerate(pts) if p >= h), 0)
        order = []
        for j in range(len(pts)):
            e = pts[(start + j) % len(pts)][1]
            if e not in order:
                order.append(e)
        return order

    def bound(self, keys, n):
        return math.ceil((1 + self.eps) * keys / n)

    def count(self, e):
        return sum(1 for v in self.owner.values() if v == e)

    def route(self, key):
        if not self.endpoints:
            return None
        if self.balance == "ring":
            return self.walk(key)[0]
        if key not in self.owner:
            limit = self.bound(len(self.owner) + 1, len(self.endpoints))
            self.owner[key] = next(e for e in self.walk(key) if self.count(e) < limit)
        return self.owner[key]

    def remove(self, endpoint):
        self.endpoints.remove(endpoint)
        if self.balance == "ring":
            return
        mine = sorted(k for k, e in self.owner.items() if e == endpoint)
        for k in mine:
            del self.owner[k]
        if not self.endpoints:
            return
        limit = self.bound(len(self.owner) + len(mine), len(self.endpoints))
        for k in mine:
            self.owner[k] = next(e for e in self.walk(k) if self.count(e) < limit)

    def add(self, endpoint):
        self.endpoints.append(endpoint)
        if self.balance == "ring":
            return
        pts = self.points(endpoint)
        target = len(self.owner) // len(self.endpoints)
        for _ in range(target):
            donors = [e for e in self.endpoints if e != endpoint]
            most = max(self.count(e) for e in donors)
            donor = min(e for e in donors if self.count(e) == most)
            gap = lambda k: min((p - key_point(k)) % RING for p in pts)
            k = min((k for k, e in self.owner.items() if e == donor), key=lambda k: (gap(k), k))
            self.owner[k] = endpoint


def replay(keys, endpoints, events=(), balance="bounded", vnodes=64, eps=0.01):
    """What the shard sink does with PDUs of these shard keys (seq order).
    events: (after_seq, "remove" | "add" | "restart", endpoint), applied
    after the PDU of that seq was routed (after_seq -1: before the first).
    Returns (route, flagged, reports): the endpoint of each seq, the seqs
    carrying harq_reset, and the key_moved / key_reset reports as dicts."""
    router = ref_router(endpoints, balance, vnodes, eps)
    last, lost = {}, {}
    route, flagged, reports = [], set(), []
    pending = sorted(events, key=lambda ev: ev[0])
    for s, k in enumerate(keys):
        while pending and pending[0][0] < s:
            _, what, e = pending.pop(0)
            if what == "remove":
                router.remove(e)
                cause = "endpoint_removed"
            elif what == "add":
                router.add(e)
                continue
            else:
                cause = "worker_restarted"
            for key, where in last.items():
                if where == e:
                    lost[key] = cause
        e = router.route(k)
        route.append(e)
        if k not in last:
            if balance == "bounded":
                flagged.add(s)  # a key the sink does not know
        elif last[k] != e:
            flagged.add(s)
            reports.append({"reason": "key_moved", "seq": s, "shard_key": k,
                            "from": last[k], "to": e})
        elif lost.get(k):
            flagged.add(s)
            reports.append({"reason": "key_reset", "seq": s, "shard_key": k, "endpoint": e,
                            "cause": lost[k]})
        last[k], lost[k] = e, None
    return route, flagged, reports
