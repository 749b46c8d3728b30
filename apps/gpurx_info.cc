/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-info: the CUDA devices gr-gpurx sees and the backend "auto" picks.
// Exits 0 on a machine without a GPU (that is a valid configuration).
#include <gnuradio/gpurx/runtime_info.h>
#include <cstdio>
#include <cstring>
#include <exception>

namespace {
const char* usage = "usage: gpurx-info [--help]\n"
                    "\n"
                    "Prints the gr-gpurx build (version, CUDA architectures), the CUDA devices\n"
                    "it sees and the backend that backend=\"auto\" chooses. Exits 0 on a machine\n"
                    "without a GPU (the blocks then run their CPU backend), 1 on an error.\n";
} // namespace

int main(int argc, char** argv)
{
    if (argc == 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
        std::fputs(usage, stdout);
        return 0;
    }
    if (argc > 1) {
        std::fprintf(stderr, "gpurx-info: unknown argument '%s'\n%s", argv[1], usage);
        return 2;
    }
    try {
        std::fputs(gr::gpurx::runtime_report().c_str(), stdout);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-info: %s\n", e.what());
        return 1;
    }
}
