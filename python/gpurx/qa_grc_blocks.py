#!/usr/bin/env python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Every grc/*.block.yml loads in GNU Radio Companion's platform and its block
validates with default parameters (apart from unconnected ports)."""
import glob
import os
import sys

from gnuradio import gr, gr_unittest

try:
    from gnuradio.grc.core.platform import Platform
except ImportError:
    # A GNU Radio runtime without GRC (e.g. a bare GPU host): ctest Skipped.
    print("skipped: GNU Radio Companion (gnuradio.grc) is not installed")
    sys.exit(77)

GRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")


class qa_grc_blocks(gr_unittest.TestCase):

    def test_001_blocks_load_and_validate(self):
        files = glob.glob(os.path.join(GRC_DIR, "*.block.yml"))
        if not files:
            self.skipTest("grc/ not found next to the test")
        p = Platform(version=gr.version(),
                     version_parts=(gr.major_version(), gr.api_version(), gr.minor_version()),
                     prefs=gr.prefs())
        builtin = [d for d in (os.path.join(gr.prefix(), "share", "gnuradio", "grc", "blocks"),
                               os.path.join(os.environ.get("GPUROOT", "/"), "usr", "share",
                                            "gnuradio", "grc", "blocks"))
                   if os.path.isdir(d)]
        if not builtin:
            self.skipTest("GNU Radio's own GRC blocks are not installed")
        p.build_library([os.path.abspath(GRC_DIR)] + builtin[:1])
        ours = sorted(k for k in p.blocks if k.startswith("gpurx_"))
        self.assertEqual(len(ours), len(files))
        fg = p.make_flow_graph()
        for i, key in enumerate(ours):
            b = fg.new_block(key)
            b.params["id"].set_value("blk%d" % i)
            b.rewrite()
            b.validate()
            errs = [e for e in b.get_error_messages() if "connected" not in e.lower()]
            self.assertEqual(errs, [], key)
            doc = b.documentation
            text = doc.get("", "") if isinstance(doc, dict) else str(doc)
            self.assertGreater(len(text.strip()), 80, key + " has no documentation")


if __name__ == "__main__":
    gr_unittest.run(qa_grc_blocks)
