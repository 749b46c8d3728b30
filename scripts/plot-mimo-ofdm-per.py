#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plots the MIMO-OFDM link's PER table (docs/results/mimo_ofdm_per_cpu.txt:
rows "| antennas | modulation | detector | Es/N0 | PER twin | PER genie |")
as PER against Es/N0, one panel per antenna configuration, each detector
with estimated (twin, solid) and true (genie, dashed) channels.

    /usr/bin/python3 scripts/plot-mimo-ofdm-per.py TABLE.txt OUT.png
"""
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    rows = defaultdict(list)
    for line in open(sys.argv[1]):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[0][:1].isdigit():
            continue
        ant, mod, det, snr, twin, genie = cells
        rows[(ant, mod, det)].append((float(snr), float(twin), float(genie)))
    configs = sorted({(a, m) for a, m, _ in rows})
    fig, axes = plt.subplots(1, len(configs), figsize=(6 * len(configs), 4.5), squeeze=False)
    for ax, (ant, mod) in zip(axes[0], configs):
        for i, det in enumerate(sorted(d for a, m, d in rows if (a, m) == (ant, mod))):
            pts = sorted(rows[(ant, mod, det)])
            color = "C%d" % i
            tw = [(s, t) for s, t, g in pts if t > 0]
            ge = [(s, g) for s, t, g in pts if g > 0]
            ax.semilogy([p[0] for p in tw], [p[1] for p in tw], "-o", color=color, markersize=4,
                        label="%s, estimated H and N0 (twin)" % det)
            ax.semilogy([p[0] for p in ge], [p[1] for p in ge], "--s", color=color, markersize=4,
                        label="%s, true H and N0 (genie)" % det)
        ax.axhline(1e-2, color="grey", linewidth=0.8, linestyle=":")
        ax.set_title("%s %s, exponential profile, one channel" % (ant, "16-QAM" if mod == "16qam" else "QPSK"))
        ax.set_xlabel("Es/N0 per receive antenna (dB)")
        ax.set_ylabel("packet error rate")
        ax.set_ylim(2e-3, 1.1)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)
    print("wrote", sys.argv[2])


if __name__ == "__main__":
    main()
