#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Plot BER curves from gpurx-turbo-ber, gpurx-viterbi-ber or gpurx-mimo-ber
--csv output (any CSV with curve, ebn0_db and ber columns).

  plot_ber.py [--title TEXT] [--target-ber 1e-5] ber.csv [more.csv ...] out.png
"""
import argparse
import csv
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


TURBO_TITLE = "LTE turbo decoder, K=6144, rate 1/3, BPSK/AWGN (gr-gpurx, CUDA backend, H100)"


def main(srcs, dst, title=TURBO_TITLE, target_ber=1e-5):
    curves = defaultdict(list)
    for src in srcs:
        for row in csv.DictReader(open(src)):
            ber = float(row["ber"])
            name = row["curve"]
            if "P=96" in name and "/g=" not in name:
                name += "/g=0"
            if ber > 0:
                curves[name].append((float(row["ebn0_db"]), ber))
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for name, pts in sorted(curves.items()):
        x, y = zip(*sorted(pts))
        # Turbo: P=1 solid, windowed dashed (dotted without guard); other
        # curves: gr-fec's dashed beside gr-gpurx's solid.
        if "P=" in name:
            style = "-" if "P=1" in name else (":" if name.endswith("g=0") else "--")
        else:
            style = "--" if "gr-fec" in name else "-"
        ax.semilogy(x, y, style, marker="o", ms=3, label=name)
    ax.axhline(target_ber, color="grey", lw=0.8)
    ax.set_xlabel("Eb/N0 (dB)")
    ax.set_ylabel("BER")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--title", default=TURBO_TITLE)
    ap.add_argument("--target-ber", type=float, default=1e-5,
                    help="the BER the grey line marks (1e-5)")
    ap.add_argument("files", nargs="+", help="CSV files, then the PNG to write")
    a = ap.parse_args()
    if len(a.files) < 2:
        ap.error("give at least one CSV and the PNG to write")
    main(a.files[:-1], a.files[-1], a.title, a.target_ber)
