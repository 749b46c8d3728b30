/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Running the Python companions of the BER programs (plot_ber.py, the gr-fec
// comparison). A script is found beside the installed program (bin/), in the
// package's libexec folder, else in the source tree the program was built
// from, so both an install tree and a build tree work. Scripts run with GNU
// Radio's Python (the build's PYTHON_EXECUTABLE), or $GPURX_PYTHON when set.
//
// The program that links this file defines GPURX_SOURCE_DIR,
// GPURX_LIBEXEC_DIR and GPURX_PYTHON_EXECUTABLE (apps/CMakeLists.txt).
#ifndef INCLUDED_GPURX_APPS_APP_SCRIPTS_H
#define INCLUDED_GPURX_APPS_APP_SCRIPTS_H

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! The path of script \p name (\p source_folder: its folder in the source
//! tree, "apps" or "scripts"); the source-tree path when found nowhere, so
//! that the error names where it was expected.
std::string find_script(const char* argv0, const std::string& name, const char* source_folder);

//! The Python that runs the scripts.
std::string script_python();

//! \p s single-quoted for /bin/sh.
std::string shell_quote(const std::string& s);

//! Runs \p cmd with /bin/sh (stdout and stderr flushed first); its exit status.
int run_shell(const std::string& cmd);

/*!
 * Runs plot_ber.py on \p csvs into \p png with \p title (extra plot_ber.py
 * arguments in \p extra_args, already quoted). An empty \p png only prints
 * the command. Returns the exit status; on failure prints the command and
 * says so, naming \p program.
 */
int plot_ber(const char* program, const char* argv0, const std::string& title,
             const std::vector<std::string>& csvs, const std::string& png,
             const std::string& extra_args = "");

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
