/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The transmitter and channel of gpurx-mimo-ber: one LTE turbo codeword as
// the MIMO detector's frames (mimo/mimo_frame.h).
//
// The n = 3K+12 coded bits, rate-matched to the E bits sent in the order LTE
// rate matching sends them (lte_rate_match.h; E = n by default; or in the
// encoder's codeword order without it), fill V = ceil(E / B) vectors of B = nt * bits_per_symbol bits (antenna 0's symbol
// first, each symbol's bits b(0), b(1), ...: the order of the detector's
// LLRs, so its output read in order is the sent bits' LLRs, with the padding
// of the last vector after them). A frame is one channel H and the N vectors
// received through it (the last frame may hold fewer), so a codeword is
// ceil(V / N) frames, laid out back to back.
//
// Everything random about a block (data, padding, channels, noise) comes from
// one generator seeded by the block's own seed: a block's signal does not
// depend on which thread made it or how many blocks were made before it.
#ifndef INCLUDED_GPURX_APPS_MIMO_LINK_H
#define INCLUDED_GPURX_APPS_MIMO_LINK_H

#include "mimo/mimo_config.h"
#include "mimo/mimo_frame.h"
#include "turbo/lte_rate_match.h"
#include "turbo/lte_turbo_encoder.h"

#include <complex>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! Sizes of one codeword's MIMO frames.
struct mimo_link_geometry {
    //! \param sent_bits E, the rate-matched bits sent; 0: 3K + 12
    mimo_link_geometry(const core::mimo_config& shape, int K, int vectors_per_channel, int sent_bits = 0);

    int nt, nr, bits_per_symbol;
    int K;            //!< information bits
    int coded_bits;   //!< n = 3K + 12, the codeword the decoder takes
    int sent_bits;    //!< E, the bits sent (rate matching punctures or repeats to E)
    int bits_per_vector; //!< B = nt * bits_per_symbol
    int vectors;      //!< V = ceil(E / B)
    int vectors_per_channel; //!< N
    int frames;       //!< ceil(V / N)

    //! Information bits per coded bit sent (tail and padding charged).
    double rate() const { return double(K) / (double(vectors) * bits_per_vector); }
    int vectors_in_frame(int f) const;
    //! Frame f's parameters with noise variance n0 (no a-priori LLRs).
    core::mimo::frame_params frame_params(int f, float n0) const;
    //! Offset of frame f in a codeword's input (a full frame's bytes times f).
    size_t frame_in_offset(int f) const { return size_t(f) * full_frame_in_bytes(); }
    //! A full frame's input; with \p apriori, its a-priori LLRs included.
    size_t full_frame_in_bytes(bool apriori = false) const;
    size_t full_frame_out_bytes() const;
    //! All frames' input, back to back.
    size_t codeword_in_bytes() const;
};

//! Makes blocks: one per thread (it keeps the encoder and scratch).
class mimo_block_source
{
public:
    //! \param rate_matching send the codeword through LTE rate matching
    //! (to g.sent_bits bits; without it g.sent_bits must be 3K + 12)
    mimo_block_source(const mimo_link_geometry& g, core::qam::modulation m, bool rate_matching);

    /*!
     * One block: K random bits into \p bits, its frames' input (H, then the
     * received vectors, per frame) into \p in (codeword_in_bytes()), at noise
     * variance \p n0 per receive antenna, all from \p block_seed.
     */
    void make(uint64_t block_seed, float n0, uint8_t* bits, uint8_t* in);

private:
    const mimo_link_geometry d_g;
    const std::vector<std::complex<double>>& d_points;
    core::lte_turbo_encoder d_encoder;
    const bool d_rate_matching;
    core::lte_rate_match d_rate_match;
    std::vector<uint8_t> d_codeword;         //!< 3K+12 bits in the encoder's order
    std::vector<uint8_t> d_coded;            //!< V * B bits: the codeword, then padding
    std::vector<std::complex<float>> d_sent; //!< one vector's symbols
};

//! A block's seed from the run's seed, the point and the block's index.
uint64_t block_seed(uint64_t seed, int point, uint64_t block);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif
