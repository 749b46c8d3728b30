/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The channel QR: H P = Q R with Q unitary, R upper triangular, and sorting.
#include "mimo/channel_qr.h"
#include "mimo_test_util.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace gr::gpurx;
using test::cd;
using test::cf;

namespace {

std::vector<cd> to_double(const std::vector<cf>& h)
{
    return std::vector<cd>(h.begin(), h.end());
}

// ||y - H s||^2 - ||y_hat - R P^T s||^2 is the same for every s (the part of
// y outside H's column space): this is what every QR-based detector relies on.
void check_distances(
    const std::vector<cf>& h, int nr, int nt, bool sorted, std::mt19937& rng)
{
    core::mimo::channel_qr qr;
    const auto hd = to_double(h);
    core::mimo::qr_decompose(hd.data(), nr, nt, sorted, qr);
    std::vector<int> order = qr.order;
    std::sort(order.begin(), order.end());
    for (int t = 0; t < nt; t++)
        ASSERT_EQ(order[t], t) << "order is not a permutation";
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < i; j++)
            ASSERT_EQ(qr.R(i, j), cd(0.0));
    std::normal_distribution<double> g;
    std::vector<cf> y(nr);
    for (auto& v : y)
        v = cf(float(g(rng)), float(g(rng)));
    std::vector<cd> y_hat(nt), work;
    qr.rotate(y.data(), y_hat.data(), work);
    double offset = 0.0;
    for (int trial = 0; trial < 20; trial++) {
        std::vector<cd> s(nt);
        for (auto& v : s)
            v = cd(g(rng), g(rng));
        double direct = 0.0, triangle = 0.0;
        for (int r = 0; r < nr; r++) {
            cd e = cd(y[r]);
            for (int t = 0; t < nt; t++)
                e -= hd[r * nt + t] * s[t];
            direct += std::norm(e);
        }
        for (int i = 0; i < nt; i++) {
            cd e = y_hat[i];
            for (int j = i; j < nt; j++)
                e -= qr.R(i, j) * s[qr.order[j]];
            triangle += std::norm(e);
        }
        if (trial == 0)
            offset = direct - triangle;
        EXPECT_NEAR(direct - triangle, offset, 1e-9 * direct) << "trial " << trial;
        EXPECT_GE(offset, -1e-9 * direct);
    }
}

} // namespace

TEST(MimoQr, DistancesArePreservedUpToAConstant)
{
    std::mt19937 rng(3);
    for (auto kind : { test::channel_kind::rayleigh,
                       test::channel_kind::ill,
                       test::channel_kind::zero_column })
        for (auto shape : { std::make_pair(1, 1),
                            std::make_pair(2, 2),
                            std::make_pair(2, 4),
                            std::make_pair(4, 4),
                            std::make_pair(3, 8),
                            std::make_pair(8, 8) })
            for (bool sorted : { false, true }) {
                SCOPED_TRACE(std::to_string(shape.first) + "x" +
                             std::to_string(shape.second) + (sorted ? " sorted" : ""));
                const auto h = test::make_channel(shape.second, shape.first, kind, rng);
                check_distances(h, shape.second, shape.first, sorted, rng);
            }
}

TEST(MimoQr, SortedQrTakesTheWeakestColumnFirst)
{
    // 3x3 with column norms 3, 0.5, 2 (orthogonal columns): sorted order is
    // 1, 2, 0 and |R_ii| are the norms in that order; unsorted keeps 0, 1, 2.
    const std::vector<cd> h = { 3.0, 0.0, 0.0, 0.0, cd(0.0, 0.5), 0.0, 0.0, 0.0, -2.0 };
    core::mimo::channel_qr qr;
    core::mimo::qr_decompose(h.data(), 3, 3, true, qr);
    EXPECT_EQ(qr.order, (std::vector<int>{ 1, 2, 0 }));
    EXPECT_NEAR(std::abs(qr.R(0, 0)), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(qr.R(1, 1)), 2.0, 1e-12);
    EXPECT_NEAR(std::abs(qr.R(2, 2)), 3.0, 1e-12);
    core::mimo::qr_decompose(h.data(), 3, 3, false, qr);
    EXPECT_EQ(qr.order, (std::vector<int>{ 0, 1, 2 }));
    EXPECT_EQ(qr.rank, 3);
}

TEST(MimoQr, RankCountsZeroColumns)
{
    std::mt19937 rng(4);
    const auto h = test::make_channel(4, 3, test::channel_kind::zero_column, rng);
    const auto hd = to_double(h);
    core::mimo::channel_qr qr;
    core::mimo::qr_decompose(hd.data(), 4, 3, false, qr);
    EXPECT_EQ(qr.rank, 2);
    core::mimo::qr_decompose(hd.data(), 4, 3, true, qr);
    EXPECT_EQ(qr.rank, 2);
    EXPECT_EQ(qr.order[0], 2); // the zero column is the weakest
    const std::vector<cd> zero(6, cd(0.0));
    core::mimo::qr_decompose(zero.data(), 3, 2, false, qr);
    EXPECT_EQ(qr.rank, 0);
}
