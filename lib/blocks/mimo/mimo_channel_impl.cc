/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_channel: a Kronecker-correlated Rayleigh channel with AWGN, for
// simulations and tests of mimo_detector (its outputs are the detector's
// inputs 0 and 1).
#include "mimo_channel_params.h"
#include <gnuradio/io_signature.h>

#include <cmath>
#include <mutex>
#include <random>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {

namespace {

void check_noise_var(float n0)
{
    if (!(n0 >= 0.0f) || !std::isfinite(n0))
        throw std::invalid_argument("noise_var must be non-negative and finite, got " + std::to_string(n0));
}

void check_correlation(const char* name, float rho)
{
    if (!(rho >= 0.0f && rho < 1.0f))
        throw std::invalid_argument(std::string(name) + " must be in [0, 1), got " + std::to_string(rho));
}

/*!
 * The lower Cholesky factor L (L L^T = R) of the n x n exponential
 * correlation matrix R[i][j] = rho^|i-j|. Any square root would give the same
 * distribution; Cholesky's is real and triangular, and exists for rho < 1.
 */
std::vector<double> exp_corr_sqrt(int n, double rho)
{
    std::vector<double> r(size_t(n) * n), l(size_t(n) * n, 0.0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            r[i * n + j] = std::pow(rho, std::abs(i - j));
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = r[i * n + j];
            for (int k = 0; k < j; k++)
                s -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = i == j ? std::sqrt(s) : s / l[j * n + j];
        }
    return l;
}

class mimo_channel_impl final : public mimo_channel
{
    const int d_nt, d_nr, d_vpc;
    std::vector<double> d_lt, d_lr; // correlation square roots (nt x nt, nr x nr)
    // Separate streams for the channel and the noise: the same seed gives the
    // same channels at every noise_var, so points of a BER-vs-SNR sweep differ
    // only in the noise.
    std::mt19937_64 d_rng_h, d_rng_n;
    // One distribution per stream: libstdc++'s caches a second value.
    std::normal_distribution<double> d_normal_h{ 0.0, 1.0 }, d_normal_n{ 0.0, 1.0 };
    std::vector<std::complex<double>> d_g, d_h;
    float d_n0;
    mutable std::mutex d_mutex; // set_noise_var() from another thread

    static std::complex<double>
    cn(std::mt19937_64& rng, std::normal_distribution<double>& normal, double var) // CN(0, var)
    {
        const double s = std::sqrt(var / 2.0);
        const double re = normal(rng);
        return { s * re, s * normal(rng) };
    }

    void draw_channel()
    {
        for (auto& g : d_g)
            g = cn(d_rng_h, d_normal_h, 1.0);
        // H = Lr G Lt^T.
        for (int r = 0; r < d_nr; r++)
            for (int t = 0; t < d_nt; t++) {
                std::complex<double> acc = 0.0;
                for (int i = 0; i <= r; i++)
                    for (int j = 0; j <= t; j++)
                        acc += d_lr[r * d_nr + i] * d_g[i * d_nt + j] * d_lt[t * d_nt + j];
                d_h[r * d_nt + t] = acc;
            }
    }

public:
    mimo_channel_impl(int nt, int nr, float n0, int vpc, float tx_rho, float rx_rho, uint64_t seed)
        : gr::block("mimo_channel",
                    gr::io_signature::make(1, 1, int(sizeof(gr_complex)) * nt),
                    gr::io_signature::make2(2, 2, int(sizeof(gr_complex)) * nr,
                                            int(sizeof(gr_complex)) * nr * nt)),
          d_nt(nt), d_nr(nr), d_vpc(vpc), d_rng_h(seed), d_rng_n(seed ^ 0x9e3779b97f4a7c15ull), d_g(size_t(nr) * nt), d_h(size_t(nr) * nt), d_n0(n0)
    {
        d_lt = exp_corr_sqrt(nt, tx_rho);
        d_lr = exp_corr_sqrt(nr, rx_rho);
        set_output_multiple(vpc);
        // Output 0 runs at the input's rate, output 1 at 1/vectors_per_channel,
        // which GNU Radio's policies cannot express: general_work() carries
        // the input's tags to output 0, at the same offsets.
        set_tag_propagation_policy(TPP_CUSTOM);
    }

    float noise_var() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_n0;
    }
    void set_noise_var(float n0) override
    {
        check_noise_var(n0);
        std::lock_guard<std::mutex> l(d_mutex);
        d_n0 = n0;
    }

    void forecast(int noutput_items, gr_vector_int& required) override { required[0] = noutput_items; }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const auto* s = static_cast<const gr_complex*>(input_items[0]);
        auto* y = static_cast<gr_complex*>(output_items[0]);
        auto* h = static_cast<gr_complex*>(output_items[1]);
        const int frames = std::min(noutput_items, ninput_items[0]) / d_vpc;
        const double n0 = noise_var();
        for (int f = 0; f < frames; f++) {
            draw_channel();
            for (size_t i = 0; i < d_h.size(); i++)
                h[size_t(f) * d_h.size() + i] = gr_complex(d_h[i]);
            for (int v = 0; v < d_vpc; v++) {
                const gr_complex* sv = s + (size_t(f) * d_vpc + v) * d_nt;
                gr_complex* yv = y + (size_t(f) * d_vpc + v) * d_nr;
                for (int r = 0; r < d_nr; r++) {
                    std::complex<double> acc = n0 > 0 ? cn(d_rng_n, d_normal_n, n0) : 0.0;
                    for (int t = 0; t < d_nt; t++)
                        acc += d_h[r * d_nt + t] * std::complex<double>(sv[t]);
                    yv[r] = gr_complex(acc);
                }
            }
        }
        std::vector<gr::tag_t> tags;
        get_tags_in_window(tags, 0, 0, uint64_t(frames) * d_vpc);
        for (const auto& t : tags)
            add_item_tag(0, t.offset, t.key, t.value, t.srcid);
        consume(0, frames * d_vpc);
        produce(0, frames * d_vpc);
        produce(1, frames);
        return WORK_CALLED_PRODUCE;
    }
};
} // namespace

mimo_channel::sptr make_mimo_channel(const mimo_channel_params& p)
{
    if (p.nt < 1 || p.nt > 8)
        throw std::invalid_argument("nt must be in 1..8, got " + std::to_string(p.nt));
    // The channel feeds mimo_detector, which needs nr >= nt (with fewer
    // receive antennas than streams it cannot separate them): a channel it
    // cannot take is refused here, where the mistake is made.
    if (p.nr < p.nt || p.nr > 8)
        throw std::invalid_argument("nr must be in nt..8 (nt = " + std::to_string(p.nt) +
                                    ": mimo_detector separates nt streams with at least as many "
                                    "receive antennas), got " + std::to_string(p.nr));
    if (p.vectors_per_channel < 1 || p.vectors_per_channel > 65536)
        throw std::invalid_argument("vectors_per_channel must be in 1..65536, got " +
                                    std::to_string(p.vectors_per_channel));
    check_noise_var(p.noise_var);
    check_correlation("tx_correlation", p.tx_correlation);
    check_correlation("rx_correlation", p.rx_correlation);
    return gnuradio::make_block_sptr<mimo_channel_impl>(
        p.nt, p.nr, p.noise_var, p.vectors_per_channel, p.tx_correlation, p.rx_correlation, p.seed);
}

} // namespace gpurx
} // namespace gr
