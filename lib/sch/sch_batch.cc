/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_batch.h"

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

namespace {
size_t align(size_t n) { return (n + 255) & ~size_t(255); }
} // namespace

batch_layout::batch_layout(size_t frames, size_t code_blocks, size_t g, size_t turbo_bytes,
                           bool soft_staging, bool coded)
    : max_frames(frames), max_cbs(frames * code_blocks), max_g(g)
{
    cb_out_stride = coded ? CB_CODED_OUT_STRIDE : CB_OUT_STRIDE;
    size_t at = 0;
    auto take = [&](size_t n) {
        const size_t here = at;
        at = align(at + n);
        return here;
    };
    descrambled = take(max_frames * ((max_g + 15) & ~size_t(15)));
    cb_in = take(max_cbs * CB_IN_STRIDE);
    cb_out = take(max_cbs * cb_out_stride);
    cb_desc = take(max_cbs * sizeof(frame_desc));
    cb_params = take(max_cbs * sizeof(turbo::frame_params));
    cb_results = take(max_cbs * sizeof(turbo::frame_result));
    cb_entries = take(max_cbs * sizeof(cb_entry));
    tb_first = take(max_frames * sizeof(int32_t));
    tb_crc = take(max_frames * sizeof(uint32_t));
    cb_ok = take(max_cbs * sizeof(int32_t));
    cb_nonzero = take(max_cbs * sizeof(int32_t));
    tb_shapes = take(max_frames * 3 * sizeof(int32_t));
    turbo_scratch = take(turbo_bytes);
    cb_soft = take(soft_staging ? max_cbs * MAX_CB_LLRS * sizeof(int16_t) : 0);
    bytes = at;
}

void cb_list::build(const frame_params* tbs, size_t n)
{
    entries.clear();
    first.assign(n, 0);
    for (size_t f = 0; f < n; f++)
        if (tbs[f].C == 1) {
            first[f] = int32_t(entries.size());
            entries.push_back({ int32_t(f), 0 });
        }
    single = entries.size();
    for (size_t f = 0; f < n; f++)
        if (tbs[f].C > 1) {
            first[f] = int32_t(entries.size());
            for (int r = 0; r < tbs[f].C; r++)
                entries.push_back({ int32_t(f), r });
        }
}

void cb_turbo_frame(const frame_params& p, const cb_entry& e, size_t i, size_t out_stride, frame_desc& d,
                    turbo::frame_params& tp)
{
    const int K = cb_K(p, e.r);
    d.in_offset = i * CB_IN_STRIDE;
    d.out_offset = i * out_stride;
    d.in_bytes = uint32_t(3 * K + 12);
    d.out_bytes = uint32_t(K);
    tp.K = K;
    tp.f1 = e.r < p.Cm ? p.fm1 : p.fp1;
    tp.f2 = e.r < p.Cm ? p.fm2 : p.fp2;
    tp.input = turbo::INPUT_INT8;
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr
