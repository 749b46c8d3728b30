/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/backend.h"
#include "pipeline/cuda_probe.h"
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
    for (const char* bad : { "-1", "a", "0;1", ",", "1,1", "99999" }) {
        try {
            core::device_request::parse(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("devices"), std::string::npos) << e.what();
        }
    }
}
