/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_trellis.h"

namespace gr {
namespace gpurx {
namespace core {

lte_turbo_encoder::lte_turbo_encoder(int K) : d_qpp(lte_qpp(K)), d_interleaved(K) {}

namespace {
// Runs one constituent encoder over K bits; writes parity z_k to par[3k] and
// returns the 6 tail values (x_K, z_K, x_K+1, z_K+1, x_K+2, z_K+2).
void rsc_encode(const uint8_t* u, int K, uint8_t* par, uint8_t tail[6])
{
    int s = 0;
    for (int k = 0; k < K; k++) {
        const int b = u[k] & 1;
        par[3 * k] = uint8_t(turbo::rsc_parity(s, b));
        s = turbo::rsc_next(s, b);
    }
    for (int t = 0; t < 3; t++) {
        // Termination: the input equals the feedback, so zeros enter the register.
        const int x = turbo::rsc_feedback(s);
        tail[2 * t] = uint8_t(x);
        tail[2 * t + 1] = uint8_t(turbo::rsc_parity(s, x));
        s = turbo::rsc_next(s, x);
    }
}
} // namespace

void lte_turbo_encoder::encode(const uint8_t* bits, uint8_t* out)
{
    const int K = d_qpp.K;
    for (int i = 0; i < K; i++) {
        out[3 * i] = bits[i] & 1;
        d_interleaved[i] = bits[qpp_index(d_qpp, i)] & 1;
    }
    uint8_t tail1[6], tail2[6];
    rsc_encode(bits, K, out + 1, tail1);
    rsc_encode(d_interleaved.data(), K, out + 2, tail2);
    // Section 5.1.3.2.2: d(0)_K = x_K, d(1)_K = z_K, d(2)_K = x_K+1, d(0)_K+1 =
    // z_K+1, ... which in the interleaved layout is the tail values in order.
    for (int t = 0; t < 6; t++) {
        out[3 * K + t] = tail1[t];
        out[3 * K + 6 + t] = tail2[t];
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
