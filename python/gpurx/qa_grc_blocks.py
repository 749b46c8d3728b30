#!/usr/bin/python3
#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The grc/*.block.yml files:

- every one loads in GNU Radio Companion's platform and its block validates
  with default parameters (apart from unconnected ports) - needs GRC;
- the pipeline options (max_batch, slots, flush_us, backend, devices,
  cpu_threads) are the same parameters, word for word, in every block that
  has them, and reach the block as one gpurx.pipeline_options in both the
  Python and the C++ template;
- every block that takes soft values documents their convention.

Without GRC (e.g. a bare GPU host) the text checks still run, and the file
then exits 77 (ctest: Skipped) for the platform check."""
import glob
import os
import re
import sys
import unittest

import yaml
from gnuradio import gr

try:
    from gnuradio.grc.core.platform import Platform
except ImportError:
    Platform = None

GRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")
PIPELINE_PARAMS = ("max_batch", "slots", "flush_us", "backend", "devices", "cpu_threads")
# The pre-pipeline_options per-block parameter names that must not come back.
LEGACY_PARAMS = ("device",)
PY_OPTIONS = ("options=gpurx.pipeline_options(max_batch=${max_batch}, slots=${slots}, "
              "flush_us=${flush_us}, backend=${backend}, devices=${devices}, "
              "cpu_threads=${cpu_threads})")
CPP_OPTIONS = ("gr::gpurx::pipeline_options(${max_batch}, ${slots}, ${flush_us}, ${backend}, "
               "${devices}, ${cpu_threads})")
SOFT_VALUE_CONVENTION = ("L = ln P(b=1)/P(b=0)", "positive for bit 1")


def block_files():
    return sorted(glob.glob(os.path.join(GRC_DIR, "*.block.yml")))


def param_texts(text):
    """id -> the exact YAML text of that entry of the parameters list."""
    m = re.search(r"^parameters:\n((?:(?:[ -].*)?\n)*)", text, re.M)
    if not m:
        return {}
    entries = re.split(r"^(?=- id: )", m.group(1), flags=re.M)
    out = {}
    for e in entries:
        idm = re.match(r"- id: (\S+)", e)
        if idm:
            out[idm.group(1)] = e.rstrip("\n")
    return out


def doc_paragraphs(doc):
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", doc or "") if p.strip()]


class qa_grc_text(unittest.TestCase):

    def setUp(self):
        self.files = block_files()
        if not self.files:
            self.skipTest("grc/ not found next to the test")
        self.texts = {}
        for f in self.files:
            with open(f) as fh:
                self.texts[os.path.basename(f)] = fh.read()
        self.yamls = {k: yaml.safe_load(v) for k, v in self.texts.items()}

    def pipeline_files(self):
        # The blocks that batch (max_batch). The gr-fec object definitions
        # decode one frame per call and take only a backend.
        files = [k for k, y in self.yamls.items()
                 if any(p.get("id") == "max_batch" for p in y.get("parameters") or [])]
        self.assertTrue(files, "no block has pipeline options")
        return files

    def test_001_pipeline_params_identical_everywhere(self):
        ref_name, ref = None, None
        for name in self.pipeline_files():
            texts = param_texts(self.texts[name])
            ids = [p["id"] for p in self.yamls[name]["parameters"]]
            for legacy in LEGACY_PARAMS:
                self.assertNotIn(legacy, ids, name + ": legacy parameter")
            missing = [p for p in PIPELINE_PARAMS if p not in texts]
            self.assertEqual(missing, [], name + ": pipeline options missing")
            mine = {p: texts[p] for p in PIPELINE_PARAMS}
            # In the same order, one after the other.
            pos = [ids.index(p) for p in PIPELINE_PARAMS]
            self.assertEqual(pos, list(range(pos[0], pos[0] + len(PIPELINE_PARAMS))), name)
            if ref is None:
                ref_name, ref = name, mine
                continue
            for p in PIPELINE_PARAMS:
                self.assertEqual(mine[p], ref[p],
                                 "parameter %s differs between %s and %s" % (p, name, ref_name))

    def test_002_pipeline_params_values(self):
        name = self.pipeline_files()[0]
        params = {p["id"]: p for p in self.yamls[name]["parameters"]}
        defaults = {p: str(params[p]["default"]) for p in PIPELINE_PARAMS}
        # The defaults of gpurx.pipeline_options().
        self.assertEqual(defaults, {"max_batch": "64", "slots": "3", "flush_us": "1000",
                                    "backend": '"auto"', "devices": '"0"', "cpu_threads": "0"})
        self.assertEqual(params["backend"]["options"], ['"auto"', '"cuda"', '"cpu"'])

    def test_003_templates_pass_one_options_object(self):
        for name in self.pipeline_files():
            y = self.yamls[name]
            make = y["templates"]["make"]
            self.assertIn(PY_OPTIONS, make, name + ": Python make template")
            cpp = y["cpp_templates"]["make"]
            self.assertIn(CPP_OPTIONS, cpp, name + ": C++ make template")
            # No pipeline option passed any other way.
            for p in PIPELINE_PARAMS + LEGACY_PARAMS:
                self.assertEqual(make.count("${%s}" % p), 1 if p in PIPELINE_PARAMS else 0,
                                 "%s: ${%s} in the Python template" % (name, p))
                self.assertEqual(cpp.count("${%s}" % p), 1 if p in PIPELINE_PARAMS else 0,
                                 "%s: ${%s} in the C++ template" % (name, p))

    def test_004_pipeline_asserts_and_doc_identical(self):
        ref_name, ref_asserts, ref_doc = None, None, None
        for name in self.pipeline_files():
            y = self.yamls[name]
            asserts = [a for a in y.get("asserts") or []
                       if any(p in a for p in PIPELINE_PARAMS)]
            docs = [p for p in doc_paragraphs(y.get("documentation"))
                    if p.startswith("Pipeline options")]
            self.assertEqual(len(docs), 1, name + ": one 'Pipeline options' paragraph")
            if ref_name is None:
                ref_name, ref_asserts, ref_doc = name, asserts, docs[0]
                self.assertEqual(len(asserts), 4, name)
                continue
            self.assertEqual(asserts, ref_asserts, "asserts differ: %s, %s" % (name, ref_name))
            self.assertEqual(docs[0], ref_doc, "pipeline doc differs: %s, %s" % (name, ref_name))

    def test_005_soft_input_blocks_document_the_convention(self):
        soft = [k for k, y in self.yamls.items()
                if "decoder" in y["id"] or "LLR" in (y.get("documentation") or "")]
        self.assertTrue(soft)
        for name in soft:
            doc = " ".join((self.yamls[name].get("documentation") or "").split())
            for words in SOFT_VALUE_CONVENTION:
                self.assertIn(words, doc, name)

    def test_006_cpp_output_finds_and_links_the_library(self):
        # GRC's C++ output writes find_package() for each "packages" entry and
        # links each "link" entry: without the package, gnuradio::gnuradio-gpurx
        # is an unknown target in the generated CMakeLists.txt.
        for name, y in self.yamls.items():
            if "cpp" not in (y.get("flags") or []):
                continue
            cpp = y.get("cpp_templates") or {}
            self.assertEqual(cpp.get("link"), ["gnuradio::gnuradio-gpurx"], name)
            self.assertEqual(cpp.get("packages"), ["gnuradio-gpurx"], name)
            self.assertTrue(any("gnuradio/gpurx/" in i for i in cpp.get("includes") or []), name)


class qa_grc_blocks(unittest.TestCase):

    def platform(self):
        """GRC's platform with our blocks and GNU Radio's (skips without them)."""
        if Platform is None:
            self.skipTest("GNU Radio Companion (gnuradio.grc) is not installed")
        if not block_files():
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
        return p

    def test_001_blocks_load_and_validate(self):
        p = self.platform()
        files = block_files()
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
            if "max_batch" in b.params:
                # The generated Python builds the block with one options object.
                make = b.templates.render("make")
                self.assertIn('options=gpurx.pipeline_options(max_batch=64, slots=3, '
                              'flush_us=1000, backend="auto", devices="0", cpu_threads=0)',
                              make, key)

        # The gr-fec object definitions: the Python GRC writes for each
        # Parallelism makes one object, a list, or a list of lists of them,
        # each a gr-fec coder object (what the FEC blocks take).
        from gnuradio import fec, gpurx
        defs = {"gpurx_variable_lte_turbo_decoder_def": fec.generic_decoder,
                "gpurx_variable_lte_turbo_encoder_def": fec.generic_encoder,
                "gpurx_variable_viterbi_decoder_def": fec.generic_decoder}
        for key, base in defs.items():
            for ndim in ("0", "1", "2"):
                b = fg.new_block(key)
                b.params["id"].set_value("v_%s_%s" % (key, ndim))
                b.params["ndim"].set_value(ndim)
                b.params["dim1"].set_value("2")
                b.params["dim2"].set_value("3")
                if "K" in b.params and "frame_bits" not in b.params:
                    b.params["K"].set_value("1024")
                if "backend" in b.params:
                    b.params["backend"].set_value('"cpu"')
                b.rewrite()
                b.validate()
                self.assertEqual(b.get_error_messages(), [], "%s ndim=%s" % (key, ndim))
                code = b.templates.render("var_make")
                ns = {"gpurx": gpurx, "self": type("fg", (), {})()}
                exec(code, ns)
                made = ns["v_%s_%s" % (key, ndim)]
                flat = {"0": lambda m: [m], "1": lambda m: m,
                        "2": lambda m: [o for row in m for o in row]}[ndim](made)
                self.assertEqual(len(flat), {"0": 1, "1": 2, "2": 6}[ndim], key)
                if ndim == "2":
                    self.assertEqual([len(r) for r in made], [3, 3], key)
                for o in flat:
                    self.assertIsInstance(o, base, key)
                self.assertEqual(len({id(o) for o in flat}), len(flat), key + ": shared objects")

        # GRC refuses a K that is not an LTE block size before anything runs.
        for key in ("gpurx_lte_turbo_encoder", "gpurx_lte_turbo_decoder"):
            for K, ok in (("6144", True), ("1056", True), ("40", True), ("100", False),
                          ("520", False), ("6208", False)):
                b = fg.new_block(key)
                b.params["id"].set_value("k_%s_%s" % (key, K))
                b.params["K"].set_value(K)
                b.rewrite()
                b.validate()
                errs = [e for e in b.get_error_messages() if "connected" not in e.lower()]
                self.assertEqual(not errs, ok, "%s K=%s: %s" % (key, K, errs))

    def test_002_mimo_detector_llr_type(self):
        # LLR type switches the LLR port between float and byte (int8), and
        # reaches the block as llr_type in both templates; the Python one
        # builds a block that makes char items.
        from gnuradio import gpurx
        fg = self.platform().make_flow_graph()
        for key, port in (("gpurx_mimo_detector", True), ("gpurx_mimo_detector_tagged", True),
                          ("gpurx_mimo_detector_pdu", False)):
            for value, dtype in (('"float"', "float"), ('"int8"', "byte")):
                b = fg.new_block(key)
                b.params["id"].set_value("llr_%s_%s" % (key, value.strip('"')))
                b.params["llr_type"].set_value(value)
                b.params["backend"].set_value('"cpu"')
                b.rewrite()
                b.validate()
                errs = [e for e in b.get_error_messages() if "connected" not in e.lower()]
                self.assertEqual(errs, [], "%s %s" % (key, value))
                if port:
                    llr = [s for s in b.sources if s.domain == "stream"]
                    self.assertEqual([s.dtype for s in llr], [dtype], "%s %s" % (key, value))
                make = b.templates.render("make")
                self.assertIn("llr_type=%s" % value, make, key)
                # The stream detector's rank_tags (default on) follows it.
                tail = ", %s, true);" % value if key == "gpurx_mimo_detector" else ", %s);" % value
                self.assertTrue(b.cpp_templates.render("make").endswith(tail), key)
                blk = eval(make, {"gpurx": gpurx})
                if port:
                    want = 1 if value == '"int8"' else 4
                    per = 1 if key.endswith("tagged") else 2 * 4  # nt * bps: 2 x 16-QAM
                    self.assertEqual(blk.output_signature().sizeof_stream_item(0), want * per,
                                     "%s %s" % (key, value))

    def test_003_cpp_templates_take_the_values_set(self):
        # A bool as C++'s true/false from its value (GRC's ${x} is the text
        # as typed, and "False" is a true string), an int vector as decimal
        # ints whatever base it was typed in (0o133 is not C++).
        fg = self.platform().make_flow_graph()
        for value, want in (("False", "false"), ("True", "true")):
            b = fg.new_block("gpurx_mimo_ofdm_channel_estimator")
            b.params["id"].set_value("est_%s" % value)
            b.params["track_phase"].set_value(value)
            b.params["track_slope"].set_value(value)
            b.rewrite()
            self.assertTrue(b.cpp_templates.render("make").endswith(", %s, %s);" % (want, want)), value)
            v = fg.new_block("gpurx_variable_viterbi_decoder_def")
            v.params["id"].set_value("vit_%s" % value)
            v.params["gr_fec_order"].set_value(value)
            v.params["polys"].set_value("[0o133, 0o171]")
            v.rewrite()
            code = v.cpp_templates.render("var_make")
            # make(frame_bits, K, polys, termination, gr_fec_order, ...)
            self.assertRegex(code, r"std::vector<int>\{91, 121\}, [^,]+, %s," % want)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    if Platform is None:
        print("skipped: GNU Radio Companion (gnuradio.grc) is not installed; "
              "the text checks passed")
        sys.exit(77)
    sys.exit(0)
