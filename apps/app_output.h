/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the gpurx-*-ber programs write and run besides their simulation: a
// CSV file that fails loudly, and the Python scripts they call (plot_ber.py,
// gr-fec companions).
//
// Scripts are found beside the installed program (bin/), in the package's
// libexec folder, else in the source tree the program was built from, so an
// install tree and a build tree both work. They run with GNU Radio's Python
// (the build's PYTHON_EXECUTABLE), or $GPURX_PYTHON when set.
#ifndef INCLUDED_GPURX_APPS_APP_OUTPUT_H
#define INCLUDED_GPURX_APPS_APP_OUTPUT_H

#include "ber_point.h"

#include <cstdio>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! A CSV file flushed after every row, so a long sweep can be plotted while
//! it runs. An empty path writes nothing. Every failure throws
//! std::runtime_error naming \p option and the path: an unwritable --csv
//! must not be a silent success.
class csv_file
{
public:
    csv_file(const std::string& option, const std::string& path, const std::string& header);
    ~csv_file();
    csv_file(const csv_file&) = delete;
    csv_file& operator=(const csv_file&) = delete;
    bool enabled() const { return d_f != nullptr; }
    //! One row, without its newline; printf-style.
    void row(const char* format, ...) __attribute__((format(printf, 2, 3)));
    //! Throws when a write failed (a full disk, say).
    void close();

private:
    std::string d_option, d_path;
    FILE* d_f = nullptr;
};

//! The script \p name beside the program, in the install tree's libexec
//! folder, or in the source tree's \p source_folder ("apps", "scripts").
std::string find_script(const char* argv0, const std::string& name, const char* source_folder);
//! GNU Radio's Python: $GPURX_PYTHON, else the build's PYTHON_EXECUTABLE.
std::string python();
//! \p s in single quotes for /bin/sh.
std::string shell_quote(const std::string& s);
//! Runs \p cmd through /bin/sh; its exit status (127: could not run, 128: killed).
int run_command(const std::string& cmd);

//! With \p png: runs plot_ber.py --title \p title on \p csvs and returns its
//! exit status (the command is printed when it fails). Without: prints the
//! command that would plot them, and returns 0. \p program names the caller
//! in messages; \p extra_args (already quoted, each with a leading space,
//! e.g. " --target-ber 1e-05") go after the title.
int plot_csvs(const char* program, const char* argv0, const std::string& title,
              const std::vector<std::string>& csvs, const std::string& png,
              const std::string& extra_args = "");
//! plot_csvs() with another plot script of scripts/ (\p script, e.g.
//! "plot_bler.py"), found and run the same way.
int plot_csvs_with(const char* program, const char* argv0, const std::string& script, const std::string& title,
                   const std::vector<std::string>& csvs, const std::string& png,
                   const std::string& extra_args = "");

//! The markdown table of a curve's points (Eb/N0, BER, its standard error,
//! FER, frame and bit errors, bits) and where it crosses BER 1e-3 and 1e-5
//! (\p not_bracketed ends the line of a target it does not cross); stdout.
void print_ber_table(const std::vector<ber_point>& pts, const char* not_bracketed);

//! Whether a sweep stops after \p p: it had no bit errors, \p more_points
//! follow and not \p keep_going. Then says so on stderr ("  NAME: Eb/N0 ...
//! the WHAT stops here", without "NAME: " when \p name is empty).
bool sweep_stops_after(const ber_point& p, bool keep_going, bool more_points, const std::string& name = "",
                       const char* what = "sweep");

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
