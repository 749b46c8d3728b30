#!/bin/sh
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Compiles a GRC example with grcc into a temporary folder and, when it is
# headless (generate_options: no_gui), runs it; passes when grcc succeeds, the
# flowgraph exits 0 and its output contains PATTERN (a grep regular expression
# without spaces or shell characters: GR_ADD_TEST splits arguments at spaces;
# "--" checks the exit status only; "compile-only": compiled, not run, for a
# headless flowgraph that needs peers or input files, or runs until stopped:
# the scale-out worker, front end and collector, which their QA runs). A
# flowgraph with a GUI is compiled only: CI has no display. Keeps the .grc
# from drifting from the blocks' YAML.
#   check_grc.sh GRC_FILE GRC_BLOCKS_DIR PYTHON PATTERN
set -u
[ $# = 4 ] || { echo "usage: check_grc.sh GRC_FILE GRC_BLOCKS_DIR PYTHON PATTERN" >&2; exit 2; }
grc=$1 blocks_dir=$2 python=$3 pattern=$4
# Found at configure time, but not on every machine the build tree travels
# to (a GPU host without GRC): skipped there (ctest's SKIP_RETURN_CODE), with
# the reason, not failed.
command -v grcc > /dev/null 2>&1 || { echo "skipped: grcc is not installed on this machine"; exit 77; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
GRC_BLOCKS_PATH="$blocks_dir" grcc -o "$d" "$grc" > "$d/grcc.log" 2>&1 || { cat "$d/grcc.log"; echo "grcc failed"; exit 1; }
# Named after the flowgraph's id, which need not be the file's name.
py=$(ls "$d"/*.py 2>/dev/null | head -1)
[ -n "$py" ] || { cat "$d/grcc.log"; echo "grcc wrote no Python file"; exit 1; }
if [ "$pattern" = "compile-only" ]; then
    echo "compiled; not run (it needs its peers or input files, or runs until stopped)"
    exit 0
fi
if ! grep -q "generate_options: no_gui" "$grc"; then
    echo "compiled; not run (the flowgraph has a GUI)"
    exit 0
fi
"$python" -B "$py" > "$d/run.log" 2>&1
rc=$?
cat "$d/run.log"
[ $rc = 0 ] || { echo "the generated flowgraph failed ($rc)"; exit 1; }
[ "$pattern" = "--" ] || grep -q "$pattern" "$d/run.log" || { echo "no line matching \"$pattern\""; exit 1; }
