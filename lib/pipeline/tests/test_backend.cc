/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/backend.h"
#include "cuda/cuda_probe.h"
#include "cuda/cuda_arch.h"
#include "cuda/cuda_dpx.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <stdexcept>

using namespace gr::gpurx;

TEST(Backend, CpuIsAlwaysAvailable)
{
    const auto b = core::select_backend("cpu", "0");
    EXPECT_EQ(b.kind, core::backend_kind::cpu);
}

TEST(Backend, RejectsUnknownBackendNamingIt)
{
    try {
        core::select_backend("gpu", "0");
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("backend"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("gpu"), std::string::npos);
    }
}

TEST(Backend, RejectsNegativeDevice)
{
    EXPECT_THROW(core::select_backend("auto", "-1"), std::invalid_argument);
    EXPECT_THROW(core::select_backend("cuda", "x"), std::invalid_argument);
    EXPECT_THROW(core::select_backend("auto", "0,0"), std::invalid_argument);
    EXPECT_THROW(core::select_backend("auto", "0,"), std::invalid_argument);
    // The CPU backend ignores the devices it is given.
    EXPECT_EQ(core::select_backend("cpu", "7").kind, core::backend_kind::cpu);
    EXPECT_EQ(core::select_backend("cpu", "-1").kind, core::backend_kind::cpu);
}

TEST(Backend, AutoMatchesProbe)
{
    const auto b = core::select_backend("auto", "0");
    const bool usable = test::cuda_unusable_reason().empty();
    EXPECT_EQ(b.kind, usable ? core::backend_kind::cuda : core::backend_kind::cpu);
    EXPECT_FALSE(b.reason.empty());
}

TEST(Backend, CudaWithoutDeviceFailsClearly)
{
    if (test::cuda_unusable_reason().empty())
        GTEST_SKIP() << "a CUDA device is present; the no-GPU failure path is tested on CPU-only machines";
    try {
        core::select_backend("cuda", "0");
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
    }
}

TEST(BackendCuda, ProbeFindsUsableDevice)
{
    const auto& p = core::probe_cuda();
    ASSERT_TRUE(p.compiled_in);
    ASSERT_FALSE(p.devices.empty());
    EXPECT_TRUE(p.devices[0].usable) << p.devices[0].problem;
    EXPECT_GE(p.driver_version, p.runtime_version);
    EXPECT_GT(p.devices[0].multiprocessors, 0);
    const auto b = core::select_backend("cuda", "0");
    EXPECT_EQ(b.kind, core::backend_kind::cuda);
    EXPECT_THROW(core::select_backend("cuda", "999"), std::invalid_argument);
    // A GPU that is not there is an error with "auto" too, not a CPU fallback.
    EXPECT_THROW(core::select_backend("auto", "99"), std::invalid_argument);
    const auto all = core::select_backend("cuda", "all");
    EXPECT_EQ(all.devices.size(), p.devices.size());
}

TEST(Backend, DevicesParse)
{
    EXPECT_TRUE(core::device_request::parse("all").all);
    EXPECT_EQ(core::device_request::parse("1").list, std::vector<int>({ 1 }));
    EXPECT_EQ(core::device_request::parse("0, 1").list, std::vector<int>({ 0, 1 }));
    // "" names no device (an empty Python list gives it): an error, not "all".
    for (const char* bad : { "-1", "a", "0;1", ",", "1,1", "99999", "", " " }) {
        try {
            core::device_request::parse(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("devices"), std::string::npos) << e.what();
        }
    }
}

// What a build's architecture list runs on: machine code for sm_XY on X.Z
// with Z >= Y, PTX on any capability at least its own, "a" code on its own
// capability only; the default list covers Turing to Blackwell.
TEST(ArchList, SupportsFollowsCompatibilityRules)
{
    using core::cuda_arch_supports;
    const std::string dflt = "75-real;80-real;86-real;90-real;100-real;120-real;120-virtual";
    struct cse {
        int major, minor;
        bool runs, native;
        const char* how;
    };
    for (const cse c : { cse{ 7, 5, true, true, "sm_75" }, cse{ 8, 0, true, true, "sm_80" },
                         cse{ 8, 6, true, true, "sm_86" }, cse{ 8, 7, true, true, "sm_86" },
                         cse{ 8, 9, true, true, "sm_86" }, cse{ 9, 0, true, true, "sm_90" },
                         cse{ 10, 0, true, true, "sm_100" }, cse{ 10, 3, true, true, "sm_100" },
                         cse{ 12, 0, true, true, "sm_120" }, cse{ 12, 1, true, true, "sm_120" },
                         cse{ 13, 0, true, false, "PTX compute_120" }, cse{ 11, 0, false, false, "no kernel image" },
                         cse{ 7, 0, false, false, "no kernel image" } }) {
        const auto s = cuda_arch_supports(dflt, c.major, c.minor);
        EXPECT_EQ(s.runs, c.runs) << c.major << "." << c.minor << ": " << s.how;
        EXPECT_EQ(s.native, c.native) << c.major << "." << c.minor << ": " << s.how;
        EXPECT_NE(s.how.find(c.how), std::string::npos) << s.how;
    }
    // The old default: Hopper only, PTX for the rest of the newer ones.
    EXPECT_FALSE(cuda_arch_supports("90-real;90-virtual", 8, 6).runs);
    EXPECT_NE(cuda_arch_supports("90-real;90-virtual", 8, 6).how.find("rebuild with 86"), std::string::npos);
    EXPECT_TRUE(cuda_arch_supports("90-real,90-virtual", 12, 0).runs);
    EXPECT_FALSE(cuda_arch_supports("90-real,90-virtual", 12, 0).native);
    EXPECT_TRUE(cuda_arch_supports("90", 9, 0).native); // plain NN: real and virtual
    EXPECT_TRUE(cuda_arch_supports("90a-real", 9, 0).native);
    EXPECT_FALSE(cuda_arch_supports("100a-real", 10, 3).runs); // arch-specific: 10.0 only
    EXPECT_TRUE(cuda_arch_supports("100f-real", 10, 3).runs);  // family: 10.x
    EXPECT_TRUE(cuda_arch_supports("native", 8, 6).runs);
    EXPECT_FALSE(cuda_arch_supports("", 9, 0).runs);
}

// The one DPX policy (cuda/cuda_dpx.h) of the turbo and Viterbi kernels:
// DPX on compute capability 9.x only, unless GPURX_CUDA_PORTABLE is set to
// anything but "0".
TEST(DpxPolicy, HopperOnlyUnlessPortableForced)
{
    using core::cuda_dpx_policy;
    for (int major : { 7, 8, 10, 11, 12, 13 })
        EXPECT_FALSE(cuda_dpx_policy(major, nullptr)) << major;
    EXPECT_TRUE(cuda_dpx_policy(9, nullptr));
    EXPECT_TRUE(cuda_dpx_policy(9, ""));
    EXPECT_TRUE(cuda_dpx_policy(9, "0"));
    EXPECT_FALSE(cuda_dpx_policy(9, "1"));
    EXPECT_FALSE(cuda_dpx_policy(9, "yes"));
    EXPECT_FALSE(cuda_dpx_policy(8, "0"));
}
