#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What a user of `from gnuradio import gpurx` sees first: the module's
docstring names only what exists, __version__, the valid K (the same set the
GRC blocks' asserts accept), help() texts that describe every parameter, and
the build's CUDA architectures. Backend-independent: registered once."""
import inspect
import os
import re
import unittest

import yaml
from gnuradio import gpurx

GRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")


def lte_sizes_by_rule():
    """TS 36.212 Table 5.1.3-3: 40..512 step 8, ..1024 step 16, ..2048 step 32, ..6144 step 64."""
    return (list(range(40, 513, 8)) + list(range(528, 1025, 16)) + list(range(1056, 2049, 32))
            + list(range(2112, 6145, 64)))


class qa_python_api(unittest.TestCase):

    def test_001_version(self):
        self.assertIsInstance(gpurx.__version__, str)
        self.assertTrue(gpurx.__version__)
        self.assertEqual(gpurx.__version__, gpurx.version())
        self.assertIn(gpurx.__version__, gpurx.runtime_report())

    def test_002_block_sizes(self):
        sizes = gpurx.lte_turbo_block_sizes()
        self.assertEqual(len(sizes), 188)
        self.assertEqual(sizes, lte_sizes_by_rule())
        # Every listed K constructs; the gaps between them raise naming K.
        for K in (40, 512, 528, 6144):
            gpurx.lte_turbo_encoder(K)
        for K in (39, 100, 520, 6145):
            with self.assertRaises(ValueError) as ctx:
                gpurx.lte_turbo_encoder(K)
            self.assertIn("K", str(ctx.exception))

    def test_003_grc_K_asserts_match_the_block_sizes(self):
        valid = set(gpurx.lte_turbo_block_sizes())
        for name in ("gpurx_lte_turbo_encoder.block.yml", "gpurx_lte_turbo_decoder.block.yml"):
            with open(os.path.join(GRC_DIR, name)) as f:
                y = yaml.safe_load(f)
            k_asserts = [a for a in y["asserts"] if re.search(r"\bK\b", a)]
            self.assertEqual(len(k_asserts), 1, name)
            expr = k_asserts[0].strip()[2:-1]  # ${ ... }
            accepted = {K for K in range(0, 7000) if eval(expr, {}, {"K": K})}
            self.assertEqual(accepted, valid, name)

    def test_004_help_describes_every_parameter(self):
        for blk in (gpurx.lte_turbo_decoder, gpurx.lte_turbo_decoder_tagged,
                    gpurx.lte_turbo_decoder_pdu, gpurx.lte_turbo_encoder,
                    gpurx.lte_sch_decoder_pdu, gpurx.lte_sch_decoder_tagged,
                    gpurx.lte_sch_encoder_pdu, gpurx.lte_sch_encoder_tagged):
            doc = blk.__init__.__doc__
            # First line: __init__(self: ..., K: int, iterations: int = 6, ...) -> None
            params = re.findall(r", (\w+): ", doc.splitlines()[0])
            self.assertTrue(params, blk.__name__)
            for p in params:
                self.assertRegex(doc, r"(?m)^%s: " % p, "%s: %s undescribed" % (blk.__name__, p))
        self.assertIn("4 Re(y) / N0", gpurx.lte_turbo_decoder.__init__.__doc__)

    def test_005_module_docstring_names_only_what_exists(self):
        doc = gpurx.__doc__
        # Identifiers with an underscore, but not file names (examples/lte_turbo_ber.py).
        names = set(re.findall(r"(?<![/\w.])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b(?!\.py)", doc))
        names |= {n for n in re.findall(r"\b([a-z_]+)\(\)", doc)}
        names -= {"gr_gpurx"}
        self.assertTrue(names)
        for n in sorted(names):
            self.assertTrue(hasattr(gpurx, n), "the module docstring names %s, which does not exist" % n)

    def test_006_cuda_architectures(self):
        archs = gpurx.cuda_architectures()
        self.assertIsInstance(archs, str)
        report = gpurx.runtime_report()
        if "compiled in: yes" in report:
            self.assertTrue(archs)
            self.assertIn("CUDA architectures in this build: " + archs, report)
        else:
            self.assertEqual(archs, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
