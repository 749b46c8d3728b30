/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A rate-1/n convolutional code as the Viterbi family decodes it: constraint
// length, generator polynomials, termination and puncturing, validated, with
// its trellis tables.
//
// Polynomials are octal as the standards print them (K=7: 0133, 0171): the
// MOST significant of the K bits taps the CURRENT input bit, the least
// significant the oldest (3GPP, IEEE 802.11, IT++, MATLAB poly2trellis).
// gr-fec's cc_encoder writes the same polynomials bit-reversed over K bits
// (0133, 0171 -> 109, 79 decimal); polynomial_order::gr_fec accepts those.
//
// State: the K-1 previous input bits, the most recent in bit K-2 (the MSB),
// the oldest in bit 0. A step with input u from state s reads the register
// r = (u << (K-1)) | s, emits parity(r & poly_i) for each polynomial i and
// moves to r >> 1. So the input of a step is the MSB of the state it enters,
// and the predecessors of state s' are ((s' << 1) & mask) | {0, 1}.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_CODE_H
#define INCLUDED_GPURX_VITERBI_VITERBI_CODE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace viterbi {

//! How the encoder begins and ends a frame.
enum class termination : int32_t {
    terminated,  //!< starts in state 0; K-1 zero tail bits return it to state 0
    truncated,   //!< starts in state 0, no tail; the decoder takes the best end state
    tail_biting, //!< starts in the state of the last K-1 information bits, ends there
};

//! "terminated" | "truncated" | "tail-biting" (throws naming termination).
termination parse_termination(const std::string& name);
const char* termination_name(termination t);

//! How the polynomials are written.
enum class polynomial_order {
    msb_current, //!< the standards' order: the MSB taps the current input
    gr_fec,      //!< gr-fec cc_encoder's order: the LSB taps the current input
};

constexpr int min_K = 3, max_K = 9;
constexpr int min_rate_n = 2, max_rate_n = 4;

//! \p poly's K low bits in reverse order (converts between the two orders).
unsigned reverse_polynomial(unsigned poly, int K);

} // namespace viterbi

class viterbi_code
{
public:
    /*!
     * Throws std::invalid_argument naming the parameter and its value:
     * K outside 3..9; a polynomial count (the rate's n) outside 2..4; a
     * polynomial that is 0, that has bits at or above 2^K, or that taps
     * neither the current nor the oldest input bit (its degree is below K
     * at both ends); a code where no polynomial taps the oldest input bit or
     * none taps the current one (its constraint length is not K); a
     * puncture pattern whose length is not a multiple of n, that has values
     * other than 0 and 1, or that keeps no bit.
     * \param puncture keep (1) / drop (0) flags over the coded bits of
     *        consecutive steps, n per step in polynomial order, repeated
     *        with period puncture.size(); empty: keep everything
     */
    viterbi_code(int K,
                 const std::vector<unsigned>& polynomials,
                 viterbi::polynomial_order order = viterbi::polynomial_order::msb_current,
                 viterbi::termination term = viterbi::termination::terminated,
                 const std::vector<int>& puncture = {});

    int K() const { return d_K; }
    int n() const { return int(d_polys.size()); }
    int states() const { return 1 << (d_K - 1); }
    //! The polynomials in the standards' order, whatever order they came in.
    const std::vector<unsigned>& polynomials() const { return d_polys; }
    viterbi::termination term() const { return d_term; }
    //! The puncture pattern in effect (all ones, of length n, when none was given).
    const std::vector<int>& puncture() const { return d_puncture; }

    //! The state after input \p u from state \p s.
    int next_state(int s, int u) const { return ((u << (d_K - 1)) | s) >> 1; }
    //! The n coded bits of input \p u from state \p s: bit i is polynomial i's.
    unsigned outputs(int s, int u) const { return d_outputs[(size_t(s) << 1) | unsigned(u)]; }

    //! Trellis steps of a frame: frame_bits, + K-1 tail steps when terminated.
    int steps(int frame_bits) const;
    //! Coded bits on the channel for a frame (after puncturing).
    size_t coded_bits(int frame_bits) const;
    //! The shortest frame the code accepts: 1 bit, or K-1 when tail-biting
    //! (the encoder's start state is made of the last K-1 information bits).
    int min_frame_bits() const;
    //! Throws std::invalid_argument naming frame_bits outside
    //! min_frame_bits()..max_frame_bits.
    void check_frame_bits(int frame_bits) const;
    static constexpr int max_frame_bits = 1 << 24;

    /*!
     * The decoder's input: n * steps(frame_bits) LLRs, the n of each step
     * together, with the punctured positions as 0 (no information).
     * \p in holds coded_bits(frame_bits) values: float LLRs (soft), or hard
     * bits as bytes (0: bit 0, anything else: bit 1), which become LLRs of
     * -1 and +1 so that maximising the correlation metric minimises the
     * Hamming distance.
     */
    void depuncture(const float* in, int frame_bits, float* out) const;
    void depuncture_hard(const uint8_t* in, int frame_bits, float* out) const;
    void depuncture_int8(const int8_t* in, int frame_bits, float* out) const;
    //! The same as int8 (hard bits as -1 / +1), for integer decoders (cpu-simd).
    void depuncture_hard(const uint8_t* in, int frame_bits, int8_t* out) const;
    void depuncture_int8(const int8_t* in, int frame_bits, int8_t* out) const;

private:
    int d_K;
    std::vector<unsigned> d_polys;
    viterbi::termination d_term;
    std::vector<int> d_puncture;
    size_t d_kept_per_period;
    std::vector<unsigned> d_outputs; // [state * 2 + input]
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
