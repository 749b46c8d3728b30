/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// lmmse_streams_many (eight REs at a time) against the per-RE reference it
// vectorises (effective_channel, then lmmse_streams): equal bit for bit, for
// every shape it covers, the codebook precoders and large-delay CDD, lengths
// that are and are not a multiple of eight, and channels of no power.
#include "lte/pdsch/pdsch_lmmse_many.h"
#include "lte/pdsch/pdsch_precoding.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

using namespace gr::gpurx::core::lte;

TEST(LmmseMany, EqualsThePerReReference)
{
    std::mt19937 rng(21);
    std::normal_distribution<float> nd(0.0f, 0.7f);
    struct shape {
        int nr, nl;
        bool cdd;
        int codebook;
    };
    const shape shapes[] = { { 1, 1, false, 0 }, { 1, 1, false, 3 }, { 2, 1, false, 1 }, { 2, 1, false, 2 },
                             { 2, 2, false, 0 }, { 2, 2, false, 1 }, { 2, 2, false, 2 }, { 2, 2, true, 0 } };
    for (const shape& sh : shapes)
        for (int n : { 0, 1, 7, 8, 13, 64, 301 }) {
            std::vector<cf> y(size_t(n) * sh.nr), h(size_t(n) * sh.nr * 2);
            for (auto& v : y)
                v = cf(nd(rng), nd(rng));
            for (size_t i = 0; i < h.size(); i++)
                // Every ninth RE without channel: no stream seen.
                h[i] = (i / size_t(2 * sh.nr)) % 9 == 4 ? cf(0.0f, 0.0f) : cf(nd(rng), nd(rng));
            cf p[4] = {};
            if (!sh.cdd)
                ASSERT_TRUE(codebook_2port(sh.nl, sh.codebook, p));
            std::vector<cf> z[2];
            std::vector<float> n0[2];
            lmmse_many_args a;
            a.y = y.data();
            a.h = h.data();
            a.n = n;
            a.nr = sh.nr;
            a.nl = sh.nl;
            a.amp = 1.3f;
            a.n0 = 0.05f;
            a.cdd = sh.cdd;
            a.p = p;
            for (int k = 0; k < sh.nl; k++) {
                z[k].assign(size_t(n), cf(-9.0f, -9.0f));
                n0[k].assign(size_t(n), -9.0f);
                a.z[k] = z[k].data();
                a.n0_out[k] = n0[k].data();
            }
            lmmse_streams_many(a);
            for (int i = 0; i < n; i++) {
                cf pi[4], heff[4], want_z[2];
                float want_n0[2];
                for (int k = 0; k < 4; k++)
                    pi[k] = p[k];
                if (sh.cdd)
                    large_delay_cdd_2port(i, pi);
                effective_channel(&h[size_t(i) * sh.nr * 2], pi, sh.nr, 2, sh.nl, a.amp, heff);
                lmmse_streams(&y[size_t(i) * sh.nr], heff, sh.nr, sh.nl, a.n0, want_z, want_n0);
                for (int k = 0; k < sh.nl; k++) {
                    ASSERT_EQ(z[k][size_t(i)], want_z[k]) << sh.nr << "x" << sh.nl << " cdd " << sh.cdd << " n " << n
                                                          << " RE " << i << " layer " << k;
                    ASSERT_EQ(n0[k][size_t(i)], want_n0[k]) << sh.nr << "x" << sh.nl << " RE " << i;
                }
            }
        }
}

TEST(LmmseMany, ShapesOutsideItsRangeThrowNamingThem)
{
    lmmse_many_args a;
    a.nr = 3;
    EXPECT_THROW(lmmse_streams_many(a), std::invalid_argument);
    a.nr = 1;
    a.nl = 2;
    try {
        lmmse_streams_many(a);
        FAIL() << "no throw";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("nl=2"), std::string::npos) << e.what();
    }
}
