/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pbch/pbch_decoder.h"

#include "lte/coding/lte_crc16.h"
#include "lte/pbch/transmit_diversity.h"
#include "sch/lte_scrambling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {
constexpr int hypotheses[3] = { 1, 2, 4 };
int hypothesis_index(int ports) { return ports == 1 ? 0 : ports == 2 ? 1 : 2; }
// A noiseless capture estimates a noise variance of about 0: keep the LLRs
// finite and their scale sensible (the REs have unit power).
constexpr float min_noise_var = 1e-6f;
} // namespace

pbch_decoder::pbch_decoder(int cell_id, cyclic_prefix cp) : d_cell_id(cell_id), d_cp(cp)
{
    if (cell_id < 0 || cell_id > 503)
        throw std::invalid_argument("cell_id=" + std::to_string(cell_id) + " is outside 0..503");
    d_c = sch::gold_bits(uint32_t(cell_id), size_t(pbch_bits_per_block(cp)));
    d_block.resize(size_t(pbch_bits_per_block(cp)));
}

bool pbch_decoder::frame_llrs(const subframe_grid& g, const channel_estimate& est, int ports, float* llr)
{
    cell c;
    c.cell_id = d_cell_id;
    c.cp = d_cp;
    if (g.n_sc < 72 || g.n_sc % 2 || g.n_symbols != c.symbols_per_subframe() || g.n_rx < 1 ||
        g.re.size() != size_t(g.n_rx) * size_t(g.n_symbols) * size_t(g.n_sc) || est.n_rx != g.n_rx ||
        est.n_symbols != g.n_symbols || est.n_sc != g.n_sc || est.n_ports < ports ||
        est.h.size() != size_t(est.n_rx) * size_t(est.n_ports) * size_t(est.n_symbols) * size_t(est.n_sc) ||
        (ports != 1 && ports != 2 && ports != 4))
        return false;
    if (d_pos_n_sc != g.n_sc) {
        d_pos = pbch_positions(c, g.n_sc);
        d_pos_n_sc = g.n_sc;
    }
    const int n_rx = g.n_rx, n = int(d_pos.size());
    const float inv_noise = 1.0f / std::max(est.noise_var, min_noise_var);
    // y[re][rx], h[re][port][rx] of the (up to 4) REs detected together.
    std::vector<cf> y(size_t(4 * n_rx)), h(size_t(16 * n_rx));
    const int group = ports == 1 ? 1 : ports;
    for (int i0 = 0; i0 < n; i0 += group) {
        for (int j = 0; j < group; j++) {
            const re_position& p = d_pos[size_t(i0 + j)];
            for (int r = 0; r < n_rx; r++) {
                y[size_t(j * n_rx + r)] = g.at(r, p.l, p.k);
                for (int q = 0; q < ports; q++)
                    h[size_t((j * 4 + q) * n_rx + r)] = est.at(r, q, p.l, p.k);
            }
        }
        auto Y = [&](int j) { return &y[size_t(j * n_rx)]; };
        auto H = [&](int j, int q) { return &h[size_t((j * 4 + q) * n_rx)]; };
        float* out = llr + 2 * i0;
        if (ports == 1) {
            single_port_llr(Y(0), H(0, 0), n_rx, inv_noise, out);
        } else if (ports == 2) {
            sfbc_pair_llr(Y(0), Y(1), H(0, 0), H(0, 1), H(1, 0), H(1, 1), n_rx, inv_noise, out);
        } else {
            // SFBC + FSTD: ports 0 and 2 on the first two REs, 1 and 3 on the others.
            sfbc_pair_llr(Y(0), Y(1), H(0, 0), H(0, 2), H(1, 0), H(1, 2), n_rx, inv_noise, out);
            sfbc_pair_llr(Y(2), Y(3), H(2, 1), H(2, 3), H(3, 1), H(3, 3), n_rx, inv_noise, out + 4);
        }
    }
    // Values that are not finite carry no information; a frame with mostly
    // none (no signal, no channel) is not decoded: all-zero LLRs would
    // decode to the all-zero MIB, whose CRC (mask 0x0000) passes.
    int informative = 0;
    for (int i = 0; i < 2 * n; i++) {
        if (!std::isfinite(llr[i]))
            llr[i] = 0.0f;
        informative += llr[i] != 0.0f;
    }
    return informative >= n;
}

bool pbch_decoder::try_block(const std::vector<float>& e, int ports, int j, pbch_result& r)
{
    // Descramble (36.211 §6.6.1): b = b~ xor c, so c = 1 turns the LLR's sign.
    for (size_t i = 0; i < e.size(); i++)
        d_block[i] = d_c[i] ? -e[i] : e[i];
    uint8_t bits[mib_bits + 16];
    const cc_crc16_result cr = d_viterbi.decode_with_crc16(d_block.data(), int(d_block.size()), mib_bits, bits);
    if (pbch_ports_of_mask(cr.crc_xor) != ports || !(cr.metric > 0.0))
        return false;
    mib m;
    if (!parse_mib(bits, j, m))
        return false;
    r.found = true;
    r.ports = ports;
    r.frame_in_tti = j;
    r.m = m;
    r.reason.clear();
    return true;
}

pbch_result pbch_decoder::decode(const subframe_grid& g, const channel_estimate& est, int ports)
{
    pbch_result r;
    const int per_frame = 2 * pbch_symbols_per_frame(d_cp);
    frame_llr f;
    bool any = false;
    for (int q : hypotheses) {
        if ((ports > 0 && q != ports) || q > est.n_ports)
            continue;
        const int h = hypothesis_index(q);
        f.llr[h].resize(size_t(per_frame));
        f.have[h] = frame_llrs(g, est, q, f.llr[h].data());
        any = any || f.have[h];
    }
    if (!any) {
        d_history.clear();
        r.reason = "the grid or the channel estimate does not fit the PBCH (or ports=" + std::to_string(ports) +
                   " is not 1, 2 or 4), or its REs carry no signal";
        return r;
    }
    d_history.push_back(std::move(f));
    if (d_history.size() > 4)
        d_history.erase(d_history.begin());
    const frame_llr& cur = d_history.back();
    std::vector<float> e(d_block.size());
    for (int q : hypotheses) {
        const int h = hypothesis_index(q);
        if (!cur.have[h])
            continue;
        for (int j = 0; j < 4; j++) {
            std::fill(e.begin(), e.end(), 0.0f);
            std::copy(cur.llr[h].begin(), cur.llr[h].end(), e.begin() + j * per_frame);
            if (try_block(e, q, j, r))
                return r;
        }
    }
    r.reason = "no port hypothesis and frame position passed the CRC";
    return r;
}

pbch_result pbch_decoder::decode_combined()
{
    pbch_result r;
    r.reason = "no earlier frames to combine with";
    const int per_frame = 2 * pbch_symbols_per_frame(d_cp);
    const int have = int(d_history.size());
    std::vector<float> e(d_block.size());
    for (int q : hypotheses) {
        const int h = hypothesis_index(q);
        // The latest frame at place j; the d-th before it at j - d.
        for (int j = 1; j < 4; j++) {
            const int frames = std::min(j, have - 1) + 1;
            if (frames < 2)
                continue;
            std::fill(e.begin(), e.end(), 0.0f);
            bool all = true;
            for (int d = 0; d < frames; d++) {
                const frame_llr& f = d_history[size_t(have - 1 - d)];
                if (!f.have[h]) {
                    all = false;
                    break;
                }
                std::copy(f.llr[h].begin(), f.llr[h].end(), e.begin() + (j - d) * per_frame);
            }
            if (all && try_block(e, q, j, r)) {
                r.frames = frames;
                return r;
            }
            r.reason = "no port hypothesis and frame position passed the CRC";
        }
    }
    return r;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
