/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PBCH and MIB: the RE mapping and the MIB's fields by hand (36.211 §6.6.4,
// 36.331), the MIB of every frame of lte_dl_gen captures against their truth
// (bandwidth, ports, SFN; the generator's PHICH configuration is Ng = 1,
// normal duration), and four ports (which the generator cannot make)
// through a PBCH written here from 36.211/36.212 and a random flat channel.
#include "lte/coding/lte_cc.h"
#include "lte/coding/lte_crc16.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/ofdm_demod.h"
#include "lte/grid/tests/grid_test_util.h"
#include "lte/pbch/mib.h"
#include "lte/pbch/pbch_decoder.h"
#include "lte/pbch/pbch_mapping.h"
#include "lte/pbch/transmit_diversity.h"
#include "sch/lte_scrambling.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

TEST(PbchMapping, PositionsByHand)
{
    cell c; // cell 0: CRS of 4 ports at k = 0, 3 mod 6 in symbols 0, 1 of the slot
    auto pos = pbch_positions(c, 72);
    ASSERT_EQ(int(pos.size()), 240);
    EXPECT_EQ(pos[0].l, 7);
    EXPECT_EQ(pos[0].k, 1);
    EXPECT_EQ(pos[1].k, 2);
    EXPECT_EQ(pos[2].k, 4);
    EXPECT_EQ(pos[47].l, 7);
    EXPECT_EQ(pos[47].k, 71);
    EXPECT_EQ(pos[48].l, 8);
    EXPECT_EQ(pos[96].l, 9);
    EXPECT_EQ(pos[96].k, 0);
    EXPECT_EQ(pos[239].l, 10);
    EXPECT_EQ(pos[239].k, 71);
    // Cell 5 in 25 PRB: the 72 start at k = 114; CRS at k = 5, 2 mod 6.
    c.cell_id = 5;
    pos = pbch_positions(c, 300);
    EXPECT_EQ(pos[0].k, 114);
    EXPECT_EQ(pos[1].k, 115);
    EXPECT_EQ(pos[2].k, 117);
    c.cp = cyclic_prefix::extended; // symbol 3 of the slot carries CRS too
    pos = pbch_positions(c, 72);
    EXPECT_EQ(int(pos.size()), 216);
    EXPECT_EQ(pos[0].l, 6);
    EXPECT_EQ(pbch_bits_per_block(cyclic_prefix::extended), 1728);
    EXPECT_THROW(pbch_positions(c, 60), std::invalid_argument);
}

TEST(Mib, FieldsByHand)
{
    // 25 PRB (n25 = 2: 010), normal duration (0), Ng = 1 (one = 2: 10),
    // SFN 1021 = 4 x 255 + 1 (11111111), spare 0.
    const uint8_t bits[24] = { 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    mib m;
    ASSERT_TRUE(parse_mib(bits, 1, m));
    EXPECT_EQ(m.n_prb, 25);
    EXPECT_FALSE(m.phich_extended);
    EXPECT_EQ(m.ng, phich_ng::one);
    EXPECT_EQ(m.sfn, 1021);
    EXPECT_EQ(m.spare, 0);
    uint8_t back[24];
    pack_mib(m, back);
    EXPECT_EQ(std::vector<uint8_t>(back, back + 24), std::vector<uint8_t>(bits, bits + 24));
    uint8_t bad[24] = { 1, 1, 0 }; // dl-Bandwidth 6: none
    EXPECT_FALSE(parse_mib(bad, 0, m));
    m.n_prb = 7;
    EXPECT_THROW(pack_mib(m, back), std::invalid_argument);
}

namespace {
struct capture_case {
    int n_prb, cell_id, ports;
    lte_rx_setup setup;
    int sfn0;
    int snr; // 99: no noise
};

//! Decodes the MIB of every frame of \p cap, the grid cut at \p n_prb_rx
//! PRBs (6: as a UE before the MIB; or the cell's); returns the frames
//! whose MIB matched the truth.
int check_frames(const lte_capture& cap, int n_prb_rx, const std::string& what)
{
    const auto& t0 = cap.truth[0];
    cell c;
    c.n_prb = n_prb_rx;
    c.cell_id = t0["cell_id"].get<int>();
    c.ports = 4; // unknown yet: estimate all, try every hypothesis
    const int n_rx = int(cap.rx.size());
    ofdm_demodulator dem(c, t0["fft"].get<int>(), n_rx);
    channel_estimator_options o;
    o.noise_ports = 1;
    channel_estimator ce(c, n_rx, o);
    pbch_decoder dec(c.cell_id, c.cp);
    subframe_grid g;
    channel_estimate est;
    int ok = 0;
    const int frames = int(cap.truth.size()) / 10;
    for (int f = 0; f < frames; f++) {
        const auto& t = cap.truth[size_t(10 * f)];
        demod_subframe(cap, dem, 10 * f, g);
        EXPECT_TRUE(ce.estimate(g, est));
        const pbch_result r = dec.decode(g, est);
        EXPECT_TRUE(r.found) << what << " frame " << f << ": " << r.reason;
        if (!r.found)
            continue;
        EXPECT_EQ(r.ports, t["ports"].get<int>()) << what;
        EXPECT_EQ(r.m.n_prb, t["nof_prb"].get<int>()) << what;
        EXPECT_EQ(r.m.sfn, t["sfn"].get<int>()) << what;
        EXPECT_EQ(r.frame_in_tti, t["sfn"].get<int>() % 4) << what;
        EXPECT_EQ(r.m.ng, phich_ng::one) << what;
        EXPECT_FALSE(r.m.phich_extended) << what;
        ok += r.found && r.ports == t["ports"].get<int>() && r.m.n_prb == t["nof_prb"].get<int>() &&
              r.m.sfn == t["sfn"].get<int>();
    }
    return ok;
}
} // namespace

TEST(Pbch, MibOfEveryFrameOfGeneratorCaptures)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const capture_case cases[] = {
        { 6, 0, 1, lte_rx_setup::port_files, 0, 99 },
        { 25, 5, 2, lte_rx_setup::ports_summed, 3, 10 },
        { 100, 301, 2, lte_rx_setup::channel_2x2, 1021, 99 },
        { 6, 301, 2, lte_rx_setup::channel_2x2, 1021, 10 },
        { 25, 0, 1, lte_rx_setup::port_files, 1021, 10 },
        { 100, 5, 2, lte_rx_setup::ports_summed, 3, 10 },
        { 25, 301, 2, lte_rx_setup::port_files, 0, 99 },
        { 6, 5, 2, lte_rx_setup::ports_summed, 0, 99 },
        { 100, 0, 1, lte_rx_setup::port_files, 3, 10 },
    };
    int frames = 0, ok = 0;
    for (const auto& cc : cases) {
        std::string args = "-p " + std::to_string(cc.n_prb) + " -c " + std::to_string(cc.cell_id) +
                           (cc.ports == 1 ? " -x 1 -a 1" : " -x 2 -a 2") + " -m 9 -n 40 -b " +
                           std::to_string(cc.sfn0);
        if (cc.snr != 99)
            args += " -N " + std::to_string(cc.snr);
        const auto cap = generate_lte_capture(args, cc.setup);
        for (int n_prb_rx : { 6, cc.n_prb }) {
            ok += check_frames(cap, n_prb_rx, args + " at " + std::to_string(n_prb_rx) + " PRB");
            frames += 4;
        }
    }
    std::printf("MIB right in %d of %d frames\n", ok, frames);
    EXPECT_EQ(ok, frames);
}

TEST(Pbch, CombiningFramesAtLowSnr)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    // Low per-RE SNR, one port: some frames alone fail; adding the frames
    // before them in their 40 ms recovers more. A MIB found must be right.
    const auto cap = generate_lte_capture("-p 6 -c 5 -x 1 -a 1 -m 9 -n 400 -b 0 -N -8", lte_rx_setup::port_files);
    cell c;
    c.n_prb = 6;
    c.cell_id = 5;
    c.ports = 4;
    ofdm_demodulator dem(c, 128, 1);
    channel_estimator_options o;
    o.noise_ports = 1;
    channel_estimator ce(c, 1, o);
    pbch_decoder dec(c.cell_id, c.cp);
    subframe_grid g;
    channel_estimate est;
    int single = 0, combined = 0, wrong = 0;
    for (int f = 0; f < 40; f++) {
        demod_subframe(cap, dem, 10 * f, g);
        ce.estimate(g, est);
        pbch_result r = dec.decode(g, est);
        if (r.found)
            single++;
        else
            r = dec.decode_combined();
        if (r.found) {
            combined++;
            wrong += r.m.sfn != cap.truth[size_t(10 * f)]["sfn"].get<int>() || r.ports != 1 || r.m.n_prb != 6;
        }
    }
    std::printf("at -8 dB per RE: %d of 40 frames alone, %d with combining\n", single, combined);
    EXPECT_EQ(wrong, 0);
    EXPECT_LT(single, 40);
    EXPECT_GT(combined, single);
}

namespace {
//! A PBCH written from the specifications (36.212 §5.3.1: CRC with the
//! port mask, tail-biting code, rate matching to 1920; 36.211 §6.6:
//! scrambling, QPSK, layer mapping and precoding for transmit diversity,
//! §6.6.4 mapping) for frame j of the block, through a flat random channel
//! H[rx][port]; the channel estimate is H itself.
void synthetic_pbch(const mib& m, int ports, int cell_id, int j, int n_rx, float noise_var, std::mt19937& rng,
                    subframe_grid& g, channel_estimate& est)
{
    std::vector<uint8_t> a(40);
    pack_mib(m, a.data());
    attach_crc16(a.data(), mib_bits, pbch_crc_mask(ports));
    const std::vector<uint8_t> e = cc_rate_match(cc_encode(a), 1920);
    const std::vector<uint8_t> cb = gr::gpurx::core::sch::gold_bits(uint32_t(cell_id), 1920);
    std::vector<cf> d(240);
    for (int i = 0; i < 240; i++) {
        const int b0 = e[size_t(480 * j + 2 * i)] ^ cb[size_t(480 * j + 2 * i)];
        const int b1 = e[size_t(480 * j + 2 * i + 1)] ^ cb[size_t(480 * j + 2 * i + 1)];
        d[size_t(i)] = cf(b0 ? -inv_sqrt2 : inv_sqrt2, b1 ? -inv_sqrt2 : inv_sqrt2);
    }
    // y[port][i]: what each port sends on the i-th PBCH RE.
    std::vector<std::vector<cf>> y(size_t(ports), std::vector<cf>(240, cf(0.0f, 0.0f)));
    if (ports == 1)
        y[0] = d;
    for (int i = 0; ports == 2 && i < 120; i++) {
        const cf x0 = d[size_t(2 * i)], x1 = d[size_t(2 * i + 1)];
        y[0][size_t(2 * i)] = x0 * inv_sqrt2;
        y[1][size_t(2 * i)] = -std::conj(x1) * inv_sqrt2;
        y[0][size_t(2 * i + 1)] = x1 * inv_sqrt2;
        y[1][size_t(2 * i + 1)] = std::conj(x0) * inv_sqrt2;
    }
    for (int i = 0; ports == 4 && i < 60; i++) {
        const cf* x = &d[size_t(4 * i)];
        y[0][size_t(4 * i)] = x[0] * inv_sqrt2;
        y[2][size_t(4 * i)] = -std::conj(x[1]) * inv_sqrt2;
        y[0][size_t(4 * i + 1)] = x[1] * inv_sqrt2;
        y[2][size_t(4 * i + 1)] = std::conj(x[0]) * inv_sqrt2;
        y[1][size_t(4 * i + 2)] = x[2] * inv_sqrt2;
        y[3][size_t(4 * i + 2)] = -std::conj(x[3]) * inv_sqrt2;
        y[1][size_t(4 * i + 3)] = x[3] * inv_sqrt2;
        y[3][size_t(4 * i + 3)] = std::conj(x[2]) * inv_sqrt2;
    }
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<cf> H(size_t(n_rx * ports));
    for (auto& h : H)
        h = cf(nd(rng), nd(rng)) * inv_sqrt2;
    cell c;
    c.cell_id = cell_id;
    g.resize(n_rx, 14, 72);
    est.resize(n_rx, ports, 14, 72);
    est.noise_var = noise_var;
    const float sd = std::sqrt(noise_var / 2.0f);
    for (int r = 0; r < n_rx; r++)
        for (int p = 0; p < ports; p++)
            for (int l = 0; l < 14; l++)
                for (int k = 0; k < 72; k++)
                    est.at(r, p, l, k) = H[size_t(r * ports + p)];
    const auto pos = pbch_positions(c, 72);
    for (int r = 0; r < n_rx; r++)
        for (int i = 0; i < 240; i++) {
            cf s(nd(rng) * sd, nd(rng) * sd);
            for (int p = 0; p < ports; p++)
                s += H[size_t(r * ports + p)] * y[size_t(p)][size_t(i)];
            g.at(r, pos[size_t(i)].l, pos[size_t(i)].k) = s;
        }
}
} // namespace

TEST(Pbch, FourPortsSfbcFstdThroughARandomChannel)
{
    // lte_dl_gen makes 1 or 2 ports only: 4 ports come from a PBCH written
    // here. 1 and 2 ports the same way show that it matches the generator's.
    std::mt19937 rng(7);
    int ok = 0, runs = 0;
    for (int ports : { 1, 2, 4 })
        for (int n_rx : { 1, 2 })
            for (int j = 0; j < 4; j++) {
                mib m;
                m.n_prb = 50;
                m.ng = phich_ng::half;
                m.phich_extended = true;
                m.sfn = 4 * (37 + 13 * j) + j;
                subframe_grid g;
                channel_estimate est;
                synthetic_pbch(m, ports, 77, j, n_rx, 0.05f, rng, g, est);
                pbch_decoder dec(77, cyclic_prefix::normal);
                const pbch_result r = dec.decode(g, est);
                runs++;
                EXPECT_TRUE(r.found) << ports << " ports " << n_rx << " rx frame " << j;
                if (!r.found)
                    continue;
                EXPECT_EQ(r.ports, ports);
                EXPECT_EQ(r.m.sfn, m.sfn);
                EXPECT_EQ(r.m.n_prb, 50);
                EXPECT_EQ(r.m.ng, phich_ng::half);
                EXPECT_TRUE(r.m.phich_extended);
                ok += r.ports == ports && r.m.sfn == m.sfn;
            }
    EXPECT_EQ(ok, runs);
}

TEST(Pbch, MalformedInputIsReported)
{
    pbch_decoder dec(1, cyclic_prefix::normal);
    subframe_grid g;
    g.resize(1, 14, 72);
    channel_estimate est;
    est.resize(2, 4, 14, 72); // antennas do not match the grid
    pbch_result r = dec.decode(g, est);
    EXPECT_FALSE(r.found);
    EXPECT_FALSE(r.reason.empty());
    est.resize(1, 4, 14, 72);
    g.at(0, 7, 1) = cf(std::nanf(""), 0.0f); // not finite: no crash, no MIB
    r = dec.decode(g, est);
    EXPECT_FALSE(r.found);
    EXPECT_THROW(pbch_decoder(504, cyclic_prefix::normal), std::invalid_argument);
}
