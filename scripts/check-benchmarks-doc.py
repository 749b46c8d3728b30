#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks every figure of docs/benchmarks.md against the raw result file it cites.

    /usr/bin/python3 scripts/check-benchmarks-doc.py [--strict] [DOC]

The rules (docs/benchmarks.md states them too):

- A checked table has a column whose header starts with "raw" (the raw
  result file, as a Markdown link relative to the document) and one or more
  columns whose header starts with "figure".
- Every number in a figure cell, outside parentheses, must appear in the
  cited file: as written, or as a number of the file rounded to as many
  decimals as the document gives (the file's 12.227106 is the doc's 12.23).
- The cited file must exist. A raw cell that says "not kept" (a figure whose
  raw output was not archived) is reported as unverified; with --strict
  that fails the check too.

Prints one line per figure and exits 1 if any figure is not found, 0
otherwise. Python 3 standard library only."""
import os
import re
import sys

NUMBER = re.compile(r"\d+(?:\.\d+)?")
FILE_NUMBER = re.compile(r"\d+(?:\.\d+)?")
LINK = re.compile(r"\]\(([^)#\s]+)")


def split_row(line):
    cells = line.strip().strip("|").split("|")
    return [c.strip() for c in cells]


def outside_parentheses(text):
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def numbers_of(cell):
    text = outside_parentheses(cell).replace("**", "")
    # Ranges such as 12.09-12.34 or 752-771: both ends are figures.
    return NUMBER.findall(text.replace("-", " "))


def found(number, text, cache):
    if re.search(r"(?<![\d.])" + re.escape(number) + r"(?![\d])", text):
        return True
    decimals = len(number.split(".")[1]) if "." in number else 0
    want = float(number)
    values = cache.get(id(text))
    if values is None:
        values = [v for v in FILE_NUMBER.findall(text)]
        cache[id(text)] = values
    for v in values:
        vd = len(v.split(".")[1]) if "." in v else 0
        if vd <= decimals:
            continue  # a coarser number cannot be the source of a finer one
        if abs(round(float(v), decimals) - want) < 10 ** -(decimals + 3):
            return True
    return False


def tables(lines):
    """Yields (line number of the header, header cells, [(line number, cells)])."""
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and \
                re.match(r"^\s*\|?\s*:?-{3,}", lines[i + 1]):
            header = split_row(lines[i])
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                rows.append((j + 1, split_row(lines[j])))
                j += 1
            yield i + 1, header, rows
            i = j
        else:
            i += 1


def main(argv):
    strict = "--strict" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    doc = args[0] if args else os.path.join(root, "docs", "benchmarks.md")
    base = os.path.dirname(os.path.abspath(doc))
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    texts, cache = {}, {}
    checked = failed = unverified = 0
    for hline, header, rows in tables(lines):
        low = [h.lower().replace("*", "") for h in header]
        raw_cols = [k for k, h in enumerate(low) if h.startswith("raw")]
        fig_cols = [k for k, h in enumerate(low) if h.startswith("figure")]
        if not raw_cols or not fig_cols:
            continue
        rc = raw_cols[0]
        for lineno, cells in rows:
            if len(cells) != len(header):
                print("%s:%d: FAIL row has %d cells, header %d" % (doc, lineno, len(cells), len(header)))
                failed += 1
                continue
            label = " / ".join(c for c in cells[:2] if c)
            raw = cells[rc]
            links = LINK.findall(raw)
            if not links:
                if "not kept" in raw.lower():
                    nums = [n for k in fig_cols for n in numbers_of(cells[k])]
                    unverified += len(nums)
                    print("%s:%d: UNVERIFIED %s: %s (raw output not kept)"
                          % (doc, lineno, label, ", ".join(nums)))
                    if strict:
                        failed += len(nums)
                else:
                    print("%s:%d: FAIL %s: no raw file cited" % (doc, lineno, label))
                    failed += 1
                continue
            path = os.path.normpath(os.path.join(base, links[0]))
            if path not in texts:
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        texts[path] = f.read()
                except OSError:
                    texts[path] = None
            text = texts[path]
            if text is None:
                print("%s:%d: FAIL %s: %s does not exist" % (doc, lineno, label, links[0]))
                failed += 1
                continue
            for k in fig_cols:
                for n in numbers_of(cells[k]):
                    checked += 1
                    if found(n, text, cache):
                        print("%s:%d: ok %s: %s [%s] in %s"
                              % (doc, lineno, label, n, header[k], links[0]))
                    else:
                        failed += 1
                        print("%s:%d: FAIL %s: %s [%s] not in %s"
                              % (doc, lineno, label, n, header[k], links[0]))
    print("%d figures checked, %d not found, %d unverified (raw output not kept)%s"
          % (checked, failed - (unverified if strict else 0), unverified,
             "; --strict: unverified ones fail" if strict else ""))
    if checked == 0:
        print("no checked table found (a column 'figure...' and a column 'raw...')")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
