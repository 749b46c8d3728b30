/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The receive chain against test vectors nobody here wrote: DPDK's bbdev
// turbo vectors (tests/data/bbdev; its README says what each exercises).
//
// A decoder vector gives per code block the LLRs a rate dematcher leaves in
// the circular buffer (or, without RTE_BBDEV_TURBO_SUBBLOCK_DEINTERLEAVE,
// the three coded streams) and the bits DPDK's decoder gives back. The test
// takes the LLRs the transmitter sent back out of the circular buffer, in
// the order they were sent, runs them through the family's rate dematching
// (circular_order(), dematch()) and the turbo decoder, and wants DPDK's
// bits exactly. An encoder vector with rate matching gives a block's bits
// and the E bits sent for an rv: they must be the family's circular order
// of the block's codeword, and, sent as LLRs, decode back to the block.
//
// Scale: DPDK's LLRs are int8 at full scale (its test application rescales
// them to each device's max_llr_modulus, 16 for the software decoder); they
// are taken here as the module's int8 LLRs unchanged, steps of 1/8 (the
// family's INPUT_INT8 kind), so +-127 is +-15.9: no rounding and no
// clipping, and the max-log-MAP decoders do not depend on the scale.
#include "bbdev_vector.h"
#include "sch/sch_arith.h"
#include "sch/sch_config.h"
#include "sch/sch_rate_match.h"
#include "sch/sch_steps.h"
#include "turbo/lte_crc.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_decoder_cpu.h"
#include "turbo/turbo_frame.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

using namespace gr::gpurx;
using namespace gr::gpurx::core;

namespace {

std::string path_of(const std::string& file)
{
    return std::string(GPURX_BBDEV_DIR) + "/" + file;
}
test::turbo_dec_op load_dec(const std::string& file)
{
    return test::turbo_dec_op_of(test::read_bbdev_vector(path_of(file)));
}
test::turbo_enc_op load_enc(const std::string& file)
{
    return test::turbo_enc_op_of(test::read_bbdev_vector(path_of(file)));
}

const char* const circular_vectors[] = {
    "turbo_dec_c1_k40_r0_e17280_sbd_negllr.data",
    "turbo_dec_c1_k6144_r0_e10376_crc24b_sbd_negllr_high_snr.data",
    "turbo_dec_c1_k6144_r0_e10376_crc24b_sbd_negllr_low_snr.data",
    "turbo_dec_c1_k6144_r0_e34560_sbd_negllr.data",
    "turbo_dec_c1_k6144_r0_e34560_sbd_posllr.data",
    "turbo_dec_c2_k3136_r0_e4920_sbd_negllr_crc24b.data",
};
// The three-stream vector carries no hard output: it is the e34560 negllr
// vector's codeword (StreamVectorIsTheCircularVectorDeinterleaved), so
// that vector's bits are expected.
const char* const stream_vector = "turbo_dec_c1_k6144_r0_e34560_posllr.data";
const char* const stream_twin = "turbo_dec_c1_k6144_r0_e34560_sbd_negllr.data";
// Rate matching for rv 0, 2, 3, and from k0 = 0 (RV_INDEX_BYPASS, rv 1).
const char* const encoder_vectors[] = {
    "turbo_enc_c1_k40_r0_e1190_rm.data",
    "turbo_enc_c1_k40_r0_e1194_rm.data",
    "turbo_enc_c1_k40_r0_e1196_rm.data",
    "turbo_enc_c1_k40_r0_e272_rm.data",
    "turbo_enc_c1_k6144_r0_e32256_crc24b_rm.data",
    "turbo_enc_c1_k6144_r0_e120_rm_rvidx.data",
};

//! An LLR in this module's convention (L = ln P(1)/P(0), positive for 1):
//! NEG_LLR_1_BIT_IN vectors have it the other way round. -128 saturates to
//! -127 first, as the family's int8 input does.
int8_t ours(int8_t v, bool neg)
{
    const int x = v < -127 ? -127 : v;
    return int8_t(neg ? -x : x);
}

//! k0 of 36.212 §5.1.4.1.2: R (2 ceil(N_cb / 8R) rv + 2).
int k0_of(int K, int ncb, int rv)
{
    const int R = sch::subblock_rows(K);
    return R * (2 * ((ncb + 8 * R - 1) / (8 * R)) * rv + 2);
}

//! Circular-buffer positions of one lap of bits sent from k0, <NULL>s skipped.
std::vector<int> sent_positions(int K, int ncb, int k0)
{
    std::vector<int> at;
    for (int j = 0; j < ncb; j++) {
        const int w = (k0 + j) % ncb;
        if (sch::circular_to_codeword(K, 0, w) >= 0)
            at.push_back(w);
    }
    return at;
}

//! One code block as received: its shape and the LLRs of the bits sent,
//! in the order they were sent.
struct rx_block {
    int K, ncb, k0;
    std::vector<int8_t> sent;
};

struct block_result {
    std::vector<uint8_t> bits;
    int iterations;
};

//! The decoder as the family runs it (sch_config's turbo settings: scaled
//! max-log-MAP in 16-bit fixed point), with the vector's iteration limit
//! and, where the blocks carry CRC24B, the family's early stop on it.
turbo_config decoder_config(int iterations, bool crc24b)
{
    turbo_config t = sch_config{}.turbo_for(false);
    t.iterations = iterations > 0 ? iterations : 8;
    if (!crc24b)
        t.stop = turbo::early_stop::none;
    return t;
}

/*!
 * The family's receive steps for a TB of these blocks: one frame_params
 * built by hand (no filler bits; E_lo / E_hi the first and last block's E,
 * as Ea / Eb), the LLRs laid out as descramble() leaves them (DPDK's
 * vectors are not scrambled), dematch() per block, the turbo decoder.
 */
std::vector<block_result> receive(const std::vector<rx_block>& blocks,
                                  const turbo_config& cfg,
                                  const std::string& file)
{
    const int C = int(blocks.size());
    sch::frame_params p{};
    p.C = C;
    p.Kp = blocks.back().K;
    p.Cm = 0;
    while (p.Cm < C && blocks[size_t(p.Cm)].K != p.Kp)
        p.Cm++;
    p.Km = p.Cm ? blocks[0].K : 0;
    p.F = 0;
    p.E_lo = int32_t(blocks.front().sent.size());
    p.E_hi = int32_t(blocks.back().sent.size());
    p.gamma = 0;
    while (p.E_lo != p.E_hi && p.gamma < C &&
           blocks[size_t(C - 1 - p.gamma)].sent.size() == size_t(p.E_hi))
        p.gamma++;
    p.ncb_p = blocks.back().ncb;
    p.k0_p = blocks.back().k0 % blocks.back().ncb; // the record holds k0 mod N_cb
    p.ncb_m = blocks.front().ncb;
    p.k0_m = blocks.front().k0 % blocks.front().ncb;
    p.channel = sch::DLSCH;
    p.qm = 2;
    p.nlqm = 2;
    p.input = turbo::INPUT_INT8;
    p.harq_slot = -1;
    p.combine = 0;
    p.G = 0;
    for (const auto& b : blocks)
        p.G += int32_t(b.sent.size());
    std::vector<int8_t> descrambled(size_t(p.G));
    for (int r = 0; r < C; r++) {
        const auto& b = blocks[size_t(r)];
        // the hand-built record must give each block its own shape back
        EXPECT_EQ(sch::cb_K(p, r), b.K) << file;
        EXPECT_EQ(size_t(sch::cb_E(p, r)), b.sent.size()) << file;
        EXPECT_EQ(sch::cb_k0(p, r), b.k0 % b.ncb) << file;
        std::copy(
            b.sent.begin(), b.sent.end(), descrambled.begin() + sch::cb_offset(p, r));
    }
    turbo_decoder_cpu dec(cfg);
    std::vector<block_result> out;
    std::vector<int8_t> llr(sch::MAX_CB_LLRS);
    std::vector<int32_t> sums(sch::MAX_CB_LLRS);
    for (int r = 0; r < C; r++) {
        const auto& b = blocks[size_t(r)];
        const auto order = sch::circular_order(b.K, 0, b.ncb, b.k0 % b.ncb);
        sch::dematch(p,
                     r,
                     descrambled.data(),
                     order.data(),
                     order.size(),
                     nullptr,
                     nullptr,
                     llr.data(),
                     sums.data());
        block_result br;
        br.bits.resize(size_t(b.K));
        br.iterations =
            dec.decode_int8(llr.data(), b.K, 1.0f / 8.0f, br.bits.data(), nullptr)
                .iterations;
        out.push_back(br);
    }
    return out;
}

//! Counts the bits that differ, and prints the vector's line of the report.
int compare(const std::string& file,
            size_t r,
            const std::string& shape,
            const uint8_t* want,
            const block_result& got,
            size_t n,
            const char* crc)
{
    int wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += want[i] != got.bits[i];
    std::printf(
        "bbdev %s block %zu: %s, %s, %d iterations: %s\n",
        file.c_str(),
        r,
        shape.c_str(),
        crc,
        got.iterations,
        wrong
            ? (std::to_string(wrong) + " of " + std::to_string(n) + " bits wrong").c_str()
            : "bits as expected");
    return wrong;
}

std::string shape_of(int K, int E, int rv, int ncb, int k0)
{
    return "K=" + std::to_string(K) + " E=" + std::to_string(E) +
           " rv=" + std::to_string(rv) + " ncb=" + std::to_string(ncb) +
           " k0=" + std::to_string(k0);
}

// --- what the format means, checked on the data itself -------------------

// Where DPDK's generator put nonzero LLRs in the circular buffer must be
// where this family's rate matching sends bits: k0 from rv, E (Ea/Eb in TB
// mode), and the <NULL> positions (dummy bits) all agree.
TEST(BbdevFormat, ReceivedLlrsLieWhereRateMatchingSendsThem)
{
    for (const char* file : circular_vectors) {
        const auto op = load_dec(file);
        for (const auto& b : op.blocks) {
            const int ncb = sch::circular_length(b.K);
            const auto at = sent_positions(b.K, ncb, k0_of(b.K, ncb, op.rv));
            const size_t E = std::min(size_t(b.E), at.size());
            std::vector<char> sent(size_t(ncb), 0);
            for (size_t e = 0; e < E; e++)
                sent[size_t(at[e])] = 1;
            int outside = 0;
            for (int w = 0; w < ncb; w++)
                outside += op.input[b.in_at + size_t(w)] != 0 && !sent[size_t(w)];
            EXPECT_EQ(outside, 0) << file << " K=" << b.K << " E=" << b.E;
            // and the window is filled to its end: it is not longer either
            size_t zeros = 0, last = 0;
            for (size_t e = 0; e < E; e++) {
                if (op.input[b.in_at + size_t(at[e])] == 0)
                    zeros++;
                else
                    last = e;
            }
            EXPECT_LT(zeros, E / 50) << file;
            EXPECT_GE(last + 8, E) << file;
        }
    }
}

// DPDK's hard output is K bits a block, each byte's most significant bit
// first: read so, blocks flagged CRC24B check, and the K = 40 block (no CRC
// flagged) is a 16-bit transport block with its CRC24A.
TEST(BbdevFormat, ExpectedBitsCarryTheirCrcsMsbFirst)
{
    int checked = 0;
    for (const char* file : circular_vectors) {
        const auto op = load_dec(file);
        for (const auto& b : op.blocks) {
            const uint8_t* bits = op.hard.data() + b.out_bit;
            if (op.crc24b) {
                EXPECT_TRUE(crc24_check(bits, size_t(b.K), crc24_type::b)) << file;
                checked++;
            }
            if (b.K == 40) {
                EXPECT_TRUE(crc24_check(bits, 40, crc24_type::a)) << file;
                // the other bit order does not check: the test tells them apart
                std::vector<uint8_t> lsb(40);
                for (int i = 0; i < 40; i++)
                    lsb[size_t(i)] = bits[(i / 8) * 8 + 7 - i % 8];
                EXPECT_FALSE(crc24_check(lsb.data(), 40, crc24_type::a)) << file;
                checked++;
            }
        }
    }
    EXPECT_EQ(checked, 5); // high and low SNR, the two TB blocks, K = 40
}

// The three-stream vector is the circular-buffer vector's LLRs, sub-block
// deinterleaved and negated (POS vs NEG_LLR_1_BIT_IN): the family's
// circular-buffer map takes every one of the 18444 LLRs of K = 6144 to the
// stream position DPDK's generator did. Each stream is K+4 LLRs padded with
// zeros to K_pi.
TEST(BbdevFormat, StreamVectorIsTheCircularVectorDeinterleaved)
{
    const auto s = load_dec(stream_vector), c = load_dec(stream_twin);
    ASSERT_FALSE(s.circular);
    ASSERT_TRUE(c.circular);
    ASSERT_EQ(s.blocks.size(), 1u);
    const int K = s.blocks[0].K, Kpi = sch::circular_length(K) / 3;
    ASSERT_EQ(s.input.size(), c.input.size());
    int same = 0, pads = 0;
    for (int w = 0; w < 3 * Kpi; w++) {
        const int cw = sch::circular_to_codeword(K, 0, w);
        if (cw < 0)
            continue;
        const int i = cw % 3, k = cw / 3;
        same += ours(s.input[size_t(i * Kpi + k)], s.neg_llr) ==
                ours(c.input[size_t(w)], c.neg_llr);
    }
    for (int i = 0; i < 3; i++)
        for (int k = K + 4; k < Kpi; k++)
            pads += s.input[size_t(i * Kpi + k)] == 0;
    EXPECT_EQ(same, 3 * K + 12);
    EXPECT_EQ(pads, 3 * (Kpi - K - 4));
}

// --- decoder vectors ------------------------------------------------------

class CircularVector : public ::testing::TestWithParam<const char*>
{
};

TEST_P(CircularVector, DecodesToTheExpectedBits)
{
    const std::string file = GetParam();
    const auto op = load_dec(file);
    ASSERT_TRUE(op.circular);
    ASSERT_FALSE(op.hard.empty());
    std::vector<rx_block> blocks;
    for (const auto& b : op.blocks) {
        rx_block x;
        x.K = b.K;
        x.ncb = sch::circular_length(b.K);
        x.k0 = k0_of(b.K, x.ncb, op.rv);
        // Past one lap DPDK's buffer holds the repetitions' sums, which
        // cannot be taken apart again: one lap of it is what was sent.
        const auto at = sent_positions(b.K, x.ncb, x.k0);
        for (size_t e = 0; e < std::min(size_t(b.E), at.size()); e++)
            x.sent.push_back(ours(op.input[b.in_at + size_t(at[e])], op.neg_llr));
        blocks.push_back(x);
    }
    const auto got = receive(blocks, decoder_config(op.iter_max, op.crc24b), file);
    for (size_t r = 0; r < got.size(); r++) {
        const auto& b = op.blocks[r];
        bool crc = true;
        if (op.crc24b) {
            crc = crc24_check(got[r].bits.data(), size_t(b.K), crc24_type::b);
            EXPECT_TRUE(crc) << file << " block " << r;
        }
        EXPECT_EQ(compare(file,
                          r,
                          shape_of(b.K, b.E, op.rv, blocks[r].ncb, blocks[r].k0),
                          op.hard.data() + b.out_bit,
                          got[r],
                          size_t(b.out_bits),
                          op.crc24b ? (crc ? "CRC24B checks" : "CRC24B FAILS")
                                    : "no CRC flagged"),
                  0)
            << file << " block " << r;
    }
}

std::string test_name(const ::testing::TestParamInfo<const char*>& i)
{
    std::string n = i.param;
    n = n.substr(0, n.find('.'));
    for (auto& ch : n)
        if (!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(Dpdk,
                         CircularVector,
                         ::testing::ValuesIn(circular_vectors),
                         test_name);

// Without sub-block deinterleaving there is no rate matching to undo: the
// streams are the decoder's input as they are, c[3k+i] = d(i)_k.
TEST(StreamVector, DecodesToItsTwinsBits)
{
    const auto op = load_dec(stream_vector);
    ASSERT_FALSE(op.circular);
    const auto expected = load_dec(stream_twin).hard;
    const auto& b = op.blocks.at(0);
    const int Kpi = sch::circular_length(b.K) / 3;
    std::vector<int8_t> llr(3 * size_t(b.K) + 12);
    for (int k = 0; k < b.K + 4; k++)
        for (int i = 0; i < 3; i++)
            llr[size_t(3 * k + i)] =
                ours(op.input[b.in_at + size_t(i * Kpi + k)], op.neg_llr);
    turbo_decoder_cpu dec(decoder_config(op.iter_max, op.crc24b));
    block_result got;
    got.bits.resize(size_t(b.K));
    got.iterations =
        dec.decode_int8(llr.data(), b.K, 1.0f / 8.0f, got.bits.data(), nullptr)
            .iterations;
    const std::string shape =
        "K=" + std::to_string(b.K) + " E=" + std::to_string(b.E) + " three streams";
    EXPECT_EQ(
        compare(
            stream_vector, 0, shape, expected.data(), got, size_t(b.K), "no CRC flagged"),
        0);
}

// --- encoder vectors: rate matching for rv 0, 2, 3 and k0 = 0 -------------

//! The K bits DPDK's encoder codes: its input, and the CRC it attaches.
std::vector<uint8_t> block_of(const test::turbo_enc_op& op)
{
    std::vector<uint8_t> bits(op.input);
    bits.resize(size_t(op.K));
    if (op.crc24a || op.crc24b)
        crc24_attach(
            bits.data(), size_t(op.K - 24), op.crc24a ? crc24_type::a : crc24_type::b);
    return bits;
}

int k0_of(const test::turbo_enc_op& op)
{
    return op.rv_bypass ? 0 : k0_of(op.K, op.ncb, op.rv);
}

TEST(BbdevRateMatch, SentBitsFollowTheFamilysCircularOrder)
{
    for (const char* file : encoder_vectors) {
        const auto op = load_enc(file);
        const auto block = block_of(op);
        lte_turbo_encoder enc(op.K);
        std::vector<uint8_t> cw(size_t(enc.codeword_length()));
        enc.encode(block.data(), cw.data());
        const int k0 = k0_of(op);
        const auto order = sch::circular_order(op.K, 0, op.ncb, k0 % op.ncb);
        int wrong = 0;
        for (size_t e = 0; e < size_t(op.E); e++)
            wrong += op.output[e] != cw[size_t(order[e % order.size()])];
        EXPECT_EQ(wrong, 0) << file;
        std::printf("bbdev %s: %s%s: %d of %d sent bits differ\n",
                    file,
                    shape_of(op.K, op.E, op.rv, op.ncb, k0).c_str(),
                    op.rv_bypass ? " (rv bypassed)" : "",
                    wrong,
                    op.E);
    }
}

class EncoderVector : public ::testing::TestWithParam<const char*>
{
};

// The sent bits as hard-decision LLRs (+-2, repetitions summed by
// dematch()) decode back to the block: the chain places an rv's bits.
TEST_P(EncoderVector, DecodesBackToItsBlock)
{
    const std::string file = GetParam();
    const auto op = load_enc(file);
    rx_block x;
    x.K = op.K;
    x.ncb = op.ncb;
    x.k0 = k0_of(op);
    for (uint8_t bit : op.output)
        x.sent.push_back(int8_t(bit ? 16 : -16));
    const auto got = receive({ x }, decoder_config(8, op.crc24b), file);
    const auto block = block_of(op);
    EXPECT_EQ(compare(file,
                      0,
                      shape_of(op.K, op.E, op.rv, op.ncb, x.k0),
                      block.data(),
                      got[0],
                      size_t(op.K),
                      op.crc24b ? "CRC24B attached" : "no CRC attached"),
              0);
}

// Not the k0 = 0 vector: its 120 bits of a K = 6144 block cannot decode.
INSTANTIATE_TEST_SUITE_P(Dpdk,
                         EncoderVector,
                         ::testing::ValuesIn(std::begin(encoder_vectors),
                                             std::end(encoder_vectors) - 1),
                         test_name);

} // namespace
