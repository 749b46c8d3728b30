/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/turbo_window_plan.h"
#include "turbo/lte_qpp.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace turbo_win {

int windows_for(int K)
{
    int P = MAX_WINDOWS;
    while (P > 1 && (K % P != 0 || K / P < MIN_WINDOW))
        P /= 2;
    return P;
}

namespace {

// vpshufb controls of a 16-lane int16 gather dst[t] = src[idx[t]] (see plan).
void shuffle_controls(const uint8_t* idx, uint8_t* ctl)
{
    for (int t = 0; t < LANES; t++) {
        const int s = idx[t];
        const bool same = (s / 8) == (t / 8);
        for (int b = 0; b < 2; b++) {
            const uint8_t sel = uint8_t((s % 8) * 2 + b);
            ctl[2 * t + b] = same ? sel : 0x80;
            ctl[32 + 2 * t + b] = same ? 0x80 : sel;
        }
    }
}

std::unique_ptr<plan> build(int K)
{
    const qpp_params q = lte_qpp(K);
    auto p = std::make_unique<plan>();
    p->K = K;
    p->P = windows_for(K);
    p->W = K / p->P;
    p->C = LANES / p->P;
    const int P = p->P, W = p->W;
    p->nat_row.resize(W);
    p->int_row.resize(W);
    p->to_int.resize(size_t(W) * LANES);
    p->to_nat.resize(size_t(W) * LANES);
    for (int j = 0; j < W; j++) {
        const int r = qpp_index(q, j) % W;
        p->nat_row[j] = uint16_t(r);
        p->int_row[r] = uint16_t(j);
        for (int c = 0; c < p->C; c++)
            for (int t = 0; t < P; t++) {
                const int i = qpp_index(q, j + t * W); // interleaved j + tW <- natural i
                if (i % W != r)
                    throw std::logic_error("turbo window plan: QPP row property fails for K=" + std::to_string(K));
                const int s = i / W; // natural window (lane within the group)
                p->to_int[size_t(r) * LANES + c * P + t] = uint8_t(c * P + s);
                p->to_nat[size_t(j) * LANES + c * P + s] = uint8_t(c * P + t);
            }
    }
    p->to_int_ctl.resize(size_t(W) * 64);
    p->to_nat_ctl.resize(size_t(W) * 64);
    for (int r = 0; r < W; r++) {
        shuffle_controls(&p->to_int[size_t(r) * LANES], &p->to_int_ctl[size_t(r) * 64]);
        shuffle_controls(&p->to_nat[size_t(r) * LANES], &p->to_nat_ctl[size_t(r) * 64]);
    }
    return p;
}

std::mutex g_build;
std::atomic<const plan*> g_plans[lte_num_block_sizes];

} // namespace

const plan& plan_for(int K)
{
    // K's row of Table 5.1.3-3 from its four even steps (8, 16, 32, 64) and
    // checked against the table: the decoders ask once per call, and a
    // search of the 188 rows was most of a percent of a transport block.
    const int i = K <= 512 ? (K - 40) / 8 : K <= 1024 ? 60 + (K - 528) / 16 : K <= 2048 ? 92 + (K - 1056) / 32
                                                                                  : 124 + (K - 2112) / 64;
    const auto& table = lte_qpp_table();
    if (K < lte_min_K || K > lte_max_K || table[size_t(i)].K != K)
        lte_qpp(K); // throws, naming K
    if (const plan* p = g_plans[i].load(std::memory_order_acquire))
        return *p;
    std::lock_guard<std::mutex> lock(g_build);
    if (const plan* p = g_plans[i].load(std::memory_order_acquire))
        return *p;
    const plan* p = build(K).release(); // kept for the life of the process
    g_plans[i].store(p, std::memory_order_release);
    return *p;
}

} // namespace turbo_win
} // namespace core
} // namespace gpurx
} // namespace gr
