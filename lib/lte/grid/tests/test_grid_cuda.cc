/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The GPU front end (grid_gpu) against the CPU's ofdm_demodulator +
// channel_estimator, run on the same samples in the same order, and against
// independent truths: lte_dl_gen's flat 2x2 channel (its JSON) and noise
// level, and a channel linear in time and frequency through 4 ports (built
// here from 36.211's CRS and OFDM signal), on which interpolation is exact.
//
// Agreement (the FFTs differ: cuFFT against FFTW; the rest is the same
// float arithmetic): per subframe, the largest |GPU - CPU| at most
//   1e-4 x the RMS of the CPU grid         on the grid,
//   1e-3 x the RMS of the CPU estimate     on the estimate,
// and noise_var within 1% of the CPU's (plus 1e-6 of the unit RE power, for
// noiseless captures whose noise_var is float rounding), the same success
// flag per subframe.
//
// Each check runs twice: on the GPU (cases named "Cuda": the test main runs
// them with --cuda), and on the host twin of the kernels (every function of
// grid_elements.h run in plain loops, FFTW for cuFFT), which needs no GPU
// and checks the kernels' indexing, order and carry here. Without a GPU
// also: parameters refused before the GPU is touched, and the kernels'
// complex type computing what std::complex does.
#include "lte/common/crs_positions.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/crs.h"
#include "lte/grid/cuda/device_cf.h"
#include "lte/grid/cuda/grid_gpu.h"
#include "lte/grid/cuda/grid_setup.h"
#include "lte/grid/ofdm_demod.h"
#include "lte/grid/pilot_interpolation.h"
#include "lte/grid/tests/grid_test_util.h"
#include "ofdm/ofdm_fft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;
using gr::gpurx::core::lte::gpu::device_cf;

namespace {

//! Samples of subframes first..first+count-1, as grid_gpu takes them:
//! [subframe][antenna][subframe_samples].
std::vector<cf> batch_samples(const std::vector<std::vector<cf>>& rx, int samples, int first, int count)
{
    std::vector<cf> v;
    v.reserve(size_t(count) * rx.size() * size_t(samples));
    for (int b = 0; b < count; b++)
        for (const auto& ant : rx) {
            const cf* p = ant.data() + size_t(first + b) * size_t(samples);
            v.insert(v.end(), p, p + samples);
        }
    return v;
}

subframe_time time_of(int abs)
{
    subframe_time t;
    t.sfn = (abs / 10) % 1024;
    t.subframe = abs % 10;
    return t;
}

//! What the CPU makes of subframes 0..n-1 of \p rx (one estimator, in order),
//! their times \p times[i].
struct cpu_result {
    std::vector<subframe_grid> grids;
    std::vector<channel_estimate> ests;
    std::vector<uint8_t> ok;
};
cpu_result run_cpu(const cell& c, int fft, const std::vector<std::vector<cf>>& rx,
                   const std::vector<subframe_time>& times, const channel_estimator_options& o = {})
{
    const int n_rx = int(rx.size());
    ofdm_demodulator dem(c, fft, n_rx);
    channel_estimator ce(c, n_rx, o);
    cpu_result r;
    r.grids.resize(times.size());
    r.ests.resize(times.size());
    for (size_t i = 0; i < times.size(); i++) {
        std::vector<const cf*> p;
        for (const auto& ant : rx)
            p.push_back(ant.data() + i * size_t(dem.subframe_samples()));
        dem.demodulate(p.data(), times[i], r.grids[i]);
        r.ok.push_back(ce.estimate(r.grids[i], r.ests[i]) ? 1 : 0);
    }
    return r;
}

double rms(const std::vector<cf>& v)
{
    double s = 0.0;
    size_t n = 0;
    for (const cf& x : v)
        if (std::isfinite(x.real()) && std::isfinite(x.imag())) {
            s += std::norm(x);
            n++;
        }
    return n ? std::sqrt(s / double(n)) : 0.0;
}

//! Largest |a - b| where b is finite; a must be not finite where b is not.
double worst_difference(const std::vector<cf>& a, const std::vector<cf>& b, bool& same_non_finite)
{
    double w = 0.0;
    same_non_finite = a.size() == b.size();
    for (size_t i = 0; i < a.size() && i < b.size(); i++) {
        const bool fa = std::isfinite(a[i].real()) && std::isfinite(a[i].imag());
        const bool fb = std::isfinite(b[i].real()) && std::isfinite(b[i].imag());
        if (!fb) {
            same_non_finite = same_non_finite && !fa;
            continue;
        }
        w = std::max(w, fa ? double(std::abs(a[i] - b[i])) : std::numeric_limits<double>::infinity());
    }
    return w;
}

//! GPU subframe \p gi against CPU subframe \p ci, as the file's header says.
void expect_agreement(const subframe_grid& g, const channel_estimate& e, uint8_t ok, const cpu_result& cpu,
                      size_t ci, const std::string& what)
{
    const subframe_grid& cg = cpu.grids[ci];
    const channel_estimate& ce = cpu.ests[ci];
    ASSERT_EQ(g.n_rx, cg.n_rx) << what;
    ASSERT_EQ(g.n_symbols, cg.n_symbols) << what;
    ASSERT_EQ(g.n_sc, cg.n_sc) << what;
    EXPECT_EQ(g.time.sfn, cg.time.sfn) << what;
    EXPECT_EQ(g.time.subframe, cg.time.subframe) << what;
    bool same_nf = true;
    const double gw = worst_difference(g.re, cg.re, same_nf);
    EXPECT_TRUE(same_nf) << what << ": grid values not finite in different places";
    EXPECT_LE(gw, 1e-4 * rms(cg.re)) << what << ": grid";
    ASSERT_EQ(e.n_ports, ce.n_ports) << what;
    ASSERT_EQ(e.h.size(), ce.h.size()) << what;
    EXPECT_EQ(ok, cpu.ok[ci]) << what << ": estimate's success";
    const double ew = worst_difference(e.h, ce.h, same_nf);
    EXPECT_TRUE(same_nf) << what;
    EXPECT_LE(ew, 1e-3 * std::max(rms(ce.h), 1e-30)) << what << ": estimate";
    EXPECT_LE(std::fabs(double(e.noise_var) - double(ce.noise_var)), 0.01 * ce.noise_var + 1e-6)
        << what << ": noise_var " << e.noise_var << " against the CPU's " << ce.noise_var;
}

std::string name_of(const bw_cell& bc, lte_rx_setup setup, int snr)
{
    return std::to_string(bc.n_prb) + " PRB cell " + std::to_string(bc.cell_id) +
           (setup == lte_rx_setup::channel_2x2 ? " -R 2x2" : " -o 1 port") +
           (snr < 99 ? " at " + std::to_string(snr) + " dB" : " noiseless");
}

// --- a channel linear in time and frequency through 4 ports, as samples ---

//! Different per antenna and port; abs_symbol counts symbols from subframe 0.
cf linear_channel(int rx, int p, int abs_symbol, int k)
{
    const cf a(0.5f + 0.1f * rx, -0.3f + 0.2f * p), b(0.004f * (p + 1), -0.003f * (rx + 1)), c(-0.001f, 0.0005f * p);
    return a + b * float(abs_symbol % 100) + c * float(k);
}

/*!
 * Subframes sf_first.. of a cell whose REs carry only the CRS of its ports
 * (36.211 §6.10.1), each port through linear_channel(), OFDM-modulated as
 * 36.211 §6.12 (the inverse of ofdm_demodulator's scale: the grid comes back
 * as it went in): one vector per antenna.
 */
std::vector<std::vector<cf>> crs_only_samples(const cell& c, int fft, int n_rx, int sf_first, int count,
                                              double second_path_delay_s = 0.0)
{
    numerology num;
    num.fft_size = fft;
    num.cp = c.cp;
    const int n_sym = c.symbols_per_subframe(), per_slot = c.symbols_per_slot(), n_sc = c.n_sc();
    std::vector<std::vector<cf>> out(size_t(n_rx), std::vector<cf>(size_t(count) * num.subframe_samples()));
    std::vector<cf> r(static_cast<size_t>(2 * c.n_prb)), bins(static_cast<size_t>(fft));
    for (int i = 0; i < count; i++) {
        const int sf = sf_first + i;
        for (int a = 0; a < n_rx; a++)
            for (int l = 0; l < n_sym; l++) {
                const int ls = l % per_slot, ns = 2 * (sf % 10) + l / per_slot;
                crs_sequence(c, ns, ls, r.data());
                std::fill(bins.begin(), bins.end(), cf(0.0f, 0.0f));
                for (int p = 0; p < c.ports; p++)
                    if (crs_symbol(c, p, ls))
                        for (int m = 0; m < 2 * c.n_prb; m++) {
                            const int k = 6 * m + crs_offset(c, p, ls, ns);
                            // With a second path (0.8 as strong, later): the
                            // channel bends in frequency.
                            const double ph = -2.0 * M_PI * k * 15e3 * second_path_delay_s;
                            const cf bend = second_path_delay_s > 0.0
                                                ? 1.0f + 0.8f * cf(float(std::cos(ph)), float(std::sin(ph)))
                                                : cf(1.0f, 0.0f);
                            bins[size_t(fft_bin_of(k, n_sc, fft))] =
                                linear_channel(a, p, sf * n_sym + l, k) * bend * r[size_t(m)];
                        }
                gr::gpurx::core::ofdm::fft(bins.data(), size_t(fft), true); // without 1/N
                const float scale = 1.0f / std::sqrt(float(n_sc));
                cf* dst = out[size_t(a)].data() + size_t(i) * num.subframe_samples() + num.symbol_start(l);
                const int cp = num.cp_length(ls);
                for (int t = 0; t < cp; t++)
                    dst[t] = bins[size_t(fft - cp + t)] * scale;
                for (int t = 0; t < fft; t++)
                    dst[cp + t] = bins[size_t(t)] * scale;
            }
    }
    return out;
}


// --- the host twin: grid_elements.h's functions in loops, as the kernels run them

class host_twin
{
public:
    host_twin(const cell& c, int fft, int n_rx, int batch, const channel_estimator_options& o)
        : d_opt(o), d_demod(c, fft, n_rx), d_L(gpu::make_grid_layout(c, d_demod, batch, o))
    {
        const gpu::grid_layout& L = d_L;
        const size_t rows = size_t(batch) * n_rx * c.ports * gpu::max_crs_symbols;
        d_in.resize(size_t(batch) * n_rx * L.subframe_samples);
        d_fft.resize(gpu::cut_windows_count(L));
        d_grid.resize(gpu::extract_count(L));
        for (const cf& x : gpu::crs_table(c))
            d_crs.push_back(device_cf(x.real(), x.imag()));
        d_bin = d_demod.bins();
        for (const cf& x : d_demod.factors())
            d_factor.push_back(device_cf(x.real(), x.imag()));
        d_ls.resize(rows * L.n_pil);
        d_v.resize(rows * L.n_pil);
        d_resid.resize(rows * L.n_pil);
        d_v_narrow.resize(rows * L.n_pil);
        d_resid_narrow.resize(rows * L.n_pil);
        d_wide.resize(size_t(batch));
        d_symh.resize(rows * L.n_sc);
        d_noise.resize(size_t(batch));
        d_ok.resize(size_t(batch));
        d_est.resize(gpu::time_count(L));
        d_carry.resize(gpu::carry_count(L));
    }
    int subframe_samples() const { return d_L.subframe_samples; }
    void reset() { d_have_last = false; }

    int run(const cf* samples, const subframe_time& first, std::vector<subframe_grid>& grids,
            std::vector<channel_estimate>& ests, std::vector<uint8_t>* ok)
    {
        gpu::grid_layout L = d_L;
        L.first_subframe = first.subframe;
        L.carry_usable = gpu::carry_usable(d_opt, d_have_last, d_last, first) ? 1 : 0;
        for (size_t i = 0; i < d_in.size(); i++)
            d_in[i] = device_cf(samples[i].real(), samples[i].imag());
        gpu::grid_buffers B;
        B.in = d_in.data();
        B.fft = d_fft.data();
        B.grid = d_grid.data();
        B.bin = d_bin.data();
        B.factor = d_factor.data();
        B.crs = d_crs.data();
        B.ls = d_ls.data();
        B.v = d_v.data();
        B.resid = d_resid.data();
        B.v_narrow = d_v_narrow.data();
        B.resid_narrow = d_resid_narrow.data();
        B.wide = d_wide.data();
        B.symh = d_symh.data();
        B.noise = d_noise.data();
        B.ok = d_ok.data();
        B.est = d_est.data();
        B.carry = d_carry.data();
        B.carry_ok = &d_carry_ok;
        for (size_t i = 0; i < gpu::cut_windows_count(L); i++)
            gpu::cut_window_at(L, B, i);
        // cuFFT's part: every window, forward, without scaling.
        std::vector<cf> w(size_t(L.fft));
        for (size_t f = 0; f < d_fft.size(); f += size_t(L.fft)) {
            for (int t = 0; t < L.fft; t++)
                w[size_t(t)] = cf(d_fft[f + size_t(t)].re, d_fft[f + size_t(t)].im);
            gr::gpurx::core::ofdm::fft(w.data(), w.size(), false);
            for (int t = 0; t < L.fft; t++)
                d_fft[f + size_t(t)] = device_cf(w[size_t(t)].real(), w[size_t(t)].imag());
        }
        for (size_t i = 0; i < gpu::extract_count(L); i++)
            gpu::extract_at(L, B, i);
        for (size_t i = 0; i < gpu::pilot_count(L); i++)
            gpu::least_squares_at(L, B, i);
        for (size_t i = 0; i < gpu::pilot_count(L); i++)
            gpu::smooth_at(L, B, i);
        for (int b = 0; b < L.batch; b++) {
            double resid = 0.0, weight = 0.0, resid_n = 0.0, weight_n = 0.0, all = 0.0;
            for (size_t e = 0; e < gpu::noise_terms_per_subframe(L); e++)
                gpu::add_noise_term(L, B, b, e, resid, weight, resid_n, weight_n, all);
            gpu::finish_noise(L, B, b, resid, weight, resid_n, weight_n, all);
        }
        for (size_t i = 0; i < gpu::frequency_count(L); i++)
            gpu::frequency_at(L, B, i);
        for (size_t i = 0; i < gpu::time_count(L); i++)
            gpu::time_at(L, B, i);
        for (size_t i = 0; i < gpu::carry_count(L); i++)
            gpu::carry_at(L, B, i);
        d_have_last = true;
        d_last = gpu::subframe_after(first, L.batch - 1);

        grids.resize(size_t(L.batch));
        ests.resize(size_t(L.batch));
        if (ok)
            ok->assign(size_t(L.batch), 0);
        const size_t gper = size_t(L.n_rx) * L.n_sym * L.n_sc, eper = gper * size_t(L.ports);
        int good = 0;
        for (int b = 0; b < L.batch; b++) {
            grids[size_t(b)].resize(L.n_rx, L.n_sym, L.n_sc);
            grids[size_t(b)].time = gpu::subframe_after(first, b);
            for (size_t i = 0; i < gper; i++)
                grids[size_t(b)].re[i] = cf(d_grid[size_t(b) * gper + i].re, d_grid[size_t(b) * gper + i].im);
            ests[size_t(b)].resize(L.n_rx, L.ports, L.n_sym, L.n_sc);
            for (size_t i = 0; i < eper; i++)
                ests[size_t(b)].h[i] = cf(d_est[size_t(b) * eper + i].re, d_est[size_t(b) * eper + i].im);
            ests[size_t(b)].noise_var = d_noise[size_t(b)];
            good += d_ok[size_t(b)];
            if (ok)
                (*ok)[size_t(b)] = uint8_t(d_ok[size_t(b)]);
        }
        return good;
    }

private:
    channel_estimator_options d_opt;
    ofdm_demodulator d_demod;
    gpu::grid_layout d_L;
    std::vector<device_cf> d_in, d_fft, d_grid, d_crs, d_factor, d_ls, d_v, d_v_narrow, d_symh, d_est, d_carry;
    std::vector<int> d_wide;
    std::vector<int> d_bin, d_ok;
    std::vector<double> d_resid, d_resid_narrow;
    std::vector<float> d_noise;
    int d_carry_ok = 0;
    bool d_have_last = false;
    subframe_time d_last;
};

template <typename R>
std::unique_ptr<R> make_runner(const cell& c, int fft, int n_rx, int batch, const channel_estimator_options& o = {})
{
    return std::unique_ptr<R>(new R(c, fft, n_rx, batch, o));
}
template <>
std::unique_ptr<grid_gpu> make_runner<grid_gpu>(const cell& c, int fft, int n_rx, int batch,
                                                const channel_estimator_options& o)
{
    return std::unique_ptr<grid_gpu>(new grid_gpu(c, fft, n_rx, batch, 0, o));
}

// --- the checks, for either runner

//! Captures of 6, 25 and 100 PRB, 1 port (-o) and 2 ports through the 2x2
//! channel (-R), noiseless and at 10 dB, in batches of 1, 5 and 20: every
//! subframe as the CPU's; the truth's h2x2 and noise level.
template <typename R>
void check_captures()
{
    const int n_sf = 20;
    int compared = 0;
    for (const auto& bc : cases)
        for (lte_rx_setup setup : { lte_rx_setup::port_files, lte_rx_setup::channel_2x2 })
            for (int snr : { 99, 10 }) {
                const int ports = setup == lte_rx_setup::port_files ? 1 : 2;
                const std::string extra = snr < 99 ? "-N " + std::to_string(snr) : "";
                const auto& cap = cached_capture(gen_args(bc, ports, n_sf, extra), setup);
                const cell c = cell_of_truth(cap.truth[0]);
                const int fft = cap.truth[0]["fft"].get<int>(), n_rx = int(cap.rx.size());
                ASSERT_EQ(c.ports, ports);
                ASSERT_EQ(n_rx, ports);
                std::vector<subframe_time> times;
                for (int i = 0; i < n_sf; i++)
                    times.push_back(time_of(cap.truth[size_t(i)]["sfn"].get<int>() * 10 +
                                            cap.truth[size_t(i)]["sf_idx"].get<int>()));
                const cpu_result cpu = run_cpu(c, fft, cap.rx, times);
                for (int batch : { 1, 5, 20 }) {
                    auto runner = make_runner<R>(c, fft, n_rx, batch);
                    const std::string what = name_of(bc, setup, snr) + ", batch " + std::to_string(batch);
                    std::vector<subframe_grid> grids;
                    std::vector<channel_estimate> ests;
                    std::vector<uint8_t> ok;
                    double noise = 0.0, worst_h = 0.0;
                    for (int first = 0; first < n_sf; first += batch) {
                        const auto in = batch_samples(cap.rx, runner->subframe_samples(), first, batch);
                        const int good = runner->run(in.data(), times[size_t(first)], grids, ests, &ok);
                        EXPECT_EQ(good, batch) << what;
                        ASSERT_EQ(int(grids.size()), batch);
                        for (int b = 0; b < batch; b++) {
                            expect_agreement(grids[size_t(b)], ests[size_t(b)], ok[size_t(b)], cpu,
                                             size_t(first + b), what + ", subframe " + std::to_string(first + b));
                            compared++;
                            noise += ests[size_t(b)].noise_var / n_sf;
                            if (setup != lte_rx_setup::channel_2x2 || snr < 99)
                                continue;
                            // The truth's flat channel, [rx][port].
                            const auto& h = cap.truth[0]["h2x2"];
                            const auto& e = ests[size_t(b)];
                            for (int a = 0; a < 2; a++)
                                for (int p = 0; p < 2; p++) {
                                    const cf t(h[size_t(2 * (2 * a + p))].get<float>(),
                                               h[size_t(2 * (2 * a + p) + 1)].get<float>());
                                    for (int l = 0; l < e.n_symbols; l++)
                                        for (int k = 0; k < e.n_sc; k++)
                                            worst_h = std::max(worst_h, double(std::abs(e.at(a, p, l, k) - t)));
                                }
                        }
                    }
                    if (setup == lte_rx_setup::channel_2x2 && snr >= 99) {
                        EXPECT_LT(worst_h, 2e-3) << what << ": the truth's h2x2";
                    }
                    if (snr < 99) { // the generator's noise per RE
                        EXPECT_NEAR(10.0 * std::log10(noise / std::pow(10.0, -snr / 10.0)), 0.0, 1.0) << what;
                    }
                }
            }
    EXPECT_EQ(compared, 3 * 2 * 2 * 3 * n_sf);
}

//! Ports 2 and 3 have CRS in symbols 1 and N_symb + 1 only: symbol 0 comes
//! from the previous subframe's last CRS symbol when that subframe was the
//! one before (else it is held from symbol 1). On a channel linear in time
//! that is the channel itself; held, it is symbol 1's. Normal and extended
//! CP, batches of 1 and 2 (the previous subframe in the previous call, or
//! in the same), a gap, reset().
template <typename R>
void check_four_ports()
{
    for (cyclic_prefix cp : { cyclic_prefix::normal, cyclic_prefix::extended }) {
        cell c;
        c.n_prb = 15;
        c.cell_id = 101;
        c.ports = 4;
        c.cp = cp;
        const int fft = 256, n_rx = 2, n_sym = c.symbols_per_subframe();
        const std::string what = cp == cyclic_prefix::normal ? "normal CP" : "extended CP";
        // Subframes 3, 4, then 6, 7 (a gap before 6).
        const auto first = crs_only_samples(c, fft, n_rx, 3, 2), second = crs_only_samples(c, fft, n_rx, 6, 2);
        std::vector<std::vector<cf>> all(static_cast<size_t>(n_rx));
        for (int a = 0; a < n_rx; a++) {
            all[size_t(a)] = first[size_t(a)];
            all[size_t(a)].insert(all[size_t(a)].end(), second[size_t(a)].begin(), second[size_t(a)].end());
        }
        const std::vector<subframe_time> times = { time_of(3), time_of(4), time_of(6), time_of(7) };
        const channel_estimator_options o; // holding in time, averaged, the previous subframe used
        const cpu_result cpu = run_cpu(c, fft, all, times, o);

        for (int batch : { 1, 2 }) {
            auto runner = make_runner<R>(c, fft, n_rx, batch, o);
            std::vector<subframe_grid> grids;
            std::vector<channel_estimate> ests;
            std::vector<uint8_t> ok;
            for (int i = 0; i < 4; i += batch) {
                const auto in = batch_samples(all, runner->subframe_samples(), i, batch);
                ASSERT_EQ(runner->run(in.data(), times[size_t(i)], grids, ests, &ok), batch);
                for (int b = 0; b < batch; b++) {
                    const int sf = times[size_t(i + b)].subframe;
                    const std::string w =
                        what + ", batch " + std::to_string(batch) + ", subframe " + std::to_string(sf);
                    expect_agreement(grids[size_t(b)], ests[size_t(b)], ok[size_t(b)], cpu, size_t(i + b), w);
                    // Interpolated in subframes 4 and 7 (each follows the one
                    // before), held in 3 and 6.
                    const bool interpolated = sf == 4 || sf == 7;
                    const auto& e = ests[size_t(b)];
                    double worst = 0.0;
                    for (int a = 0; a < n_rx; a++)
                        for (int p = 2; p < 4; p++)
                            for (int k = 0; k < c.n_sc(); k++) {
                                const cf h = linear_channel(a, p, sf * n_sym + (interpolated ? 0 : 1), k);
                                worst = std::max(worst, double(std::abs(e.at(a, p, 0, k) - h)));
                            }
                    EXPECT_LT(worst, 1e-3) << w;
                }
            }
            // reset() forgets subframe 7: subframe 8 holds symbol 1 again.
            runner->reset();
            const auto eighth = crs_only_samples(c, fft, n_rx, 8, batch);
            const auto in = batch_samples(eighth, runner->subframe_samples(), 0, batch);
            ASSERT_EQ(runner->run(in.data(), time_of(8), grids, ests, &ok), batch);
            EXPECT_LT(std::abs(ests[0].at(0, 2, 0, 5) - linear_channel(0, 2, 8 * n_sym + 1, 5)), 1e-3) << what;
            EXPECT_GT(std::abs(ests[0].at(0, 2, 0, 5) - linear_channel(0, 2, 8 * n_sym, 5)), 5e-3) << what;
        }
    }
}

//! A NaN in a CRS symbol: that subframe's estimate fails (zeros, noise_var
//! 0) and the next does not interpolate from it, as on the CPU.
template <typename R>
void check_not_finite()
{
    cell c;
    c.n_prb = 6;
    c.cell_id = 17;
    c.ports = 4;
    const int fft = 128, n_rx = 2, batch = 3;
    auto rx = crs_only_samples(c, fft, n_rx, 0, batch);
    numerology num;
    num.fft_size = fft;
    // A NaN in symbol 0 (a CRS symbol) of subframe 1, antenna 1.
    rx[1][size_t(num.subframe_samples()) + size_t(num.useful_start(0)) + 10] = cf(std::nanf(""), 0.0f);
    const std::vector<subframe_time> times = { time_of(0), time_of(1), time_of(2) };
    const cpu_result cpu = run_cpu(c, fft, rx, times);
    ASSERT_EQ(cpu.ok, (std::vector<uint8_t>{ 1, 0, 1 }));
    auto runner = make_runner<R>(c, fft, n_rx, batch);
    std::vector<subframe_grid> grids;
    std::vector<channel_estimate> ests;
    std::vector<uint8_t> ok;
    const auto in = batch_samples(rx, runner->subframe_samples(), 0, batch);
    EXPECT_EQ(runner->run(in.data(), times[0], grids, ests, &ok), 2);
    EXPECT_EQ(ok, (std::vector<uint8_t>{ 1, 0, 1 }));
    for (int b = 0; b < batch; b++)
        expect_agreement(grids[size_t(b)], ests[size_t(b)], ok[size_t(b)], cpu, size_t(b),
                         "NaN in subframe 1, subframe " + std::to_string(b));
    EXPECT_EQ(ests[1].noise_var, 0.0f);
    for (const cf& h : ests[1].h)
        ASSERT_EQ(h, cf(0.0f, 0.0f));
    // Subframe 2 holds port 2's symbol 1 (subframe 1 failed).
    EXPECT_LT(std::abs(ests[2].at(0, 2, 0, 5) - linear_channel(0, 2, 2 * 14 + 1, 5)), 1e-3);
}

} // namespace

// ------------------------------------------------------------- no GPU needed

//! A channel that bends within the wide moving average (a second path 2.5 us
//! later): the narrow average is chosen per subframe (the CPU's estimate
//! differs from its wide-only one), and the GPU front end makes the same
//! choice and the same estimate as the CPU, batches of 1 and 3.
template <typename R>
void check_narrow_average()
{
    cell c;
    c.n_prb = 25;
    c.cell_id = 17;
    c.ports = 2;
    const int fft = 512, n_rx = 2;
    const auto all = crs_only_samples(c, fft, n_rx, 0, 3, 2.5e-6);
    const std::vector<subframe_time> times = { time_of(0), time_of(1), time_of(2) };
    const channel_estimator_options o; // narrow_span 3 by default
    channel_estimator_options wide_only;
    wide_only.narrow_span = 0;
    const cpu_result cpu = run_cpu(c, fft, all, times, o), cpu_wide = run_cpu(c, fft, all, times, wide_only);
    bool same_nf = true;
    EXPECT_GT(worst_difference(cpu.ests[1].h, cpu_wide.ests[1].h, same_nf), 0.05 * rms(cpu.ests[1].h))
        << "the CPU kept the wide average on a bent channel";
    for (int batch : { 1, 3 }) {
        auto runner = make_runner<R>(c, fft, n_rx, batch, o);
        std::vector<subframe_grid> grids;
        std::vector<channel_estimate> ests;
        std::vector<uint8_t> ok;
        for (int i = 0; i < 3; i += batch) {
            const auto in = batch_samples(all, runner->subframe_samples(), i, batch);
            ASSERT_EQ(runner->run(in.data(), times[size_t(i)], grids, ests, &ok), batch);
            for (int b = 0; b < batch; b++)
                expect_agreement(grids[size_t(b)], ests[size_t(b)], ok[size_t(b)], cpu, size_t(i + b),
                                 "bent channel, batch " + std::to_string(batch) + ", subframe " +
                                     std::to_string(i + b));
        }
    }
}

TEST(GridGpu, RejectsBadParametersBeforeTheGpu)
{
    cell c;
    c.n_prb = 25;
    EXPECT_THROW(grid_gpu(c, 512, 1, 0), std::invalid_argument);           // batch
    EXPECT_THROW(grid_gpu(c, 512, 0, 4), std::invalid_argument);           // n_rx
    EXPECT_THROW(grid_gpu(c, 256, 1, 4), std::invalid_argument);           // fft_size below n_sc + 1
    EXPECT_THROW(grid_gpu(c, 512, 1, 4, -1), std::invalid_argument);       // device
    EXPECT_THROW(grid_gpu(c, 512, 1, 4, 0, {}, 37), std::invalid_argument); // advance beyond the prefix
    channel_estimator_options o;
    o.average_span = 4;
    EXPECT_THROW(grid_gpu(c, 512, 1, 4, 0, o), std::invalid_argument);
    cell bad = c;
    bad.ports = 3;
    EXPECT_THROW(grid_gpu(bad, 512, 1, 4), std::invalid_argument);
    try {
        grid_gpu(c, 512, 1, 0);
        ADD_FAILURE() << "batch=0 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("batch=0"), std::string::npos) << e.what();
    }
}

TEST(GridGpu, DeviceComplexMatchesStdComplex)
{
    // The kernels run pilot_interpolation.h on device_cf; its operators must
    // give the floats std::complex<float> gives, bit for bit (here, on the
    // host; nvcc builds the kernels without FMA contraction as g++ the CPU).
    std::mt19937 rng(7);
    std::normal_distribution<float> g(0.0f, 1.0f);
    const int n = 50, n_sc = 6 * n;
    std::vector<cf> y(static_cast<size_t>(n_sc)), r(static_cast<size_t>(n));
    std::vector<device_cf> dy(y.size()), dr(r.size());
    for (size_t i = 0; i < y.size(); i++) {
        y[i] = cf(g(rng), g(rng));
        dy[i] = device_cf(y[i].real(), y[i].imag());
    }
    for (size_t i = 0; i < r.size(); i++) {
        r[i] = cf(g(rng), g(rng));
        dr[i] = device_cf(r[i].real(), r[i].imag());
    }
    auto same = [](const cf& a, const device_cf& b) { return a.real() == b.re && a.imag() == b.im; };
    for (int offset : { 0, 5 }) {
        std::vector<cf> ls(static_cast<size_t>(n)), sm(ls.size()), h(static_cast<size_t>(n_sc));
        std::vector<device_cf> dls(ls.size()), dsm(sm.size()), dh(h.size());
        crs_least_squares(y.data(), r.data(), offset, n, ls.data());
        crs_least_squares(dy.data(), dr.data(), offset, n, dls.data());
        double res = 0.0, w = 0.0, dres = 0.0, dw = 0.0;
        smooth_pilots(ls.data(), n, 3, sm.data(), res, w);
        smooth_pilots(dls.data(), n, 3, dsm.data(), dres, dw);
        interpolate_frequency(sm.data(), n, offset, n_sc, h.data());
        interpolate_frequency(dsm.data(), n, offset, n_sc, dh.data());
        for (int m = 0; m < n; m++) {
            ASSERT_TRUE(same(ls[size_t(m)], dls[size_t(m)])) << m;
            ASSERT_TRUE(same(sm[size_t(m)], dsm[size_t(m)])) << m;
        }
        for (int k = 0; k < n_sc; k++) {
            ASSERT_TRUE(same(h[size_t(k)], dh[size_t(k)])) << k;
            for (bool hold : { false, true })
                ASSERT_TRUE(same(interpolate_time(h[size_t(k)], y[size_t(k)], -3, 4, k % 14, hold),
                                 interpolate_time(dh[size_t(k)], dy[size_t(k)], -3, 4, k % 14, hold)))
                    << k;
        }
        EXPECT_EQ(res, dres);
        EXPECT_EQ(w, dw);
        EXPECT_GT(res, 0.0);
    }
    // The demodulator's product: bin value times its factor.
    for (size_t i = 0; i + 1 < y.size(); i++)
        ASSERT_TRUE(same(y[i] * y[i + 1], dy[i] * dy[i + 1])) << i;
}

TEST(GridGpuHostTwin, MatchesCpuOnCapturesAtBatchSizes1_5And20)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    check_captures<host_twin>();
}

TEST(GridGpuHostTwin, FourPortsInterpolateFromThePreviousBatch) { check_four_ports<host_twin>(); }

TEST(GridGpuHostTwin, NarrowAverageOnABentChannelAsTheCpu) { check_narrow_average<host_twin>(); }

TEST(GridGpuHostTwin, SamplesNotFiniteAreReportedAsTheCpuReportsThem) { check_not_finite<host_twin>(); }

// ------------------------------------------------------------------ the GPU

TEST(GridGpuCuda, MatchesCpuOnCapturesAtBatchSizes1_5And20)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    check_captures<grid_gpu>();
}

TEST(GridGpuCuda, FourPortsInterpolateFromThePreviousBatch) { check_four_ports<grid_gpu>(); }

TEST(GridGpuCuda, NarrowAverageOnABentChannelAsTheCpu) { check_narrow_average<grid_gpu>(); }

TEST(GridGpuCuda, SamplesNotFiniteAreReportedAsTheCpuReportsThem) { check_not_finite<grid_gpu>(); }

TEST(GridGpuCuda, TwoBatchesInFlightAndTheStaging)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const int n_sf = 20, batch = 5;
    const auto& cap = cached_capture(gen_args(cases[1], 2, n_sf, "-N 10"), lte_rx_setup::channel_2x2);
    const cell c = cell_of_truth(cap.truth[0]);
    const int fft = cap.truth[0]["fft"].get<int>(), n_rx = 2;
    std::vector<subframe_time> times;
    for (int i = 0; i < n_sf; i++)
        times.push_back(
            time_of(cap.truth[size_t(i)]["sfn"].get<int>() * 10 + cap.truth[size_t(i)]["sf_idx"].get<int>()));
    const cpu_result cpu = run_cpu(c, fft, cap.rx, times);
    std::vector<subframe_grid> grids;
    std::vector<channel_estimate> ests;
    std::vector<uint8_t> ok;
    // Submit, submit, then collect one before each submit; the caller's
    // buffer is overwritten as soon as submit() returns.
    grid_gpu gpu(c, fft, n_rx, batch);
    std::vector<cf> in;
    int collected = 0;
    auto take = [&]() {
        ASSERT_EQ(gpu.collect(grids, ests, &ok), batch);
        for (int b = 0; b < batch; b++)
            expect_agreement(grids[size_t(b)], ests[size_t(b)], ok[size_t(b)], cpu, size_t(collected + b),
                             "two in flight, subframe " + std::to_string(collected + b));
        collected += batch;
    };
    for (int first = 0; first < n_sf; first += batch) {
        if (gpu.in_flight() == 2)
            take();
        in = batch_samples(cap.rx, gpu.subframe_samples(), first, batch);
        if (first % 10 == 0) {
            gpu.submit(in.data(), times[size_t(first)]);
        } else { // the producer writing into the staging itself
            cf* st = gpu.staging();
            std::copy(in.begin(), in.end(), st);
            gpu.submit_staged(times[size_t(first)]);
        }
        std::fill(in.begin(), in.end(), cf(std::nanf(""), 0.0f));
        if (first == 5) {
            EXPECT_EQ(gpu.in_flight(), 2);
            EXPECT_THROW(gpu.submit(in.data(), times[0]), std::logic_error);
            EXPECT_THROW(gpu.run(in.data(), times[0], grids, ests), std::logic_error);
        }
    }
    while (gpu.in_flight() > 0)
        take();
    EXPECT_EQ(collected, n_sf);
    EXPECT_EQ(gpu.collect(grids, ests), -1);
    EXPECT_GT(gpu.last_kernel_ms(), 0.0f);
}

TEST(GridGpuCuda, DeviceOrdinalBeyondTheDevicesIsRefused)
{
    cell c;
    EXPECT_THROW(grid_gpu(c, 128, 1, 1, 1 << 20), std::invalid_argument);
    grid_gpu gpu(c, 128, 1, 1, 0);
    EXPECT_EQ(gpu.device(), 0);
    EXPECT_EQ(gpu.batch(), 1);
    EXPECT_EQ(gpu.subframe_samples(), 15 * 128);
}
