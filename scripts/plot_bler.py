#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Plot BLER and throughput curves from gpurx-lte-ber --csv output. Installed
as gpurx-plot-bler.

  plot_bler.py [--title TEXT] [--all-tx] [--crossings] [-o OUT.png] bler.csv [more.csv ...]

Left: BLER against Es/N0, after the first transmission (solid) and after the
last one HARQ allows (dashed; --all-tx adds the ones between, dotted). Right:
the throughput after HARQ in Mbit/s (one transmission per 1 ms subframe).
--crossings also prints, per curve and number of transmissions, the Es/N0
where the BLER crosses --target (10 %), interpolated in log BLER between the
two points that bracket it (rows of several CSVs of one curve are merged).
Without -o the plot goes beside the first CSV (bler.csv -> bler.png). Needs
matplotlib (Debian/Ubuntu: apt-get install python3-matplotlib).
"""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict

NEEDED = {"curve", "esn0_db", "bler_tx1", "residual_bler", "throughput_mbps", "max_tx"}


def read_rows(srcs):
    rows = []
    for src in srcs:
        with open(src, newline="") as f:
            r = csv.DictReader(f)
            missing = NEEDED - set(r.fieldnames or [])
            if missing:
                raise ValueError("%s: no %s column (is it a gpurx-lte-ber --csv file?)"
                                 % (src, ", ".join(sorted(missing))))
            rows.extend(r)
    return rows


def output_path(files, out):
    """(csv files, png path): never a CSV as the output."""
    if out is None:
        out = os.path.splitext(files[0])[0] + ".png"
    if not out.lower().endswith(".png"):
        raise ValueError("the output must be a .png file, got %r" % out)
    if any(os.path.abspath(out) == os.path.abspath(f) for f in files):
        raise ValueError("the output %r is one of the inputs" % out)
    return out


def curves_of(rows):
    """{curve: [row, ...] sorted by Es/N0}, in the order the curves first appear."""
    curves = defaultdict(list)
    for row in rows:
        curves[row["curve"]].append(row)
    for pts in curves.values():
        pts.sort(key=lambda r: float(r["esn0_db"]))
    return curves


def bler_column(n, max_tx):
    return "residual_bler" if n == max_tx else "bler_tx%d" % n


def crossings(rows, target):
    """Markdown table: Es/N0 where each curve's BLER after n transmissions
    crosses target. Where the lower point has no errors, log BLER cannot be
    interpolated and the bracket is given instead."""
    out = ["| curve | transmissions | Es/N0 at BLER %g (dB) |" % target, "|---|---|---|"]
    for name, pts in curves_of(rows).items():
        max_tx = int(pts[0]["max_tx"])
        for n in range(1, max_tx + 1):
            col = bler_column(n, max_tx)
            if n > 4 and n != max_tx:
                continue
            xy = [(float(r["esn0_db"]), float(r[col])) for r in pts if r.get(col) not in (None, "")]
            text = "not bracketed"
            for (x0, b0), (x1, b1) in zip(xy, xy[1:]):
                if b0 >= target > b1:
                    if b1 > 0:
                        u = (math.log10(target) - math.log10(b0)) / (math.log10(b1) - math.log10(b0))
                        text = "%.2f" % (x0 + u * (x1 - x0))
                    else:
                        text = "%.2f..%.2f" % (x0, x1)
                    break
            out.append("| %s | %d | %s |" % (name, n, text))
    return "\n".join(out)


def plot(rows, dst, title, all_tx=False):
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("plot_bler.py needs matplotlib: apt-get install python3-matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = curves_of(rows)
    if not curves:
        raise ValueError("no rows to plot")
    fig, (ax, axt) = plt.subplots(1, 2, figsize=(12, 5.2))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (name, pts) in enumerate(curves.items()):
        color = colors[k % len(colors)]
        x = [float(r["esn0_db"]) for r in pts]
        max_tx = int(pts[0]["max_tx"])

        def series(col):
            # A BLER of 0 has no place on a log axis: those points are left
            # out; of the points where every TB failed, only the last one
            # before the waterfall is drawn (the rest would hide the others).
            xy = [(xi, float(r[col])) for xi, r in zip(x, pts) if r.get(col) not in (None, "")]
            first = 0
            while first + 1 < len(xy) and xy[first + 1][1] >= 1:
                first += 1
            return [p for p in xy[first:] if p[1] > 0]

        first = series("bler_tx1")
        if first:
            ax.semilogy(*zip(*first), "-", marker="o", ms=3, color=color, label="%s: 1 transmission" % name)
        if all_tx:
            for n in range(2, min(max_tx, 4)):
                s = series("bler_tx%d" % n)
                if s:
                    ax.semilogy(*zip(*s), ":", marker=".", ms=3, color=color, label="%s: after %d" % (name, n))
        if max_tx > 1:
            res = series("residual_bler")
            if res:
                ax.semilogy(*zip(*res), "--", marker="s", ms=3, color=color,
                            label="%s: after %d" % (name, max_tx))
        axt.plot(x, [float(r["throughput_mbps"]) for r in pts], "-", marker="o", ms=3, color=color, label=name)
    ax.set_xlabel("Es/N0 (dB)")
    ax.set_ylabel("BLER")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    axt.set_xlabel("Es/N0 (dB)")
    axt.set_ylabel("throughput after HARQ (Mbit/s, one transmission per 1 ms)")
    axt.grid(True, alpha=0.3)
    axt.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


def default_title(rows):
    algs = {r.get("algorithm") for r in rows}
    its = {r.get("iterations") for r in rows}
    t = "LTE DL-SCH over AWGN"
    if len(algs) == 1 and len(its) == 1:
        t += ", %s, %s iterations" % (algs.pop(), its.pop())
    return t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Example: gpurx-lte-ber --mcs 13 --prb 25 --csv b.csv && "
                                        "plot_bler.py b.csv")
    ap.add_argument("--title", help="plot title (default: from the CSV rows)")
    ap.add_argument("--all-tx", action="store_true",
                    help="also the BLER after each transmission between the first and the last")
    ap.add_argument("--crossings", action="store_true",
                    help="print where each curve's BLER crosses --target, per number of transmissions")
    ap.add_argument("--target", type=float, default=0.1, help="the BLER of --crossings (0.1)")
    ap.add_argument("-o", "--output", help="PNG to write (default: the first CSV's name, .png)")
    ap.add_argument("files", nargs="+", metavar="CSV", help="gpurx-lte-ber --csv files")
    a = ap.parse_args(argv)
    try:
        out = output_path(a.files, a.output)
        rows = read_rows(a.files)
        if a.crossings:
            print(crossings(rows, a.target))
        plot(rows, out, a.title or default_title(rows), a.all_tx)
    except (OSError, ValueError) as e:
        print("plot_bler.py: %s" % e, file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
