/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A reader for DPDK's bbdev test vectors (app/test-bbdev/*.data). It keeps
// the rules of DPDK's own reader (test_bbdev_vector.c) and the meaning
// rte_bbdev_op.h and the bbdev programmer's guide give the fields; no DPDK
// code is copied:
//   - lines starting with '#' or '/' and blank lines are skipped;
//   - an entry is "key =" and its value, continued on the next lines while
//     what was read so far ends with ',' (or with the '=' itself);
//   - data entries (input0, hard_output0, output0, ...) are comma-separated
//     hex numbers; a number of 2n hex digits is n bytes, least significant
//     first (DPDK stores them as uint32 in a little-endian host's memory),
//     so "0xa7d6732e, 0x61" is the bytes 2e 73 d6 a7 61;
//   - op_flags is a comma-separated list of RTE_BBDEV_* names.
// turbo_dec_op_of() and turbo_enc_op_of() then read turbo vectors with the
// meaning DPDK's turbo API gives their fields (see the structs below).
#ifndef INCLUDED_GPURX_SCH_TESTS_BBDEV_VECTOR_H
#define INCLUDED_GPURX_SCH_TESTS_BBDEV_VECTOR_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

struct bbdev_vector {
    std::string path;
    std::map<std::string, std::string> fields; //!< key -> value, lines joined, trimmed

    bool has(const std::string& key) const { return fields.count(key) != 0; }
    //! A decimal or 0x field; throws naming the file and key when absent or malformed.
    long number(const std::string& key) const;
    long number_or(const std::string& key, long fallback) const;
    //! A data entry's bytes in DPDK's memory order.
    std::vector<uint8_t> bytes(const std::string& key) const;
    //! True when op_flags names \p flag (e.g. "RTE_BBDEV_TURBO_CRC_TYPE_24B").
    bool flag(const std::string& flag) const;
};

//! Throws std::runtime_error naming the file (and line) on anything unreadable.
bbdev_vector read_bbdev_vector(const std::string& path);

//! \p nbits bits of packed bytes, each byte's most significant bit first
//! (DPDK's hard_output order).
std::vector<uint8_t> unpack_msb_first(const uint8_t* bytes, size_t nbits);

/*!
 * A turbo decoder vector (op_type RTE_BBDEV_OP_TURBO_DEC) as DPDK's
 * rte_bbdev_op_turbo_dec defines it. The input holds, per code block,
 * 3 K_pi int8 LLRs (K_pi = 32 ceil((K+4)/32)):
 *   - with RTE_BBDEV_TURBO_SUBBLOCK_DEINTERLEAVE, the virtual circular
 *     buffer w_k of 36.212 §5.1.4.1.2, <NULL> positions included (as 0):
 *     what rate dematching leaves, repetitions already combined, positions
 *     never sent 0;
 *   - without it, the three streams d(0), d(1), d(2), each K+4 LLRs at
 *     offset i K_pi (the software PMD reads them so, and the vectors pad
 *     each stream to K_pi with zeros).
 * The hard output is each block's K bits, packed MSB first, the blocks one
 * after the other; in TB mode with C > 1 each block's CRC24B is dropped
 * unless RTE_BBDEV_TURBO_DEC_TB_CRC_24B_KEEP.
 */
struct turbo_dec_op {
    struct block {
        int K;          //!< K (k, or k_neg / k_pos by c_neg in TB mode)
        int E;          //!< E (e, or ea / eb by cab in TB mode)
        size_t in_at;   //!< where its 3 K_pi input LLRs start
        size_t out_bit; //!< where its bits start in the hard output
        int out_bits;   //!< K, or K - 24 with the CRC24B dropped
    };
    std::vector<block> blocks; //!< the op's code blocks, r = tb r, r+1, ...
    int rv = 0;                //!< rv_index (default 0)
    int iter_max = 0;          //!< iter_max, or 0 when the vector has none
    bool circular = false;     //!< RTE_BBDEV_TURBO_SUBBLOCK_DEINTERLEAVE
    bool neg_llr = false;      //!< RTE_BBDEV_TURBO_NEG_LLR_1_BIT_IN (else POS)
    bool crc24b = false; //!< RTE_BBDEV_TURBO_CRC_TYPE_24B: check each block's CRC24B
    std::vector<int8_t> input;
    std::vector<uint8_t> hard; //!< expected hard output, unpacked (empty: none given)
};

//! Throws std::runtime_error for another op type, a missing field, an input
//! of the wrong size, or both or neither LLR sign flags.
turbo_dec_op turbo_dec_op_of(const bbdev_vector& v);

/*!
 * A turbo encoder vector (RTE_BBDEV_OP_TURBO_ENC) in CB mode: the input is
 * the block's bits packed MSB first, K of them, or K - 24 with
 * RTE_BBDEV_TURBO_CRC_24A/24B_ATTACH (the encoder appends the CRC). With
 * RTE_BBDEV_TURBO_RATE_MATCH the output is the E rate-matched bits, packed
 * MSB first, from k0 of rv_index, or from k0 = 0 with
 * RTE_BBDEV_TURBO_RV_INDEX_BYPASS.
 */
struct turbo_enc_op {
    int K = 0, E = 0, ncb = 0, rv = 0;
    bool rv_bypass = false;
    bool crc24a = false, crc24b = false; //!< the CRC the encoder attaches, if any
    std::vector<uint8_t> input;          //!< unpacked, K or K - 24 bits
    std::vector<uint8_t> output;         //!< unpacked, E bits
};

//! Throws std::runtime_error for another op type, TB mode, no rate
//! matching, or data of the wrong size.
turbo_enc_op turbo_enc_op_of(const bbdev_vector& v);

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
