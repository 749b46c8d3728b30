/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test helpers for the MIMO family. The reference here shares no code with
// the detectors: the constellations are written again from the formulas of
// 3GPP TS 36.211 section 7.1, and the exhaustive max-log search is the plain
// loop over all Q^nt candidates with d = ||y - H s||^2.
#ifndef INCLUDED_GPURX_MIMO_TEST_UTIL_H
#define INCLUDED_GPURX_MIMO_TEST_UTIL_H

#include "test_util.h"
#include "modulation/tests/qam_test_util.h"
#include "mimo/mimo_frame.h"
#include "mimo/mimo_implementations.h"
#include "pipeline/batch_pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

using cf = std::complex<float>;
using cd = std::complex<double>;

//! Exhaustive max-log LLRs (L = ln P(1)/P(0)) of one vector, antenna 0's bits first.
inline std::vector<double>
exhaustive_llrs(const cf* h, int nr, int nt, int bits, const cf* y, double n0)
{
    const unsigned q = 1u << bits;
    unsigned long long candidates = 1;
    for (int t = 0; t < nt; t++)
        candidates *= q;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> min0(size_t(nt) * bits, inf), min1(size_t(nt) * bits, inf);
    std::vector<unsigned> sym(nt);
    std::vector<cd> s(nt);
    for (unsigned long long c = 0; c < candidates; c++) {
        unsigned long long rest = c;
        for (int t = 0; t < nt; t++) {
            sym[t] = unsigned(rest % q);
            rest /= q;
            s[t] = standard_point(bits, sym[t]);
        }
        double d = 0.0;
        for (int r = 0; r < nr; r++) {
            cd e = cd(y[r]);
            for (int t = 0; t < nt; t++)
                e -= cd(h[r * nt + t]) * s[t];
            d += std::norm(e);
        }
        for (int t = 0; t < nt; t++)
            for (int i = 0; i < bits; i++) {
                double& m = (sym[t] >> (bits - 1 - i)) & 1 ? min1[t * bits + i]
                                                           : min0[t * bits + i];
                m = std::min(m, d);
            }
    }
    std::vector<double> llr(size_t(nt) * bits);
    for (size_t k = 0; k < llr.size(); k++)
        llr[k] = (min0[k] - min1[k]) / n0;
    return llr;
}

/*!
 * Exhaustive max-log LLRs with a-priori LLRs la (nt * bits, L = ln P(1)/P(0)):
 * the metric of a candidate is ||y - H s||^2 / n0 - sum_k x_k la_k / 2 with
 * x_k = +1 for a 1 and -1 for a 0 (ln P(s) up to a constant); the LLR is
 * min over b_k=0 minus min over b_k=1, minus la_k when \p extrinsic.
 */
inline std::vector<double> exhaustive_llrs_with_priors(const cf* h,
                                                       int nr,
                                                       int nt,
                                                       int bits,
                                                       const cf* y,
                                                       double n0,
                                                       const float* la,
                                                       bool extrinsic)
{
    const unsigned q = 1u << bits;
    unsigned long long candidates = 1;
    for (int t = 0; t < nt; t++)
        candidates *= q;
    const double inf = std::numeric_limits<double>::infinity();
    const size_t n = size_t(nt) * bits;
    std::vector<double> min0(n, inf), min1(n, inf);
    std::vector<unsigned> sym(nt);
    for (unsigned long long c = 0; c < candidates; c++) {
        unsigned long long rest = c;
        for (int t = 0; t < nt; t++) {
            sym[t] = unsigned(rest % q);
            rest /= q;
        }
        double d = 0.0;
        for (int r = 0; r < nr; r++) {
            cd e = cd(y[r]);
            for (int t = 0; t < nt; t++)
                e -= cd(h[r * nt + t]) * standard_point(bits, sym[t]);
            d += std::norm(e);
        }
        double m = d / n0;
        for (int t = 0; t < nt; t++)
            for (int i = 0; i < bits; i++) {
                const double x = (sym[t] >> (bits - 1 - i)) & 1 ? 1.0 : -1.0;
                m -= x * la[t * bits + i] / 2.0;
            }
        for (int t = 0; t < nt; t++)
            for (int i = 0; i < bits; i++) {
                double& mm = (sym[t] >> (bits - 1 - i)) & 1 ? min1[t * bits + i]
                                                            : min0[t * bits + i];
                mm = std::min(mm, m);
            }
    }
    std::vector<double> llr(n);
    for (size_t k = 0; k < n; k++)
        llr[k] = min0[k] - min1[k] - (extrinsic ? la[k] : 0.0f);
    return llr;
}

//! Random a-priori LLRs: N(0, sigma^2) each.
inline std::vector<float> random_priors(size_t n, double sigma, std::mt19937& rng)
{
    std::normal_distribution<double> g(0.0, sigma);
    std::vector<float> la(n);
    for (auto& v : la)
        v = float(g(rng));
    return la;
}


enum class channel_kind {
    rayleigh, //!< i.i.d. CN(0, 1) entries
    ill, //!< Rayleigh, then column 1 = column 0 + 1e-3 CN(0, 1): nearly equal columns
    orthogonal,  //!< orthogonal columns of random norms (streams that decouple)
    zero_column, //!< Rayleigh with the last column zero
};

inline std::vector<cf> make_channel(int nr, int nt, channel_kind kind, std::mt19937& rng)
{
    std::normal_distribution<double> g(0.0, std::sqrt(0.5));
    std::vector<cd> h(size_t(nr) * nt);
    for (auto& v : h)
        v = cd(g(rng), g(rng));
    if (kind == channel_kind::ill && nt >= 2)
        for (int r = 0; r < nr; r++)
            h[r * nt + 1] = h[r * nt + 0] + 1e-3 * cd(g(rng), g(rng));
    if (kind == channel_kind::zero_column)
        for (int r = 0; r < nr; r++)
            h[r * nt + nt - 1] = 0.0;
    if (kind == channel_kind::orthogonal) {
        // Classical Gram-Schmidt (fine for a random, well-conditioned matrix),
        // then each column scaled to a norm in [0.3, 2].
        std::uniform_real_distribution<double> scale(0.3, 2.0);
        for (int t = 0; t < nt; t++) {
            for (int p = 0; p < t; p++) {
                cd dot = 0.0;
                for (int r = 0; r < nr; r++)
                    dot += std::conj(h[r * nt + p]) * h[r * nt + t];
                for (int r = 0; r < nr; r++)
                    h[r * nt + t] -= dot * h[r * nt + p];
            }
            double n = 0.0;
            for (int r = 0; r < nr; r++)
                n += std::norm(h[r * nt + t]);
            for (int r = 0; r < nr; r++)
                h[r * nt + t] /= std::sqrt(n);
        }
        for (int t = 0; t < nt; t++) {
            const double a = scale(rng);
            for (int r = 0; r < nr; r++)
                h[r * nt + t] *= a;
        }
    }
    std::vector<cf> out(h.size());
    for (size_t i = 0; i < h.size(); i++)
        out[i] = cf(h[i]);
    return out;
}

//! One frame: H then `vectors` received vectors y = H s + n, n ~ CN(0, n0).
struct mimo_frame {
    core::mimo::frame_params params;
    std::vector<cf> data;      //!< H (nr x nt), then the vectors
    std::vector<uint8_t> bits; //!< the transmitted bits, in LLR order
    const cf* h() const { return data.data(); }
    const cf* y(int v) const
    {
        return data.data() + params.nr * params.nt + v * params.nr;
    }
    //! The a-priori LLRs of vector v (params.apriori == 1), else nullptr.
    const float* la(int v) const
    {
        if (!params.apriori)
            return nullptr;
        const float* all = reinterpret_cast<const float*>(
            data.data() + params.nr * params.nt + params.vectors * params.nr);
        return all + size_t(v) * params.nt * params.bits_per_symbol;
    }
};

//! Appends a-priori LLRs to a frame (N(0, sigma^2), every other one pointing
//! the way of the bit sent, so that they carry information).
inline void add_priors(mimo_frame& f, double sigma, std::mt19937& rng)
{
    const size_t n = size_t(f.params.vectors) * f.params.nt * f.params.bits_per_symbol;
    auto la = random_priors(n, sigma, rng);
    for (size_t k = 0; k < n; k += 2)
        la[k] = std::fabs(la[k]) * (f.bits[k] ? 1.0f : -1.0f);
    f.params.apriori = 1;
    const size_t floats = n + (n & 1); // whole complex entries; the last pad is not read
    std::vector<float> padded(la);
    padded.resize(floats, 0.0f);
    for (size_t k = 0; k < floats; k += 2)
        f.data.push_back(cf(padded[k], padded[k + 1]));
}

inline mimo_frame make_frame(int nt,
                             int nr,
                             int bits,
                             int vectors,
                             double n0,
                             channel_kind kind,
                             std::mt19937& rng)
{
    mimo_frame f{ { nt, nr, bits, vectors, float(n0), 0, 1 },
                  make_channel(nr, nt, kind, rng),
                  {} };
    std::normal_distribution<double> g(0.0, std::sqrt(n0 / 2));
    std::uniform_int_distribution<unsigned> symbol(0, (1u << bits) - 1);
    for (int v = 0; v < vectors; v++) {
        std::vector<cd> s(nt);
        for (int t = 0; t < nt; t++) {
            const unsigned idx = symbol(rng);
            s[t] = standard_point(bits, idx);
            for (int i = 0; i < bits; i++)
                f.bits.push_back(uint8_t((idx >> (bits - 1 - i)) & 1));
        }
        for (int r = 0; r < nr; r++) {
            cd acc(g(rng), g(rng));
            for (int t = 0; t < nt; t++)
                acc += cd(f.data[r * nt + t]) * s[t];
            f.data.push_back(cf(acc));
        }
    }
    return f;
}

struct detected {
    std::vector<float> llr;    //!< float output (cfg.llr_type float32)
    core::mimo::frame_result result;
    std::vector<int8_t> llr8;  //!< int8 output (cfg.llr_type int8)
};

//! Detects the frames as one stream of batches through a pipeline on \p where.
inline std::vector<detected> detect_all(const std::vector<mimo_frame>& frames,
                                        const core::mimo_config& cfg,
                                        const core::backend_choice& where,
                                        size_t max_batch = 5)
{
    core::mimo_config c = cfg;
    const auto choice = core::choose_mimo_implementation(c);
    auto pc = test_pipeline_config(core::mimo::frame_types_of(), max_batch);
    for (const auto& f : frames) {
        pc.max_in_bytes = std::max(pc.max_in_bytes, core::mimo::frame_in_bytes(f.params));
        pc.max_out_bytes =
            std::max(pc.max_out_bytes, core::mimo::frame_out_bytes(f.params, c.llr_type));
    }
    auto pipe = core::make_pipeline(core::mimo_kernel_factories(c, choice), where, pc);
    std::vector<detected> out;
    auto run = run_frames(*pipe, [&](const core::completed_frame& r) {
        detected d{ {}, *r.result_as<core::mimo::frame_result>(), {} };
        if (c.llr_type == core::mimo::llr_format::int8) {
            const int8_t* l = reinterpret_cast<const int8_t*>(r.data);
            d.llr8.assign(l, l + r.out_bytes);
        } else {
            const float* l = reinterpret_cast<const float*>(r.data);
            d.llr.assign(l, l + r.out_bytes / sizeof(float));
        }
        out.push_back(std::move(d));
    });
    for (const auto& f : frames)
        run.submit(f.data.data(), core::mimo::frame_in_bytes(f.params),
                   core::mimo::frame_out_bytes(f.params, c.llr_type), &f.params);
    run.finish("detect_all");
    return out;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
