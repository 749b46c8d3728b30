/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_encoder.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"
#include "turbo/lte_crc.h"
#include "turbo/lte_turbo_encoder.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

std::vector<std::vector<uint8_t>> sch_encoder::code_blocks(const uint8_t* bits, const frame_params& p)
{
    // b: the TB and its CRC24A.
    std::vector<uint8_t> b(size_t(p.tbs) + 24);
    std::copy(bits, bits + p.tbs, b.begin());
    crc24_attach(b.data(), size_t(p.tbs), crc24_type::a);
    std::vector<std::vector<uint8_t>> blocks(size_t(p.C));
    size_t s = 0;
    for (int r = 0; r < p.C; r++) {
        const int K = cb_K(p, r);
        const int L = p.C > 1 ? 24 : 0;
        auto& c = blocks[size_t(r)];
        c.assign(size_t(K), 0); // filler bits (<NULL>) enter the encoder as 0
        for (int k = cb_filler(p, r); k < K - L; k++)
            c[size_t(k)] = b[s++];
        if (L)
            crc24_attach(c.data(), size_t(K - L), crc24_type::b);
    }
    return blocks;
}

std::vector<uint8_t> sch_encoder::encode(const uint8_t* bits, size_t nbits, const tb_request& req)
{
    const frame_params p = frame_params_of(req);
    if (nbits != size_t(p.tbs))
        throw std::invalid_argument("bits: " + std::to_string(nbits) + " given, tbs=" +
                                    std::to_string(p.tbs) + " expected");
    for (size_t i = 0; i < nbits; i++)
        if (bits[i] > 1)
            throw std::invalid_argument("bits: value " + std::to_string(bits[i]) +
                                        " at index " + std::to_string(i) + " is not 0 or 1");
    std::vector<uint8_t> out(size_t(p.G));
    encode(bits, p, out.data());
    return out;
}

void sch_encoder::encode(const uint8_t* bits, const frame_params& p, uint8_t* out)
{
    const auto blocks = code_blocks(bits, p);
    std::vector<uint8_t> concatenated(size_t(p.G));
    std::vector<uint8_t> codeword;
    for (int r = 0; r < p.C; r++) {
        const int K = cb_K(p, r);
        lte_turbo_encoder enc(K);
        codeword.resize(size_t(enc.codeword_length()));
        enc.encode(blocks[size_t(r)].data(), codeword.data());
        const auto order = d_orders.get(K, cb_filler(p, r), cb_ncb(p, r), cb_k0(p, r));
        const int E = cb_E(p, r), at = cb_offset(p, r);
        const size_t n = order->size();
        for (int e = 0; e < E; e++)
            concatenated[size_t(at + e)] = codeword[size_t((*order)[size_t(e) % n])];
    }
    std::vector<uint32_t> c((size_t(p.G) + 31) / 32);
    gold_words(p.c_init, c.data(), c.size());
    for (int j = 0; j < p.G; j++) {
        const int t = transmitted_index(p, j);
        out[t] = uint8_t(concatenated[size_t(j)] ^ ((c[size_t(t) / 32] >> (t % 32)) & 1u));
    }
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr
