/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/mimo_cpu_kernel.h"
#include "common/llr_int8.h"
#include "pipeline/worker_pool.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

mimo_cpu_kernel::mimo_cpu_kernel(const mimo_config& cfg)
    : d_cfg(cfg), d_name(std::string("cpu-") + mimo::algorithm_name(cfg.algorithm))
{
    d_cfg.validate();
}

namespace {

// Between a channel's vectors: stopped by the detector's stop check (asked
// every 16 vectors: it costs a lock where a vector may take 100 ns).
bool stop_between(mimo::mimo_detector& detector, int v)
{
    return detector.stopped() || ((v & 15) == 15 && detector.poll_stop());
}

// One channel of a frame (mimo_frame.h): its input at \p in, its output at
// \p out. Returns its status and rank.
mimo::frame_result detect_channel(mimo::mimo_detector& detector,
                                  const mimo_config& cfg,
                                  const mimo::frame_params& p,
                                  const uint8_t* in,
                                  uint8_t* out)
{
    using cf = std::complex<float>;
    const size_t in_bytes = mimo::channel_in_bytes(p), out_bytes = mimo::channel_out_bytes(p, cfg.llr_type);
    // One NaN would poison every distance: refuse the channel instead (the
    // priors, if any, are part of the input and checked alike).
    const float* values = reinterpret_cast<const float*>(in);
    const size_t nvalues = in_bytes / sizeof(float);
    for (size_t i = 0; i < nvalues; i++)
        if (!std::isfinite(values[i])) {
            std::memset(out, 0, out_bytes);
            return { mimo::STATUS_NOT_FINITE, 0 };
        }
    const cf* h = reinterpret_cast<const cf*>(in);
    const cf* y = h + size_t(p.nr) * p.nt;
    const float* apriori =
        p.apriori ? reinterpret_cast<const float*>(y + size_t(p.vectors) * p.nr) : nullptr;
    const int rank = detector.set_channel(
        h, p.nr, p.nt, mimo::modulation(p.bits_per_symbol), double(p.n0));
    const size_t per_vector = size_t(p.nt) * p.bits_per_symbol;
    if (cfg.llr_type == mimo::llr_format::int8) {
        // The float LLRs of one vector, then their quantisation: the same
        // values the float output would carry.
        float llr[mimo::max_antennas * 8]; // frame_problem() checked nt <= 8, bps <= 8
        int8_t* q = reinterpret_cast<int8_t*>(out);
        for (int v = 0; v < p.vectors && !stop_between(detector, v); v++) {
            detector.detect(
                y + size_t(v) * p.nr, apriori ? apriori + v * per_vector : nullptr, llr);
            for (size_t k = 0; k < per_vector; k++)
                q[v * per_vector + k] = llr_to_int8(llr[k]);
        }
    } else {
        float* llr = reinterpret_cast<float*>(out);
        for (int v = 0; v < p.vectors && !stop_between(detector, v); v++)
            detector.detect(y + size_t(v) * p.nr,
                            apriori ? apriori + v * per_vector : nullptr,
                            llr + v * per_vector);
    }
    if (detector.stopped()) // cancelled: the output is incomplete, the batch runs again
        return { mimo::STATUS_BAD_FRAME, 0 };
    return { rank < p.nt ? mimo::STATUS_RANK_DEFICIENT : mimo::STATUS_OK, rank };
}

} // namespace

mimo::frame_result mimo_cpu_kernel::detect_frame(mimo::mimo_detector& detector,
                                                 const mimo_config& cfg,
                                                 const mimo::frame_params& p,
                                                 const uint8_t* in,
                                                 size_t in_bytes,
                                                 uint8_t* out,
                                                 size_t out_bytes)
{
    if (!mimo::frame_problem(p, cfg.algorithm, cfg.max_channels).empty() ||
        in_bytes != mimo::frame_in_bytes(p) ||
        out_bytes != mimo::frame_out_bytes(p, cfg.llr_type)) {
        std::memset(out, 0, out_bytes);
        return { mimo::STATUS_BAD_FRAME, 0 };
    }
    // The frame's result is the worst of its channels' (mimo_frame.h).
    mimo::frame_result r{ mimo::STATUS_OK, p.nt };
    const size_t cin = mimo::channel_in_bytes(p), cout = mimo::channel_out_bytes(p, cfg.llr_type);
    for (int c = 0; c < p.channels && !detector.stopped(); c++) {
        const mimo::frame_result rc = detect_channel(detector, cfg, p, in + c * cin, out + c * cout);
        r.status = std::max(r.status, rc.status);
        r.rank = std::min(r.rank, rc.rank);
    }
    return r;
}

void mimo_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    if (d_detectors.size() < pool.size())
        d_detectors.resize(pool.size());
    const auto* params = b.params_as<mimo::frame_params>();
    auto* results = b.results_as<mimo::frame_result>();
    pool.parallel_for(b.nframes, [&](size_t f, size_t worker) {
        auto& detector = d_detectors[worker];
        if (!detector)
            detector = mimo::make_detector(d_cfg);
        // The pool's cancel check (a block being stopped), asked inside a
        // frame too: one vector of K-best with a large K or of ML can take
        // seconds.
        detector->set_stop_check([&pool, worker] { return pool.stop_requested(worker); });
        const frame_desc& fd = b.frames[f];
        results[f] = detect_frame(*detector,
                                  d_cfg,
                                  params[f],
                                  b.in + fd.in_offset,
                                  fd.in_bytes,
                                  b.out + fd.out_offset,
                                  fd.out_bytes);
    });
}

} // namespace core
} // namespace gpurx
} // namespace gr
