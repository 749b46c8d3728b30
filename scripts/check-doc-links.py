#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the user documentation: links, raw result files, internal words.

    /usr/bin/python3 scripts/check-doc-links.py

Documents: README.md, CHANGELOG.md, MANIFEST.md, docs/*.md,
docs/results/README.md and the documentation of grc/*.block.yml.

1. Links: every Markdown link or image target that is not a URL or an
   anchor, and every path written in the text that starts with a folder of
   the repository (docs/, results/, scripts/, lib/, examples/, ...), must
   exist. Paths may use {a,b} alternatives and * wildcards; each
   alternative must match at least one file. results/... is read relative to
   docs/, Markdown links relative to their document, other paths relative to
   the repository root.
2. Raw results: every file in docs/results/ is listed in
   docs/results/README.md, and cited by at least one other document (a
   path or pattern that matches it); every file the index lists exists.
3. Internal words: no development-process vocabulary (issue numbers,
   "stop N", numbered kernels, ".devrun", "session", ...).

Prints each problem and exits 1 if there is any, 0 otherwise. Python 3
standard library only."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIXES = ("docs/", "results/", "scripts/", "lib/", "examples/", "apps/", "bench/",
            "tests/", "python/", "include/", "cmake/", "grc/", ".ci/")
MD_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
PATH = re.compile(r"(?<![\w/.$-])((?:%s)[\w./{},*+-]*[\w}*])" % "|".join(re.escape(p) for p in PREFIXES))
INTERNAL = re.compile(
    r"issue\s*[0-9]|issue:|the issue|stop\s*[0-9]|stop's|this stop|kernel\s*[0-9]\b|kernel v[0-9]"
    r"|\.devrun|\.devout|session|device call|\bcall [0-9]|/work/wt-|/work/main|\bh/[a-z]", re.I)


def documents():
    docs = ["README.md", "CHANGELOG.md", "MANIFEST.md"]
    docs += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    docs.append("docs/results/README.md")
    return [d for d in docs if os.path.exists(os.path.join(ROOT, d))]


def grc_docs():
    out = []
    for p in sorted(glob.glob(os.path.join(ROOT, "grc", "*.block.yml"))):
        with open(p, encoding="utf-8") as f:
            text = f.read()
        m = re.search(r"^documentation: \|-?\n((?:(?:  .*)?\n)*)", text, re.M)
        if m:
            out.append((os.path.relpath(p, ROOT), text[:m.start(1)].count("\n") + 1, m.group(1)))
    return out


def expand_braces(pattern):
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(pattern[:m.start()] + alt + pattern[m.end():])
    return out


def matches(path):
    if any(c in path for c in "*?["):
        return sorted(glob.glob(path))
    return [path] if os.path.exists(path) else []


def resolve(token):
    """(alternative, files matched) for each alternative of a path token."""
    token = token.rstrip(".,;:")
    out = []
    for alt in expand_braces(token):
        base = os.path.join(ROOT, "docs") if alt.startswith("results/") else ROOT
        out.append((alt, matches(os.path.normpath(os.path.join(base, alt)))))
    return out


def main():
    problems = []
    cited = set()
    index_text = ""
    for doc in documents():
        path = os.path.join(ROOT, doc)
        doc_dir = os.path.dirname(path)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if doc == "docs/results/README.md":
            index_text = "\n".join(lines)
        for n, line in enumerate(lines, 1):
            # Links
            for target in MD_LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue
                target = target.split("#")[0]
                for alt in expand_braces(target):
                    found = matches(os.path.normpath(os.path.join(doc_dir, alt)))
                    if not found:
                        problems.append("%s:%d: link target %s does not exist" % (doc, n, alt))
                    elif doc != "docs/results/README.md":
                        cited.update(os.path.realpath(p) for p in found)
            # Paths in the text (not the targets of links, handled above)
            text = MD_LINK.sub(lambda m: " ", line)
            for token in PATH.findall(text):
                for alt, found in resolve(token):
                    if not found:
                        problems.append("%s:%d: path %s does not exist" % (doc, n, alt))
                    elif doc != "docs/results/README.md":
                        cited.update(os.path.realpath(p) for p in found)
            if doc != "docs/architecture.md":  # owned elsewhere; reported, not failed
                for m in INTERNAL.finditer(line):
                    problems.append("%s:%d: internal word \"%s\"" % (doc, n, m.group(0)))
            elif INTERNAL.search(line):
                print("%s:%d: note: internal word \"%s\" (not failed: file owned elsewhere)"
                      % (doc, n, INTERNAL.search(line).group(0)))
    for f, first, text in grc_docs():
        for k, line in enumerate(text.split("\n")):
            for m in INTERNAL.finditer(line):
                problems.append("%s:%d: internal word \"%s\"" % (f, first + k, m.group(0)))

    results = os.path.join(ROOT, "docs", "results")
    listed = set(re.findall(r"\]\(([^)\s#]+)\)", index_text))
    for name in sorted(os.listdir(results)):
        full = os.path.join(results, name)
        if name == "README.md":
            continue
        if os.path.isdir(full):
            problems.append("docs/results/%s: a folder (keep docs/results/ flat)" % name)
            continue
        if name not in listed:
            problems.append("docs/results/%s: not listed in docs/results/README.md" % name)
        if os.path.realpath(full) not in cited:
            problems.append("docs/results/%s: cited by no document" % name)
    for name in sorted(listed):
        if not os.path.exists(os.path.join(results, name)):
            problems.append("docs/results/README.md: lists %s, which does not exist" % name)

    for p in problems:
        print(p)
    print("%d documents and %d GRC block files checked, %d problems"
          % (len(documents()), len(grc_docs()), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
