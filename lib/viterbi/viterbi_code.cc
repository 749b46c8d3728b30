/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_code.h"

#include <sstream>
#include <stdexcept>
#include <utility>

namespace gr {
namespace gpurx {
namespace core {

namespace viterbi {

termination parse_termination(const std::string& name)
{
    if (name == "terminated")
        return termination::terminated;
    if (name == "truncated")
        return termination::truncated;
    if (name == "tail-biting")
        return termination::tail_biting;
    throw std::invalid_argument(
        "termination must be \"terminated\", \"truncated\" or \"tail-biting\", got \"" + name + "\"");
}

const char* termination_name(termination t)
{
    switch (t) {
    case termination::terminated:
        return "terminated";
    case termination::truncated:
        return "truncated";
    default:
        return "tail-biting";
    }
}

unsigned reverse_polynomial(unsigned poly, int K)
{
    unsigned r = 0;
    for (int b = 0; b < K; b++)
        if (poly & (1u << b))
            r |= 1u << (K - 1 - b);
    return r;
}

} // namespace viterbi

namespace {

std::string octal(unsigned v)
{
    std::ostringstream s;
    s << "0" << std::oct << v << " (" << std::dec << v << " decimal)";
    return s.str();
}

int gf2_degree(unsigned p)
{
    int d = -1;
    for (; p; p >>= 1)
        d++;
    return d;
}

// The greatest common divisor of two polynomials over GF(2), as bit masks
// (bit i: the coefficient of x^i).
unsigned gf2_gcd(unsigned a, unsigned b)
{
    while (b) {
        const int db = gf2_degree(b);
        for (int da = gf2_degree(a); a && da >= db; da = gf2_degree(a))
            a ^= b << (da - db);
        std::swap(a, b);
    }
    return a;
}

unsigned parity(unsigned v)
{
    v ^= v >> 16;
    v ^= v >> 8;
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1u;
}

} // namespace

viterbi_code::viterbi_code(int K,
                           const std::vector<unsigned>& polynomials,
                           viterbi::polynomial_order order,
                           viterbi::termination term,
                           const std::vector<int>& puncture)
    : d_K(K), d_term(term)
{
    using viterbi::polynomial_order;
    if (K < viterbi::min_K || K > viterbi::max_K)
        throw std::invalid_argument("K (constraint length) must be in 3..9, got " + std::to_string(K));
    const size_t n = polynomials.size();
    if (n < size_t(viterbi::min_rate_n) || n > size_t(viterbi::max_rate_n))
        throw std::invalid_argument("polynomials: the rate must be 1/n with n in 2..4 (one polynomial "
                                    "per coded bit), got " +
                                    std::to_string(n) + " polynomials");
    const char* order_name = order == polynomial_order::gr_fec ? "gr-fec order" : "standard order";
    const unsigned current = 1u << (K - 1), oldest = 1u;
    unsigned any_tap = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned p = polynomials[i];
        const std::string which = "polynomials[" + std::to_string(i) + "] = " + octal(p);
        if (p == 0)
            throw std::invalid_argument(which + " is all zero: it would emit no information");
        if (p >= (1u << K))
            throw std::invalid_argument(which + " has degree K or more: it must be below 2^K = " +
                                        std::to_string(1u << K) + " for K = " + std::to_string(K));
        const unsigned std_p = order == polynomial_order::gr_fec ? viterbi::reverse_polynomial(p, K) : p;
        if (!(std_p & current) && !(std_p & oldest))
            throw std::invalid_argument(which + " (" + order_name +
                                        ") taps neither the current nor the oldest input bit: "
                                        "its degree is below K = " +
                                        std::to_string(K));
        d_polys.push_back(std_p);
        any_tap |= std_p;
    }
    if (!(any_tap & current))
        throw std::invalid_argument("polynomials: none taps the current input bit (" +
                                    std::string(order_name) + "), so the code's constraint length is not K = " +
                                    std::to_string(K));
    if (!(any_tap & oldest))
        throw std::invalid_argument("polynomials: none taps the oldest input bit (" +
                                    std::string(order_name) + "), so the code's constraint length is not K = " +
                                    std::to_string(K));
    // A catastrophic code (Massey and Sain: the generators' gcd over GF(2)
    // is not a power of x) maps some infinite-weight input to a
    // finite-weight output: a few channel errors can then flip unboundedly
    // many decoded bits. Identical polynomials are one such code. Which bit
    // order the masks are read in does not matter: reversing every
    // polynomial reverses their gcd, and a power of x stays one.
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (d_polys[i] == d_polys[j])
                throw std::invalid_argument("polynomials[" + std::to_string(i) + "] and [" +
                                            std::to_string(j) + "] are the same, " +
                                            octal(polynomials[i]) +
                                            ": the code is catastrophic (a few channel errors can "
                                            "flip unboundedly many decoded bits)");
    unsigned g = d_polys[0];
    for (size_t i = 1; i < n; i++)
        g = gf2_gcd(g, d_polys[i]);
    if (g & (g - 1)) {
        std::string list;
        for (size_t i = 0; i < n; i++)
            list += (i ? ", " : "") + octal(polynomials[i]);
        throw std::invalid_argument("polynomials " + list + " (" + order_name +
                                    ") make a catastrophic code: they share the factor " +
                                    octal(g >> gf2_degree(g & (~g + 1u))) +
                                    " over GF(2) (their gcd is not a power of x), so a few channel "
                                    "errors can flip unboundedly many decoded bits");
    }

    if (puncture.empty()) {
        d_puncture.assign(n, 1);
    } else {
        if (puncture.size() % n != 0)
            throw std::invalid_argument("puncture: the pattern covers whole steps of n = " +
                                        std::to_string(n) + " coded bits, got " +
                                        std::to_string(puncture.size()) + " values");
        for (size_t j = 0; j < puncture.size(); j++)
            if (puncture[j] != 0 && puncture[j] != 1)
                throw std::invalid_argument("puncture[" + std::to_string(j) + "] must be 0 or 1, got " +
                                            std::to_string(puncture[j]));
        d_puncture = puncture;
    }
    d_kept_per_period = 0;
    for (int v : d_puncture)
        d_kept_per_period += size_t(v);
    if (d_kept_per_period == 0)
        throw std::invalid_argument("puncture: the pattern keeps no coded bit");

    d_outputs.resize(size_t(states()) * 2);
    for (int s = 0; s < states(); s++)
        for (int u = 0; u < 2; u++) {
            const unsigned r = (unsigned(u) << (K - 1)) | unsigned(s);
            unsigned o = 0;
            for (size_t i = 0; i < n; i++)
                o |= parity(r & d_polys[i]) << i;
            d_outputs[(size_t(s) << 1) | unsigned(u)] = o;
        }
}

int viterbi_code::steps(int frame_bits) const
{
    return frame_bits + (d_term == viterbi::termination::terminated ? d_K - 1 : 0);
}

size_t viterbi_code::coded_bits(int frame_bits) const
{
    const size_t total = size_t(steps(frame_bits)) * size_t(n());
    const size_t period = d_puncture.size();
    size_t kept = (total / period) * d_kept_per_period;
    for (size_t j = 0; j < total % period; j++)
        kept += size_t(d_puncture[j]);
    return kept;
}

int viterbi_code::min_frame_bits() const
{
    return d_term == viterbi::termination::tail_biting ? d_K - 1 : 1;
}

void viterbi_code::check_frame_bits(int frame_bits) const
{
    if (frame_bits < min_frame_bits() || frame_bits > max_frame_bits) {
        std::string why = "frame_bits must be in " + std::to_string(min_frame_bits()) + ".." +
                          std::to_string(max_frame_bits);
        if (d_term == viterbi::termination::tail_biting)
            why += " (a tail-biting frame needs at least K-1 = " + std::to_string(d_K - 1) +
                   " bits: its start state is made of the last K-1 information bits)";
        throw std::invalid_argument(why + ", got " + std::to_string(frame_bits));
    }
}

namespace {

// The depunctured sequence: converted channel values where the pattern
// keeps a bit, 0 where it dropped one. A running pattern position instead
// of j % period, and a plain (vectorisable) loop when nothing is dropped:
// at cpu-simd's speed the division per value cost more than the decoding.
template <typename In, typename Out, typename Convert>
void depuncture_with(const std::vector<int>& pattern, bool all_kept, size_t total, const In* in, Out* out, Convert convert)
{
    if (all_kept) {
        for (size_t j = 0; j < total; j++)
            out[j] = convert(in[j]);
        return;
    }
    for (size_t j = 0, k = 0, p = 0; j < total; j++) {
        out[j] = pattern[p] ? convert(in[k++]) : Out(0);
        if (++p == pattern.size())
            p = 0;
    }
}

} // namespace

void viterbi_code::depuncture(const float* in, int frame_bits, float* out) const
{
    const size_t total = size_t(steps(frame_bits)) * size_t(n());
    depuncture_with(d_puncture, d_kept_per_period == d_puncture.size(), total, in, out, [](float v) { return v; });
}

void viterbi_code::depuncture_hard(const uint8_t* in, int frame_bits, float* out) const
{
    const size_t total = size_t(steps(frame_bits)) * size_t(n());
    depuncture_with(d_puncture, d_kept_per_period == d_puncture.size(), total, in, out,
                    [](uint8_t v) { return v ? 1.0f : -1.0f; });
}

void viterbi_code::depuncture_int8(const int8_t* in, int frame_bits, float* out) const
{
    const size_t total = size_t(steps(frame_bits)) * size_t(n());
    depuncture_with(d_puncture, d_kept_per_period == d_puncture.size(), total, in, out,
                    [](int8_t v) { return float(v); });
}

void viterbi_code::depuncture_hard(const uint8_t* in, int frame_bits, int8_t* out) const
{
    const size_t total = size_t(steps(frame_bits)) * size_t(n());
    depuncture_with(d_puncture, d_kept_per_period == d_puncture.size(), total, in, out,
                    [](uint8_t v) { return int8_t(v ? 1 : -1); });
}

void viterbi_code::depuncture_int8(const int8_t* in, int frame_bits, int8_t* out) const
{
    const size_t total = size_t(steps(frame_bits)) * size_t(n());
    depuncture_with(d_puncture, d_kept_per_period == d_puncture.size(), total, in, out,
                    [](int8_t v) { return v; });
}

} // namespace core
} // namespace gpurx
} // namespace gr
