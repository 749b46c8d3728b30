/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the soft MIMO detector: the antennas, the modulation, the
// detection algorithm and its parameters, and the soft-in / soft-out options of
// iterative detection and decoding (a-priori LLRs in, extrinsic LLRs out).
#ifndef INCLUDED_GPURX_MIMO_MIMO_CONFIG_H
#define INCLUDED_GPURX_MIMO_MIMO_CONFIG_H

#include "modulation/qam.h"
#include <cstddef>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace mimo {

// The detectors take their constellations from the modulation family
// (modulation/qam.h); these names are theirs, used here unqualified.
using qam::bits_per_symbol;
using qam::constellation;
using qam::constellation_of;
using qam::demap_max_log;
using qam::map_bits;
using qam::modulation;
using qam::modulation_name;
using qam::modulation_of_bits;
using qam::parse_modulation;
using qam::points_of;

enum class algorithm : int32_t {
    ml,    //!< exhaustive max-log over all Q^nt candidates: the reference
    mtt,   //!< multi-pass trellis traversal (Wu's thesis, ch. 3 and 4)
    kbest, //!< breadth-first K-best tree search, LLRs clipped
    lmmse, //!< LMMSE equalisation, per-stream max-log demapping at the post-equalisation
           //!< SINR
    one_pass, //!< one-pass trellis traversal (Wu, sec. 4.2.1: "OT"), LLRs clipped
};

//! "ml" | "mtt" | "kbest" | "lmmse" | "one-pass"; throws naming `algorithm`.
algorithm parse_algorithm(const std::string& name);
const char* algorithm_name(algorithm a);

//! What the LLRs out are: the a-posteriori ones, or the extrinsic ones
//! (a posteriori minus a priori), which an iterative receiver feeds its decoder.
enum class llr_output : int32_t { aposteriori, extrinsic };

//! "aposteriori" | "extrinsic"; throws naming `output`.
llr_output parse_llr_output(const std::string& name);
const char* llr_output_name(llr_output o);

//! The type of the LLRs out: float32, or int8 in steps of 1/8
//! (common/llr_int8.h: v = rint(8 L) saturated to +-127, the unit of the
//! turbo decoders' int8 input).
enum class llr_format : int32_t { float32, int8 };

//! "float" | "int8"; throws naming `llr_type`.
llr_format parse_llr_type(const std::string& name);
const char* llr_type_name(llr_format f);
//! Bytes of one LLR of format \p f.
inline size_t llr_bytes(llr_format f) { return f == llr_format::int8 ? 1 : 4; }

constexpr int max_antennas = 8;
//! ml visits Q^nt candidates per vector: at most 2^24 (nt <= 4, and 64-QAM
//! at most 4x4, 256-QAM at most 3x3).
constexpr int ml_max_candidate_bits = 24;
constexpr int ml_max_nt = 4;
constexpr int kbest_max_k = 65536;
//! The most channels one frame may hold (mimo_config::max_channels).
constexpr int max_channels_per_frame = 65536;
/*!
 * The noise variances a detector takes, per complex receive antenna with
 * unit-energy symbols: SNRs within +-200 dB. Below the floor, the LLRs of
 * ordinary inputs (|y - H s|^2 / N0) leave float's range; above the
 * ceiling, N0 times the a-priori costs does. The qam_demapper takes the
 * same range.
 */
constexpr float min_noise_variance = 1e-20f;
constexpr float max_noise_variance = 1e20f;
/*!
 * What a frame's inputs may make of a metric: |y - H s|^2 / N0 and
 * |y - H s|^2 stay at most this for every candidate s, so every metric,
 * LLR and sum of them stays finite in float (3.4e38). Inputs whose
 * magnitudes could exceed it are refused (max_input_component()).
 */
constexpr double max_metric = 1e30;

//! The error for a noise variance outside min_noise_variance..max_noise_variance
//! (it names noise_variance and the value).
std::string noise_variance_problem(float n0);
//! Why \p a cannot detect nt streams of \p m ("" when it can).
std::string unsupported_shape(algorithm a, int nt, modulation m);

} // namespace mimo

struct mimo_config {
    int nt = 2; //!< transmit streams, 1..8 (1..4 for ml)
    int nr = 2; //!< receive antennas, nt..8
    mimo::modulation modulation = mimo::modulation::qam16;
    mimo::algorithm algorithm = mimo::algorithm::mtt;
    int k = 16; //!< kbest: paths kept per level, 1..65536
    //! kbest, one-pass: |LLR| bound, and the LLR of a bit with no
    //! counter-hypothesis (of the output: a posteriori or extrinsic)
    float clip = 16.0f;
    //! N0 = E|n|^2 per complex receive antenna (the symbols have unit
    //! energy); the default of frames that do not carry their own;
    //! min_noise_variance..max_noise_variance.
    float noise_variance = 0.1f;
    //! Detect the streams in the order of a sorted QR (strongest first);
    //! the LLRs still come out in antenna order.
    bool sorted_qr = false;
    //! Frames carry a-priori LLRs after their received vectors (mimo_frame.h);
    //! the default of frame_params_for(). Each frame's own parameters decide.
    bool apriori = false;
    //! A-posteriori LLRs, or extrinsic ones (a posteriori minus a priori).
    mimo::llr_output output = mimo::llr_output::aposteriori;
    //! The output LLRs' type: float32, or int8 (the float LLR quantised).
    mimo::llr_format llr_type = mimo::llr_format::float32;
    //! The implementation, by its registry name (mimo_implementations.h), or
    //! "auto": the one of `algorithm`. Naming one also fixes `algorithm`.
    std::string implementation = "auto";
    //! The most channels one frame may hold (mimo_frame.h): a producer with
    //! many channels at hand (a benchmark, a simulation) puts many in one
    //! frame, so the per-frame costs of the batching are paid once for all of
    //! them. The GPU keeps a channel record per channel a batch may hold, so
    //! this bounds that memory; 1..65536.
    int max_channels = 1;

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
