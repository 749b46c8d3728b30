#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Plot BER curves from gpurx-turbo-ber --csv output.

  plot_ber.py ber.csv [more.csv ...] out.png
"""
import csv
import sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(srcs, dst):
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
        style = "-" if "P=1" in name else (":" if name.endswith("g=0") else "--")
        ax.semilogy(x, y, style, marker="o", ms=3, label=name)
    ax.axhline(1e-5, color="grey", lw=0.8)
    ax.set_xlabel("Eb/N0 (dB)")
    ax.set_ylabel("BER")
    ax.set_title("LTE turbo decoder, K=6144, rate 1/3, BPSK/AWGN (gr-gpurx, CUDA backend, H100)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1:-1], sys.argv[-1])
