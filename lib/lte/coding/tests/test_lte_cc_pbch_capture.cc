/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The coding chain against a real transmitter: lte_dl_gen's noiseless PBCH,
// taken off the air here by the simplest possible receiver (a DFT of each
// PBCH symbol, the REs of 36.211 §6.6.4, descrambling §6.6.1, QPSK signs
// §7.1.2), must decode through decode_with_crc16 to the MIB that the
// generator's truth describes (36.331 MasterInformationBlock: bandwidth,
// PHICH configuration, the SFN's 8 MSBs) with the port count's CRC mask.
// Each radio frame carries one quarter of the 1920 rate matched bits (SFN
// mod 4), so four frames test the four quarters of the rate matching.
#include "lte/coding/lte_cc_decoder.h"
#include "lte/coding/lte_crc16.h"
#include "lte/common/lte_cell.h"
#include "lte/common/tests/lte_capture.h"
#include "sch/lte_scrambling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

using namespace gr::gpurx::core;
using namespace gr::gpurx::core::lte;

namespace {

constexpr int pbch_bits = 1920; // E for the normal cyclic prefix
constexpr int frame_bits = 480; // one radio frame's share (240 QPSK symbols)

// The 480 LLRs of the PBCH of the subframe starting at \p x (subframe 0 of
// a frame), in the order they were mapped: k first, then l (§6.6.4).
std::vector<float> pbch_frame_llrs(const cf* x, int n_prb, int cell_id)
{
    const numerology nu{ standard_fft_size(n_prb), cyclic_prefix::normal };
    const int n_sc = 12 * n_prb, N = nu.fft_size;
    std::vector<float> llr;
    for (int j = 0; j < 4; j++) { // slot 1, symbols 0..3
        const int l = 7 + j;
        const cf* sym = x + nu.useful_start(l);
        for (int kp = 0; kp < 72; kp++) {
            const int k = n_sc / 2 - 36 + kp;
            // Symbols 0 and 1 of slot 1 leave out the REs that 4-port CRS
            // would use, whatever the port count: k = v_shift (mod 3).
            if (j < 2 && k % 3 == cell_id % 6 % 3)
                continue;
            const int bin = fft_bin_of(k, n_sc, N);
            std::complex<double> s = 0.0;
            for (int n = 0; n < N; n++)
                s += std::complex<double>(sym[n]) * std::polar(1.0, -2.0 * M_PI * double(bin) * n / N);
            // QPSK (36.211 §7.1.2): bit 0 -> +1/sqrt2, so the LLR of bit 1
            // is the negated component.
            llr.push_back(float(-8.0 * s.real() / std::abs(s)));
            llr.push_back(float(-8.0 * s.imag() / std::abs(s)));
        }
    }
    return llr;
}

void decode_capture(const std::string& args, int expect_ports)
{
    const auto cap = gr::gpurx::test::generate_lte_capture(args, gr::gpurx::test::lte_rx_setup::port_files);
    const auto& first = cap.truth.at(0);
    const int n_prb = first.at("nof_prb"), cell_id = first.at("cell_id"), ports = first.at("ports");
    ASSERT_EQ(ports, expect_ports);
    const int sf_len = int(first.at("srate").get<double>() / 1000.0);
    const std::vector<uint8_t> c = sch::gold_bits(uint32_t(cell_id), pbch_bits);
    tail_biting_decoder dec;
    int frames = 0;
    for (const auto& t : cap.truth) {
        if (t.at("sf_idx") != 0)
            continue;
        const int sfn = t.at("sfn"), sf = t.at("sf");
        // Port 0 alone: with 2 ports (SFBC, 36.211 §6.3.4.3) port 0 still
        // sends the symbols in their order, RE 2i and 2i+1.
        const auto llr = pbch_frame_llrs(cap.rx[0].data() + size_t(sf) * sf_len, n_prb, cell_id);
        ASSERT_EQ(llr.size(), size_t(frame_bits));
        std::vector<float> e(pbch_bits, 0.0f); // the other frames' quarters: unknown
        const int q = sfn % 4;
        for (int i = 0; i < frame_bits; i++) {
            const int pos = q * frame_bits + i;
            e[pos] = c[pos] ? -llr[i] : llr[i];
        }
        std::vector<uint8_t> mib(40);
        const auto r = dec.decode_with_crc16(e.data(), pbch_bits, 24, mib.data());
        EXPECT_EQ(pbch_ports_of_mask(r.crc_xor), ports) << "sfn " << sfn << " crc_xor " << r.crc_xor;
        // 36.331 MIB: dl-Bandwidth (3 bits: n6 .. n100), phich-Duration
        // (normal 0), phich-Resource (oneSixth, half, one, two: Ng = 1 is
        // 2), systemFrameNumber's 8 MSBs, 10 spare bits.
        const int bw_codes[6] = { 6, 15, 25, 50, 75, 100 };
        int bw = 0;
        while (bw < 6 && bw_codes[bw] != n_prb)
            bw++;
        EXPECT_EQ(bits_to_value(mib.data(), 3), uint32_t(bw)) << "sfn " << sfn;
        EXPECT_EQ(mib[3], 0) << "sfn " << sfn;
        EXPECT_EQ(bits_to_value(mib.data() + 4, 2), 2u) << "sfn " << sfn;
        EXPECT_EQ(bits_to_value(mib.data() + 6, 8), uint32_t(sfn >> 2)) << "sfn " << sfn;
        EXPECT_EQ(bits_to_value(mib.data() + 14, 10), 0u) << "sfn " << sfn;
        frames++;
    }
    EXPECT_EQ(frames, 4);
}

} // namespace

TEST(CcPbchCapture, OnePortFourQuarters)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    decode_capture("-p 6 -c 7 -a 1 -x 1 -b 101 -n 40", 1);
}

TEST(CcPbchCapture, TwoPortsFourQuarters)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    decode_capture("-p 15 -c 302 -a 2 -x 2 -b 254 -n 40", 2);
}
