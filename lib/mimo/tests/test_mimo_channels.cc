/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Frames of several channels (mimo_frame.h, mimo_config::max_channels): a
// frame of C channels must give, byte for byte, the outputs of the C frames
// of one channel it is made of, on the same backend, for every
// implementation; its result is the worst of theirs (the highest status, the
// lowest rank). A channel holding a NaN gives zeros and leaves the frame's
// other channels, and the neighbouring frames, as they would be alone. A
// frame of more channels than max_channels is refused (zeros, STATUS_BAD_FRAME)
// without touching its neighbours. One batch mixes frames of 1 to 4 channels.
// Without a CUDA device the *Cuda* cases report skipped (test_main.cc).
#include "mimo/mimo_implementations.h"
#include "mimo_test_util.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

using namespace gr::gpurx;
using core::mimo::llr_format;
using core::mimo::llr_output;

namespace {

// One frame holding the channels frames[first, first + n) (all of one shape).
test::mimo_frame join(const std::vector<test::mimo_frame>& frames, size_t first, size_t n)
{
    test::mimo_frame j = frames[first];
    j.params.channels = int32_t(n);
    j.data.clear();
    j.bits.clear();
    for (size_t i = first; i < first + n; i++) {
        j.data.insert(j.data.end(), frames[i].data.begin(), frames[i].data.end());
        j.bits.insert(j.bits.end(), frames[i].bits.begin(), frames[i].bits.end());
    }
    return j;
}

// Twelve channels of one shape on the three channel kinds (a zero column
// makes a rank-deficient one), with priors; channel 5 has a NaN in a
// received vector, channel 9 an infinity in H.
std::vector<test::mimo_frame> channels_of(int nt, int nr, int bits, std::mt19937& rng)
{
    std::vector<test::mimo_frame> ch;
    const test::channel_kind kinds[] = { test::channel_kind::rayleigh, test::channel_kind::ill,
                                         test::channel_kind::zero_column };
    for (int i = 0; i < 12; i++) {
        auto f = test::make_frame(nt, nr, bits, 3, 0.08, kinds[i % 3], rng);
        test::add_priors(f, 2.0, rng);
        ch.push_back(std::move(f));
    }
    ch[5].data[size_t(nr) * nt + 2] = test::cf(std::nanf(""), 0.0f);
    ch[9].data[1] = test::cf(0.0f, std::numeric_limits<float>::infinity());
    return ch;
}

void check_backend(core::backend_kind kind)
{
    const auto where = kind == core::backend_kind::cuda ? test::cuda_backend() : test::cpu_backend();
    const std::string prefix = kind == core::backend_kind::cuda ? "cuda-" : "cpu-";
    std::mt19937 rng(5);
    for (const char* algo : { "ml", "mtt", "mtt-fast", "kbest", "lmmse", "one-pass" }) {
        const std::string impl = prefix + algo;
        if (kind == core::backend_kind::cpu && std::string(algo) == "mtt-fast")
            continue; // no such CPU implementation
        for (llr_format llr : { llr_format::float32, llr_format::int8 }) {
            SCOPED_TRACE(impl + (llr == llr_format::int8 ? ", int8" : ", float"));
            const auto ch = channels_of(2, 3, 4, rng);
            core::mimo_config cfg;
            cfg.nt = 2;
            cfg.nr = 3;
            cfg.implementation = impl;
            cfg.llr_type = llr;
            cfg.clip = 12.0f;
            cfg.output = llr_output::extrinsic;
            // Alone: one channel per frame.
            const auto alone = test::detect_all(ch, cfg, where, 4);
            // Grouped: channels 0-3, 4-7 (the NaN), 8-10 (the infinity), 11,
            // then a frame of 5 (over max_channels), then channel 11 again.
            cfg.max_channels = 4;
            const std::vector<test::mimo_frame> grouped = { join(ch, 0, 4), join(ch, 4, 4), join(ch, 8, 3),
                                                            join(ch, 11, 1), join(ch, 0, 5), join(ch, 11, 1) };
            const auto got = test::detect_all(grouped, cfg, where, 4);
            const size_t first[] = { 0, 4, 8, 11, 0, 11 }, count[] = { 4, 4, 3, 1, 5, 1 };
            for (size_t g = 0; g < grouped.size(); g++) {
                SCOPED_TRACE("frame " + std::to_string(g));
                const auto& r = got[g];
                if (count[g] > 4) {
                    EXPECT_EQ(r.result.status, core::mimo::STATUS_BAD_FRAME);
                    for (float l : r.llr)
                        ASSERT_EQ(l, 0.0f);
                    for (int8_t l : r.llr8)
                        ASSERT_EQ(l, 0);
                    continue;
                }
                int32_t status = core::mimo::STATUS_OK, rank = cfg.nt;
                std::vector<float> want;
                std::vector<int8_t> want8;
                for (size_t c = first[g]; c < first[g] + count[g]; c++) {
                    status = std::max(status, alone[c].result.status);
                    rank = std::min(rank, alone[c].result.rank);
                    want.insert(want.end(), alone[c].llr.begin(), alone[c].llr.end());
                    want8.insert(want8.end(), alone[c].llr8.begin(), alone[c].llr8.end());
                }
                EXPECT_EQ(r.result.status, status);
                EXPECT_EQ(r.result.rank, rank);
                ASSERT_EQ(r.llr.size(), want.size());
                ASSERT_EQ(r.llr8.size(), want8.size());
                // Byte for byte: the same arithmetic on the same channel.
                // (An empty vector's data() may be null, which memcmp must
                // not get even for 0 bytes: one of the two is empty per run.)
                if (!want.empty()) {
                    EXPECT_EQ(0, std::memcmp(r.llr.data(), want.data(), want.size() * sizeof(float)));
                }
                if (!want8.empty()) {
                    EXPECT_EQ(0, std::memcmp(r.llr8.data(), want8.data(), want8.size()));
                }
            }
            // The refusals and zeros the single frames show, so the grouped
            // comparison above covers them.
            EXPECT_EQ(alone[5].result.status, core::mimo::STATUS_NOT_FINITE);
            EXPECT_EQ(alone[9].result.status, core::mimo::STATUS_NOT_FINITE);
            EXPECT_EQ(alone[2].result.status, core::mimo::STATUS_RANK_DEFICIENT);
            EXPECT_EQ(got[1].result.status, core::mimo::STATUS_NOT_FINITE);
            EXPECT_EQ(got[0].result.status, core::mimo::STATUS_RANK_DEFICIENT);
        }
    }
}

} // namespace

TEST(MimoChannels, FrameOfChannelsIsItsChannelsAloneOnTheCpu) { check_backend(core::backend_kind::cpu); }

TEST(MimoChannelsCuda, FrameOfChannelsIsItsChannelsAloneOnCuda) { check_backend(core::backend_kind::cuda); }

TEST(MimoChannels, MaxChannelsIsCheckedAtConstruction)
{
    core::mimo_config c;
    c.max_channels = 0;
    try {
        c.validate();
        FAIL() << "max_channels 0 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("max_channels"), std::string::npos) << e.what();
    }
    c.max_channels = core::mimo::max_channels_per_frame + 1;
    EXPECT_THROW(c.validate(), std::invalid_argument);
    c.max_channels = 64;
    EXPECT_NO_THROW(c.validate());
}
