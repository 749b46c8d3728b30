#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How many API-layer files a family's parameter appears in.

The API layer: public headers (include/gnuradio/gpurx/), block code
(lib/blocks/), Python bindings (python/gpurx/bindings/), GRC blocks (grc/)
and the family descriptions (lib/blocks/*/*.api.yml, lib/blocks/drivers/
deployments.yml). A parameter is counted in a file where its name stands as
a word. Files scripts/gen-block-api.py writes (the GRC blocks of described
families, committed and checked by the test api_generated_grc) are counted
apart: nobody edits them.

  count-api-files.py FAMILY...             every parameter of each family
  count-api-files.py --param NAME...       the named parameters
  count-api-files.py --rev REV ...         the same in a git revision

FAMILY: a description's family (lte_sch_decoder, mimo_detector, ...): its
parameters, counted in its own files only (its make()s, args and adapter,
its description, its blocks' headers and GRC files, the bindings that name
its blocks).

Targets (docs/architecture.md, "Public API: one description per family"):
adding a parameter to a described family touches at most 3 files (its
description, the adapter or args that uses it, a test); a new decoding
family costs at most 15 files.
"""

import argparse
import glob
import os
import re
import signal
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AREAS = (
    ("descriptions", lambda p: p.endswith(".api.yml") or p == "lib/blocks/drivers/deployments.yml"),
    ("headers", lambda p: p.startswith("include/gnuradio/gpurx/") and p.endswith(".h")),
    ("block code", lambda p: p.startswith("lib/blocks/") and p.endswith((".h", ".cc"))),
    ("bindings", lambda p: p.startswith("python/gpurx/bindings/") and p.endswith((".h", ".cc"))),
    ("grc", lambda p: p.startswith("grc/") and p.endswith(".block.yml")),
)


def area_of(path):
    for name, test in AREAS:
        if test(path):
            return name
    return None


def files_now():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return [p for p in out if area_of(p) and os.path.exists(os.path.join(ROOT, p))]


def files_with(name, rev):
    """The API-layer files where \\bname\\b stands, in rev (None: the tree)."""
    if rev:
        r = subprocess.run(["git", "grep", "-l", "-w", "-e", name, rev, "--", "include", "lib/blocks",
                            "python/gpurx/bindings", "grc"], cwd=ROOT, capture_output=True, text=True)
        return sorted(p.split(":", 1)[1] for p in r.stdout.split() if area_of(p.split(":", 1)[1]))
    pat = re.compile(r"\b%s\b" % re.escape(name))
    hits = []
    for p in files_now():
        with open(os.path.join(ROOT, p), errors="replace") as f:
            if pat.search(f.read()):
                hits.append(p)
    return sorted(hits)


def descriptions():
    fams = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "lib", "blocks", "*", "*.api.yml"))):
        with open(path) as f:
            d = yaml.safe_load(f)
        folder = os.path.relpath(os.path.dirname(path), ROOT) + "/"
        rel = os.path.relpath(path, ROOT)
        if "blocks" in d:
            # A file of single blocks: each block counts as a family of one
            # deployment, its block code the block's _impl.cc.
            for b in d["blocks"]:
                b = dict(b, folder=folder, path=rel, deployments=[{"name": b["name"]}],
                         params=b.get("params", []), impl=folder + b["name"] + "_impl.cc")
                fams[b["name"]] = b
            continue
        d["folder"], d["path"] = folder, rel
        fams[d["family"]] = d
    return fams


def in_scope(path, fam, rev):
    """Whether path is one of the family's API-layer files: its block code
    (block_scope), description, blocks' headers and GRC files, and the
    bindings that name one of its blocks."""
    deps = [dep["name"] for dep in fam["deployments"]]
    if path == fam["path"]:
        return True
    if path.startswith("lib/blocks/"):
        return path in block_scope(fam, rev)
    if path in ["include/gnuradio/gpurx/%s.h" % n for n in deps] + ["grc/gpurx_%s.block.yml" % n for n in deps]:
        return True
    if "impl" in fam and path in generated_grc({fam["name"]: fam}):
        return True
    if path.startswith("python/gpurx/bindings/"):
        text = read(path, rev)
        return any(re.search(r'"%s"' % n, text) for n in deps)
    return False


def block_scope(fam, rev):
    """The family's block code: its make()s (lib/blocks/<folder>/<block>_impl.cc,
    generated now), its args header, the adapter headers that includes from
    the folder, and their .cc files."""
    if "impl" in fam:  # a single block: its _impl.cc and the folder's headers it includes
        files = {fam["impl"]}
        for inc in re.findall(r'#include "(blocks/[^"]+\.h)"', read(fam["impl"], rev)):
            if ("lib/" + inc).startswith(fam["folder"]):
                files |= {"lib/" + inc, "lib/" + inc[:-2] + ".cc"}
        return files
    heads = ["lib/" + fam["args_header"]]
    for inc in re.findall(r'#include "(blocks/[^"]+\.h)"', read(heads[0], rev)):
        if ("lib/" + inc).startswith(fam["folder"]):
            heads.append("lib/" + inc)
    files = set(heads) | {h[:-2] + ".cc" for h in heads}
    files |= {fam["folder"] + dep["name"] + "_impl.cc" for dep in fam["deployments"]}
    return files


def read(path, rev):
    if rev:
        return subprocess.run(["git", "show", "%s:%s" % (rev, path)], cwd=ROOT, capture_output=True,
                              text=True).stdout
    with open(os.path.join(ROOT, path), errors="replace") as f:
        return f.read()


def generated_grc(fams):
    out = set()
    for d in fams.values():
        for dep in d["deployments"]:
            g = d.get("grc") if "impl" in d else None
            out.add("grc/%s.block.yml" % (g.get("id") if isinstance(g, dict) and g.get("id")
                                          else "gpurx_" + dep["name"]))
    return out


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("families", nargs="*")
    ap.add_argument("--param", nargs="+", default=[])
    ap.add_argument("--rev")
    ap.add_argument("--files", action="store_true", help="list the files")
    a = ap.parse_args()
    fams = descriptions()
    generated = generated_grc(fams) if not a.rev else set()
    names = [(n, None) for n in a.param]
    for fam in a.families:
        if fam not in fams:
            sys.exit("count-api-files: no description of %s (known: %s)" % (fam, ", ".join(sorted(fams))))
        names += [(p["name"], fams[fam]) for p in fams[fam]["params"] if "name" in p]
    if not names:
        ap.error("name a family or --param")
    where = "in %s" % a.rev if a.rev else "in this tree"
    print("API-layer files each parameter appears in (%s; with a family, its own files only):" % where)
    print("%-22s %5s %7s  %s" % ("parameter", "files", "edited", "by area (edited files)"))
    worst = 0
    for n, fam in names:
        hits = files_with(n, a.rev)
        if fam:
            hits = [p for p in hits if in_scope(p, fam, a.rev)]
        edited = [p for p in hits if p not in generated]
        by = {}
        for p in edited:
            by[area_of(p)] = by.get(area_of(p), 0) + 1
        worst = max(worst, len(edited))
        print("%-22s %5d %7d  %s" % (n, len(hits), len(edited),
                                     ", ".join("%s %d" % (k, by[k]) for k, _ in AREAS if k in by)))
        if a.files:
            for p in hits:
                print("    %s%s" % (p, " (generated)" if p in generated else ""))
    print("files: where the name stands as a word; edited: less the GRC blocks the generator writes.")
    print("Target: adding a parameter to a described family edits at most 3 files (its description,")
    print("the adapter or args that uses it, a test); the files a parameter stands in today, tests")
    print("aside, are at most %d here." % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
