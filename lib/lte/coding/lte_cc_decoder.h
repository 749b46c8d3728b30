/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Decoding the tail-biting convolutional code of TS 36.212 §5.1.3.1 (BCH,
// DCI) with the project's Viterbi family, and the chain the PBCH and PDCCH
// share: rate de-matching (§5.1.4.2), decoding, and the CRC16 check
// (§5.1.1) whose result the callers compare with the masks of §5.3.1.1
// (ports) and §5.3.3.2 (RNTI).
//
// Tail-biting decoding is EXACT maximum likelihood: one Viterbi pass per
// start state (64), each constrained to end where it started, the best one
// wins (viterbi_simd / viterbi_reference, tail-biting termination). The
// default back-end is cpu-simd with float metrics: the same decisions as
// cpu-reference (double metrics) except where two paths are so close that
// float32 rounding orders them otherwise.
//
// A decoder object keeps its buffers and each K's rate matching pattern
// between calls (no allocation once a K has been seen) and is not thread-safe: use one per thread.
#ifndef INCLUDED_GPURX_LTE_CODING_LTE_CC_DECODER_H
#define INCLUDED_GPURX_LTE_CODING_LTE_CC_DECODER_H

#include "viterbi/viterbi_code.h"
#include "viterbi/viterbi_decoder.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The LTE code as the Viterbi family describes it (K=7, 133/171/165,
//! tail-biting).
viterbi_code lte_cc_code();

enum class cc_backend {
    simd,      //!< viterbi_simd, float metrics, exact (every start state: 64 passes)
    reference, //!< viterbi_reference, double metrics (slow, the family's truth)
    //! One pass of viterbi_simd over the frame extended circularly by
    //! cc_wrap_steps on each side, started in any state and ended in the
    //! best: near-maximum-likelihood, not exact, about 20x faster than the
    //! exact search at DCI sizes. For blind decoding, where the CRC and the
    //! re-encoding check decide (tests measure its agreement with simd).
    wrap_around,
};

//! Steps the wrap-around decoder repeats on each side of the frame (more
//! than 5 constraint lengths: its paths have merged by then).
constexpr int cc_wrap_steps = 60;

//! What decode_with_crc16 found.
struct cc_crc16_result {
    //! The received parity bits (MSB first) XOR the CRC16 computed over the
    //! decoded payload: the transmitter's mask when the payload is right
    //! (PBCH: pbch_crc_mask(ports); PDCCH: the RNTI), anything otherwise.
    uint16_t crc_xor = 0;
    //! The decoded path's correlation metric (sum of +-L/2, larger is better).
    double metric = 0.0;
};

class tail_biting_decoder
{
public:
    explicit tail_biting_decoder(cc_backend backend = cc_backend::simd);
    ~tail_biting_decoder();
    tail_biting_decoder(const tail_biting_decoder&) = delete;
    tail_biting_decoder& operator=(const tail_biting_decoder&) = delete;

    /*!
     * Decodes \p K information bits into \p bits (0/1) from the 3K LLRs
     * \p d_llr in cc_encode's order (cc_rate_dematch's output: per step
     * d0(k), d1(k), d2(k)). Non-finite LLRs are made finite first (NaN: 0).
     * Returns the path's metric and end (= start) state. Throws
     * std::invalid_argument naming K when K < 6.
     */
    viterbi_path decode(const float* d_llr, int K, uint8_t* bits);

    /*!
     * The whole receive chain of a BCH or DCI: rate de-matches the \p E
     * LLRs \p e_llr for K = payload_bits + 16, decodes, and checks the CRC.
     * Writes the K decoded bits to \p bits (the payload a_0.. first, then the
     * 16 received parity bits, as sent: re-encode them to check the
     * candidate). Throws std::invalid_argument naming payload_bits (< 1 or
     * above 4096) or E (< 1).
     */
    cc_crc16_result decode_with_crc16(const float* e_llr, int E, int payload_bits, uint8_t* bits);

    /*!
     * How well \p K decoded bits (payload and parity, as decode_with_crc16
     * writes them) explain the \p E soft bits \p e_llr they were decoded
     * from: reencoded_correlation's value, with this decoder's cached rate
     * matching pattern and buffers (no allocation once K has been seen).
     */
    float correlation(const uint8_t* bits, int K, const float* e_llr, int E);

    cc_backend backend() const { return d_backend; }
    //! The Viterbi decoder's registry name ("cpu-simd", "cpu-reference").
    const char* decoder_name() const;

    static constexpr int max_payload_bits = 4096;

private:
    // The rate matching pattern of each K met so far (cc_rate_match_pattern).
    const std::vector<int>& pattern_of(int K);
    //! d_llr's 3K LLRs decoded by the backend.
    viterbi_path run(int K, uint8_t* bits);

    cc_backend d_backend;
    std::unique_ptr<viterbi_decoder> d_viterbi;
    std::vector<float> d_ext_llr; // wrap_around: the extended frame
    std::vector<uint8_t> d_ext_bits;
    std::vector<float> d_llr;                   // 3K, finite
    std::vector<uint8_t> d_reencoded;           // correlation: 3K coded bits
    std::vector<std::vector<int>> d_patterns;   // [K], empty until met
};

/*!
 * Conveniences on a decoder of the calling thread's own (made on its first
 * call, default back-end): tail_biting_decoder::decode and
 * decode_with_crc16 with the same arguments, results and exceptions.
 */
viterbi_path cc_decode(const float* d_llr, int K, uint8_t* bits);
cc_crc16_result cc_decode_with_crc16(const float* e_llr, int E, int payload_bits, uint8_t* bits);
float cc_correlation(const uint8_t* bits, int K, const float* e_llr, int E);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
