#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Plot BER curves from gpurx-turbo-ber, gpurx-viterbi-ber or gpurx-mimo-ber --csv output
(any CSV with curve, ebn0_db and ber columns). Installed as gpurx-plot-ber.

  plot_ber.py [--title TEXT] [--target-ber 1e-5] [-o OUT.png] ber.csv [more.csv ...]

Without -o the plot goes beside the first CSV (ber.csv -> ber.png); a last
argument ending in .png is taken as -o, as older versions wanted it. Without
--title, the title is made from what the CSV rows describe. Needs matplotlib
(Debian/Ubuntu: apt-get install python3-matplotlib).
"""
import argparse
import csv
import os
import sys
from collections import defaultdict


def read_rows(srcs):
    rows = []
    for src in srcs:
        with open(src, newline="") as f:
            r = csv.DictReader(f)
            missing = {"curve", "ebn0_db", "ber"} - set(r.fieldnames or [])
            if missing:
                raise ValueError("%s: no %s column (is it a gpurx-*-ber --csv file?)"
                                 % (src, ", ".join(sorted(missing))))
            rows.extend(r)
    return rows


def default_title(rows):
    """What the rows have in common, e.g. 'LTE turbo decoder, K=6144, BPSK/AWGN',
    or for gpurx-mimo-ber '4x4 16qam, LTE turbo K=6144 rate 0.333, i.i.d. Rayleigh (N=12)'."""
    def common(col):
        vals = {row.get(col) for row in rows if row.get(col)}
        return vals.pop() if len(vals) == 1 else None
    if rows and "nt" in rows[0]:                 # gpurx-mimo-ber (has "algorithm" too)
        parts = []
        nt, nr, mod = common("nt"), common("nr"), common("modulation")
        if nt and nr and mod:
            parts.append("%sx%s %s" % (nt, nr, mod))
        k, rate = common("K"), common("rate")
        parts.append("LTE turbo" + (" K=" + k if k else "") +
                     (" rate %.3g" % float(rate) if rate else ""))
        n = common("vectors_per_channel")
        parts.append("i.i.d. Rayleigh" + (" (N=%s)" % n if n else ""))
        return ", ".join(parts)
    if rows and "algorithm" in rows[0]:          # gpurx-turbo-ber
        k = common("K")
        return "LTE turbo decoder%s, rate 1/3, BPSK/AWGN" % (", K=" + k if k else "")
    if rows and "polys" in rows[0]:              # gpurx-viterbi-ber (and its gr-fec companion)
        parts = ["Viterbi decoding"]
        for col, fmt in (("K", "K=%s"), ("polys", "(%s)"), ("frame_bits", "%s-bit frames")):
            v = common(col)
            if v:
                parts.append(fmt % v.replace(" ", ","))
        return " ".join(parts[:3]) + (", " + parts[3] if len(parts) > 3 else "") + ", BPSK/AWGN"
    return "BER, BPSK/AWGN"


def output_path(files, out):
    """(csv files, png path): never a CSV or this script as the output."""
    if out is None and len(files) > 1 and files[-1].lower().endswith(".png"):
        files, out = files[:-1], files[-1]
    if out is None:
        out = os.path.splitext(files[0])[0] + ".png"
    if not out.lower().endswith(".png"):
        raise ValueError("the output must be a .png file, got %r" % out)
    if any(os.path.abspath(out) == os.path.abspath(f) for f in files):
        raise ValueError("the output %r is one of the inputs" % out)
    return files, out


def plot(rows, dst, title, target_ber=1e-5):
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("plot_ber.py needs matplotlib: apt-get install python3-matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = defaultdict(list)
    for row in rows:
        ber = float(row["ber"])
        name = row["curve"]
        if "P=96" in name and "/g=" not in name:
            name += "/g=0"
        if ber > 0:
            curves[name].append((float(row["ebn0_db"]), ber))
    if not curves:
        raise ValueError("no point with a non-zero BER to plot")
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for name, pts in sorted(curves.items()):
        x, y = zip(*sorted(pts))
        # Turbo: P=1 solid, windowed dashed (dotted without guard); other
        # curves: gr-fec's dashed beside gr-gpurx's solid.
        if "P=" in name:
            style = "-" if "P=1/" in name + "/" else (":" if name.endswith("g=0") else "--")
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Example: gpurx-turbo-ber --K 1024 --csv k1024.csv && "
                                        "plot_ber.py k1024.csv")
    ap.add_argument("--title", help="plot title (default: from the CSV rows)")
    ap.add_argument("--target-ber", type=float, default=1e-5,
                    help="the BER the grey line marks (default 1e-5)")
    ap.add_argument("-o", "--output", help="PNG to write (default: the first CSV's name, .png)")
    ap.add_argument("files", nargs="+", metavar="CSV", help="gpurx-*-ber --csv files")
    a = ap.parse_args(argv)
    try:
        files, out = output_path(a.files, a.output)
        rows = read_rows(files)
        plot(rows, out, a.title or default_title(rows), a.target_ber)
    except (OSError, ValueError) as e:
        print("plot_ber.py: %s" % e, file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
