#!/usr/bin/env python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that the prose documentation describes the present, not its history.

    /usr/bin/python3 scripts/check-docs-manual.py

Documents: README.md and docs/*.md. CHANGELOG.md is exempt: history
belongs there. docs/results/ (raw output and its index) is not checked.

1. Commit hashes: a token of 7 to 40 hex digits that names a commit of this
   repository (any branch) is a problem. Tokens inside file names
   (results/bench_x_3f71d78.md) are not tokens. Digit-only tokens count
   only in backticks, so that figures such as 1572864 pass. Without git (a
   source tarball), a token of 7 to 12 hex digits with at least one digit
   and one letter counts instead.
   Exempt: the provenance of a figure in docs/benchmarks.md, that is a line
   that starts with "Provenance:" or "Command:", and a row of a table whose
   header has a "commit" column.
2. Banned words (history and process, not the present): see BANNED.

Prints each problem as FILE:LINE: ... and exits 1 if there is any, 0
otherwise. Python 3 standard library only."""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROVENANCE_DOC = "docs/benchmarks.md"
PROVENANCE_MARKERS = ("Provenance:", "Command:")
BANNED = re.compile(r"\bno longer\b|\bthis session\b|\blast session\b|\bstop (?:[1-9][0-9]?)\b"
                    r"|\bwhich it no longer\b", re.I)
# A hex token not glued to a file name or a longer word: the characters
# around it may not be word characters, '.', '/', '-' or '_'.
HEX = re.compile(r"(?<![\w./-])(`?)([0-9a-fA-F]{7,40})(`?)(?![\w/-]|\.\w)")


def commits():
    """All commit ids of the repository, or None without git."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "log", "--all", "--format=%H"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    ids = out.split()
    return ids or None


def is_commit(token, ids, quoted):
    token = token.lower()
    if ids is None:
        return (len(token) <= 12 and re.search(r"[0-9]", token) is not None
                and re.search(r"[a-f]", token) is not None)
    if token.isdigit() and not quoted:
        return False
    return any(c.startswith(token) for c in ids)


def documents():
    docs = ["README.md"]
    docs += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    return [d for d in docs if os.path.exists(os.path.join(ROOT, d))]


def provenance_lines(lines):
    """Indices of the lines of docs/benchmarks.md whose hashes are provenance."""
    keep = set()
    in_table = False
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith(PROVENANCE_MARKERS):
            keep.add(i)
        if s.startswith("|"):
            if not in_table:
                header = [c.strip().lower() for c in s.strip("|").split("|")]
                in_table = True
                commit_table = any(h.startswith("commit") for h in header)
            if commit_table:
                keep.add(i)
        else:
            in_table = False
    return keep


def main():
    ids = commits()
    problems = []
    hashes = 0
    for doc in documents():
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            lines = f.read().split("\n")
        exempt = provenance_lines(lines) if doc == PROVENANCE_DOC else set()
        for n, line in enumerate(lines):
            for m in BANNED.finditer(line):
                problems.append("%s:%d: banned words \"%s\"" % (doc, n + 1, m.group(0)))
            if n in exempt:
                continue
            for m in HEX.finditer(line):
                quoted = m.group(1) == "`" and m.group(3) == "`"
                if is_commit(m.group(2), ids, quoted):
                    hashes += 1
                    problems.append("%s:%d: commit hash %s in prose" % (doc, n + 1, m.group(2)))
    for p in problems:
        print(p)
    print("%d documents checked (%s), %d commit hashes in prose, %d problems"
          % (len(documents()), "git" if ids else "no git: hex-token rule", hashes, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
