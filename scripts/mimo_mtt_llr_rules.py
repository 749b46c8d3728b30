#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""BICM information per coded bit of MTT (multi-pass trellis traversal) soft
MIMO detection under different LLR rules, against LMMSE and exhaustive ML,
computed from first principles with numpy (no gr-gpurx code).

mimo_llr_information.py shows that max-log ML carries slightly less
information than LMMSE max-log near 8 dB (4x4 16-QAM, rate-1/3 operating
point), so no max-log list detector can beat LMMSE there. MTT, however,
holds nt lists of Q full paths each, and nothing forces its LLRs to be
max-log over one list. This script asks whether another rule over the same
candidates (union of lists, log-MAP) gets past LMMSE.

MTT as implemented in this project: QR of H, y_hat = Q^H y = R s + w; stage
t detects layer l = nt-1-t (last row of R first). List L_t holds one full
path per vertex of stage t: edge reductions at stages 0..t (each vertex keeps
its best incoming path among the previous stage's Q survivors), then greedy
path extensions for stages t+1..nt-1. Rules (LLR > 0 means bit 1):
  lmmse             LMMSE, max-log demapping at the post-equaliser SINR;
  maxlog-ml         exhaustive max-log ML;
  logmap-ml         exhaustive exact log-MAP (all Q^nt vectors);
  exactlist-logmap  log-MAP over the true best vector of every (stream,
                    symbol) pair: the list an exact MTT would hold (upper
                    reference for the union rules);
  mtt               max-log over L_t for the bits of stage t (the baseline);
  mtt-logmap        log-MAP over L_t for the bits of stage t;
  mtt-union-maxlog  max-log over the union of all nt lists, every bit;
  mtt-union-logmap  log-MAP over the distinct paths of the union;
  mtt-union-symlogmap  for each bit of stream l: best union path for every
                    symbol of stream l, then log-sum-exp over those Q
                    symbols (max-log over the other streams, exact over the
                    stream's own symbol). The union samples symbol vectors
                    unevenly (up to nt*Q paths, many sharing one symbol of
                    stream l), which biases a plain log-sum-exp; one term
                    per symbol keeps the hypotheses balanced, as the 2x2
                    per-stage list does;
  symlogmap-ml      the same with exact per-symbol minima (exhaustive).
Information I = 1 - E[log2(1 + exp(-(2b-1) L))]; a max-log turbo decoder is
blind to a common LLR scale, so each rule is also given its best scale.
SNR is per receive antenna, nt*Es/N0 with Es = 1, N0 per complex receive
antenna (as in mimo_llr_information.py). The same channels, symbols and unit
noise are reused at every SNR (common random numbers) so that the SNR curves
are smooth and the SNR at which a rule reaches LMMSE's information at the
operating point (--ref-snr) can be read off by interpolation.

usage: mimo_mtt_llr_rules.py SNR_DB [SNR_DB ...] [--vectors N] [--nt 4]
                             [--qam 16] [--ref-snr 8.06] [--no-check]
"""
import argparse
import time

import numpy as np

RULES = ("lmmse", "maxlog-ml", "logmap-ml", "exactlist-logmap", "symlogmap-ml", "mtt", "mtt-logmap",
         "mtt-union-maxlog", "mtt-union-logmap", "mtt-union-symlogmap")
SCALES = np.arange(0.1, 3.0001, 0.02)


def constellation(q):
    """36.211 Gray QAM (Tables 7.1.3-1, 7.1.4-1), unit mean energy."""
    bps = int(np.log2(q))
    bits = np.array([[(i >> (bps - 1 - k)) & 1 for k in range(bps)] for i in range(q)])
    sgn = 1 - 2 * bits
    if q == 16:  # b0 sign I, b1 sign Q, b2 |I| (1, 3), b3 |Q|
        re, im = sgn[:, 0] * (2 - sgn[:, 2]), sgn[:, 1] * (2 - sgn[:, 3])
        norm = 10
    elif q == 64:  # b0 sign I, b1 sign Q, (b2, b4) |I| in {3, 1, 5, 7}, (b3, b5) |Q|
        re = sgn[:, 0] * (4 - sgn[:, 2] * (2 - sgn[:, 4]))
        im = sgn[:, 1] * (4 - sgn[:, 3] * (2 - sgn[:, 5]))
        norm = 42
    else:
        raise ValueError("qam must be 16 or 64")
    return (re + 1j * im) / np.sqrt(norm), bits.astype(bool)


def draw(v, nt, q, rng):
    H = (rng.normal(size=(v, nt, nt)) + 1j * rng.normal(size=(v, nt, nt))) / np.sqrt(2)
    idx = rng.integers(0, q, size=(v, nt))
    w = (rng.normal(size=(v, nt)) + 1j * rng.normal(size=(v, nt))) / np.sqrt(2)  # E|w|^2 = 1
    return H, idx, w


def masked_max(m, mask, axis):
    return np.where(mask, m, -np.inf).max(axis=axis)


def masked_lse(m, mask, axis):
    x = np.where(mask, m, -np.inf)
    mx = x.max(axis=axis, keepdims=True)  # every hypothesis set here is non-empty
    return np.squeeze(mx, axis) + np.log(np.exp(x - mx).sum(axis=axis))


def lmmse_llr(H, y, n0, pts, pbits):
    v, nt, _ = H.shape
    Hh = np.conj(np.swapaxes(H, 1, 2))
    W = np.linalg.solve(Hh @ H + n0 * np.eye(nt), Hh)
    mu = np.real(np.einsum("vij,vji->vi", W, H))
    z = np.einsum("vij,vj->vi", W, y) / mu
    nv = (1 - mu) / mu  # residual interference + noise variance after unbiasing
    m = -np.abs(z[:, :, None] - pts[None, None, :]) ** 2 / nv[:, :, None]  # (v, nt, Q)
    B = pbits[None, None, :, :]  # (1, 1, Q, bps)
    return masked_max(m[..., None], B, 2) - masked_max(m[..., None], ~B, 2)  # (v, nt, bps)


def mtt_lists(R, yhat, pts):
    """All nt MTT lists: symbols S (v, stage, Q, layer) and distances d (v, stage, Q)."""
    v, nt, _ = R.shape
    q = len(pts)
    c = pts

    def edge(l, S, pd):
        # cost of every (path, vertex) pair at layer l, given symbols of layers > l
        intf = np.zeros(S.shape[:2], complex)
        for j in range(l + 1, nt):
            intf += R[:, l, j][:, None] * c[S[:, :, j]]
        e = yhat[:, l][:, None, None] - intf[:, :, None] - R[:, l, l][:, None, None] * c[None, None, :]
        return pd[:, :, None] + e.real ** 2 + e.imag ** 2  # (v, paths, Q)

    S = np.full((v, q, nt), -1)
    S[:, :, nt - 1] = np.arange(q)
    e = yhat[:, nt - 1][:, None] - R[:, nt - 1, nt - 1][:, None] * c[None, :]
    pd = e.real ** 2 + e.imag ** 2
    rows = np.arange(v)[:, None]
    listS, listd = [], []
    for t in range(nt):
        l = nt - 1 - t
        if t > 0:  # edge reduction: vertex k of layer l keeps its best incoming survivor
            cost = edge(l, S, pd)
            best = cost.argmin(axis=1)  # (v, Q)
            pd = np.take_along_axis(cost, best[:, None, :], 1)[:, 0, :]
            S = S[rows, best].copy()
            S[:, :, l] = np.arange(q)
        # path extension of a copy of the survivors down to layer 0 (greedy)
        Se, pe = S.copy(), pd.copy()
        for le in range(l - 1, -1, -1):
            cost = edge(le, Se, pe)
            k = cost.argmin(axis=2)
            pe = np.take_along_axis(cost, k[:, :, None], 2)[:, :, 0]
            Se[:, :, le] = k
        listS.append(Se)
        listd.append(pe)
    return np.stack(listS, 1), np.stack(listd, 1)


def mtt_lists_reference(R, yhat, pts):
    """Plain-loop MTT of one vector, written straight from the description, to
    cross-check the vectorised mtt_lists in self_check."""
    nt, q = R.shape[0], len(pts)

    def w(l, path, k):  # edge weight into symbol k of layer l from a path {layer: symbol}
        r = yhat[l] - sum(R[l, j] * pts[path[j]] for j in range(l + 1, nt)) - R[l, l] * pts[k]
        return abs(r) ** 2

    surv = [({nt - 1: k}, w(nt - 1, {}, k)) for k in range(q)]
    lists = []
    for t in range(nt):
        l = nt - 1 - t
        if t > 0:
            new = []
            for k in range(q):
                p, d = min(((p, d + w(l, p, k)) for p, d in surv), key=lambda x: x[1])
                new.append(({**p, l: k}, d))
            surv = new
        lst = []
        for p, d in surv:
            p = dict(p)
            for le in range(l - 1, -1, -1):
                k = min(range(q), key=lambda k: w(le, p, k))
                d += w(le, p, k)
                p[le] = k
            lst.append(([p[j] for j in range(nt)], d))
        lists.append(lst)
    return lists


def dedupe(S, m, q):
    """Sets the metric of repeated symbol vectors to -inf (log-MAP must count each once)."""
    nt = S.shape[-1]
    code = (S * q ** np.arange(nt)).sum(-1)
    order = np.argsort(code, axis=1, kind="stable")
    cs = np.take_along_axis(code, order, 1)
    ms = np.take_along_axis(m, order, 1).copy()
    Ss = np.take_along_axis(S, order[:, :, None], 1)
    dup = np.zeros(cs.shape, bool)
    dup[:, 1:] = cs[:, 1:] == cs[:, :-1]
    ms[dup] = -np.inf
    return Ss, ms, dup.sum(1)


def union_llr(S, m, pbits, logmap):
    """LLRs of every bit over a set of full paths S (v, P, nt), metrics m (v, P)."""
    B = pbits[S]  # (v, P, nt, bps)
    mm = m[:, :, None, None]
    f = masked_lse if logmap else masked_max
    return f(mm, B, 1) - f(mm, ~B, 1)


def mtt_rules(R, yhat, n0, pts, pbits):
    v, nt, _ = R.shape
    q = len(pts)
    S, d = mtt_lists(R, yhat, pts)
    m = -d / n0
    out = {}
    # per-stage rules: bits of layer l = nt-1-t from list L_t only
    Bd = np.stack([pbits[S[:, t, :, nt - 1 - t]] for t in range(nt)], 1)  # (v, t, Q, bps)
    mm = m[..., None]
    out["mtt"] = (masked_max(mm, Bd, 2) - masked_max(mm, ~Bd, 2))[:, ::-1]  # stage -> layer
    out["mtt-logmap"] = (masked_lse(mm, Bd, 2) - masked_lse(mm, ~Bd, 2))[:, ::-1]
    Su, mu_, ndup = dedupe(S.reshape(v, nt * q, nt), m.reshape(v, nt * q), q)
    out["mtt-union-maxlog"] = union_llr(Su, mu_, pbits, False)
    out["mtt-union-logmap"] = union_llr(Su, mu_, pbits, True)
    # best union metric for every (stream, symbol): every pair is covered because
    # list L_t holds all Q symbols of stream nt-1-t
    Sf, mf = S.reshape(v, nt * q, nt), m.reshape(v, nt * q)
    hit = Sf[:, :, :, None] == np.arange(q)  # (v, P, nt, Q)
    Msym = masked_max(mf[:, :, None, None], hit, 1)  # (v, nt, Q)
    Bs = pbits[None, None]  # (1, 1, Q, bps)
    out["mtt-union-symlogmap"] = masked_lse(Msym[..., None], Bs, 2) - masked_lse(Msym[..., None], ~Bs, 2)
    return out, S, d, nt * q - ndup


def exhaustive(R, yhat, n0, pts, pbits, chunk):
    """max-log ML, log-MAP ML and exact-list log-MAP, plus the ML distance; chunked
    over vectors because the metric array has Q^nt entries per vector."""
    v, nt, _ = R.shape
    q, bps = pbits.shape
    res = {k: np.empty((v, nt, bps)) for k in ("maxlog-ml", "logmap-ml", "exactlist-logmap", "symlogmap-ml")}
    dml = np.empty(v)
    for a in range(0, v, chunk):
        Rc, yc = R[a:a + chunk], yhat[a:a + chunk]
        vc = len(Rc)
        d = np.zeros((vc,) + (q,) * nt)
        for l in range(nt):  # d = sum_l |y_hat_l - sum_{j>=l} R_lj s_j|^2, by broadcasting
            r = yc[:, l].reshape((vc,) + (1,) * nt)
            for j in range(l, nt):
                sh = [vc] + [1] * nt
                sh[j + 1] = q
                r = r - (Rc[:, l, j][:, None] * pts[None, :]).reshape(sh)
            d += r.real ** 2 + r.imag ** 2
        m = -d / n0
        del d
        flat = m.reshape(vc, -1)
        gmax = flat.max(1)
        dml[a:a + vc] = -gmax * n0
        p = np.exp(m - gmax.reshape((vc,) + (1,) * nt))
        cand = []
        for k in range(nt):
            ax = tuple(i + 1 for i in range(nt) if i != k)
            Mk = m.max(axis=ax)  # (vc, Q): best metric with stream k = symbol
            Pk = p.sum(axis=ax)
            B = pbits[None, :, :]
            res["maxlog-ml"][a:a + vc, k] = masked_max(Mk[..., None], B, 1) - masked_max(Mk[..., None], ~B, 1)
            res["symlogmap-ml"][a:a + vc, k] = masked_lse(Mk[..., None], B, 1) - masked_lse(Mk[..., None], ~B, 1)
            lse = []
            for hyp in (B, ~B):
                s = np.where(hyp, Pk[..., None], 0).sum(1)
                with np.errstate(divide="ignore"):
                    # fall back to max-log only if the whole hypothesis underflows
                    lse.append(np.where(s > 0, gmax[:, None] + np.log(s), masked_max(Mk[..., None], hyp, 1)))
            res["logmap-ml"][a:a + vc, k] = lse[0] - lse[1]
            # arg-best vector of every (stream k, symbol) pair
            other = np.moveaxis(m, k + 1, 1).reshape(vc, q, -1).argmax(-1)
            rest = np.unravel_index(other, (q,) * (nt - 1))
            Sk = np.empty((vc, q, nt), int)
            oi = [i for i in range(nt) if i != k]
            for i, r_ in zip(oi, rest):
                Sk[:, :, i] = r_
            Sk[:, :, k] = np.arange(q)
            cand.append((Sk, Mk))
        Sc = np.concatenate([c[0] for c in cand], 1)
        mc = np.concatenate([c[1] for c in cand], 1)
        Su, mu_, _ = dedupe(Sc, mc, q)
        res["exactlist-logmap"][a:a + vc] = union_llr(Su, mu_, pbits, True)
    return res, dml


def terms(L, b):
    """Per-bit loss log2(1 + exp(-(2b-1)L)); information = 1 - mean."""
    s = (2.0 * b - 1) * L
    return np.log2(1 + np.exp(-np.clip(s, -60, 60)))


def evaluate(L, b):
    """(info at scale 1, per-vector terms), (best info, best scale, per-vector terms)."""
    t1 = terms(L, b).reshape(len(L), -1).mean(1)
    best = max(((1 - terms(a * L, b).mean(), a) for a in SCALES))
    tb = terms(best[1] * L, b).reshape(len(L), -1).mean(1)
    return 1 - t1.mean(), t1, best[0], best[1], tb


def simulate(snr_db, H, idx, w, pts, pbits, chunk):
    v, nt, _ = H.shape
    n0 = nt / 10 ** (snr_db / 10)
    s = pts[idx]
    y = np.einsum("vij,vj->vi", H, s) + np.sqrt(n0) * w
    Qm, R = np.linalg.qr(H)
    yhat = np.einsum("vji,vj->vi", np.conj(Qm), y)
    L = {"lmmse": lmmse_llr(H, y, n0, pts, pbits)}
    mt, S, d, ndist = mtt_rules(R, yhat, n0, pts, pbits)
    L.update(mt)
    ex, dml = exhaustive(R, yhat, n0, pts, pbits, chunk)
    L.update(ex)
    return L, S, d, dml, ndist, y


def self_check(rng, chunk):
    """nt = 2: MTT is exact max-log ML. nt = 4: no list path beats ML, and the
    list distances are ||y - H s||^2 of their symbol vectors."""
    for q in (16, 64):
        pts, pbits = constellation(q)
        H, idx, w = draw(300, 2, q, rng)
        for snr in (5.0, 15.0):
            L, S, d, dml, _, _ = simulate(snr, H, idx, w, pts, pbits, chunk)
            err = np.abs(L["mtt"] - L["maxlog-ml"]).max()
            assert err < 1e-9 * max(1, np.abs(L["maxlog-ml"]).max()), (q, snr, err)
            assert np.allclose(L["mtt-union-maxlog"], L["maxlog-ml"])
            assert np.allclose(L["mtt-union-symlogmap"], L["symlogmap-ml"])
    pts, pbits = constellation(16)
    for nt in (3, 4):  # vectorised MTT == plain-loop MTT
        H, idx, w = draw(20, nt, 16, rng)
        y = np.einsum("vij,vj->vi", H, pts[idx]) + np.sqrt(0.3) * w
        Qm, R = np.linalg.qr(H)
        yhat = np.einsum("vji,vj->vi", np.conj(Qm), y)
        S, d = mtt_lists(R, yhat, pts)
        for v in range(len(H)):
            ref = mtt_lists_reference(R[v], yhat[v], pts)
            assert all(list(S[v, t, k]) == ref[t][k][0] and np.isclose(d[v, t, k], ref[t][k][1])
                       for t in range(nt) for k in range(16)), ("MTT mismatch", nt, v)
    H, idx, w = draw(300, 4, 16, rng)
    for snr in (4.0, 8.0, 14.0):
        L, S, d, dml, _, y = simulate(snr, H, idx, w, pts, pbits, chunk)
        assert np.all(d.min(2) >= dml[:, None] - 1e-9 * (1 + dml[:, None])), "list path better than ML"
        dd = np.abs(y[:, None, None, :] - np.einsum("vij,vtqj->vtqi", H, pts[S])) ** 2
        assert np.allclose(dd.sum(-1), d), "list distance != ||y - H s||^2"
        assert np.all(np.isfinite(L["mtt"])) and np.all(np.isfinite(L["mtt-union-logmap"]))
        found = np.mean(np.isclose(d.min((1, 2)), dml))
        print(f"self-check 4x4 16-QAM {snr:.0f} dB: ML vector in MTT union for {100 * found:.1f}% of vectors")
    print("self-check passed: 2x2 MTT == max-log ML (16/64-QAM); vectorised MTT == loop MTT (3x3, 4x4); "
          "4x4 lists never beat ML")


def crossing(snrs, info, target):
    """SNR where a (monotone) information curve reaches target, linear in dB; nan outside."""
    info = np.asarray(info)
    for i in range(len(snrs) - 1):
        lo, hi = info[i], info[i + 1]
        if (lo - target) * (hi - target) <= 0 and hi != lo:
            return snrs[i] + (target - lo) / (hi - lo) * (snrs[i + 1] - snrs[i])
    return np.nan


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("snr_db", type=float, nargs="+", help="SNR per receive antenna, dB (ascending)")
    ap.add_argument("--vectors", type=int, default=3000)
    ap.add_argument("--nt", type=int, default=4, help="streams = receive antennas (default 4)")
    ap.add_argument("--qam", type=int, default=16, choices=(16, 64))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ref-snr", type=float, default=8.06, help="LMMSE operating point (dB)")
    ap.add_argument("--chunk", type=int, default=128, help="vectors per exhaustive-search chunk")
    ap.add_argument("--no-check", action="store_true")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    t0 = time.time()
    if not a.no_check:
        self_check(np.random.default_rng(a.seed + 1000), a.chunk)
    pts, pbits = constellation(a.qam)
    H, idx, w = draw(a.vectors, a.nt, a.qam, rng)
    b = pbits[idx]
    snrs = sorted(a.snr_db)
    res = {}
    for snr in snrs:
        L, S, d, dml, ndist, _ = simulate(snr, H, idx, w, pts, pbits, a.chunk)
        res[snr] = {k: evaluate(L[k], b) for k in RULES}
        res[snr]["_ml_found"] = np.mean(np.isclose(d.min((1, 2)), dml))
        res[snr]["_ndist"] = ndist.mean()
        print(f"# {snr:.2f} dB done at {time.time() - t0:.0f} s: MTT union has {ndist.mean():.1f} distinct "
              f"paths of {a.nt * a.qam}; ML vector in union for {100 * res[snr]['_ml_found']:.1f}%", flush=True)

    print(f"\n{a.nt}x{a.nt} {a.qam}-QAM, {a.vectors} vectors (same vectors at every SNR). "
          "Information per coded bit at scale 1 / at best common scale (scale):\n")
    print("| rule | " + " | ".join(f"{s:.2f} dB" for s in snrs) + " |")
    print("|---|" + "---|" * len(snrs))
    for k in RULES:
        cells = [f"{res[s][k][0]:.4f} / {res[s][k][2]:.4f} ({res[s][k][3]:.2f})" for s in snrs]
        print(f"| {k} | " + " | ".join(cells) + " |")
    print("\nPaired standard error of (rule - lmmse) information, scale 1 / best scale:\n")
    print("| rule | " + " | ".join(f"{s:.2f} dB" for s in snrs) + " |")
    print("|---|" + "---|" * len(snrs))
    se = {}
    for k in RULES[1:]:
        se[k] = [(np.std(res[s][k][1] - res[s]["lmmse"][1], ddof=1) / np.sqrt(a.vectors),
                  np.std(res[s][k][4] - res[s]["lmmse"][4], ddof=1) / np.sqrt(a.vectors)) for s in snrs]
        diffs = [f"{res[s][k][0] - res[s]['lmmse'][0]:+.4f}±{e[0]:.4f} / {res[s][k][2] - res[s]['lmmse'][2]:+.4f}±{e[1]:.4f}"
                 for s, e in zip(snrs, se[k])]
        print(f"| {k} | " + " | ".join(diffs) + " |")

    # SNR each rule needs to reach LMMSE's information at the operating point; the
    # uncertainty is the paired SE of the information difference over the rule's slope.
    print(f"\nSNR at which each rule reaches LMMSE's information at {a.ref_snr} dB, and the "
          "difference (negative = rule needs less SNR than LMMSE, i.e. better):\n")
    print("| rule | scale 1: SNR, dB vs LMMSE | best scale: SNR, dB vs LMMSE |")
    print("|---|---|---|")
    for k in RULES:
        cells = []
        for col, sei in ((0, 0), (2, 1)):
            curve = [res[s][k][col] for s in snrs]
            target = np.interp(a.ref_snr, snrs, [res[s]["lmmse"][col] for s in snrs])
            x = crossing(snrs, curve, target)
            slope = np.gradient(curve, snrs)
            sl = np.interp(a.ref_snr, snrs, slope)
            if k == "lmmse":
                cells.append(f"{x:.3f}, 0 (ref I = {target:.4f})")
            else:
                e = np.interp(a.ref_snr, snrs, [v[sei] for v in se[k]]) / sl
                if np.isnan(x):  # curve never reaches the target inside the SNR grid
                    side = ">" if curve[-1] < target else "<"
                    edge = snrs[-1] if side == ">" else snrs[0]
                    cells.append(f"{side} {edge:.2f}, {side} {edge - a.ref_snr:+.2f} dB")
                else:
                    cells.append(f"{x:.3f}, {x - a.ref_snr:+.3f} ± {e:.3f} dB")
        print(f"| {k} | " + " | ".join(cells) + " |")
    print(f"\ntotal {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
