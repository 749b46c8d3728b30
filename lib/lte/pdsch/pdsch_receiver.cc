/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pdsch/pdsch_receiver.h"

#include "lte/pdsch/pdsch_lmmse_many.h"
#include "lte/pdsch/pdsch_precoding.h"
#include "lte/pdsch/pdsch_re_map.h"
#include "mimo/mimo_detector.h"
#include "modulation/qam_demap.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

const qam::axis_demapper& demapper_of(int qm)
{
    static const qam::axis_demapper d2(qam::modulation::qpsk), d4(qam::modulation::qam16),
        d6(qam::modulation::qam64), d8(qam::modulation::qam256);
    return qm == 2 ? d2 : qm == 4 ? d4 : qm == 6 ? d6 : d8;
}


} // namespace

//! A MIMO detector with the channel it was last given, so that a channel
//! that repeats (a flat channel, CDD's two alternating precoders) is set
//! once.
struct pdsch_receiver::detector_slot {
    std::unique_ptr<mimo::mimo_detector> det;
    std::vector<cf> h;
    int qm = 0, nr = 0, nt = 0;
    double n0 = -1.0;

    void use(const cf* heff, int nr_, int nt_, int qm_, double n0_)
    {
        const size_t n = size_t(nr_) * size_t(nt_);
        if (qm_ == qm && nr_ == nr && nt_ == nt && n0_ == n0 &&
            std::equal(heff, heff + n, h.begin()))
            return;
        h.assign(heff, heff + n);
        qm = qm_, nr = nr_, nt = nt_, n0 = n0_;
        det->set_channel(h.data(), nr, nt, qam::modulation_of_bits(qm), n0);
    }
};

pdsch_receiver::pdsch_receiver(const pdsch_rx_options& options) : d_opt(options)
{
    if (!(options.min_noise_var >= mimo::min_noise_variance &&
          options.min_noise_var <= 1.0f))
        throw std::invalid_argument(
            "min_noise_var=" + std::to_string(options.min_noise_var) +
            " is outside 1e-20..1");
    if (!(std::fabs(options.p_a_db) <= 20.0f))
        throw std::invalid_argument("p_a_db=" + std::to_string(options.p_a_db) +
                                    " is outside -20..20");
    mimo_config cfg;
    cfg.algorithm = options.algorithm;
    for (int i = 0; i < 2; i++) {
        d_det.push_back(std::make_unique<detector_slot>());
        d_det.back()->det = mimo::make_detector(cfg);
    }
}

pdsch_receiver::~pdsch_receiver() = default;

std::string pdsch_receiver::check_shapes(const cell& c,
                                         int cfi,
                                         const pdsch_grant& g,
                                         const subframe_grid& grid,
                                         const channel_estimate& ch) const
{
    const std::string why = grant_problem(g, c);
    if (!why.empty())
        return why;
    if (cfi < 1 || cfi > 3)
        return "cfi=" + std::to_string(cfi) + " is outside 1..3";
    if (grid.time.subframe < 0 || grid.time.subframe > 9)
        return "grid.time.subframe=" + std::to_string(grid.time.subframe) +
               " is outside 0..9";
    if (grid.n_sc != c.n_sc() || grid.n_symbols != c.symbols_per_subframe() ||
        grid.n_rx < 1 || grid.re.size() != size_t(grid.n_rx) * grid.n_symbols * grid.n_sc)
        return "the grid (" + std::to_string(grid.n_rx) + " x " +
               std::to_string(grid.n_symbols) + " x " + std::to_string(grid.n_sc) +
               ") is not the cell's";
    if (ch.n_rx != grid.n_rx || ch.n_ports < c.ports || ch.n_symbols != grid.n_symbols ||
        ch.n_sc != grid.n_sc ||
        ch.h.size() != size_t(ch.n_rx) * ch.n_ports * ch.n_symbols * ch.n_sc)
        return "the channel estimate (" + std::to_string(ch.n_rx) + " rx x " +
               std::to_string(ch.n_ports) +
               " ports) does not match the grid and the cell's ports=" +
               std::to_string(c.ports);
    if (!(ch.noise_var >= 0.0f) || !std::isfinite(ch.noise_var))
        return "noise_var=" + std::to_string(ch.noise_var) + " is not a variance";
    if ((g.scheme == pdsch_scheme::large_delay_cdd ||
         g.scheme == pdsch_scheme::spatial_multiplexing) &&
        grid.n_rx < g.n_layers)
        return std::to_string(g.n_layers) +
               " layers need as many receive antennas, the grid has " +
               std::to_string(grid.n_rx);
    return {};
}

void pdsch_receiver::gather(const subframe_grid& grid,
                            const channel_estimate& ch,
                            int n_ports)
{
    d_nr = grid.n_rx;
    d_np = n_ports;
    const size_t n = d_re.size(), plane = size_t(grid.n_symbols) * grid.n_sc;
    d_y.resize(n * d_nr);
    d_h.resize(n * d_nr * d_np);
    for (size_t i = 0; i < n; i++)
        for (int r = 0; r < d_nr; r++) {
            d_y[i * d_nr + r] = grid.re[size_t(r) * plane + size_t(d_re[i])];
            for (int p = 0; p < d_np; p++)
                d_h[(i * d_nr + r) * d_np + p] =
                    ch.h[(size_t(r) * ch.n_ports + p) * plane + size_t(d_re[i])];
        }
}

std::string pdsch_receiver::receive(const cell& c,
                                    int cfi,
                                    const pdsch_grant& g,
                                    const subframe_grid& grid,
                                    const channel_estimate& ch,
                                    pdsch_llrs& out)
{
    out = pdsch_llrs{};
    const std::string why = check_shapes(c, cfi, g, grid, ch);
    if (!why.empty())
        return why;
    d_re = pdsch_re_indices(c, grid.time.subframe, cfi, prbs_of(g, c));
    const int n_re = int(d_re.size());
    out.n_re = n_re;
    if (g.scheme == pdsch_scheme::transmit_diversity && n_re % 2)
        return "transmit diversity over an odd number of REs (" + std::to_string(n_re) +
               ")";

    // Codewords: the enabled TBs in order; each one's layers (§6.3.3.2:
    // 2 codewords share the layers, the first taking floor(layers/2)).
    const int ncw = g.n_codewords();
    int q = 0;
    for (int t = 0; t < 2; t++)
        if (g.tb[size_t(t)].enabled)
            out.tb[size_t(q++)] = t;
    const bool layered = g.scheme == pdsch_scheme::large_delay_cdd ||
                         g.scheme == pdsch_scheme::spatial_multiplexing;
    for (q = 0; q < ncw; q++) {
        const int m = !layered   ? 1
                      : ncw == 1 ? g.n_layers
                      : q == 0   ? g.n_layers / 2
                                 : g.n_layers - g.n_layers / 2;
        out.g[size_t(q)] = n_re * m * g.tb[size_t(out.tb[size_t(q)])].qm;
        out.nl[size_t(q)] = g.scheme == pdsch_scheme::transmit_diversity || m > 1 ? 2 : 1;
        out.llr[size_t(q)].assign(size_t(out.g[size_t(q)]), 0.0f);
    }

    const float n0 = std::max(ch.noise_var, d_opt.min_noise_var);
    const int n_ports = g.scheme == pdsch_scheme::single_port ? 1 : c.ports;
    const float amp = std::sqrt(std::pow(10.0f, d_opt.p_a_db / 10.0f) * float(n_ports));
    gather(grid, ch, n_ports);
    switch (g.scheme) {
    case pdsch_scheme::single_port:
        detect_single_port(n0, out);
        break;
    case pdsch_scheme::transmit_diversity:
        detect_sfbc(n0, amp, out);
        break;
    default:
        detect_layers(g, n0, amp, out);
        break;
    }
    // Whatever the input held (a NaN in the grid), no NaN or Inf goes on.
    for (auto& v : out.llr)
        for (auto& x : v)
            if (!std::isfinite(x))
                x = 0.0f;
    return {};
}

void pdsch_receiver::detect_single_port(float n0, pdsch_llrs& out)
{
    const int qm = out.g[0] / std::max(1, out.n_re);
    d_z[0].resize(size_t(out.n_re));
    d_zn0[0].resize(size_t(out.n_re));
    for (int i = 0; i < out.n_re; i++)
        d_z[0][size_t(i)] = mrc_one_port(&d_y[size_t(i) * d_nr],
                                         &d_h[size_t(i) * d_nr * d_np],
                                         d_nr,
                                         d_np,
                                         1.0f,
                                         n0,
                                         &d_zn0[0][size_t(i)]);
    demapper_of(qm).demap_many(d_z[0].data(), d_zn0[0].data(), size_t(out.n_re), out.llr[0].data());
}

// §6.3.3.3 puts d(2i) on layer 0 and d(2i+1) on layer 1, §6.3.4.3 sends
// layer symbol i on the REs 2i and 2i+1: the pair's x0, x1 are codeword
// symbols 2i, 2i+1. With 4 ports, d(4i+k) is on layer k; REs 4i, 4i+1 carry
// x0, x1 on ports 0 and 2, REs 4i+2, 4i+3 carry x2, x3 on ports 1 and 3
// (frequency-switched transmit diversity); a last group of two REs carries
// only x0, x1 (the two null symbols §6.3.3.3 appends are not sent).
void pdsch_receiver::detect_sfbc(float n0, float amp, pdsch_llrs& out)
{
    const int qm = out.g[0] / std::max(1, out.n_re);
    const size_t hs = size_t(d_nr) * d_np;
    // z[i] is codeword symbol i (x0, x1 of the pair at REs i, i + 1).
    d_z[0].assign(size_t(out.n_re), cf(0.0f, 0.0f));
    d_zn0[0].assign(size_t(out.n_re), 0.0f);
    cf* z = d_z[0].data();
    float* zn0 = d_zn0[0].data();
    for (int i = 0; i + 1 < out.n_re; i += 2) {
        int pa = 0, pb = 1;
        if (d_np == 4)
            pa = (i % 4) / 2, pb = pa + 2;
        sfbc_2port_combine(&d_y[size_t(i) * d_nr],
                           &d_y[size_t(i + 1) * d_nr],
                           &d_h[size_t(i) * hs],
                           &d_h[size_t(i + 1) * hs],
                           d_nr,
                           d_np,
                           pa,
                           pb,
                           amp * inv_sqrt2,
                           n0,
                           &z[i],
                           &z[i + 1],
                           &zn0[i]);
    }
    demapper_of(qm).demap_many(z, zn0, size_t(out.n_re), out.llr[0].data());
}

void pdsch_receiver::detect_layers(const pdsch_grant& g,
                                   float n0,
                                   float amp,
                                   pdsch_llrs& out)
{
    const int nl = g.n_layers, ncw = g.n_codewords();
    // Layer j: its codeword, that codeword's layer count and j's place in it.
    int cw_of[2] = {}, m_of[2] = {}, pos_of[2] = {}, qm_of[2] = { 2, 2 };
    for (int j = 0; j < nl; j++) {
        const int q = ncw == 1 ? 0 : (j < nl / 2 ? 0 : 1);
        cw_of[j] = q;
        m_of[j] = ncw == 1 ? nl : (q == 0 ? nl / 2 : nl - nl / 2);
        pos_of[j] = q == 0 ? j : j - nl / 2;
        qm_of[j] = g.tb[size_t(out.tb[size_t(q)])].qm;
    }
    const bool same_mod = nl == 1 || qm_of[0] == qm_of[1];
    // LMMSE per stream is closed form (pdsch_precoding.h's lmmse_streams,
    // the same filter and per-layer SINR as lib/mimo's LMMSE detector):
    // without the detector object's per-channel set-up for every RE, which
    // cost a third of the receiver's time at 100 PRB.
    const bool library = same_mod && d_opt.algorithm != mimo::algorithm::lmmse;
    const bool cdd = g.scheme == pdsch_scheme::large_delay_cdd;
    cf p[4], heff[2 * 8];
    if (!cdd)
        codebook_2port(nl, g.codebook_index, p);
    // The library's detectors write layer after layer, qm LLRs each.
    const int stride = qm_of[0];
    std::vector<float> tmp(size_t(nl) * 8);
    const size_t hs = size_t(d_nr) * d_np;
    const double n0_det = std::min(std::max(double(n0), double(mimo::min_noise_variance)),
                                   double(mimo::max_noise_variance));
    if (!library) {
        // Per-stream LMMSE: each layer's z and noise for every RE, then each
        // layer demapped in one go, its symbols going to its codeword's
        // places (§6.3.3.2: symbol m i + pos of a codeword on m layers is on
        // its layer pos, RE i).
        for (int j = 0; j < nl; j++) {
            d_z[j].resize(size_t(out.n_re));
            d_zn0[j].resize(size_t(out.n_re));
        }
        if (d_np == 2 && d_nr <= 2) {
            lmmse_many_args a;
            a.y = d_y.data();
            a.h = d_h.data();
            a.n = out.n_re;
            a.nr = d_nr;
            a.nl = nl;
            a.amp = amp;
            a.n0 = n0;
            a.cdd = cdd;
            a.p = p;
            for (int j = 0; j < nl; j++) {
                a.z[j] = d_z[j].data();
                a.n0_out[j] = d_zn0[j].data();
            }
            lmmse_streams_many(a);
        } else {
            for (int i = 0; i < out.n_re; i++) {
                if (cdd)
                    large_delay_cdd_2port(i, p);
                effective_channel(&d_h[size_t(i) * hs], p, d_nr, d_np, nl, amp, heff);
                cf z[2];
                float n0_eff[2];
                lmmse_streams(&d_y[size_t(i) * d_nr], heff, d_nr, nl, n0, z, n0_eff);
                for (int j = 0; j < nl; j++) {
                    d_z[j][size_t(i)] = z[j];
                    d_zn0[j][size_t(i)] = n0_eff[j];
                }
            }
        }
        for (int j = 0; j < nl; j++) {
            const int qm = qm_of[j];
            float* dst = out.llr[size_t(cw_of[j])].data();
            if (m_of[j] == 1) {
                demapper_of(qm).demap_many(d_z[j].data(), d_zn0[j].data(), size_t(out.n_re), dst);
                continue;
            }
            d_llr_tmp.resize(size_t(out.n_re) * qm);
            demapper_of(qm).demap_many(d_z[j].data(), d_zn0[j].data(), size_t(out.n_re), d_llr_tmp.data());
            for (int i = 0; i < out.n_re; i++)
                std::copy(&d_llr_tmp[size_t(i) * qm],
                          &d_llr_tmp[size_t(i) * qm] + qm,
                          dst + (size_t(m_of[j]) * i + pos_of[j]) * qm);
        }
        return;
    }
    for (int i = 0; i < out.n_re; i++) {
        if (cdd)
            large_delay_cdd_2port(i, p);
        effective_channel(&d_h[size_t(i) * hs], p, d_nr, d_np, nl, amp, heff);
        const cf* y = &d_y[size_t(i) * d_nr];
        detector_slot& s = *d_det[size_t(cdd ? (i & 1) : 0)];
        s.use(heff, d_nr, nl, qm_of[0], n0_det);
        s.det->detect(y, tmp.data());
        // §6.3.3.2, as above.
        for (int j = 0; j < nl; j++) {
            const int qm = qm_of[j];
            const size_t at = (size_t(m_of[j]) * i + pos_of[j]) * qm;
            std::copy(tmp.data() + size_t(j) * stride,
                      tmp.data() + size_t(j) * stride + qm,
                      out.llr[size_t(cw_of[j])].data() + at);
        }
    }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
