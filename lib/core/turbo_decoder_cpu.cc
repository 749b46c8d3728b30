/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo_decoder_cpu.h"
#include "lte_crc.h"
#include "turbo_trellis.h"

#include <algorithm>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

turbo_decoder_cpu::turbo_decoder_cpu(const turbo_config& cfg) : d_cfg(cfg)
{
    d_cfg.validate();
    d_ext[0].resize(lte_max_K);
    d_ext[1].resize(lte_max_K);
    d_prev.resize(lte_max_K);
}

turbo_decode_result
turbo_decoder_cpu::decode(const float* llr, int K, uint8_t* hard, float* soft)
{
    if (d_cfg.algorithm == LOG_MAP)
        return decode_impl<true>(llr, K, hard, soft);
    return decode_impl<false>(llr, K, hard, soft);
}

template <bool LOG>
turbo_decode_result
turbo_decoder_cpu::decode_impl(const float* llr, int K, uint8_t* hard, float* soft)
{
    const qpp_params qpp = lte_qpp(K);
    if (d_pi_K != K) {
        d_pi.resize(K);
        for (int i = 0; i < K; i++)
            d_pi[i] = qpp_index(qpp, i);
        d_pi_K = K;
    }
    const int W = window_length(K, d_cfg.subblocks);
    const int nwin = window_count(K, d_cfg.subblocks);
    const float scale = d_cfg.extrinsic_scale();
    d_alpha.resize(size_t(W) * 8);
    // Window-boundary metrics [decoder][window][state], and the snapshot each
    // half-iteration starts from (all windows start from the previous values,
    // as the GPU's windows run at the same time).
    d_abound.assign(size_t(2) * nwin * 8, 0.0f);
    d_bbound.assign(size_t(2) * nwin * 8, 0.0f);
    d_ain.resize(d_abound.size());
    d_bin.resize(d_bbound.size());
    std::fill(d_ext[0].begin(), d_ext[0].begin() + K, 0.0f);
    const int guard = d_cfg.guard;
    for (int d = 0; d < 2; d++) {
        float* a0 = &d_abound[size_t(d) * nwin * 8];
        for (int s = 1; s < 8; s++)
            a0[s] = NEG; // both encoders start in state 0
        tail_beta<LOG>(llr + 3 * K + 6 * d, &d_bbound[(size_t(d) * nwin + nwin - 1) * 8]);
    }

    turbo_decode_result res{ 0, -1 };
    for (int it = 1; it <= d_cfg.iterations; it++) {
        for (int d = 0; d < 2; d++) {
            float* ab = &d_abound[size_t(d) * nwin * 8];
            float* bb = &d_bbound[size_t(d) * nwin * 8];
            std::copy(ab, ab + nwin * 8, d_ain.begin());
            std::copy(bb, bb + nwin * 8, d_bin.begin());
            const float* La = d_ext[d].data();
            float* Le = d_ext[1 - d].data();
            auto Lu_at = [&](int k) {
                const int idx = d ? d_pi[k] : k;
                return llr[3 * idx] + La[idx];
            };
            for (int w = 0; w < nwin; w++) {
                const int start = w * W;
                const int len = std::min(W, K - start);
                const int gf = guard_before(w, W, guard);
                const int gb = guard_after(w, nwin, std::min(W, K - start - len), guard);
                // Where this window saves metrics for its neighbours' training.
                const int ja = len - std::min(guard, len); // alpha for window w+1
                const int jb = std::min(guard, len);       // beta for window w-1
                float a[8], b[8], t[8];
                std::copy(&d_ain[w * 8], &d_ain[w * 8] + 8, a);
                for (int k = start - gf; k < start; k++) {
                    alpha_step<LOG>(a, Lu_at(k), llr[3 * k + 1 + d], t);
                    std::copy(t, t + 8, a);
                }
                for (int j = 0; j < len; j++) {
                    const int k = start + j;
                    std::copy(a, a + 8, &d_alpha[size_t(j) * 8]);
                    if (j == ja && w + 1 < nwin)
                        std::copy(a, a + 8, ab + (w + 1) * 8);
                    alpha_step<LOG>(a, Lu_at(k), llr[3 * k + 1 + d], t);
                    std::copy(t, t + 8, a);
                }
                if (ja == len && w + 1 < nwin)
                    std::copy(a, a + 8, ab + (w + 1) * 8);
                std::copy(&d_bin[w * 8], &d_bin[w * 8] + 8, b);
                for (int k = start + len + gb - 1; k >= start + len; k--) {
                    beta_step<LOG>(b, Lu_at(k), llr[3 * k + 1 + d], t);
                    std::copy(t, t + 8, b);
                }
                if (jb == len && w > 0)
                    std::copy(b, b + 8, bb + (w - 1) * 8);
                for (int j = len - 1; j >= 0; j--) {
                    const int k = start + j;
                    const int idx = d ? d_pi[k] : k;
                    const float Lu = llr[3 * idx] + La[idx];
                    const float Lp = llr[3 * k + 1 + d];
                    const float le = extrinsic<LOG>(&d_alpha[size_t(j) * 8], b, Lp);
                    if (d == 1) {
                        const float app = Lu + le;
                        hard[idx] = app > 0.0f ? 1 : 0;
                        if (soft)
                            soft[idx] = app;
                    }
                    beta_step<LOG>(b, Lu, Lp, t);
                    std::copy(t, t + 8, b);
                    Le[idx] = scale * le;
                    if (j == jb && w > 0)
                        std::copy(b, b + 8, bb + (w - 1) * 8);
                }
            }
        }
        res.iterations = it;
        if (d_cfg.stop == early_stop::crc24a || d_cfg.stop == early_stop::crc24b) {
            const auto t = d_cfg.stop == early_stop::crc24a ? crc24_type::a : crc24_type::b;
            res.check = crc24(hard, K, t) == 0 ? 1 : 0;
            if (res.check)
                break;
        } else if (d_cfg.stop == early_stop::hard_decision) {
            if (it > 1 && std::memcmp(d_prev.data(), hard, K) == 0)
                break;
            std::memcpy(d_prev.data(), hard, K);
        }
    }
    return res;
}

template turbo_decode_result
turbo_decoder_cpu::decode_impl<true>(const float*, int, uint8_t*, float*);
template turbo_decode_result
turbo_decoder_cpu::decode_impl<false>(const float*, int, uint8_t*, float*);

} // namespace core
} // namespace gpurx
} // namespace gr
