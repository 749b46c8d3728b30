/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// main() for gr-gpurx's GoogleTest programs.
//   prog          runs the CPU cases (every test whose name has no "Cuda")
//   prog --cuda   runs the CUDA cases; exits 77 (ctest: Skipped) with the
//                 reason when no usable CUDA device exists
#include "cuda/cuda_probe.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    bool cuda = false;
    for (int i = 1; i < argc; i++)
        if (std::strcmp(argv[i], "--cuda") == 0)
            cuda = true;
    ::testing::InitGoogleTest(&argc, argv);
    // A --gtest_filter given on the command line wins over the backend's
    // default (it should then name cases of that backend).
    const bool user_filter = ::testing::GTEST_FLAG(filter) != "*";
    if (cuda) {
        const std::string why = gr::gpurx::test::cuda_unusable_reason();
        if (!why.empty()) {
            std::printf("skipped: no CUDA device (%s)\n", why.c_str());
            return 77;
        }
        if (!user_filter)
            ::testing::GTEST_FLAG(filter) = "*Cuda*";
    } else if (!user_filter) {
        ::testing::GTEST_FLAG(filter) = "-*Cuda*";
    }
    const int rc = RUN_ALL_TESTS();
    if (rc == 0 && ::testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
        // Nothing matched: report Skipped, never Passed for tests that did not run.
        std::printf("skipped: this program has no %s cases\n", cuda ? "CUDA" : "CPU");
        return 77;
    }
    return rc;
}
