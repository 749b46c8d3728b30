/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Command-line value parsing shared by the gpurx-*-ber programs. Every
// conversion takes the whole string ("12x" and "" are errors, not 12 and 0)
// and throws usage_error naming the option, so that main() prints it and
// exits 2 before anything runs.
#ifndef INCLUDED_GPURX_APPS_APP_ARGS_H
#define INCLUDED_GPURX_APPS_APP_ARGS_H

#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! A bad command line: main() prints the message and exits 2.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! An integer in [lo, hi]; throws usage_error naming \p opt.
long long to_int(const std::string& opt, const std::string& v, long long lo, long long hi);
//! A finite number; throws usage_error naming \p opt.
double to_double(const std::string& opt, const std::string& v);
//! "a,b,,c" -> {"a", "b", "", "c"}.
std::vector<std::string> split(const std::string& s, char sep);

//! Eb/N0 points "start:stop:step" in dB, start <= stop, step > 0.
struct db_range {
    double start = 0, stop = 0, step = 1;
    //! The points start, start + step, ... up to stop inclusive (to 1e-9 dB,
    //! so that 0.6:1.0:0.2 includes 1.0 whatever the rounding of the sum).
    std::vector<double> points() const;
};
db_range parse_db_range(const std::string& opt, const std::string& v);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
