/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_cpu_kernel.h"
#include "pipeline/worker_pool.h"
#include "viterbi/viterbi_reference.h"
#include "viterbi/viterbi_simd.h"
#include "viterbi/viterbi_tiled.h"

#include <cmath>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

viterbi_cpu_kernel::viterbi_cpu_kernel(const viterbi_config& cfg, viterbi_cpu_algorithm algorithm)
    : d_cfg(cfg), d_code(cfg.code()), d_algorithm(algorithm)
{
    d_cfg.validate();
    switch (algorithm) {
    case viterbi_cpu_algorithm::reference:
        d_name = "cpu-reference";
        break;
    case viterbi_cpu_algorithm::tiled:
        d_name = "cpu-tiled";
        break;
    default: {
        const viterbi_simd probe(d_code); // what every worker's decoder will run
        d_name = std::string("cpu-simd [int8: ") + viterbi::simd_isa_name(probe.int8_isa()) +
                 ", float: " + viterbi::simd_isa_name(probe.float_isa()) + "]";
    }
    }
}

viterbi_cpu_kernel::worker_state& viterbi_cpu_kernel::state(size_t worker)
{
    auto& w = d_workers[worker];
    if (!w.decoder) {
        if (d_algorithm == viterbi_cpu_algorithm::tiled) {
            w.decoder = std::make_unique<viterbi_tiled>(d_code, d_cfg.chunk);
        } else if (d_algorithm == viterbi_cpu_algorithm::simd) {
            auto simd = std::make_unique<viterbi_simd>(d_code);
            w.simd = simd.get();
            w.decoder = std::move(simd);
        } else {
            w.decoder = std::make_unique<viterbi_reference>(d_code);
        }
    }
    return w;
}

void viterbi_cpu_kernel::decode_one(const batch_view& b, size_t f, worker_state& w) const
{
    const frame_desc& fd = b.frames[f];
    const auto& p = b.params_as<viterbi::frame_params>()[f];
    auto& result = b.results_as<viterbi::frame_result>()[f];
    uint8_t* out = b.out + fd.out_offset;
    const bool hard = p.input == viterbi::INPUT_HARD;
    // A frame the code cannot take, or whose sizes disagree with its
    // parameters, is reported instead of read out of bounds.
    const bool length_ok = p.frame_bits >= d_code.min_frame_bits() &&
                           p.frame_bits <= viterbi_code::max_frame_bits;
    const bool int8 = p.input == viterbi::INPUT_INT8;
    if (!length_ok || (p.input != viterbi::INPUT_SOFT && !hard && !int8) ||
        fd.in_bytes != viterbi_in_bytes(d_code, p.frame_bits, viterbi::input_kind(p.input)) ||
        fd.out_bytes < uint32_t(p.frame_bits)) {
        std::memset(out, 0, fd.out_bytes);
        result = { 0.0f, 0, viterbi::FRAME_REJECTED };
        return;
    }
    const size_t depunctured = size_t(d_code.n()) * d_code.steps(p.frame_bits);
    viterbi_path path;
    if (w.simd && (hard || int8)) {
        w.llr8.resize(depunctured);
        if (hard)
            d_code.depuncture_hard(b.in + fd.in_offset, p.frame_bits, w.llr8.data());
        else
            d_code.depuncture_int8(reinterpret_cast<const int8_t*>(b.in + fd.in_offset), p.frame_bits, w.llr8.data());
        path = w.simd->decode_int8(w.llr8.data(), p.frame_bits, out);
    } else {
        w.llr.resize(depunctured);
        const uint8_t* in = b.in + fd.in_offset;
        if (hard)
            d_code.depuncture_hard(in, p.frame_bits, w.llr.data());
        else if (int8)
            d_code.depuncture_int8(reinterpret_cast<const int8_t*>(in), p.frame_bits, w.llr.data());
        else
            d_code.depuncture(reinterpret_cast<const float*>(in), p.frame_bits, w.llr.data());
        path = w.decoder->decode(w.llr.data(), p.frame_bits, out);
    }
    // Hard input entered as +-1: correlation = kept/2 - Hamming distance.
    const double metric =
        hard ? std::round(0.5 * double(d_code.coded_bits(p.frame_bits)) - path.metric) : path.metric;
    result = { float(metric), path.end_state, viterbi::FRAME_DECODED };
}

void viterbi_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    if (d_workers.size() < pool.size())
        d_workers.resize(pool.size());
    pool.parallel_for(b.nframes, [&](size_t f, size_t worker) { decode_one(b, f, state(worker)); });
}

} // namespace core
} // namespace gpurx
} // namespace gr
