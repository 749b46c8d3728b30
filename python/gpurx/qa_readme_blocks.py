#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""README.md's block table against grc/*.block.yml.

The table under README's "## Blocks" whose first header cell is "block"
names one GRC block per row, as its id without the "gpurx_" prefix in
backticks. Every GRC block must have a row, and every row must name a GRC
block, so that a new block cannot ship undocumented.

Reads the source tree only (no built module): README.md and grc/ are found
two folders above this file, or under $GPURX_SOURCE_DIR when the test runs
from a copy elsewhere (the build tree's test_modules)."""
import glob
import os
import re
import unittest

import yaml


def source_dir():
    env = os.environ.get("GPURX_SOURCE_DIR")
    if env:
        return env
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def grc_ids(root):
    ids = set()
    for path in glob.glob(os.path.join(root, "grc", "*.block.yml")):
        with open(path, encoding="utf-8") as f:
            block_id = yaml.safe_load(f)["id"]
        ids.add(block_id[len("gpurx_"):] if block_id.startswith("gpurx_") else block_id)
    return ids


def readme_table(root):
    """The first-column cells of README's block table, in order."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = lines.index("## Blocks")
    cells = []
    i = start + 1
    while i < len(lines) and not lines[i].startswith("## "):
        row = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        if lines[i].startswith("|") and row[0] == "block":
            i += 2  # the header and its rule
            while i < len(lines) and lines[i].startswith("|"):
                cells.append(lines[i].strip().strip("|").split("|")[0].strip())
                i += 1
            return cells
        i += 1
    return cells


class qa_readme_blocks(unittest.TestCase):

    def setUp(self):
        self.root = source_dir()
        self.ids = grc_ids(self.root)
        self.cells = readme_table(self.root)

    def test_001_sources_found(self):
        self.assertTrue(self.ids, "no grc/*.block.yml under %s" % self.root)
        self.assertTrue(self.cells, "no block table under README.md's \"## Blocks\"")

    def test_002_first_column_is_one_id(self):
        for cell in self.cells:
            self.assertRegex(cell, r"^`[a-z0-9_]+`$", "README block table: first cell %r" % cell)

    def test_003_every_grc_block_listed(self):
        listed = {c.strip("`") for c in self.cells}
        self.assertEqual(sorted(self.ids - listed), [], "GRC blocks missing from README's table")

    def test_004_every_row_is_a_grc_block(self):
        listed = [c.strip("`") for c in self.cells]
        self.assertEqual(sorted(set(listed) - self.ids), [], "README rows without a GRC block")
        self.assertEqual(len(listed), len(set(listed)), "a block listed twice in README's table")


if __name__ == "__main__":
    unittest.main()
