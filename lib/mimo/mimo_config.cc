/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/mimo_config.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace mimo {

algorithm parse_algorithm(const std::string& name)
{
    if (name == "ml")
        return algorithm::ml;
    if (name == "mtt")
        return algorithm::mtt;
    if (name == "kbest")
        return algorithm::kbest;
    if (name == "lmmse")
        return algorithm::lmmse;
    if (name == "one-pass")
        return algorithm::one_pass;
    throw std::invalid_argument("algorithm must be \"ml\", \"mtt\", \"kbest\", "
                                "\"lmmse\" or \"one-pass\", got \"" +
                                name + "\"");
}

const char* algorithm_name(algorithm a)
{
    switch (a) {
    case algorithm::ml:
        return "ml";
    case algorithm::mtt:
        return "mtt";
    case algorithm::kbest:
        return "kbest";
    case algorithm::one_pass:
        return "one-pass";
    default:
        return "lmmse";
    }
}

llr_output parse_llr_output(const std::string& name)
{
    if (name == "aposteriori")
        return llr_output::aposteriori;
    if (name == "extrinsic")
        return llr_output::extrinsic;
    throw std::invalid_argument(
        "output must be \"aposteriori\" or \"extrinsic\", got \"" + name + "\"");
}

const char* llr_output_name(llr_output o)
{
    return o == llr_output::extrinsic ? "extrinsic" : "aposteriori";
}

llr_format parse_llr_type(const std::string& name)
{
    if (name == "float")
        return llr_format::float32;
    if (name == "int8")
        return llr_format::int8;
    throw std::invalid_argument("llr_type must be \"float\" or \"int8\", got \"" + name + "\"");
}

const char* llr_type_name(llr_format f) { return f == llr_format::int8 ? "int8" : "float"; }

std::string noise_variance_problem(float n0)
{
    char v[32];
    std::snprintf(v, sizeof v, "%g", double(n0));
    return std::string("noise_variance must be in 1e-20..1e20 (SNRs within +-200 dB; beyond, "
                       "the LLRs would leave float's range), got ") + v;
}

std::string unsupported_shape(algorithm a, int nt, modulation m)
{
    if (a != algorithm::ml)
        return "";
    if (nt > ml_max_nt)
        return "ml supports nt <= " + std::to_string(ml_max_nt) + ", got nt " +
               std::to_string(nt);
    if (nt * bits_per_symbol(m) > ml_max_candidate_bits)
        return std::string("ml visits at most 2^24 candidates, and nt ") +
               std::to_string(nt) + " of " + modulation_name(m) + " makes 2^" +
               std::to_string(nt * bits_per_symbol(m));
    return "";
}

} // namespace mimo

void mimo_config::validate() const
{
    if (nt < 1 || nt > mimo::max_antennas)
        throw std::invalid_argument("nt must be in 1..8, got " + std::to_string(nt));
    if (nr < nt || nr > mimo::max_antennas)
        throw std::invalid_argument("nr must be in nt..8 (nt = " + std::to_string(nt) +
                                    "), got " + std::to_string(nr));
    mimo::modulation_of_bits(int(modulation)); // names bits_per_symbol
    const std::string shape = mimo::unsupported_shape(algorithm, nt, modulation);
    if (!shape.empty())
        throw std::invalid_argument("nt: " + shape);
    if (k < 1 || k > mimo::kbest_max_k)
        throw std::invalid_argument("k must be in 1..65536, got " + std::to_string(k));
    if (!(clip > 0.0f) || !std::isfinite(clip))
        throw std::invalid_argument("clip must be positive and finite, got " +
                                    std::to_string(clip));
    if (output != mimo::llr_output::aposteriori && output != mimo::llr_output::extrinsic)
        throw std::invalid_argument("output must be aposteriori or extrinsic, got " +
                                    std::to_string(int(output)));
    if (llr_type != mimo::llr_format::float32 && llr_type != mimo::llr_format::int8)
        throw std::invalid_argument("llr_type must be float or int8, got " +
                                    std::to_string(int(llr_type)));
    if (!(noise_variance >= mimo::min_noise_variance && noise_variance <= mimo::max_noise_variance))
        throw std::invalid_argument(mimo::noise_variance_problem(noise_variance));
    if (max_channels < 1 || max_channels > mimo::max_channels_per_frame)
        throw std::invalid_argument("max_channels must be in 1.." +
                                    std::to_string(mimo::max_channels_per_frame) + ", got " +
                                    std::to_string(max_channels));
}

} // namespace core
} // namespace gpurx
} // namespace gr
