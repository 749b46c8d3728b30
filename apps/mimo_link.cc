/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo_link.h"
#include "common/awgn_llr.h"
#include "modulation/qam.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

using cf = std::complex<float>;

// Complex Gaussians from the block's xoshiro stream (awgn_llr_source's
// generator), by Box-Muller: E|z|^2 = 2 sigma^2 for the sigma given.
class gaussian
{
public:
    explicit gaussian(uint64_t seed) : d_rng(seed) {}
    uint32_t bits() { return d_rng.next(); }
    cf next(float sigma)
    {
        const float u1 = (float(d_rng.next() >> 8) + 1.0f) * (1.0f / 16777217.0f);
        const float u2 = float(d_rng.next() >> 8) * (1.0f / 16777216.0f);
        const float r = std::sqrt(-2.0f * std::log(u1)) * sigma;
        const float a = 6.28318530718f * u2;
        return { r * std::cos(a), r * std::sin(a) };
    }

private:
    core::awgn_llr_source d_rng;
};

} // namespace

mimo_link_geometry::mimo_link_geometry(const core::mimo_config& shape, int K_, int N, int E)
    : nt(shape.nt),
      nr(shape.nr),
      bits_per_symbol(shape.bits_per_symbol()),
      K(K_),
      coded_bits(3 * K_ + 12),
      sent_bits(E > 0 ? E : coded_bits),
      bits_per_vector(shape.nt * shape.bits_per_symbol()),
      vectors((sent_bits + bits_per_vector - 1) / bits_per_vector),
      vectors_per_channel(N),
      frames((vectors + N - 1) / N)
{
}

int mimo_link_geometry::vectors_in_frame(int f) const
{
    return f + 1 < frames ? vectors_per_channel : vectors - (frames - 1) * vectors_per_channel;
}

core::mimo::frame_params mimo_link_geometry::frame_params(int f, float n0) const
{
    return { nt, nr, bits_per_symbol, vectors_in_frame(f), n0, 0, 1 };
}

size_t mimo_link_geometry::full_frame_in_bytes(bool apriori) const
{
    return core::mimo::frame_in_bytes({ nt, nr, bits_per_symbol, vectors_per_channel, 1.0f, apriori ? 1 : 0, 1 });
}

size_t mimo_link_geometry::full_frame_out_bytes() const
{
    return size_t(vectors_per_channel) * bits_per_vector * sizeof(float);
}

size_t mimo_link_geometry::codeword_in_bytes() const
{
    return frame_in_offset(frames - 1) + core::mimo::frame_in_bytes(frame_params(frames - 1, 1.0f));
}

mimo_block_source::mimo_block_source(const mimo_link_geometry& g, core::qam::modulation m, bool rate_matching)
    : d_g(g),
      d_points(core::qam::constellation_of(m).points),
      d_encoder(g.K),
      d_rate_matching(rate_matching),
      d_rate_match(g.K, g.sent_bits),
      d_codeword(size_t(g.coded_bits)),
      d_coded(size_t(g.vectors) * g.bits_per_vector),
      d_sent(size_t(g.nt))
{
    if (g.sent_bits != g.coded_bits && !rate_matching)
        throw std::invalid_argument("mimo_block_source: E=" + std::to_string(g.sent_bits) +
                                    " bits sent needs rate matching");
}

void mimo_block_source::make(uint64_t seed, float n0, uint8_t* bits, uint8_t* in)
{
    gaussian rng(seed);
    const auto& g = d_g;
    for (int k = 0; k < g.K; k++)
        bits[k] = uint8_t(rng.bits() >> 31);
    if (d_rate_matching) {
        d_encoder.encode(bits, d_codeword.data());
        d_rate_match.match(d_codeword.data(), d_coded.data());
    } else {
        d_encoder.encode(bits, d_coded.data());
    }
    for (size_t i = size_t(g.sent_bits); i < d_coded.size(); i++)
        d_coded[i] = uint8_t(rng.bits() >> 31);

    const float h_sigma = std::sqrt(0.5f), n_sigma = std::sqrt(n0 / 2);
    const int bps = g.bits_per_symbol;
    const uint8_t* c = d_coded.data();
    for (int f = 0; f < g.frames; f++) {
        cf* h = reinterpret_cast<cf*>(in + g.frame_in_offset(f));
        cf* y = h + size_t(g.nr) * g.nt;
        for (int i = 0; i < g.nr * g.nt; i++)
            h[i] = rng.next(h_sigma);
        for (int v = 0; v < g.vectors_in_frame(f); v++, y += g.nr) {
            for (int t = 0; t < g.nt; t++, c += bps) {
                int idx = 0; // b(0) is the index's most significant bit (qam.h)
                for (int i = 0; i < bps; i++)
                    idx = (idx << 1) | c[i];
                d_sent[size_t(t)] = cf(d_points[size_t(idx)]);
            }
            for (int r = 0; r < g.nr; r++) {
                cf acc = rng.next(n_sigma);
                for (int t = 0; t < g.nt; t++)
                    acc += h[size_t(r) * g.nt + t] * d_sent[size_t(t)];
                y[r] = acc;
            }
        }
    }
}

uint64_t block_seed(uint64_t seed, int point, uint64_t block)
{
    // splitmix64 of the three: neighbouring blocks get unrelated streams.
    uint64_t z = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t(point) << 40) ^ block;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace apps
} // namespace gpurx
} // namespace gr
