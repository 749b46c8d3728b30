/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/fec_frame_runner.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace gr {
namespace gpurx {

void check_llr_scale(float llr_scale)
{
    if (!(std::isfinite(llr_scale) && llr_scale > 0.0f))
    {
        std::ostringstream m;
        m << "llr_scale must be finite and > 0, got " << llr_scale;
        throw std::invalid_argument(m.str());
    }
}

std::string fec_frame_request::describe(unsigned int frame_size)
{
    const long long v = signed_size(frame_size);
    if (v >= 0)
        return std::to_string(frame_size);
    return std::to_string(frame_size) + " (that is " + std::to_string(v) +
           ", wrapped to unsigned: gr-fec computed it from a packet shorter than the code's tail)";
}

namespace {
// A batch of one, launched at once (flush_us = 0), one slot: nothing is ever
// waiting for a partner frame. One CPU worker per object: gr-fec's threaded
// deployments already run one object per thread.
pipeline_options one_frame_options(const std::string& backend)
{
    return pipeline_options(1, 1, 0, backend, "0", 1);
}
} // namespace

fec_frame_runner::fec_frame_runner(const frame_adapter& adapter,
                                   const std::string& backend,
                                   gr::logger_ptr logger)
    : d_adapter(adapter), d_holder(adapter, one_frame_options(backend), std::move(logger))
{
    // gr-fec waits for each frame's output: a batch of one is never
    // cancelled (the runner would have no output to give back).
    d_holder.never_cancel();
}

void fec_frame_runner::reject(const std::string& why, uint8_t* out, size_t out_bytes)
{
    std::memset(out, 0, out_bytes);
    d_holder.logger()->warn("frame not decoded (zeros out): {}", why);
}

bool fec_frame_runner::run(const float* in,
                           size_t n,
                           float scale,
                           uint8_t* out,
                           size_t out_bytes,
                           const on_frame& done)
{
    std::string why;
    frame_shape shape;
    if (!d_adapter.shape(n, shape, why)) {
        reject(why, out, out_bytes);
        return false;
    }
    if (shape.out_bytes != out_bytes)
        throw std::logic_error("fec_frame_runner: frame of " + std::to_string(shape.out_bytes) +
                               " output bytes, caller expects " + std::to_string(out_bytes));
    // NaN and Inf are refused before the scale: a finite value that the
    // scale carries beyond float's range (1.7e38 x 2) is a strong LLR, not
    // a malformed one, and is clamped (the staging clamps every LLR to
    // +-1e4 anyway).
    for (size_t i = 0; i < n; i++)
        if (!std::isfinite(in[i])) {
            reject("value " + std::to_string(i) + " of the frame is " +
                       (std::isnan(in[i]) ? "NaN" : in[i] > 0 ? "+Inf" : "-Inf"),
                   out, out_bytes);
            return false;
        }
    d_scaled.resize(n);
    for (size_t i = 0; i < n; i++) {
        const float v = in[i] * scale;
        d_scaled[i] = std::isfinite(v) ? v : std::copysign(std::numeric_limits<float>::max(), v);
    }

    if (!d_holder.start()) { // the first frame makes the pipeline
        reject("the decoder could not start: " + d_holder.failure(), out, out_bytes);
        return false;
    }
    auto& pipe = *d_holder.pipe();
    uint8_t* dst = pipe.begin_frame(n * d_adapter.in_item_bytes(), shape.out_bytes, shape.params.data());
    if (!d_adapter.stage(shape, reinterpret_cast<const uint8_t*>(d_scaled.data()), 0, n, dst, why)) {
        pipe.abort_frame();
        reject(why, out, out_bytes);
        return false;
    }
    pipe.commit_frame();
    pipe.flush();
    const core::completed_frame* f = pipe.front(true);
    if (!f)
        throw std::logic_error("fec_frame_runner: the pipeline returned no frame after flush()");
    std::memcpy(out, f->data, out_bytes);
    if (done)
        done(*f);
    pipe.pop();
    return true;
}

} // namespace gpurx
} // namespace gr
