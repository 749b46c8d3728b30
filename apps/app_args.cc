/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app_args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace gr {
namespace gpurx {
namespace apps {

long long to_int(const std::string& opt, const std::string& v, long long lo, long long hi)
{
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end || errno || x < lo || x > hi)
        throw usage_error(opt + " wants an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                          ", got \"" + v + "\"");
    return x;
}

double to_double(const std::string& opt, const std::string& v)
{
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !std::isfinite(x))
        throw usage_error(opt + " wants a number, got \"" + v + "\"");
    return x;
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
        out.push_back(item);
    return out;
}

std::vector<double> db_range::points() const
{
    std::vector<double> p;
    // Index-based, not accumulated: start + i * step does not drift.
    for (long i = 0;; i++) {
        const double x = start + double(i) * step;
        if (x > stop + 1e-9)
            break;
        p.push_back(x);
    }
    return p;
}

db_range parse_db_range(const std::string& opt, const std::string& v)
{
    const auto parts = split(v, ':');
    if (parts.size() != 3)
        throw usage_error(opt + " wants start:stop:step in dB, got \"" + v + "\"");
    db_range r;
    r.start = to_double(opt, parts[0]);
    r.stop = to_double(opt, parts[1]);
    r.step = to_double(opt, parts[2]);
    if (r.step <= 0 || r.stop < r.start)
        throw usage_error(opt + " wants start <= stop and step > 0, got \"" + v + "\"");
    return r;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
