/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_stream_framer.h"

#include <algorithm>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

viterbi_stream_framer::viterbi_stream_framer(const viterbi_stream_config& cfg, viterbi::input_kind input)
    : d_cfg(cfg), d_code(cfg.code()), d_input(input), d_item_bytes(stream_item_bytes(input))
{
    d_cfg.validate();
    const auto& pat = d_code.puncture();
    const int n = d_code.n();
    d_period = int(pat.size()) / n;
    d_kept_before.assign(size_t(d_period) + 1, 0);
    for (int r = 0; r < d_period; r++) {
        uint64_t k = 0;
        for (int i = 0; i < n; i++)
            k += uint64_t(pat[size_t(r) * n + i]);
        d_kept_before[size_t(r) + 1] = d_kept_before[size_t(r)] + k;
    }
}

uint64_t viterbi_stream_framer::items_before(uint64_t step) const
{
    return (step / uint64_t(d_period)) * d_kept_before.back() + d_kept_before[step % uint64_t(d_period)];
}

uint64_t viterbi_stream_framer::steps_complete() const
{
    const uint64_t per = d_kept_before.back();
    uint64_t steps = (d_items / per) * uint64_t(d_period);
    const uint64_t rem = d_items % per;
    int r = 0;
    while (r < d_period && d_kept_before[size_t(r) + 1] <= rem)
        r++;
    return steps + uint64_t(r);
}

void viterbi_stream_framer::append(const uint8_t* items, size_t n)
{
    d_buf.insert(d_buf.end(), items, items + n * d_item_bytes);
    d_items += n;
}

bool viterbi_stream_framer::next(bool at_end, frame& f)
{
    const uint64_t T = steps_complete(), P = d_next;
    const uint64_t L = uint64_t(d_cfg.chunk), D = uint64_t(d_cfg.traceback);
    const uint64_t most = uint64_t(d_cfg.frame_windows) * L;
    uint64_t p1;
    if (at_end) {
        if (T <= P)
            return false;
        p1 = std::min(T, P + most);
    } else {
        if (T < P + L + D) // not one whole window with its traceback yet
            return false;
        p1 = P + std::min((T - P - D) / L * L, most);
    }
    const uint64_t f0 = P > D ? P - D : 0;
    const uint64_t f1 = std::min(T, p1 + D);
    const uint64_t a = items_before(f0), b = items_before(f1);
    f.params.steps = int32_t(f1 - f0);
    f.params.payload_begin = int32_t(P - f0);
    f.params.payload = int32_t(p1 - P);
    f.params.phase = int32_t(f0 % uint64_t(d_period));
    f.params.input = d_input;
    f.params.stream_start = f0 == 0;
    f.data = d_buf.data() + (a - d_base) * d_item_bytes;
    f.bytes = size_t(b - a) * d_item_bytes;
    d_pending_end = p1;
    return true;
}

void viterbi_stream_framer::advance()
{
    if (d_pending_end > d_next)
        d_next = d_pending_end;
    drop_unneeded();
}

void viterbi_stream_framer::drop_unneeded()
{
    const uint64_t D = uint64_t(d_cfg.traceback);
    const uint64_t keep_from = items_before(d_next > D ? d_next - D : 0);
    const uint64_t drop = keep_from - d_base;
    // Erase the front only once it is at least 3/4 of the buffer: what
    // stays is then moved at most a third of a time per item on average (the
    // host path is memory-bound: every copy counts).
    if (drop > 0 && drop * 4 >= (d_buf.size() / d_item_bytes) * 3) {
        d_buf.erase(d_buf.begin(), d_buf.begin() + std::ptrdiff_t(drop * d_item_bytes));
        d_base = keep_from;
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
