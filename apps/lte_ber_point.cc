/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte_ber_point.h"
#include "lte_ber_channel.h"

#include "sch/sch_frame.h"
#include "sch/sch_implementations.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

using clk = std::chrono::steady_clock;

bool on_cuda(const core::backend_choice& w) { return w.kind == core::backend_kind::cuda; }

// A 64-bit mix (splitmix64's finaliser): seeds that differ in one input
// give unrelated streams.
uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace

bler_curve_runner::bler_curve_runner(const bler_curve_setup& s) : d_s(s)
{
    const auto& o = s.o;
    d_req.channel = core::sch::DLSCH;
    d_req.tbs = s.link.tbs;
    d_req.qm = s.link.qm;
    d_req.g = s.link.g;
    d_req.rnti = 61;
    d_req.cell_id = 1;
    d_req.subframe = 3;
    for (int tx = 0; tx < o.max_tx; tx++) {
        auto r = d_req;
        r.rv = rv_of(s.harq, tx);
        auto p = core::sch::frame_params_of(r); // throws naming the field
        p.input = core::turbo::INPUT_FLOAT32;
        p.combine = tx > 0;
        d_params.push_back(p);
    }

    core::sch_config cfg = o.sch;
    cfg.max_tbs = std::max(s.link.tbs, 16);
    cfg.max_g = std::max(s.link.g, 8);
    // One soft buffer per TB of a round. A round is several batches (the
    // pipeline stays busy while it fills) but bounded in memory: soft
    // buffers of int16 and the round's float LLRs.
    const size_t soft_bytes = cfg.soft_buffer_llrs() * sizeof(int16_t);
    const size_t tb_bytes = soft_bytes + size_t(s.link.g) * sizeof(float) + size_t(s.link.tbs);
    const size_t budget = on_cuda(s.where) ? (size_t(1) << 30) : (size_t(1) << 28);
    const size_t batch = on_cuda(s.where) ? 128 : 8;
    d_round = std::clamp<size_t>(budget / tb_bytes, 1, on_cuda(s.where) ? 1024 : 64);
    cfg.harq_buffers = int(d_round);
    cfg.validate();

    auto reg = core::sch_registry();
    const auto choice = reg.choose(cfg);
    if (!choice.note.empty())
        std::fprintf(stderr, "%s\n", choice.note.c_str());
    core::turbo_config t = cfg.turbo_for(false);
    const auto turbo = core::choose_turbo_implementation(t);
    const bool cuda = on_cuda(s.where) && !choice.cuda.empty();
    d_decoder = (cuda ? choice.cuda : choice.cpu) + " (turbo: " + (cuda ? turbo.cuda : turbo.cpu) + ")";

    core::pipeline_config pc;
    pc.types = core::sch::frame_types_of();
    pc.slots = 3;
    pc.max_batch = std::min(batch, d_round);
    pc.max_in_bytes = size_t(s.link.g) * sizeof(float);
    pc.max_out_bytes = size_t(s.link.tbs);
    pc.flush_timeout = std::chrono::microseconds(1000000); // each transmission drains at its end
    pc.cpu_threads = o.threads;
    d_pipe = core::make_pipeline(reg.factories(cfg, choice), s.where, pc);

    d_gen = std::make_unique<core::worker_pool>(o.threads);
    for (size_t w = 0; w < d_gen->size(); w++)
        d_enc.push_back(std::make_unique<core::sch::sch_encoder>());
    d_bits.assign(d_round, std::vector<uint8_t>(size_t(s.link.tbs)));
    d_llr.assign(d_round, std::vector<float>(size_t(s.link.g)));
}

bler_curve_runner::~bler_curve_runner() = default;

void bler_curve_runner::progress(const bler_point& p, double secs, bool final) const
{
    if (d_s.o.quiet)
        return;
    std::fprintf(stderr,
                 "\r  %-28s Es/N0 %6.2f dB  TBs %7llu  BLER tx1 %.3e  residual %.3e  throughput %.3f  (%.1f s)%s",
                 d_s.name.c_str(), p.esn0, (unsigned long long)p.blocks, p.bler(1), p.residual(), p.throughput(),
                 secs, final ? "\n" : "   ");
}

void bler_curve_runner::run_round(size_t n, double esn0, uint64_t point_seed, bler_point& p)
{
    const auto& o = d_s.o;
    const size_t G = size_t(d_s.link.g), A = size_t(d_s.link.tbs);
    const size_t workers = d_gen->size();
    // Each TB's payload and noise from its own seed, from its number in the
    // point: the same whatever the thread count or the round size (the
    // backend's).
    auto tb_seed = [&](size_t i) { return mix(point_seed ^ mix(p.blocks + i)); };
    d_gen->parallel_for(workers, [&](size_t w, size_t) {
        for (size_t i = w; i < n; i += workers) {
            core::awgn_llr_source rng(tb_seed(i));
            for (size_t k = 0; k < A; k++)
                d_bits[i][k] = uint8_t(rng.next() >> 31);
        }
    });
    std::vector<size_t> active(n);
    for (size_t i = 0; i < n; i++)
        active[i] = i;
    std::vector<int> passed_at(n, -1); // the transmission whose CRC checked
    std::vector<bool> correct(n, false);
    for (int tx = 0; tx < o.max_tx && !active.empty(); tx++) {
        auto req = d_req;
        req.rv = rv_of(d_s.harq, tx);
        // This transmission's LLRs, fresh noise for each TB and transmission.
        d_gen->parallel_for(workers, [&](size_t w, size_t) {
            for (size_t j = w; j < active.size(); j += workers) {
                const size_t i = active[j];
                const auto coded = d_enc[w]->encode(d_bits[i].data(), A, req);
                qam_awgn_channel ch(d_s.link.qm, mix(tb_seed(i) ^ mix(1000 + uint64_t(tx))), o.exact_llr);
                ch.transmit(coded.data(), G, esn0, d_llr[i].data());
            }
        });
        auto collect = [&](bool block) {
            while (const auto* f = d_pipe->front(block)) {
                block = false;
                const auto* r = f->result_as<core::sch::frame_result>();
                if (f->rejected || !r)
                    throw std::runtime_error("the decoder rejected TB " + std::to_string(f->user));
                const size_t i = size_t(f->user);
                p.iterations += uint64_t(r->iterations);
                if (r->crc_ok) {
                    passed_at[i] = tx;
                    correct[i] = std::memcmp(f->data, d_bits[i].data(), A) == 0;
                }
                d_pipe->pop();
            }
        };
        core::sch::frame_params params = d_params[size_t(tx)];
        for (size_t i : active) {
            while (!d_pipe->can_accept())
                collect(true);
            params.harq_slot = int(i); // TB i of the round keeps soft buffer i
            d_pipe->submit(d_llr[i].data(), G * sizeof(float), A, &params, i);
        }
        d_pipe->drain();
        collect(false);
        p.transmissions += active.size();
        active.erase(std::remove_if(active.begin(), active.end(), [&](size_t i) { return passed_at[i] >= 0; }),
                     active.end());
    }
    for (size_t i = 0; i < n; i++) {
        const bool ok = passed_at[i] >= 0 && correct[i];
        p.delivered += ok;
        p.undetected += passed_at[i] >= 0 && !correct[i];
        for (int t = 0; t < o.max_tx; t++)
            p.failed[size_t(t)] += !(ok && passed_at[i] <= t);
    }
    p.blocks += n;
}

bler_point bler_curve_runner::run(double esn0)
{
    const auto& o = d_s.o;
    bler_point p;
    p.esn0 = esn0;
    p.failed.assign(size_t(o.max_tx), 0);
    // In thousandths of a dB: 1.0 and 0.999999999 (a sum of steps) are one point.
    const uint64_t point_seed = mix(o.seed ^ mix(uint64_t(std::llround((esn0 + 1000.0) * 1000.0))));
    const auto t0 = clk::now();
    auto last = t0;
    for (;;) {
        const bool enough_errors = p.failed[0] >= o.min_block_errors && p.blocks >= o.min_blocks;
        if (p.blocks >= o.max_blocks || enough_errors)
            break;
        const size_t n = size_t(std::min<uint64_t>(d_round, o.max_blocks - p.blocks));
        run_round(n, esn0, point_seed, p);
        if (clk::now() - last > std::chrono::milliseconds(500)) {
            progress(p, std::chrono::duration<double>(clk::now() - t0).count(), false);
            last = clk::now();
        }
    }
    progress(p, std::chrono::duration<double>(clk::now() - t0).count(), true);
    return p;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
