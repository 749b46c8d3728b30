#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""BICM information per coded bit of soft MIMO detectors, computed here from
first principles with numpy (no gr-gpurx code): how much a rate-R code can
get out of each detector's LLRs.

For nt x nr i.i.d. Rayleigh, 36.211 16-QAM, N0 per receive antenna, it
draws vectors y = H s + n and compares, per bit b with LLR L,
    I = 1 - E[log2(1 + exp(-(2b-1) L))]
(the information of calibrated LLRs; a max-log-MAP turbo decoder is blind to
a common scale, so each detector is also given its best common scale) for:
  maxlog   exhaustive max-log ML (the bound of every max-log list detector:
           mtt, kbest, one-pass);
  logmap   exhaustive exact log-MAP (sum over all Q^nt vectors);
  list     log-MAP over the best vector for every (stream, symbol) pair, the
           list an exact MTT would hold;
  lmmse    LMMSE equalisation, max-log demapping at the post-equaliser SINR.
A code of rate R needs about I > R per bit: at R = 1/3 (4x4 16-QAM, SNR
~8 dB) the four are within a few hundredths of each other.

usage: mimo_llr_information.py SNR_DB [SNR_DB ...] [--vectors N] [--nt 4]
"""
import argparse
import itertools

import numpy as np


def qam16():
    # 36.211 Table 7.1.3-1: b0 sign of I, b1 sign of Q, b2 |I|, b3 |Q|.
    bits = np.array([[(i >> 3) & 1, (i >> 2) & 1, (i >> 1) & 1, i & 1] for i in range(16)])
    pts = ((1 - 2 * bits[:, 0]) * (1 + 2 * bits[:, 2]) + 1j * (1 - 2 * bits[:, 1]) * (1 + 2 * bits[:, 3])) / np.sqrt(10)
    return pts, bits


def information(L, b):
    s = (2.0 * b - 1) * L
    return 1 - np.mean(np.log2(1 + np.exp(-np.clip(s, -60, 60))))


def best_scaled(L, b):
    return max(information(a * L, b) for a in np.arange(0.2, 2.01, 0.05))


def lse(x):
    a = x.max()
    return a + np.log(np.sum(np.exp(x - a)))


def run(snr_db, nt, vectors, rng):
    pts, pbits = qam16()
    bps = 4
    n0 = nt / 10 ** (snr_db / 10)
    idx_all = np.array(list(itertools.product(range(16), repeat=nt)))
    S = pts[idx_all]
    B = pbits[idx_all].reshape(len(idx_all), nt * bps).astype(bool)
    out = {k: [] for k in ("maxlog", "logmap", "list", "lmmse")}
    sent = []
    for _ in range(vectors):
        H = (rng.normal(size=(nt, nt)) + 1j * rng.normal(size=(nt, nt))) / np.sqrt(2)
        idx = rng.integers(0, 16, nt)
        y = H @ pts[idx] + np.sqrt(n0 / 2) * (rng.normal(size=nt) + 1j * rng.normal(size=nt))
        m = -np.sum(np.abs(y[None, :] - S @ H.T) ** 2, axis=1) / n0
        out["maxlog"].append([m[B[:, j]].max() - m[~B[:, j]].max() for j in range(nt * bps)])
        out["logmap"].append([lse(m[B[:, j]]) - lse(m[~B[:, j]]) for j in range(nt * bps)])
        cand = sorted({int(np.flatnonzero(idx_all[:, t] == q)[np.argmax(m[idx_all[:, t] == q])])
                       for t in range(nt) for q in range(16)})
        mc, Bc = m[cand], B[cand]
        out["list"].append([lse(mc[Bc[:, j]]) - lse(mc[~Bc[:, j]]) for j in range(nt * bps)])
        W = np.linalg.solve(H.conj().T @ H + n0 * np.eye(nt), H.conj().T)
        mu = np.real(np.diag(W @ H))
        z = (W @ y) / mu
        nv = (1 - mu) / mu  # residual interference + noise variance after unbiasing
        ll = []
        for t in range(nt):
            d = -np.abs(z[t] - pts) ** 2 / nv[t]
            ll += [d[pbits[:, j] == 1].max() - d[pbits[:, j] == 0].max() for j in range(bps)]
        out["lmmse"].append(ll)
        sent.append(pbits[idx].reshape(-1))
    b = np.concatenate(sent)
    return {k: (information(np.concatenate(v), b), best_scaled(np.concatenate(v), b)) for k, v in out.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("snr_db", type=float, nargs="+", help="SNR per receive antenna, dB")
    ap.add_argument("--vectors", type=int, default=1000)
    ap.add_argument("--nt", type=int, default=4, help="streams = receive antennas (default 4)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    print(f"| SNR (dB) | {a.nt}x{a.nt} 16-QAM, {a.vectors} vectors | max-log ML | exact log-MAP ML | list log-MAP | LMMSE max-log |")
    print("|---|---|---|---|---|---|")
    for snr in a.snr_db:
        r = run(snr, a.nt, a.vectors, rng)
        cells = " | ".join(f"{r[k][0]:.4f} ({r[k][1]:.4f})" for k in ("maxlog", "logmap", "list", "lmmse"))
        print(f"| {snr:.2f} | information per bit (best scale) | {cells} |", flush=True)


if __name__ == "__main__":
    main()
