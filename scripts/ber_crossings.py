#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where gpurx-*-ber --csv curves cross BER 1e-3, 1e-4, 1e-5 and FER 1e-2
(log-linear interpolation between the two measured points that bracket the
level), as a markdown table: docs/cpu-turbo.md."""
import csv
import math
import sys


def load(path):
    rows = list(csv.DictReader(open(path)))
    return rows[0]["curve"] if rows else path, [
        (float(r["ebn0_db"]), float(r["ber"]), float(r["fer"])) for r in rows]


def crossing(pts, level, col):
    for a, b in zip(pts, pts[1:]):
        ya, yb = a[col], b[col]
        if ya > 0 and yb > 0 and ya >= level >= yb:
            t = (math.log10(ya) - math.log10(level)) / (math.log10(ya) - math.log10(yb))
            return "%.3f" % (a[0] + t * (b[0] - a[0]))
    return "-"


print("| curve | BER 1e-3 | BER 1e-4 | BER 1e-5 | FER 1e-2 |")
print("|---|---|---|---|---|")
for f in sys.argv[1:]:
    name, p = load(f)
    print("| %s | %s | %s | %s | %s |" % (name, crossing(p, 1e-3, 1), crossing(p, 1e-4, 1),
                                         crossing(p, 1e-5, 1), crossing(p, 1e-2, 2)))
