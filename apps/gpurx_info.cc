/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-info: the CUDA devices gr-gpurx sees and the backend "auto" picks.
// Exits 0 on a machine without a GPU (that is a valid configuration).
#include <gnuradio/gpurx/runtime_info.h>
#include <cstdio>
#include <exception>

int main()
{
    try {
        std::fputs(gr::gpurx::runtime_report().c_str(), stdout);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-info: %s\n", e.what());
        return 1;
    }
}
