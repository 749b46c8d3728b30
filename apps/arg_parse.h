/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Command-line value parsing shared by the BER programs. Every conversion
// takes the whole string ("12x" and "" are errors, not 12 and 0) and throws
// usage_error naming the option, so main() can print it and exit 2 before
// anything runs.
#ifndef INCLUDED_GPURX_APPS_ARG_PARSE_H
#define INCLUDED_GPURX_APPS_ARG_PARSE_H

#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! An integer in [lo, hi]; throws naming \p opt.
long long to_int(const std::string& opt, const std::string& v, long long lo, long long hi);
//! A finite number; throws naming \p opt.
double to_double(const std::string& opt, const std::string& v);
//! "a,b,,c" -> {"a", "b", "", "c"}.
std::vector<std::string> split(const std::string& s, char sep);

//! A sweep "start:stop:step" (start <= stop, step > 0); throws naming \p opt.
struct sweep_range {
    double start = 0, stop = 0, step = 1;
    //! The points start, start + step, ... up to stop (inclusive, to 1e-9).
    std::vector<double> points() const;
};
sweep_range parse_sweep(const std::string& opt, const std::string& v);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
