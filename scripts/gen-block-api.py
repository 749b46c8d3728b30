#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The public API of a block family, from its one description.

A family (the SCH decoder, the turbo decoder, ...) is described once, in
lib/blocks/<folder>/<family>.api.yml: its parameters (name, C++ type,
default, documentation, GRC label/dtype/options/hide/assert) in the order of
make(), and its deployments (stream, tagged, pdu: block name, texts, methods,
GRC ports). The parameters and methods every family shares (options,
len_tag_key, backend(), pdus_out()) are in lib/blocks/drivers/
deployments.yml. From them this script writes, per deployment:

  include/gnuradio/gpurx/<block>.h   the public header (Doxygen comments)
  lib/<block>_impl.cc                make(): fills the family's args struct
                                     and calls make_<kind>_deployment
                                     (lib/blocks/drivers/deployment_make.h)
  <block>.block.yml                  the GRC block
and per family python/<family>_python.cc (the pybind11 binding, in
gr_modtool's layout), and for all of them python/generated_bindings.h (the
bind_<family>() prototypes and one call, for python_bindings.cc).

The build runs it (cmake: add_custom_command, into the build tree) for the
headers, make()s and bindings. The GRC files are committed under grc/ so
that users browsing the repository find them; the test api_generated_grc
(--check-grc grc) fails when they differ from what this script writes, and
`scripts/gen-block-api.py --grc grc` rewrites them.

Usage:
  gen-block-api.py --out DIR DESCRIPTION...      headers, make()s, bindings
  gen-block-api.py --list-outputs DESCRIPTION... what --out writes (cmake)
  gen-block-api.py --grc DIR DESCRIPTION...      the GRC files into DIR
  gen-block-api.py --check-grc DIR DESCRIPTION... exit 1 if DIR's differ
With no DESCRIPTION: every lib/blocks/*/*.api.yml of this source tree.
"""

import argparse
import glob
import os
import re
import sys
import textwrap

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "lib", "blocks", "drivers", "deployments.yml")
KINDS = ("stream", "tagged", "pdu")
LICENSE = "/*\n * Copyright 2026 gr-gpurx authors\n * SPDX-License-Identifier: GPL-3.0-or-later\n */\n"

CXX_TYPES = {
    "int": ("int", "int"),
    "float": ("float", "float"),
    "bool": ("bool", "bool"),
    "string": ("const std::string&", "std::string"),
    "int_vector": ("const std::vector<int>&", "std::vector<int>"),
    "pipeline_options": ("const pipeline_options&", "pipeline_options"),
    # Types only single blocks take so far.
    "double": ("double", "double"),
    "int64": ("int64_t", "int64_t"),
    "uint64": ("uint64_t", "uint64_t"),
    "string_vector": ("const std::vector<std::string>&", "std::vector<std::string>"),
    "pmt": ("const pmt::pmt_t&", "pmt::pmt_t"),
}


class DescriptionError(Exception):
    pass


# ---------------------------------------------------------------- loading


def load_yaml(path):
    with open(path) as f:
        return yaml.safe_load(f)


def text_of(items, texts, where, sep="\n\n"):
    """A text given as a string, or a list of paragraphs (strings, or
    {use: NAME, append: LINES} of the family's or the shared texts), joined by blank lines
    (docstrings: by a line break)."""
    if items is None:
        return ""
    if isinstance(items, str):
        return items.rstrip("\n")
    out = []
    for it in items:
        if isinstance(it, dict):
            if it.get("use") not in texts:
                raise DescriptionError("%s: no text %r (a paragraph with ': ' needs quotes)" % (where, it))
            s = texts[it["use"]].rstrip("\n")
            if "append" in it:  # more lines of the same paragraph
                s += "\n" + it["append"].rstrip("\n")
            out.append(s)
        else:
            out.append(it.rstrip("\n"))
    return sep.join(out)


class Family:
    def __init__(self, path, shared):
        self.path = path
        d = load_yaml(path)
        self.rel = os.path.relpath(path, ROOT)
        self.name = d["family"]
        self.args = d["args"]
        self.args_header = d["args_header"]
        self.grc_category = d["grc_category"]
        self.texts = dict(shared.get("texts", {}))
        self.texts.update(d.get("texts", {}))
        self.python_notes = d.get("python_notes", [])
        self.python_includes = d.get("python_includes", [])
        self.params = []
        for p in d["params"]:
            if "use" in p:
                base = dict(shared["params"][p["use"]])
                base["name"] = p["use"]
                for k, v in p.items():
                    if k == "grc" and "grc" in base:
                        g = dict(base["grc"])
                        g.update(v)
                        base["grc"] = g
                    elif k != "use":
                        base[k] = v
                p = base
            if p["type"] not in CXX_TYPES:
                raise DescriptionError("%s: %s: unknown type %s" % (self.rel, p["name"], p["type"]))
            self.params.append(p)
        self.methods = dict(shared["methods"])
        for m, v in d.get("methods", {}).items():  # a family's own wording of a method
            self.methods[m] = dict(self.methods.get(m, {}), **v)
        self.grc_pipeline = shared["grc_pipeline"]
        self.deployments = []
        for dep in d["deployments"]:
            if dep["kind"] not in KINDS:
                raise DescriptionError("%s: unknown deployment %s" % (self.rel, dep["kind"]))
            self.deployments.append(dep)

    def params_of(self, dep):
        return [p for p in self.params if dep["kind"] in p.get("only", KINDS)]


# ---------------------------------------------------------------- values


def cxx_default(p):
    if "cxx_default" in p:
        return p["cxx_default"]
    v = p["default"]
    t = p["type"]
    if t == "string":
        return '"%s"' % v
    if t == "bool":
        return "true" if v else "false"
    if t == "float":
        return repr(float(v)) + "f"
    if t == "double":
        return repr(float(v))
    if t == "string_vector":
        return "{ %s }" % ", ".join('"%s"' % x for x in v) if v else "{}"
    if t == "pipeline_options":
        return "pipeline_options()"
    if t == "int_vector":
        return "{ %s }" % ", ".join(str(x) for x in v) if v else "{}"
    return str(v)


def py_default(p):
    t = p["type"]
    if t == "pipeline_options":
        return "::gr::gpurx::pipeline_options()"
    if t == "int_vector":
        return "std::vector<int>%s" % cxx_default(p)
    if t == "string_vector":
        return "std::vector<std::string>%s" % cxx_default(p)
    return cxx_default(p)


def has_default(p):
    return "default" in p or "cxx_default" in p


def grc_default(p):
    g = p["grc"]
    if "default" in g:
        return g["default"]
    v = p["default"]
    t = p["type"]
    if t == "string":
        return v if g["dtype"] == "string" else '"%s"' % v
    if t == "bool":
        return "True" if v else "False"
    return str(v)


# ---------------------------------------------------------------- C++


# A break before " +", " -" or " *" would start a line that Doxygen reads
# as a list item: wrap() and fold() keep such a token with the word before.
GLUE = "\x00"


def glued(text):
    return re.sub(r" (?=[-+*])", GLUE, text)


def wrap(text, width, first, rest):
    lines = []
    for para in text.split("\n"):
        lines += textwrap.wrap(glued(para), width=width, initial_indent=first if not lines else rest,
                               subsequent_indent=rest, break_on_hyphens=False,
                               break_long_words=False) or [first.rstrip()]
    return [l.replace(GLUE, " ") for l in lines]


def comment_block(text, indent=""):
    return "\n".join((indent + " * " + l).rstrip() for l in text.split("\n"))


def header_of(fam, dep):
    name = dep["name"]
    guard = "INCLUDED_GPURX_%s_H" % name.upper()
    params = fam.params_of(dep)
    inc = ["#include <gnuradio/block.h>", "#include <gnuradio/gpurx/api.h>",
           "#include <gnuradio/gpurx/pipeline_options.h>"]
    std = ["#include <string>"]
    if any(p["type"] == "int_vector" for p in params):
        std.append("#include <vector>")
    if any("uint64_t" in fam.methods[m]["cxx"] for m in dep.get("methods", [])):
        std.insert(0, "#include <cstdint>")
    o = ["/* -*- c++ -*- */", LICENSE.rstrip("\n"),
         "// Generated by scripts/gen-block-api.py from %s: edit that." % fam.rel,
         "#ifndef " + guard, "#define " + guard, ""]
    o += inc + std + ["", "namespace gr {", "namespace gpurx {", ""]
    brief = text_of(dep["brief"], fam.texts, name)
    details = text_of(dep.get("details"), fam.texts, name)
    o.append("/*!")
    o.append(comment_block("\\brief " + brief))
    o.append(" * \\ingroup gpurx")
    if details:
        o.append(" *")
        o.append(comment_block(details))
    o.append(" */")
    o += ["class GPURX_API %s : virtual public gr::block" % name, "{", "public:",
          "    typedef std::shared_ptr<%s> sptr;" % name, "    /*!"]
    for p in params:
        o += wrap(" ".join(p["doc"].split()), 80, "     * \\param %s " % p["name"], "     *        ")
    o.append("     */")
    decl = []
    for p in params:
        s = "%s %s" % (CXX_TYPES[p["type"]][0], p["name"])
        if has_default(p):
            s += " = " + cxx_default(p)
        decl.append(s)
    lead = "    static sptr make("
    o.append(lead + (",\n" + " " * len(lead)).join(decl) + ");")
    for m in dep.get("methods", []):
        md = fam.methods[m]
        o += ["    //! " + l for l in md["cxx_doc"].rstrip("\n").split("\n")]
        o.append("    " + md["cxx"])
    o += ["};", "", "} // namespace gpurx", "} // namespace gr", "", "#endif", ""]
    return "\n".join(o)


def params_struct_of(fam):
    """<family>_params: make()'s parameters with make()'s defaults, the base
    of the family's hand-written args struct."""
    guard = "INCLUDED_GPURX_%s_PARAMS_H" % fam.name.upper()
    o = [LICENSE.rstrip("\n"), "// Generated by scripts/gen-block-api.py from %s: edit that." % fam.rel,
         "#ifndef " + guard, "#define " + guard, "", "#include <string>", "#include <vector>", "",
         "namespace gr {", "namespace gpurx {", "",
         "//! The parameters of %s's make()s, with their defaults; a deployment's" % fam.name,
         "//! make() sets those it takes (%s)." % os.path.basename(fam.rel),
         "struct %s_params {" % fam.name]
    for p in fam.params:
        if p["type"] == "pipeline_options" or p["name"] == "len_tag_key":
            continue
        only = "" if "only" not in p else " // %s" % ", ".join(p["only"])
        init = cxx_default(p) if has_default(p) else "{}"
        if p["type"] == "int_vector" and init.startswith("{"):
            init = "std::vector<int>" + init
        o.append("    %s %s = %s;%s" % (CXX_TYPES[p["type"]][1], p["name"], init, only))
    o += ["};", "", "} // namespace gpurx", "} // namespace gr", "", "#endif", ""]
    return "\n".join(o)


def impl_of(fam, dep):
    name = dep["name"]
    params = fam.params_of(dep)
    o = ["/* -*- c++ -*- */", LICENSE.rstrip("\n"),
         "// Generated by scripts/gen-block-api.py from %s: edit that." % fam.rel,
         "// gpurx.%s: the %s family on the shared %s driver." % (name, fam.name, dep["kind"]),
         '#include "%s"' % fam.args_header, '#include "blocks/drivers/deployment_make.h"',
         "#include <gnuradio/gpurx/%s.h>" % name, "", "namespace gr {", "namespace gpurx {", ""]
    lead = "%s::sptr %s::make(" % (name, name)
    decl = ["%s %s" % (CXX_TYPES[p["type"]][0], p["name"]) for p in params]
    o.append(lead + (",\n" + " " * len(lead)).join(decl) + ")")
    o.append("{")
    o.append("    %s a;" % fam.args)
    for p in params:
        if p["name"] not in ("options", "len_tag_key"):
            o.append("    a.%s = %s;" % (p["name"], p["name"]))
    # A family without an options parameter runs on the options its args
    # struct fixes (fixed_options()).
    opts = "options" if any(p["type"] == "pipeline_options" for p in params) else "a.fixed_options()"
    if dep["kind"] == "tagged":
        call = 'make_tagged_deployment<%s>("%s", a, len_tag_key, %s)' % (name, name, opts)
    else:
        call = 'make_%s_deployment<%s>("%s", a, %s)' % (dep["kind"], name, name, opts)
    o += ["    return " + call + ";", "}", "", "} // namespace gpurx", "} // namespace gr", ""]
    return "\n".join(o)


def c_string(text):
    """A C string literal (several, one per line) of text."""
    lines = text.split("\n")
    parts = []
    for i, l in enumerate(lines):
        nl = "\\n" if i < len(lines) - 1 else ""
        if not l and not nl:
            continue
        parts.append('"%s%s"' % (l.replace("\\", "\\\\").replace('"', '\\"'), nl))
    return parts or ['""']


def init_doc(fam, dep):
    """help(gpurx.<block>): one entry per parameter, then the notes."""
    items = []
    for p in fam.params_of(dep):
        items.append(("text", "\n".join(wrap(" ".join(p["doc"].split()), 88, p["name"] + ": ", "    ")) + "\n"))
    for n in list(fam.python_notes) + list(dep.get("python_notes", [])):
        if isinstance(n, dict) and "macro" in n:
            items.append(("macro", n["macro"]))
        else:
            items.append(("text", text_of([n], fam.texts, dep["name"]).rstrip("\n") + "\n"))
    out = []
    for kind, v in items:
        if kind == "macro":
            out.append(v)
        else:
            out += c_string(v)
    return out


def binding_of(fam):
    o = [LICENSE.rstrip("\n"),
         "// Generated by scripts/gen-block-api.py from %s: edit that." % fam.rel,
         "// In the layout gr_modtool bind writes; hash 0 disables the out-of-sync",
         "// check, which only applies to bindings bindtool generates.",
         "// BINDTOOL_GEN_AUTOMATIC(0)", "// BINDTOOL_USE_PYGCCXML(0)",
         "// BINDTOOL_HEADER_FILE(%s.h)" % fam.deployments[0]["name"],
         "// BINDTOOL_HEADER_FILE_HASH(0)", "",
         "#include <pybind11/pybind11.h>", "#include <pybind11/stl.h>", "",
         "namespace py = pybind11;", ""]
    o += ['#include "%s"' % h for h in fam.python_includes]
    o += ["#include <gnuradio/gpurx/%s.h>" % d["name"] for d in fam.deployments]
    o += ["", "void bind_%s(py::module& m)" % fam.name, "{"]
    for dep in fam.deployments:
        name = dep["name"]
        o += ["    {", "        using cls = ::gr::gpurx::%s;" % name,
              "        py::class_<cls, gr::block, gr::basic_block, std::shared_ptr<cls>>(",
              '            m, "%s",' % name]
        doc = c_string(text_of(dep["python_doc"], fam.texts, name, "\n"))
        o += ["            " + s for s in doc[:-1]]
        o.append("            " + doc[-1] + ")")
        o.append("            .def(py::init(&cls::make),")
        for p in fam.params_of(dep):
            a = '                 py::arg("%s")' % p["name"]
            if has_default(p):
                a += " = " + py_default(p)
            o.append(a + ",")
        d = init_doc(fam, dep)
        o += ["                 " + s for s in d[:-1]]
        o.append("                 " + d[-1] + ")")
        for m in dep.get("methods", []):
            md = fam.methods[m]
            if md.get("python_doc"):
                o.append('            .def("%s", &cls::%s, %s)' % (m, m, " ".join(c_string(md["python_doc"].rstrip("\n")))))
            else:
                o.append('            .def("%s", &cls::%s)' % (m, m))
        o[-1] += ";"
        o.append("    }")
    o += ["}", ""]
    return "\n".join(o)


def registry_of(families):
    o = [LICENSE.rstrip("\n"), "// Generated by scripts/gen-block-api.py: the bindings of the families",
         "// described in lib/blocks/*/*.api.yml, for python_bindings.cc.",
         "#ifndef INCLUDED_GPURX_GENERATED_BINDINGS_H", "#define INCLUDED_GPURX_GENERATED_BINDINGS_H", "",
         "#include <pybind11/pybind11.h>", ""]
    o += ["void bind_%s(pybind11::module& m);" % f.name for f in families]
    o += ["", "inline void bind_generated_families(pybind11::module& m)", "{"]
    o += ["    bind_%s(m);" % f.name for f in families]
    o += ["}", "", "#endif", ""]
    return "\n".join(o)


# ---------------------------------------------------------------- GRC


def yq(s):
    """A single-quoted YAML scalar."""
    return "'" + str(s).replace("'", "''") + "'"


def yplain(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    s = str(v)
    try:
        ok = yaml.safe_load("k: " + s) == {"k": s}
    except yaml.YAMLError:
        ok = False
    return s if ok and s.strip() == s and s else yq(s)


def yflow(items, quote):
    def one(i):
        # Plain only where it reads back as one item of a flow sequence (not
        # a label with a comma or a bracket).
        s = yplain(i)
        try:
            return s if not quote and yaml.safe_load("k: [%s]" % s) == {"k": [i]} else yq(i)
        except yaml.YAMLError:
            return yq(i)
    return "[" + ", ".join(one(i) for i in items) + "]"


# A parameter in GRC's C++ templates: ${x} is its text as typed (so
# "False" is a non-empty, true string), ${x()} its evaluated value. A bool as
# C++'s true/false; an int vector as decimal ints (0o133 is not C++).
CXX_BOOL = '${"true" if %s() else "false"}'
CXX_INT_VECTOR = 'std::vector<int>{${", ".join(str(int(v)) for v in %s())}}'

GRC_PARAM_KEYS = ("label", "dtype", "default", "options", "option_labels", "hide", "category")


def grc_param_lines(pid, g, default):
    unknown = set(g) - set(GRC_PARAM_KEYS) - {"assert", "assert_comment", "id"}
    if unknown:
        raise DescriptionError("%s: unknown GRC keys %s" % (pid, sorted(unknown)))
    o = ["- id: " + pid, "  label: " + yplain(g["label"]), "  dtype: " + g["dtype"]]
    o.append("  default: " + (yplain(default) if g["dtype"] == "string" else yq(default)))
    if "options" in g:
        o.append("  options: " + yflow(g["options"], True))
    if "option_labels" in g:
        o.append("  option_labels: " + yflow(g["option_labels"], False))
    if "hide" in g:
        o.append("  hide: " + yplain(g["hide"]))
    if "category" in g:
        o.append("  category: " + yplain(g["category"]))
    return o


def grc_ports(ports):
    o = []
    for port in ports:
        first = True
        for k, v in port.items():
            o.append(("- " if first else "  ") + "%s: %s" % (k, yplain(v)))
            first = False
    return o


def grc_make_args(params, pipeline, overrides=None):
    """What GRC makes of make()'s parameters, for families and single blocks
    alike: the parameter lines (the options parameter's Pipeline tab last,
    whatever its place in make()), the asserts (the tab's last), and per
    parameter GRC passes on, its Python keyword argument and its C++
    argument. A parameter with grc: false is not a GRC parameter (its
    default, or the block's own templates, give it)."""
    lines, pipe_lines, asserts, pipe_asserts = [], [], [], []
    names, py_args, cxx_args = [], [], []
    for p in params:
        n = p["name"]
        if p["type"] == "pipeline_options":
            for q in pipeline["params"]:
                pipe_lines += grc_param_lines(q["id"], q, q["default"])
            pipe_asserts = pipeline["asserts"]
            ids = [q["id"] for q in pipeline["params"]]
            names.append(n)
            py_args.append("%s=gpurx.pipeline_options(%s)" % (n, ", ".join("%s=${%s}" % (i, i) for i in ids)))
            cxx_args.append("gr::gpurx::pipeline_options(%s)" % ", ".join("${%s}" % i for i in ids))
            continue
        if p.get("grc") is False:
            continue
        pg = dict(p["grc"])
        pg.update((overrides or {}).get(n, {}))
        lines += grc_param_lines(n, pg, grc_default(dict(p, grc=pg)))
        if "assert" in pg:
            if "assert_comment" in pg:
                asserts.append("# " + pg["assert_comment"])
            asserts.append(pg["assert"])
        names.append(n)
        py_args.append("%s=${%s}" % (n, n))
        if p["type"] == "bool":
            cxx_args.append(CXX_BOOL % n)
        elif p["type"] == "int_vector":
            cxx_args.append(CXX_INT_VECTOR % n)
        else:
            cxx_args.append("${%s}" % n)
    return lines + pipe_lines, asserts + pipe_asserts, names, py_args, cxx_args


def grc_of(fam, dep):
    name = dep["name"]
    g = dep["grc"]
    params = fam.params_of(dep)
    overrides = g.get("params", {})
    o = ["id: gpurx_" + name, "label: " + yplain(g["label"]), "category: " + yq(fam.grc_category),
         "flags: [python, cpp]", "", "parameters:"]
    lines, asserts, _, py_args, cxx_args = grc_make_args(params, fam.grc_pipeline, overrides)
    o += lines
    o += ["", "inputs:"] + grc_ports(g["inputs"]) + ["outputs:"] + grc_ports(g["outputs"]) + ["", "asserts:"]
    o += [a if a.startswith("#") else "- ${ %s }" % a for a in asserts]
    o += ["", "templates:", "  imports: from gnuradio import gpurx",
          "  make: gpurx.%s(%s)" % (name, ", ".join(py_args)), "", "cpp_templates:",
          "  includes: " + yflow(["#include <gnuradio/gpurx/%s.h>" % name], True),
          "  declarations: " + yq("gr::gpurx::%s::sptr ${id};" % name),
          "  make: " + yq("this->${id} = gr::gpurx::%s::make(%s);" % (name, ", ".join(cxx_args))),
          "  link: ['gnuradio::gnuradio-gpurx']", "  packages: ['gnuradio-gpurx']", "",
          "documentation: |-"]
    doc = text_of(g["documentation"], fam.texts, name)
    o += [("  " + l).rstrip() for l in doc.split("\n")]
    o += ["", "file_format: 1", ""]
    text = "\n".join(o)
    # What GRC reads must be what was meant: the scalars above are written by
    # hand, so read the file back and compare.
    back = yaml.safe_load(text)
    if back["templates"]["make"] != "gpurx.%s(%s)" % (name, ", ".join(py_args)) or back["documentation"] != doc:
        raise DescriptionError("%s: the GRC file does not read back as written" % name)
    return text


# ---------------------------------------------------------------- single blocks
#
# A block that is not a family on the shared drivers (a mapper, a channel,
# a scale-out block, a gr-fec object) is described in a file with "blocks:"
# instead of "family:". Its make() fills <block>_params (generated) and
# calls make_<block>(params), which the block's hand-written _impl.cc
# defines; its header, binding and GRC file come from the description.

# A base class: its header and the pybind11 base chain.
BASES = {
    "block": ("gnuradio/block.h", ["gr::block", "gr::basic_block"]),
    "sync_block": ("gnuradio/sync_block.h", ["gr::sync_block", "gr::block", "gr::basic_block"]),
    "sync_decimator": ("gnuradio/sync_decimator.h",
                       ["gr::sync_decimator", "gr::sync_block", "gr::block", "gr::basic_block"]),
    "sync_interpolator": ("gnuradio/sync_interpolator.h",
                          ["gr::sync_interpolator", "gr::sync_block", "gr::block", "gr::basic_block"]),
    "tagged_stream_block": ("gnuradio/tagged_stream_block.h",
                            ["gr::tagged_stream_block", "gr::block", "gr::basic_block"]),
    "hier_block2": ("gnuradio/hier_block2.h", ["gr::hier_block2", "gr::basic_block"]),
    "fec_generic_decoder": ("gnuradio/fec/generic_decoder.h", ["gr::fec::generic_decoder"]),
    "fec_generic_encoder": ("gnuradio/fec/generic_encoder.h", ["gr::fec::generic_encoder"]),
}
BASE_CLASS = {"fec_generic_decoder": "gr::fec::generic_decoder", "fec_generic_encoder": "gr::fec::generic_encoder"}


def method_name(cxx):
    m = re.search(r"(\w+)\s*\(", cxx)
    if not m:
        raise DescriptionError("not a method declaration: %s" % cxx)
    return m.group(1)


def method_py_args(m):
    """A method's py::arg()s: its declaration's parameters (split at the
    top-level commas only: std::map<a, b>, "x, y") with the declaration's
    defaults, or the Python ones python_defaults gives (name: C++
    expression, e.g. py::none())."""
    cxx = m["cxx"]
    inner = cxx[cxx.index("(") + 1:cxx.rindex(")")].strip()
    if not inner or inner == "void":
        return ""
    parts, cur, depth, quoted = [], "", 0, False
    for c in inner:
        if c == '"':
            quoted = not quoted
        elif not quoted and c in "<([{":
            depth += 1
        elif not quoted and c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0 and not quoted:
            parts.append(cur)
            cur = ""
            continue
        cur += c
    parts.append(cur)
    out = ""
    for a in parts:
        decl, _, default = a.partition("=")
        name = re.findall(r"\w+", decl)[-1]
        default = m.get("python_defaults", {}).get(name, default.strip())
        out += ', py::arg("%s")' % name + (" = " + default if default else "")
    return out


class Block:
    """One block of a "blocks:" description, shaped as a family with one
    deployment so that the GRC writer serves both."""

    def __init__(self, d, top, rel, shared):
        self.rel = rel
        self.name = d["name"]
        self.base = d["base"]
        if self.base not in BASES:
            raise DescriptionError("%s: %s: unknown base %s" % (rel, self.name, self.base))
        self.grc_category = d.get("grc_category", top.get("grc_category"))
        self.texts = dict(shared.get("texts", {}))
        self.texts.update(top.get("texts", {}))
        self.includes = d.get("includes", [])
        self.params = []
        for p in d.get("params", []):
            if p["type"] not in CXX_TYPES:
                raise DescriptionError("%s: %s: unknown type %s" % (rel, p["name"], p["type"]))
            self.params.append(p)
        self.methods = d.get("methods", [])
        self.functions = d.get("functions", [])  # free functions the header declares
        # Python's name of the class (a Python wrapper may take the block's),
        # and a callable py::init() takes instead of make() where Python's
        # arguments are checked or converted first (a helper in a header of
        # the file's python_includes).
        self.python_name = d.get("python_name", self.name)
        self.python_init = d.get("python_init")
        self.grc_pipeline = shared["grc_pipeline"]
        self.dep = {"name": self.name, "kind": "block", "brief": d["brief"], "details": d.get("details"),
                    "python_doc": d.get("python_doc", d["brief"]), "grc": d.get("grc")}

    def params_of(self, dep):
        return self.params


class BlockFile:
    """A description file of single blocks: one binding (bind_<binding>)."""

    def __init__(self, path, d, shared):
        self.path = path
        self.rel = os.path.relpath(path, ROOT)
        self.name = d["binding"]
        self.python_includes = d.get("python_includes", [])  # hand-written helpers of the binding
        self.blocks = [Block(b, d, self.rel, shared) for b in d["blocks"]]
        self.deployments = [b.dep for b in self.blocks]


def fold(text, width):
    """Lines longer than width wrapped (paragraphs folded with '>-' in a
    description); shorter lines stay as written."""
    return "\n".join("\n".join(textwrap.wrap(glued(l), width - 4, break_on_hyphens=False,
                                             break_long_words=False)).replace(GLUE, " ")
                     if len(l) > width else l for l in text.split("\n"))


def block_header_of(b):
    name = b.name
    guard = "INCLUDED_GPURX_%s_H" % name.upper()
    base_h, _ = BASES[b.base]
    inc = ["#include <%s>" % base_h, "#include <gnuradio/gpurx/api.h>"]
    if any(p["type"] == "pipeline_options" for p in b.params):
        inc.append("#include <gnuradio/gpurx/pipeline_options.h>")
    if any(p["type"] == "pmt" for p in b.params):
        inc.append("#include <pmt/pmt.h>")
    inc += ["#include %s" % i for i in b.includes]
    std = ["#include <cstdint>", "#include <string>", "#include <vector>"]
    o = ["/* -*- c++ -*- */", LICENSE.rstrip("\n"),
         "// Generated by scripts/gen-block-api.py from %s: edit that." % b.rel,
         "#ifndef " + guard, "#define " + guard, ""]
    o += inc + std + ["", "namespace gr {", "namespace gpurx {", ""]
    o.append("/*!")
    o.append(comment_block(fold("\\brief " + text_of(b.dep["brief"], b.texts, name), 78)))
    o.append(" * \\ingroup gpurx")
    details = text_of(b.dep.get("details"), b.texts, name)
    if details:
        o.append(" *")
        o.append(comment_block(fold(details, 78)))
    o.append(" */")
    base = BASE_CLASS.get(b.base, "gr::" + b.base)
    o += ["class GPURX_API %s : virtual public %s" % (name, base), "{", "public:",
          "    typedef std::shared_ptr<%s> sptr;" % name]
    if b.params:
        o.append("    /*!")
        for p in b.params:
            o += wrap(" ".join(p["doc"].split()), 80, "     * \\param %s " % p["name"], "     *        ")
        o.append("     */")
    else:
        o.append("    //! Makes the block.")
    decl = []
    for p in b.params:
        s = "%s %s" % (CXX_TYPES[p["type"]][0], p["name"])
        if has_default(p):
            s += " = " + cxx_default(p)
        decl.append(s)
    lead = "    static sptr make("
    o.append(lead + (",\n" + " " * len(lead)).join(decl) + ");")
    for m in b.methods:
        o += ["    //! " + l for l in m["doc"].rstrip("\n").split("\n")]
        o.append("    virtual %s = 0;" % m["cxx"])
    o.append("};")
    for f in b.functions:
        o += ["", "//! " + "\n//! ".join(f["doc"].rstrip("\n").split("\n")), "GPURX_API %s;" % f["cxx"]]
    o += ["", "} // namespace gpurx", "} // namespace gr", "", "#endif", ""]
    return "\n".join(o)


def block_params_of(b):
    """<block>_params and make_<block>(): what the hand-written _impl.cc takes."""
    guard = "INCLUDED_GPURX_%s_PARAMS_H" % b.name.upper()
    o = [LICENSE.rstrip("\n"), "// Generated by scripts/gen-block-api.py from %s: edit that." % b.rel,
         "#ifndef " + guard, "#define " + guard, "", "#include <gnuradio/gpurx/%s.h>" % b.name, "",
         "namespace gr {", "namespace gpurx {", "",
         "//! The parameters of %s::make(), with their defaults." % b.name,
         "struct %s_params {" % b.name]
    for p in b.params:
        init = cxx_default(p) if has_default(p) else "{}"
        if p["type"] in ("int_vector", "string_vector") and init.startswith("{"):
            init = CXX_TYPES[p["type"]][1] + init
        o.append("    %s %s = %s;" % (CXX_TYPES[p["type"]][1], p["name"], init))
    o += ["};", "",
          "//! Defined in the block's _impl.cc: validates p and makes the block.",
          "%s::sptr make_%s(const %s_params& p);" % (b.name, b.name, b.name),
          "", "} // namespace gpurx", "} // namespace gr", "", "#endif", ""]
    return "\n".join(o)


def block_make_of(b):
    o = [LICENSE.rstrip("\n"), "// Generated by scripts/gen-block-api.py from %s: edit that." % b.rel,
         '#include "%s_params.h"' % b.name, "", "namespace gr {", "namespace gpurx {", ""]
    lead = "%s::sptr %s::make(" % (b.name, b.name)
    decl = ["%s %s" % (CXX_TYPES[p["type"]][0], p["name"]) for p in b.params]
    o.append(lead + (",\n" + " " * len(lead)).join(decl) + ")")
    o += ["{", "    %s_params p;" % b.name]
    o += ["    p.%s = %s;" % (p["name"], p["name"]) for p in b.params]
    o += ["    return make_%s(p);" % b.name, "}", "", "} // namespace gpurx", "} // namespace gr", ""]
    return "\n".join(o)


def block_binding_of(bf):
    o = [LICENSE.rstrip("\n"),
         "// Generated by scripts/gen-block-api.py from %s: edit that." % bf.rel,
         "// In the layout gr_modtool bind writes; hash 0 disables the out-of-sync",
         "// check, which only applies to bindings bindtool generates.",
         "// BINDTOOL_GEN_AUTOMATIC(0)", "// BINDTOOL_USE_PYGCCXML(0)",
         "// BINDTOOL_HEADER_FILE(%s.h)" % bf.blocks[0].name,
         "// BINDTOOL_HEADER_FILE_HASH(0)", "",
         "#include <pybind11/pybind11.h>", "#include <pybind11/stl.h>", "",
         "namespace py = pybind11;", ""]
    o += ["#include <gnuradio/gpurx/%s.h>" % b.name for b in bf.blocks]
    o += ['#include "%s"' % h for h in bf.python_includes]
    o += ["", "void bind_%s(py::module& m)" % bf.name, "{"]
    for b in bf.blocks:
        name = b.name
        bases = ", ".join(BASES[b.base][1])
        o += ["    {", "        using cls = ::gr::gpurx::%s;" % name,
              "        py::class_<cls, %s, std::shared_ptr<cls>>(" % bases, '            m, "%s",' % b.python_name]
        doc = c_string(text_of(b.dep["python_doc"], b.texts, name, "\n"))
        o += ["            " + s for s in doc[:-1]]
        # gr-fec's coders derive virtually, so the base is not at offset 0:
        # py::multiple_inheritance() makes pybind11 apply the real upcast.
        o.append("            " + doc[-1] + (", py::multiple_inheritance())" if b.base in BASE_CLASS else ")"))
        # gr-fec's objects are made by make() in Python, as gr-fec's own are.
        init = "py::init(%s)" % (b.python_init or "&cls::make") if b.base not in BASE_CLASS else None
        args = []
        for p in b.params:
            a = 'py::arg("%s")' % p["name"]
            if has_default(p):
                a += " = " + py_default(p)
            elif "python_default" in p:
                # A default Python has where C++'s make() has none (the
                # binding's since before the description): written as
                # default: would be.
                a += " = " + py_default({"type": p["type"], "default": p["python_default"]})
            args.append(a)
        idoc = []
        for p in b.params:
            idoc += c_string("\n".join(wrap(" ".join(p["doc"].split()), 88, p["name"] + ": ", "    ")) + "\n")
        if init:
            o.append("            .def(%s," % init)
        else:
            o.append('            .def_static("make", &cls::make,')
        o += ["                 %s," % a for a in args]
        o += ["                 " + s for s in idoc[:-1]]
        o.append("                 " + (idoc[-1] if idoc else '""') + ")")
        for mth in b.methods:
            mname = method_name(mth["cxx"])
            pdoc = " ".join(c_string((mth.get("python_doc") or mth["doc"]).rstrip("\n")))
            # python: a callable bound instead of the method (a helper taking
            # cls& first) where Python's form differs: None for "", the GIL
            # released, a Python callable wrapped; python_property: an
            # attribute read-only instead of a method.
            fn = mth.get("python", "&cls::%s" % mname)
            if mth.get("python_property"):
                o.append('            .def_property_readonly("%s", %s, %s)' % (mname, fn, pdoc))
            else:
                o.append('            .def("%s", %s%s, %s)' % (mname, fn, method_py_args(mth), pdoc))
        o[-1] += ";"
        o.append("    }")
        for f in b.functions:
            fname = method_name(f["cxx"])
            pdoc = " ".join(c_string((f.get("python_doc") or f["doc"]).rstrip("\n")))
            o.append('    m.def("%s", &::gr::gpurx::%s, %s);' % (fname, fname, pdoc))
    o += ["}", ""]
    return "\n".join(o)


def ydump(key, value, indent=""):
    """key: value as block YAML (multi-line strings as |-)."""
    class D(yaml.SafeDumper):
        pass

    def s(d, v):
        return d.represent_scalar("tag:yaml.org,2002:str", v, style="|" if "\n" in v else None)
    D.add_representer(str, s)
    text = yaml.dump({key: value}, Dumper=D, sort_keys=False, default_flow_style=False, width=1000)
    return [indent + l for l in text.rstrip("\n").split("\n")]


FEC_VARIABLE_PARAMS = [
    "- id: value", "  label: Ignore Me", "  dtype: raw", "  default: '\"ok\"'", "  hide: all",
    "- id: ndim", "  label: Parallelism", "  dtype: enum", "  default: '0'", "  options: ['0', '1', '2']",
    "- id: dim1", "  label: Dimension 1", "  dtype: int", "  default: '1'",
    "  hide: ${ ('none' if (int(ndim) >= 1) else 'all') }",
    "- id: dim2", "  label: Dimension 2", "  dtype: int", "  default: '1'",
    "  hide: ${ ('none' if (int(ndim) >= 2) else 'all') }"]


def block_grc_of(b):
    """The GRC file of a single block: its parameters from the description;
    templates made from make() unless the description gives its own
    (gr-fec's variable blocks, blocks GRC builds with Python only)."""
    name = b.name
    g = b.dep["grc"]
    o = ["id: " + g.get("id", "gpurx_" + name), "label: " + yplain(g["label"]),
         "category: " + yq(g.get("category", b.grc_category)),
         "flags: " + yflow(g.get("flags", ["show_id", "python", "cpp"] if b.base in BASE_CLASS
                                else ["python", "cpp"]), False), "", "parameters:"]
    if g.get("category") is False:
        # A block kept out of the palette (a test block that flowgraphs may
        # still use): no category line.
        del o[2]
    for q in g.get("extra_params", []):
        o += ydump("x", [q])[1:]
    lines, asserts, names, py_args, cxx_args = grc_make_args(b.params, b.grc_pipeline)
    o += lines
    fec = BASE_CLASS.get(b.base)
    if fec:
        # gr-fec's coder objects are GRC variables (gr-fec's own
        # variable_*_def layout): a Parallelism of 0, 1 or 2 dimensions makes
        # one object, a list, or a list of lists (BER Curve Gen.).
        o[o.index("parameters:") + 1:o.index("parameters:") + 1] = FEC_VARIABLE_PARAMS
        pos_py = ", ".join("${%s}" % n for n in names)
        pos_cxx = ", ".join(cxx_args)
        o += ["", "value: ${ gpurx.%s.make(%s) }" % (name, ", ".join(names))]
    if o[-1] == "parameters:":
        del o[-2:]  # none: GRC's schema takes no empty list for a missing one
    if "value" in g:
        o += ["", "value: " + g["value"]]
    # Only the port lists a block has (a source has no "inputs:").
    ports = [l for k in ("inputs", "outputs") if g.get(k) for l in [k + ":"] + grc_ports(g[k])]
    if ports:
        o += [""] + ports
    asserts += g.get("asserts", [])
    if fec:
        asserts.append("dim1 >= 1 and dim2 >= 1")
    if asserts:
        o += ["", "asserts:"]
        o += [a if a.startswith("#") else "- ${ %s }" % a for a in asserts]
    o.append("")
    cb = g.get("callbacks", [])
    if fec:
        one_py = "gpurx.%s.make(%s)" % (name, pos_py)
        one_cxx = "gr::gpurx::%s::make(%s)" % (name, pos_cxx)
        g = dict(g)
        g["templates"] = {"imports": "from gnuradio import gpurx", "var_make": "\n".join([
            "% if int(ndim)==0:", "self.${id} = ${id} = " + one_py,
            "% elif int(ndim)==1:", "self.${id} = ${id} = [%s for _ in range(${dim1})]" % one_py,
            "% else:", "self.${id} = ${id} = [[%s for _ in range(${dim2})] for _ in range(${dim1})]" % one_py,
            "% endif"])}
        g["cpp_templates"] = {
            "includes": ["#include <gnuradio/gpurx/%s.h>" % name],
            "declarations": "\n".join([
                "% if int(ndim)==0:", "%s::sptr ${id};" % fec, "% elif int(ndim)==1:",
                "std::vector<%s::sptr> ${id};" % fec, "% else:",
                "std::vector<std::vector<%s::sptr>> ${id};" % fec, "% endif"]),
            "var_make": "\n".join([
                "% if int(ndim)==0:", "this->${id} = %s;" % one_cxx, "% elif int(ndim)==1:",
                "for (int i = 0; i < ${dim1}; i++)", "    this->${id}.push_back(%s);" % one_cxx, "% else:",
                "this->${id}.resize(${dim1});", "for (auto& row : this->${id})",
                "    for (int i = 0; i < ${dim2}; i++)", "        row.push_back(%s);" % one_cxx, "% endif"]),
            "link": ["gnuradio::gnuradio-gpurx"], "packages": ["gnuradio-gpurx"]}
    if "templates" in g:
        o += ydump("templates", g["templates"])
    else:
        o += ["templates:", "  imports: from gnuradio import gpurx",
              "  make: gpurx.%s(%s)" % (name, ", ".join(py_args))]
        if cb:
            o += ["  callbacks:"] + ["  - " + c for c in cb]
    if "cpp_templates" in g:
        if g["cpp_templates"]:
            o += [""] + ydump("cpp_templates", g["cpp_templates"])
    else:
        o += ["", "cpp_templates:",
              "  includes: " + yflow(["#include <gnuradio/gpurx/%s.h>" % name], True),
              "  declarations: " + yq("gr::gpurx::%s::sptr ${id};" % name),
              "  make: " + yq("this->${id} = gr::gpurx::%s::make(%s);" % (name, ", ".join(cxx_args)))]
        if cb:
            o += ["  callbacks:"] + ["  - " + c for c in cb]
        o += ["  link: ['gnuradio::gnuradio-gpurx']", "  packages: ['gnuradio-gpurx']"]
    o += ["", "documentation: |-"]
    # Paragraphs folded in the description ('>-') are wrapped for GRC's
    # documentation tab; lines written short stay as they are.
    doc = fold(text_of(g["documentation"], b.texts, name), 78)
    o += [("  " + l).rstrip() for l in doc.split("\n")]
    o += ["", "file_format: 1", ""]
    text = "\n".join(o)
    back = yaml.safe_load(text)
    if back["documentation"] != doc or back["id"] != g.get("id", "gpurx_" + name):
        raise DescriptionError("%s: the GRC file does not read back as written" % name)
    return text


# ---------------------------------------------------------------- driver


def outputs(fam, out):
    res = {}
    if isinstance(fam, BlockFile):
        for b in fam.blocks:
            res[os.path.join(out, "include", "gnuradio", "gpurx", b.name + ".h")] = lambda b=b: block_header_of(b)
            res[os.path.join(out, "lib", b.name + "_make.cc")] = lambda b=b: block_make_of(b)
            res[os.path.join(out, "lib", b.name + "_params.h")] = lambda b=b: block_params_of(b)
        res[os.path.join(out, "python", fam.name + "_python.cc")] = lambda: block_binding_of(fam)
        return res
    for dep in fam.deployments:
        res[os.path.join(out, "include", "gnuradio", "gpurx", dep["name"] + ".h")] = lambda d=dep: header_of(fam, d)
        res[os.path.join(out, "lib", dep["name"] + "_impl.cc")] = lambda d=dep: impl_of(fam, d)
    res[os.path.join(out, "python", fam.name + "_python.cc")] = lambda: binding_of(fam)
    res[os.path.join(out, "lib", fam.name + "_params.h")] = lambda: params_struct_of(fam)
    return res


def write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--out")
    g.add_argument("--list-outputs", metavar="OUT")
    g.add_argument("--grc")
    g.add_argument("--check-grc")
    ap.add_argument("descriptions", nargs="*")
    a = ap.parse_args()
    paths = a.descriptions or sorted(glob.glob(os.path.join(ROOT, "lib", "blocks", "*", "*.api.yml")))
    shared = load_yaml(SHARED)
    fams = []
    for p in paths:
        try:
            d = load_yaml(p)
            fams.append(BlockFile(os.path.abspath(p), d, shared) if "blocks" in d
                        else Family(os.path.abspath(p), shared))
        except DescriptionError as e:
            sys.exit("gen-block-api: %s" % e)
        except KeyError as e:
            sys.exit("gen-block-api: %s: %s missing" % (p, e))
    if a.list_outputs:
        names = []
        for f in fams:
            names += sorted(outputs(f, a.list_outputs))
        names.append(os.path.join(a.list_outputs, "python", "generated_bindings.h"))
        print(";".join(names))
        return 0
    if a.out:
        for f in fams:
            for path, make in outputs(f, a.out).items():
                write_if_changed(path, make())
        write_if_changed(os.path.join(a.out, "python", "generated_bindings.h"), registry_of(fams))
        return 0
    bad = []
    for f in fams:
        pairs = [(b.dep, lambda b=b: block_grc_of(b)) for b in f.blocks] if isinstance(f, BlockFile) else \
            [(dep, lambda dep=dep: grc_of(f, dep)) for dep in f.deployments]
        for dep, grc in pairs:
            if dep.get("grc") is False:
                continue  # no GRC block of its own
            gid = (dep.get("grc") or {}).get("id", "gpurx_" + dep["name"])
            path = os.path.join(a.grc or a.check_grc, "%s.block.yml" % gid)
            text = grc()
            if a.grc:
                write_if_changed(path, text)
            else:
                try:
                    with open(path) as fh:
                        same = fh.read() == text
                except OSError:
                    same = False
                if not same:
                    bad.append(path)
    if bad:
        print("gen-block-api: these GRC files differ from their description (run "
              "scripts/gen-block-api.py --grc grc):\n  " + "\n  ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
