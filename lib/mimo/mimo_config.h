/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the soft MIMO detector: the antennas, the modulation, the
// detection algorithm and its parameters. A-priori LLRs (iterative detection
// and decoding) are not supported yet: every detector assumes equiprobable bits.
#ifndef INCLUDED_GPURX_MIMO_MIMO_CONFIG_H
#define INCLUDED_GPURX_MIMO_MIMO_CONFIG_H

#include "mimo/qam.h"
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace mimo {

enum class algorithm : int32_t {
    ml,    //!< exhaustive max-log over all Q^nt candidates: the reference
    mtt,   //!< multi-pass trellis traversal (Wu's thesis, ch. 3 and 4)
    kbest, //!< breadth-first K-best tree search, LLRs clipped
    lmmse, //!< LMMSE equalisation, per-stream max-log demapping at the post-equalisation
           //!< SINR
    one_pass, //!< one-pass trellis traversal ("one-pass"); not implemented in this build yet
};

//! Which LLRs a detector gives: a-posteriori (L_D), or extrinsic
//! (L_E = L_D - L_A, what an iterative receiver feeds its decoder).
enum class llr_output : int32_t { aposteriori, extrinsic };
//! "aposteriori" | "extrinsic"; throws naming `output`.
llr_output parse_llr_output(const std::string& name);
const char* llr_output_name(llr_output o);

//! "ml" | "mtt" | "kbest" | "lmmse"; throws naming `algorithm`.
algorithm parse_algorithm(const std::string& name);
const char* algorithm_name(algorithm a);

constexpr int max_antennas = 8;
//! ml visits Q^nt candidates per vector: at most 2^24 (nt <= 4, and 64-QAM
//! at most 4x4, 256-QAM at most 3x3).
constexpr int ml_max_candidate_bits = 24;
constexpr int ml_max_nt = 4;
constexpr int kbest_max_k = 65536;

//! Why \p a cannot detect nt streams of \p m ("" when it can).
std::string unsupported_shape(algorithm a, int nt, modulation m);

} // namespace mimo

struct mimo_config {
    int nt = 2; //!< transmit streams, 1..8 (1..4 for ml)
    int nr = 2; //!< receive antennas, nt..8
    mimo::modulation modulation = mimo::modulation::qam16;
    mimo::algorithm algorithm = mimo::algorithm::mtt;
    int k = 16; //!< kbest: paths kept per level, 1..65536
    float clip =
        16.0f; //!< kbest: |LLR| bound, and the LLR of a bit with no counter-hypothesis
    //! N0 = E|n|^2 per complex receive antenna (the symbols have unit
    //! energy); the default of frames that do not carry their own.
    float noise_variance = 0.1f;
    //! Detect the streams in the order of a sorted QR (strongest first);
    //! the LLRs still come out in antenna order.
    bool sorted_qr = false;
    //! The implementation, by its registry name (mimo_implementations.h), or
    //! "auto": the one of `algorithm`. Naming one also fixes `algorithm`.
    std::string implementation = "auto";
    //! Frames carry vectors * nt * bits_per_symbol float a-priori LLRs
    //! (L = ln P(1)/P(0)) after the received vectors (mimo_frame.h).
    bool apriori = false;
    //! A-posteriori or extrinsic LLRs out (equal without a-priori input).
    mimo::llr_output output = mimo::llr_output::aposteriori;

    //! Throws std::invalid_argument naming the bad field and its value.
    void validate() const;
    int bits_per_symbol() const { return mimo::bits_per_symbol(modulation); }
    //! LLRs per received vector.
    int llrs_per_vector() const { return nt * bits_per_symbol(); }
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
