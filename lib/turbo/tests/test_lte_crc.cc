/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// crc24_update's builds (lte_crc.h) against a shift register written here,
// one bit per step, for both polynomials: lengths 0..7000 (every residue
// modulo 8, 32, 64 and 512 among them), pieces chained through the register,
// starting registers other than zero, and bytes whose other bits are set
// (only the lowest bit counts). Every build this CPU runs, the generic one
// always; and crc24_update itself, whichever build it chose.
#include "turbo/lte_crc.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

using namespace gr::gpurx::core;

namespace {

// 36.212 5.1.1's register: the bit enters at the top with the feedback.
uint32_t reference(uint32_t reg, const uint8_t* bits, size_t n, uint32_t g)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t fb = ((reg >> 23) ^ bits[i]) & 1u;
        reg = (reg << 1) & 0xFFFFFFu;
        if (fb)
            reg ^= g;
    }
    return reg;
}

std::vector<crc24_build> builds()
{
    std::vector<crc24_build> v;
    for (auto b : { crc24_build::generic, crc24_build::clmul })
        if (crc24_build_supported(b))
            v.push_back(b);
    return v;
}

const crc24_type types[] = { crc24_type::a, crc24_type::b };

std::vector<uint8_t> random_bits(std::mt19937& rng, size_t n, bool dirty)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = dirty ? uint8_t(rng()) : uint8_t(rng() & 1u);
    return v;
}

} // namespace

TEST(LteCrc, BuildsNamedAndReported)
{
    EXPECT_TRUE(crc24_build_supported(crc24_build::generic));
    EXPECT_TRUE(crc24_build_supported(crc24_default_build()));
    for (auto b : { crc24_build::generic, crc24_build::clmul })
        EXPECT_EQ(parse_crc24_build(crc24_build_name(b), "x"), b);
    EXPECT_THROW(parse_crc24_build("avx9", "GPURX_CRC_SIMD"), std::invalid_argument);
    std::printf("crc24 builds on this CPU:");
    for (auto b : builds())
        std::printf(" %s", crc24_build_name(b));
    std::printf("; crc24_update runs %s\n", crc24_build_name(crc24_default_build()));
}

TEST(LteCrc, EveryBuildEqualsTheShiftRegisterForEveryLength)
{
    std::mt19937 rng(24);
    std::vector<size_t> lengths;
    for (size_t n = 0; n <= 1100; n++) // every residue of 8, 32, 64 and 512, both sides of the folds' start
        lengths.push_back(n);
    for (size_t n : { 6144, 6143, 6120, 5824, 5800, 8191, 8192, 8193, 8704, 16384 + 13 })
        lengths.push_back(n); // the LTE block sizes, and the fold's 8192-bit chunks' edges
    std::uniform_int_distribution<size_t> any(0, 7000);
    for (int i = 0; i < 300; i++)
        lengths.push_back(any(rng));
    for (auto b : builds())
        for (size_t n : lengths) {
            const auto bits = random_bits(rng, n, false);
            for (auto t : types) {
                const uint32_t g = crc24_poly(t);
                ASSERT_EQ(crc24_update_on(b, 0, bits.data(), n, t), reference(0, bits.data(), n, g))
                    << crc24_build_name(b) << " n=" << n << " g=" << std::hex << g;
                const uint32_t reg = rng() & 0xFFFFFFu;
                ASSERT_EQ(crc24_update_on(b, reg, bits.data(), n, t), reference(reg, bits.data(), n, g))
                    << crc24_build_name(b) << " n=" << n << " from " << std::hex << reg;
            }
        }
}

TEST(LteCrc, EveryBuildChainsPiecesAndTakesTheLowestBit)
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<size_t> len(0, 7000);
    for (auto b : builds())
        for (int rep = 0; rep < 200; rep++) {
            const size_t n = len(rng);
            const bool dirty = rep % 2 == 1;
            auto bits = random_bits(rng, n, dirty);
            std::vector<uint8_t> clean(bits);
            for (auto& v : clean)
                v &= 1u;
            // Up to four pieces at random cuts, in order, through the register.
            std::vector<size_t> cuts = { 0, n };
            for (int c = 0; c < int(rng() % 4); c++)
                cuts.push_back(n ? rng() % (n + 1) : 0);
            std::sort(cuts.begin(), cuts.end());
            for (auto t : types) {
                const uint32_t whole = reference(0, clean.data(), n, crc24_poly(t));
                uint32_t reg = 0;
                for (size_t k = 0; k + 1 < cuts.size(); k++)
                    reg = crc24_update_on(b, reg, bits.data() + cuts[k], cuts[k + 1] - cuts[k], t);
                ASSERT_EQ(reg, whole) << crc24_build_name(b) << " n=" << n << " in " << cuts.size() - 1
                                      << " pieces" << (dirty ? ", bytes not 0/1" : "");
            }
        }
}

TEST(LteCrc, DefaultBuildAndHelpersAgree)
{
    std::mt19937 rng(3);
    for (size_t n : { 0, 1, 23, 24, 40, 511, 512, 1000, 6120, 6144 })
        for (auto t : types) {
            auto bits = random_bits(rng, n + 24, false);
            const uint32_t ref = reference(0, bits.data(), n, crc24_poly(t));
            EXPECT_EQ(crc24(bits.data(), n, t), ref) << n;
            EXPECT_EQ(crc24_update(0, bits.data(), n, t), ref) << n;
            crc24_attach(bits.data(), n, t);
            EXPECT_TRUE(crc24_check(bits.data(), n + 24, t)) << n;
            for (auto b : builds())
                EXPECT_EQ(crc24_update_on(b, 0, bits.data(), n + 24, t), 0u) << crc24_build_name(b) << " " << n;
        }
}

TEST(LteCrc, AnUnalignedStartChangesNothing)
{
    // The builds load the bits unaligned: the same message at every offset
    // into a buffer.
    std::mt19937 rng(9);
    const size_t n = 2000;
    std::vector<uint8_t> buf(n + 64);
    for (auto& v : buf)
        v = uint8_t(rng() & 1u);
    for (auto b : builds())
        for (size_t off = 0; off < 64; off++)
            for (auto t : types)
                ASSERT_EQ(crc24_update_on(b, 0, buf.data() + off, n, t),
                          reference(0, buf.data() + off, n, crc24_poly(t)))
                    << crc24_build_name(b) << " offset " << off;
}
