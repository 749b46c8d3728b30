/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_cpu_kernel.h"
#include "pipeline/worker_pool.h"
#include "sch/sch_arith.h"
#include "sch/sch_steps.h"
#include "turbo/turbo_implementations.h"

#include <algorithm>
#include <new>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

std::unique_ptr<cpu_kernel> turbo_cpu(turbo_config t)
{
    const auto choice = choose_turbo_implementation(t);
    return turbo_kernel_factories(t, choice, 1.0f / 8.0f).cpu();
}

} // namespace

sch_cpu_kernel::sch_cpu_kernel(const sch_config& cfg) : d_cfg(cfg)
{
    d_cfg.validate();
    d_turbo_a = turbo_cpu(d_cfg.turbo_for(true));
    d_turbo_b = turbo_cpu(d_cfg.turbo_for(false));
    const size_t n = size_t(d_cfg.harq_buffers) * d_cfg.soft_buffer_llrs();
    if (n > 0) {
        d_soft.reset(static_cast<int16_t*>(std::calloc(n, sizeof(int16_t))));
        if (!d_soft)
            throw std::bad_alloc();
    }
}

size_t sch_cpu_kernel::scratch_bytes(size_t max_frames) const
{
    const size_t cbs = max_frames * size_t(d_cfg.max_code_blocks());
    return sch::batch_layout(max_frames, size_t(d_cfg.max_code_blocks()), size_t(d_cfg.max_g),
                             std::max(d_turbo_a->scratch_bytes(cbs), d_turbo_b->scratch_bytes(cbs)),
                             true, d_cfg.extrinsic_output)
        .bytes;
}

void sch_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    const auto* tbs = b.params_as<sch::frame_params>();
    auto* res = b.results_as<sch::frame_result>();
    // Laid out for the slot's capacity: a TB's working memory sits at the
    // same place whatever the batch size (batch_view::capacity).
    const size_t cap = std::max(b.nframes, b.capacity);
    const size_t most = size_t(d_cfg.max_code_blocks()) * cap;
    const sch::batch_layout lay(cap, size_t(d_cfg.max_code_blocks()), size_t(d_cfg.max_g),
                                std::max(d_turbo_a->scratch_bytes(most), d_turbo_b->scratch_bytes(most)),
                                true, d_cfg.extrinsic_output);
    uint8_t* s = b.scratch;
    // 1. Descramble each TB.
    pool.parallel_for(b.nframes, [&](size_t f, size_t) {
        sch::descramble(tbs[f], b.in + b.frames[f].in_offset,
                        reinterpret_cast<int8_t*>(s + lay.descrambled_of(f)));
    });
    // 2. Dematch and combine each code block; the circular orders first (one
    //    per shape, shared by the workers). The soft buffers' new contents
    //    wait in the scratch until the batch completes: a batch cancelled by
    //    stop() runs again, and must not combine twice.
    d_cbs.build(tbs, b.nframes);
    const size_t n = d_cbs.entries.size();
    std::vector<std::shared_ptr<const std::vector<int32_t>>> orders(n);
    auto* desc = reinterpret_cast<frame_desc*>(s + lay.cb_desc);
    auto* tparams = reinterpret_cast<turbo::frame_params*>(s + lay.cb_params);
    auto* tres = reinterpret_cast<turbo::frame_result*>(s + lay.cb_results);
    for (size_t i = 0; i < n; i++) {
        const auto& e = d_cbs.entries[i];
        const auto& p = tbs[e.tb];
        orders[i] = d_orders.get(sch::cb_K(p, e.r), sch::cb_filler(p, e.r), sch::cb_ncb(p, e.r),
                                 sch::cb_k0(p, e.r));
        sch::cb_turbo_frame(p, e, i, lay.cb_out_stride, desc[i], tparams[i]);
    }
    const size_t llrs = d_cfg.soft_buffer_llrs();
    auto soft_of = [&](const sch::frame_params& p, int r) -> int16_t* {
        return p.harq_slot >= 0 ? d_soft.get() + size_t(p.harq_slot) * llrs + size_t(r) * sch::MAX_CB_LLRS
                                : nullptr;
    };
    auto staged = [&](size_t i) {
        return reinterpret_cast<int16_t*>(s + lay.cb_soft) + i * sch::MAX_CB_LLRS;
    };
    pool.parallel_for(n, [&](size_t i, size_t) {
        thread_local std::vector<int32_t> sums(sch::MAX_CB_LLRS);
        const auto& e = d_cbs.entries[i];
        const auto& p = tbs[e.tb];
        sch::dematch(p, e.r, reinterpret_cast<const int8_t*>(s + lay.descrambled_of(size_t(e.tb))),
                     orders[i]->data(), orders[i]->size(), soft_of(p, e.r), staged(i),
                     reinterpret_cast<int8_t*>(s + lay.cb_in + i * sch::CB_IN_STRIDE), sums.data());
        reinterpret_cast<int32_t*>(s + lay.cb_nonzero)[i] = sch::nonzero_soft_values(
            reinterpret_cast<const int8_t*>(s + lay.cb_in + i * sch::CB_IN_STRIDE), 3 * sch::cb_K(p, e.r) + 12);
    });
    // 3. Turbo-decode the two groups.
    auto group = [&](cpu_kernel& k, size_t first, size_t count) {
        if (!count)
            return;
        batch_view v{};
        v.frames = desc + first;
        v.nframes = count;
        v.params = tparams + first;
        v.in = s + lay.cb_in;
        v.out = s + lay.cb_out;
        v.results = tres + first;
        v.scratch = s + lay.turbo_scratch;
        k.run(v, pool);
    };
    group(*d_turbo_a, 0, d_cbs.single);
    group(*d_turbo_b, d_cbs.single, n - d_cbs.single);
    // 4. Join the blocks and check the CRCs.
    pool.parallel_for(b.nframes, [&](size_t f, size_t) {
        const size_t first = size_t(d_cbs.first[f]);
        sch::frame_result& r = res[f];
        r.iterations = 0;
        int32_t checks[sch::MAX_CODE_BLOCKS];
        for (int c = 0; c < tbs[f].C; c++) {
            r.iterations = std::max(r.iterations, tres[first + size_t(c)].iterations);
            checks[c] = tres[first + size_t(c)].check; // the early stop's block CRC, when it ran
        }
        sch::assemble(tbs[f], s + lay.cb_out + first * lay.cb_out_stride, lay.cb_out_stride,
                      b.out + b.frames[f].out_offset, r, checks);
        r.uninformed = sch::tb_uninformed(tbs[f], reinterpret_cast<const int32_t*>(s + lay.cb_nonzero) + first);
        if (r.uninformed)
            r.crc_ok = 0;
    });
    // 5. The codeword's extrinsic LLRs, per code block, then scrambled per TB.
    if (d_cfg.extrinsic_output) {
        auto ext_of = [&](size_t f) {
            return reinterpret_cast<float*>(b.out + b.frames[f].out_offset + sch::extrinsic_offset(tbs[f].tbs));
        };
        pool.parallel_for(n, [&](size_t i, size_t) {
            const auto& e = d_cbs.entries[i];
            const auto& p = tbs[e.tb];
            const uint8_t* out = s + lay.cb_out + i * lay.cb_out_stride;
            sch::extrinsic(p, e.r, reinterpret_cast<const int8_t*>(s + lay.descrambled_of(size_t(e.tb))),
                           orders[i]->data(), orders[i]->size(),
                           reinterpret_cast<const int8_t*>(s + lay.cb_in + i * sch::CB_IN_STRIDE),
                           reinterpret_cast<const float*>(out + turbo_coded_offset(sch::cb_K(p, e.r), false)),
                           d_cfg.extrinsic_scale, ext_of(size_t(e.tb)));
        });
        pool.parallel_for(b.nframes, [&](size_t f, size_t) { sch::scramble_extrinsic(tbs[f], ext_of(f)); });
    }
    if (pool.cancelled())
        return;
    for (size_t i = 0; i < n; i++) {
        const auto& e = d_cbs.entries[i];
        if (int16_t* soft = soft_of(tbs[e.tb], e.r))
            std::copy(staged(i), staged(i) + 3 * sch::cb_K(tbs[e.tb], e.r) + 12, soft);
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
