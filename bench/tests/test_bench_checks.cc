/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// frame_check's LLR sign comparisons (bench/bench_checks.h): an LLR agrees
// with the expected one when both are positive, both negative or both zero,
// and it is finite. The cases below are counted by hand from that rule;
// random ones are compared with a plain one-element-at-a-time reading of it
// (the comparison runs without branches so that it vectorises: lengths that
// are not a multiple of the vector width are among them).
#include "bench/bench_checks.h"
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace gr::gpurx;

namespace {

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v)
{
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

// The differing LLRs frame_check counts for one frame of output \p got
// against the expected \p want.
uint64_t differing(bench::compare_kind kind, const std::vector<uint8_t>& want, const std::vector<uint8_t>& got)
{
    bench::expected_outputs e;
    e.reference = "hand-made";
    e.exact = false;
    e.kind = kind;
    e.out = { want };
    bench::frame_check c("sign test", &e);
    c.add(0, got.data(), got.size(), true);
    EXPECT_EQ(c.compared, 1u);
    return c.differing;
}

int sign_class(float x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

TEST(BenchChecks, FloatSignsByHand)
{
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float tiny = std::numeric_limits<float>::denorm_min();
    //                          agree: same signs, zeros of either sign, a denormal
    std::vector<float> want = { 1.5f, -2.0f, 0.0f, -0.0f, 3.0f, tiny,
                                // differ: sign flipped, zero against non-zero, infinities, NaN
                                1.0f, -1.0f, 0.0f, 2.0f, 2.0f, -2.0f, 0.0f };
    std::vector<float> got = { 7.0f, -0.5f, -0.0f, 0.0f, 1e-30f, 1.0f,
                               -1.0f, 1.0f, 4.0f, 0.0f, inf, -inf, nan };
    EXPECT_EQ(differing(bench::compare_kind::sign_f32, bytes_of(want), bytes_of(got)), 7u);
}

TEST(BenchChecks, Int8SignsByHand)
{
    const std::vector<int8_t> want = { 5, -5, 0, 127, -128, 1, -1, 0 };
    const std::vector<int8_t> got = { 100, -1, 0, 1, -1, -1, 0, 3 };
    // differ: 1 against -1, -1 against 0, 0 against 3
    EXPECT_EQ(differing(bench::compare_kind::sign_i8, bytes_of(want), bytes_of(got)), 3u);
}

TEST(BenchChecks, FloatSignsAsOneAtATime)
{
    std::mt19937 g(11);
    std::normal_distribution<float> d(0.0f, 3.0f);
    std::uniform_int_distribution<int> pick(0, 15);
    for (size_t n : { size_t(1), size_t(3), size_t(4), size_t(17), size_t(1000), size_t(12290) }) {
        std::vector<float> want(n), got(n);
        uint64_t expect = 0;
        for (size_t i = 0; i < n; i++) {
            want[i] = d(g);
            got[i] = d(g);
            // Some zeros, infinities and NaNs among them.
            const int p = pick(g);
            if (p == 0)
                got[i] = 0.0f;
            else if (p == 1)
                want[i] = -0.0f;
            else if (p == 2)
                got[i] = std::numeric_limits<float>::infinity();
            else if (p == 3)
                got[i] = std::numeric_limits<float>::quiet_NaN();
            expect += !std::isfinite(got[i]) || sign_class(want[i]) != sign_class(got[i]);
        }
        EXPECT_EQ(differing(bench::compare_kind::sign_f32, bytes_of(want), bytes_of(got)), expect) << "n = " << n;
    }
}

TEST(BenchChecks, Int8SignsAsOneAtATime)
{
    std::mt19937 g(12);
    std::uniform_int_distribution<int> d(-128, 127);
    for (size_t n : { size_t(1), size_t(15), size_t(16), size_t(33), size_t(49152) }) {
        std::vector<int8_t> want(n), got(n);
        uint64_t expect = 0;
        for (size_t i = 0; i < n; i++) {
            want[i] = int8_t(d(g) / 64); // -2..1: many zeros
            got[i] = int8_t(d(g) / 64);
            const int a = want[i], b = got[i];
            expect += (a > 0 ? 1 : a < 0 ? -1 : 0) != (b > 0 ? 1 : b < 0 ? -1 : 0);
        }
        EXPECT_EQ(differing(bench::compare_kind::sign_i8, bytes_of(want), bytes_of(got)), expect) << "n = " << n;
    }
}

} // namespace
