#!/bin/sh
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs a gr-gpurx build into a temporary DESTDIR and uses it the way a
# GNU Radio user does, with a clean environment (env -i: no LD_LIBRARY_PATH;
# PYTHONPATH only for a prefix outside Python's own site-packages):
#   1. the files a user looks for are there (library, headers, CMake config,
#      pkg-config file, GRC blocks, examples, LICENSE, apps);
#   2. `from gnuradio import gpurx` works, the library found through the
#      module's RUNPATH; gpurx-info, gpurx-turbo-ber --help and gpurx-lte-ber
#      --help run;
#   3. tests/consumer, a CMake project, builds with
#      find_package(gnuradio-gpurx) alone and decodes;
#   4. pkg-config --cflags --libs gnuradio-gpurx names the installed tree;
#   5. GRC's C++ output of a flowgraph with gpurx blocks (tests/consumer/
#      grc_cpp_link.grc) builds with the CMakeLists.txt GRC writes, and runs.
#
#   install_tree.sh BUILD_DIR SOURCE_DIR PREFIX LIB_DIR PY_DIR EXPECT_RPATH PYTHON GRCC
# LIB_DIR and PY_DIR are relative to PREFIX (PY_DIR "-": built without
# Python); EXPECT_RPATH 1 when installed binaries carry a RUNPATH (0 for a
# system prefix); GRCC "-" when GRC is not installed.
set -u
[ $# = 8 ] || { echo "usage: install_tree.sh BUILD SOURCE PREFIX LIB_DIR PY_DIR EXPECT_RPATH PYTHON GRCC" >&2; exit 2; }
build=$1 src=$2 prefix=$3 libdir=$4 pydir=$5 expect_rpath=$6 python=$7 grcc=$8
# The build tree may travel to a machine without a working CMake (a GPU
# host whose cmake is a Python entry point): skipped there, not failed.
cmake --version > /dev/null 2>&1 || { echo "skipped: no working cmake on this machine"; exit 77; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
root=$d/root$prefix
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
step() { echo "== $*"; }

step "install into DESTDIR=$d/root (prefix $prefix)"
DESTDIR=$d/root cmake --install "$build" > "$d/install.log" 2>&1 || { cat "$d/install.log"; echo "FAIL: cmake --install"; exit 1; }

step "installed files"
for f in "$libdir/libgnuradio-gpurx.so" include/gnuradio/gpurx/lte_turbo_decoder.h \
         "$libdir/pkgconfig/gnuradio-gpurx.pc" \
         share/gnuradio/grc/blocks/gpurx_lte_turbo_decoder.block.yml \
         share/gr-gpurx/examples/lte_turbo_ber.py share/gr-gpurx/examples/lte_turbo_ber.grc \
         share/doc/gr-gpurx/LICENSE bin/gpurx-info bin/gpurx-turbo-ber bin/gpurx-plot-ber \
         bin/gpurx-lte-ber bin/gpurx-plot-bler; do
    [ -e "$root/$f" ] || fail "not installed: $f"
done
# The CMake package: lib/cmake (GNU Radio's OOT layout), whatever the library folder.
for f in gnuradio-gpurxConfig.cmake gnuradio-gpurxTargets.cmake; do
    ls "$root"/lib*/cmake/gnuradio-gpurx/$f > /dev/null 2>&1 || fail "not installed: lib*/cmake/gnuradio-gpurx/$f"
done

# The clean environment: what a fresh login has, plus the prefix's
# site-packages when Python does not search it itself.
cleanenv="env -i PATH=/usr/bin:/bin HOME=$d LANG=C.UTF-8"
if [ "$expect_rpath" = 0 ]; then
    # A system prefix: no RUNPATH; the loader would find the library in
    # $prefix/$libdir once really installed, but not under DESTDIR.
    cleanenv="$cleanenv LD_LIBRARY_PATH=$root/$libdir"
fi

step "apps from the install tree"
$cleanenv "$root/bin/gpurx-info" > "$d/info.log" 2>&1 || { cat "$d/info.log"; fail "gpurx-info"; }
grep -q "backend=\"auto\" chooses" "$d/info.log" || fail "gpurx-info printed no backend choice"
$cleanenv "$root/bin/gpurx-info" --help > "$d/info.log" 2>&1 || fail "gpurx-info --help"
grep -q "^usage: gpurx-info" "$d/info.log" || fail "gpurx-info --help printed no usage"
grep -q "CUDA support compiled in" "$d/info.log" && fail "gpurx-info --help printed the report, not its usage"
# The Python programs and examples name GNU Radio's Python in their first
# line: a python3 that cannot import gnuradio first on PATH (a pyenv, a
# venv) must not change which one runs them.
step "Python programs run under GNU Radio's Python whatever python3 is first on PATH"
# They are written for Debian's GNU Radio, whose Python is /usr/bin/python3
# (the platform the README supports); a build against another Python is
# not checked here.
if [ "$pydir" != "-" ] && [ "$python" = /usr/bin/python3 ]; then
    mkdir -p "$d/otherpy"
    printf '#!/bin/sh\necho "the wrong python3 ran" >&2\nexit 3\n' > "$d/otherpy/python3"
    chmod +x "$d/otherpy/python3"
    for prog in gpurx-worker gpurx-plot-ber gpurx-plot-bler gpurx-link-per gpurx_viterbi_ber_grfec.py; do
        [ -e "$root/bin/$prog" ] || { fail "not installed: bin/$prog"; continue; }
        $cleanenv PATH="$d/otherpy:/usr/bin:/bin" PYTHONPATH="$root/$pydir" "$root/bin/$prog" --help > "$d/prog.log" 2>&1 \
            || { cat "$d/prog.log"; fail "$prog --help with another python3 first on PATH"; }
    done
    for f in "$root"/share/gr-gpurx/examples/*.py; do
        first=$(head -1 "$f")
        [ "$first" = "#!$python" ] || fail "$(basename "$f"): first line '$first', not '#!$python'"
    done
else
    echo "not checked: built without Python, or for a Python other than Debian's /usr/bin/python3 ($python)"
fi
$cleanenv "$root/bin/gpurx-turbo-ber" --help > "$d/help.log" 2>&1 || { cat "$d/help.log"; fail "gpurx-turbo-ber --help"; }
$cleanenv "$root/bin/gpurx-lte-ber" --help > "$d/help.log" 2>&1 || { cat "$d/help.log"; fail "gpurx-lte-ber --help"; }

if [ "$pydir" != "-" ]; then
    step "from gnuradio import gpurx (PYTHONPATH=$root/$pydir only)"
    if [ "$expect_rpath" = 1 ]; then
        mod=$(ls "$root/$pydir"/gnuradio/gpurx/gpurx_python*.so 2>/dev/null | head -1)
        readelf -d "$mod" 2>/dev/null | grep -q 'RUNPATH.*\$ORIGIN' || fail "the Python module has no \$ORIGIN RUNPATH"
    fi
    $cleanenv PYTHONPATH="$root/$pydir" "$python" -c '
from gnuradio import gpurx
print("gr-gpurx", gpurx.__version__, "from", gpurx.__file__)
dec = gpurx.lte_turbo_decoder(40, options=gpurx.pipeline_options(backend="cpu"))
assert dec.backend() == "cpu"
' > "$d/py.log" 2>&1 || { cat "$d/py.log"; fail "import from the install tree"; }
    grep -q "from $root/$pydir" "$d/py.log" || { cat "$d/py.log"; fail "imported gpurx from elsewhere"; }
fi

step "tests/consumer: find_package(gnuradio-gpurx)"
if cmake -S "$src/tests/consumer" -B "$d/consumer" -DCMAKE_PREFIX_PATH="$root" -DCMAKE_BUILD_TYPE=Release \
        > "$d/consumer.log" 2>&1 && cmake --build "$d/consumer" -j2 >> "$d/consumer.log" 2>&1; then
    $cleanenv "$d/consumer/gpurx_consumer" > "$d/consumer.run" 2>&1 || { cat "$d/consumer.run"; fail "the consumer failed"; }
    grep -q "every bit back" "$d/consumer.run" || fail "the consumer did not decode"
else
    cat "$d/consumer.log"
    fail "the consumer project did not build"
fi

step "pkg-config gnuradio-gpurx"
if command -v pkg-config > /dev/null; then
    flags=$(PKG_CONFIG_PATH="$root/$libdir/pkgconfig" pkg-config --cflags --libs gnuradio-gpurx 2>&1) \
        || fail "pkg-config: $flags"
    incdir=$(echo "$flags" | tr ' ' '\n' | sed -n 's/^-I//p' | head -1)
    libd=$(echo "$flags" | tr ' ' '\n' | sed -n 's/^-L//p' | head -1)
    [ -f "$incdir/gnuradio/gpurx/api.h" ] || fail "pkg-config -I does not name the installed headers: $flags"
    [ -e "$libd/libgnuradio-gpurx.so" ] || fail "pkg-config -L does not name the installed library: $flags"
    echo "$flags" | grep -q -- "-lgnuradio-gpurx" || fail "pkg-config: no -lgnuradio-gpurx"
else
    echo "pkg-config not installed: not checked"
fi

if [ "$grcc" != "-" ]; then
    step "GRC C++ output (grc_cpp_link.grc) against the install tree"
    GRC_BLOCKS_PATH="$root/share/gnuradio/grc/blocks" "$grcc" -o "$d/grc" "$src/tests/consumer/grc_cpp_link.grc" \
        > "$d/grcc.log" 2>&1 || { cat "$d/grcc.log"; fail "grcc (C++)"; }
    g=$d/grc/grc_cpp_link
    if cmake -S "$g" -B "$g/build" -DCMAKE_PREFIX_PATH="$root" -DCMAKE_BUILD_TYPE=Release > "$d/grccpp.log" 2>&1 &&
            cmake --build "$g/build" -j2 >> "$d/grccpp.log" 2>&1; then
        $cleanenv "$g/build/grc_cpp_link" > "$d/grccpp.run" 2>&1 || { cat "$d/grccpp.run"; fail "the GRC C++ flowgraph failed"; }
    else
        cat "$d/grccpp.log"
        fail "GRC's C++ output did not build"
    fi
fi

[ "$fails" = 0 ] && echo "install tree: all checks passed"
[ "$fails" = 0 ]
