/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/coding/lte_cc_decoder.h"

#include "lte/coding/lte_cc.h"
#include "lte/coding/lte_crc16.h"
#include "viterbi/viterbi_reference.h"
#include "viterbi/viterbi_simd.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

viterbi_code lte_cc_code()
{
    return viterbi_code(cc_constraint_length,
                        { cc_generators[0], cc_generators[1], cc_generators[2] },
                        viterbi::polynomial_order::msb_current,
                        viterbi::termination::tail_biting);
}

namespace {

std::unique_ptr<viterbi_decoder> make_viterbi(cc_backend backend)
{
    const viterbi_code code = lte_cc_code();
    switch (backend) {
    case cc_backend::simd: return std::make_unique<viterbi_simd>(code);
    case cc_backend::reference: return std::make_unique<viterbi_reference>(code);
    case cc_backend::wrap_around:
        // The same code, not tail-biting: the extended frame starts anywhere.
        return std::make_unique<viterbi_simd>(viterbi_code(cc_constraint_length,
                                                           { cc_generators[0], cc_generators[1], cc_generators[2] },
                                                           viterbi::polynomial_order::msb_current,
                                                           viterbi::termination::truncated));
    }
    throw std::invalid_argument("backend=" + std::to_string(int(backend)) + " is not a cc_backend");
}

float finite_llr(float v)
{
    return std::isnan(v) ? 0.0f : std::fmin(std::fmax(v, -cc_llr_limit), cc_llr_limit);
}

void check_K(int K)
{
    if (K < cc_min_bits || K > tail_biting_decoder::max_payload_bits + 16)
        throw std::invalid_argument("K=" + std::to_string(K) + " is not in " + std::to_string(cc_min_bits) +
                                    ".." + std::to_string(tail_biting_decoder::max_payload_bits + 16));
}

} // namespace

tail_biting_decoder::tail_biting_decoder(cc_backend backend)
    : d_backend(backend), d_viterbi(make_viterbi(backend))
{
}

tail_biting_decoder::~tail_biting_decoder() = default;

const std::vector<int>& tail_biting_decoder::pattern_of(int K)
{
    if (d_patterns.size() <= size_t(K))
        d_patterns.resize(size_t(K) + 1);
    std::vector<int>& p = d_patterns[size_t(K)];
    if (p.empty())
        cc_rate_match_pattern(K, p);
    return p;
}

const char* tail_biting_decoder::decoder_name() const { return d_viterbi->name(); }

viterbi_path tail_biting_decoder::decode(const float* d_llr_in, int K, uint8_t* bits)
{
    check_K(K);
    const size_t n = size_t(3) * K;
    if (d_llr.size() < n)
        d_llr.resize(n);
    for (size_t i = 0; i < n; i++)
        d_llr[i] = finite_llr(d_llr_in[i]);
    return run(K, bits);
}

viterbi_path tail_biting_decoder::run(int K, uint8_t* bits)
{
    if (d_backend != cc_backend::wrap_around)
        return d_viterbi->decode(d_llr.data(), K, bits);
    // [last W steps | the frame | first W steps], circularly (W may exceed
    // K: the frame repeats). The truncated code starts in state 0: the
    // first W steps are where that wrong start is forgotten, the last W
    // where the best end state is decided; the middle K bits are kept.
    const int W = cc_wrap_steps, steps = K + 2 * W;
    d_ext_llr.resize(size_t(3) * size_t(steps));
    d_ext_bits.resize(size_t(steps));
    for (int i = 0; i < steps; i++) {
        const int k = (((i - W) % K) + K) % K;
        for (int j = 0; j < 3; j++)
            d_ext_llr[size_t(3 * i + j)] = d_llr[size_t(3 * k + j)];
    }
    viterbi_path p = d_viterbi->decode(d_ext_llr.data(), steps, d_ext_bits.data());
    std::copy(d_ext_bits.begin() + W, d_ext_bits.begin() + W + K, bits);
    return p;
}

cc_crc16_result tail_biting_decoder::decode_with_crc16(const float* e_llr, int E, int payload_bits, uint8_t* bits)
{
    if (payload_bits < 1 || payload_bits > max_payload_bits)
        throw std::invalid_argument("payload_bits=" + std::to_string(payload_bits) + " is not in 1.." +
                                    std::to_string(max_payload_bits));
    if (E < 1)
        throw std::invalid_argument("E=" + std::to_string(E) + " is not positive");
    const int K = payload_bits + 16;
    const size_t n = size_t(3) * K;
    if (d_llr.size() < n)
        d_llr.resize(n);
    // Rate de-matching with the K's cached pattern (e_k = d[pattern[k mod
    // 3K]]): cc_rate_dematch's result without its per-bit index arithmetic.
    // Every LLR ends finite, within E / (3K) times cc_llr_limit, so the
    // Viterbi decoder can take it as it is.
    const std::vector<int>& pattern = pattern_of(K);
    std::fill(d_llr.begin(), d_llr.begin() + n, 0.0f);
    for (int k = 0, j = 0; k < E; k++, j = (j + 1 == int(n)) ? 0 : j + 1)
        d_llr[size_t(pattern[j])] += finite_llr(e_llr[k]);
    cc_crc16_result r;
    r.metric = run(K, bits).metric;
    const uint16_t received = uint16_t(bits_to_value(bits + payload_bits, 16));
    r.crc_xor = uint16_t(received ^ crc16(bits, payload_bits));
    return r;
}

float tail_biting_decoder::correlation(const uint8_t* bits, int K, const float* e_llr, int E)
{
    check_K(K);
    if (E < 1)
        throw std::invalid_argument("E=" + std::to_string(E) + " is not positive");
    const size_t n = size_t(3) * K;
    if (d_reencoded.size() < n)
        d_reencoded.resize(n);
    cc_encode(bits, K, d_reencoded.data());
    const std::vector<int>& pattern = pattern_of(K);
    // e_k = d[pattern[k mod 3K]] (lte_cc.h); s_k = +1 for bit 1.
    float dot = 0.0f, energy = 0.0f;
    for (int k = 0, j = 0; k < E; k++, j = (j + 1 == int(n)) ? 0 : j + 1) {
        const float l = std::isfinite(e_llr[k]) ? e_llr[k] : 0.0f;
        dot += d_reencoded[size_t(pattern[size_t(j)])] ? l : -l;
        energy += l * l;
    }
    if (!(energy > 0.0f) || !std::isfinite(energy))
        return 0.0f;
    return float(double(dot) / std::sqrt(double(E) * double(energy)));
}

namespace {
tail_biting_decoder& thread_decoder()
{
    thread_local tail_biting_decoder dec;
    return dec;
}
} // namespace

viterbi_path cc_decode(const float* d_llr, int K, uint8_t* bits) { return thread_decoder().decode(d_llr, K, bits); }

cc_crc16_result cc_decode_with_crc16(const float* e_llr, int E, int payload_bits, uint8_t* bits)
{
    return thread_decoder().decode_with_crc16(e_llr, E, payload_bits, bits);
}

float cc_correlation(const uint8_t* bits, int K, const float* e_llr, int E)
{
    return thread_decoder().correlation(bits, K, e_llr, E);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
