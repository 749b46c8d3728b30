/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Parameters, the registry and the CPU kernel's frame handling: errors name
// the parameter and its value; frames that cannot be detected come out as
// zeros with their status; a pipeline batch may mix shapes and modulations.
#include "mimo/mimo_cpu_kernel.h"
#include "mimo/mimo_implementations.h"
#include "mimo_test_util.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace gr::gpurx;
using core::mimo::algorithm;

namespace {

// The call throws std::invalid_argument whose message holds every one of \p words.
void expect_invalid(const std::function<void()>& f,
                    std::initializer_list<const char*> words)
{
    try {
        f();
        ADD_FAILURE() << "no exception; expected one naming " << *words.begin();
    } catch (const std::invalid_argument& e) {
        for (const char* w : words)
            EXPECT_NE(std::string(e.what()).find(w), std::string::npos)
                << "\"" << e.what() << "\" does not name " << w;
    }
}

void expect_config_invalid(const std::function<void(core::mimo_config&)>& change,
                           std::initializer_list<const char*> words)
{
    core::mimo_config c;
    change(c);
    expect_invalid([&] { c.validate(); }, words);
}

} // namespace

TEST(MimoConfig, DefaultsAreValid)
{
    core::mimo_config c;
    EXPECT_NO_THROW(c.validate());
    c.algorithm = algorithm::ml;
    c.nt = c.nr = 4;
    c.modulation = core::mimo::modulation::qam64; // 2^24 candidates: the limit
    EXPECT_NO_THROW(c.validate());
    c.nt = 1;
    c.nr = 8;
    c.modulation = core::mimo::modulation::qam256;
    EXPECT_NO_THROW(c.validate());
}

TEST(MimoConfig, BadParametersThrowNamingThem)
{
    expect_config_invalid([](auto& c) { c.nt = 0; }, { "nt", "0" });
    expect_config_invalid(
        [](auto& c) {
            c.nt = 9;
            c.nr = 9;
        },
        { "nt", "9" });
    expect_config_invalid(
        [](auto& c) {
            c.nt = 3;
            c.nr = 2;
        },
        { "nr", "2" });
    expect_config_invalid([](auto& c) { c.nr = 9; }, { "nr", "9" });
    expect_config_invalid(
        [](auto& c) {
            c.algorithm = algorithm::ml;
            c.nt = c.nr = 5;
        },
        { "nt", "5" });
    expect_config_invalid(
        [](auto& c) {
            c.algorithm = algorithm::ml;
            c.nt = c.nr = 4;
            c.modulation = core::mimo::modulation::qam256;
        },
        { "nt", "256qam" });
    expect_config_invalid([](auto& c) { c.modulation = core::mimo::modulation(5); },
                          { "bits_per_symbol", "5" });
    expect_config_invalid([](auto& c) { c.k = 0; }, { "k", "0" });
    expect_config_invalid([](auto& c) { c.k = 65537; }, { "k", "65537" });
    expect_config_invalid([](auto& c) { c.clip = 0.0f; }, { "clip" });
    expect_config_invalid(
        [](auto& c) { c.clip = std::numeric_limits<float>::infinity(); },
        { "clip", "inf" });
    expect_config_invalid([](auto& c) { c.noise_variance = -1.0f; },
                          { "noise_variance", "-1" });
    expect_config_invalid([](auto& c) { c.noise_variance = std::nanf(""); },
                          { "noise_variance", "nan" });
    // Below 1e-20 (1e-45 gave -Inf LLRs) and above 1e20.
    expect_config_invalid([](auto& c) { c.noise_variance = 1e-45f; },
                          { "noise_variance", "1e-20", "1.4013e-45" });
    expect_config_invalid([](auto& c) { c.noise_variance = 2e20f; },
                          { "noise_variance", "2e+20" });
    expect_invalid([] { core::mimo::parse_modulation("8psk"); },
                   { "modulation", "8psk" });
    expect_invalid([] { core::mimo::parse_algorithm("sphere"); },
                   { "algorithm", "sphere" });
    expect_invalid([] { core::mimo::modulation_of_bits(3); }, { "bits_per_symbol", "3" });
    expect_invalid(
        [] {
            core::mimo_config c;
            c.implementation = "gpu-sphere";
            core::choose_mimo_implementation(c);
        },
        { "implementation", "gpu-sphere", "cpu-ml" });
    expect_invalid([] { core::mimo::parse_llr_output("soft"); }, { "output", "soft" });
    expect_invalid([] { core::mimo::parse_llr_type("int16"); }, { "llr_type", "int16" });
    expect_config_invalid([](auto& c) { c.llr_type = core::mimo::llr_format(5); },
                          { "llr_type", "5" });
    expect_invalid(
        [] {
            core::mimo_config c;
            c.k = -2;
            core::mimo_cpu_kernel k(c);
        },
        { "k", "-2" });
}

TEST(MimoConfig, NamesParseBack)
{
    for (auto a : { algorithm::ml, algorithm::mtt, algorithm::kbest, algorithm::lmmse,
                    algorithm::one_pass })
        EXPECT_EQ(core::mimo::parse_algorithm(core::mimo::algorithm_name(a)), a);
    EXPECT_EQ(core::mimo::algorithm_name(algorithm::one_pass), std::string("one-pass"));
    for (auto o : { core::mimo::llr_output::aposteriori, core::mimo::llr_output::extrinsic })
        EXPECT_EQ(core::mimo::parse_llr_output(core::mimo::llr_output_name(o)), o);
    for (auto f : { core::mimo::llr_format::float32, core::mimo::llr_format::int8 })
        EXPECT_EQ(core::mimo::parse_llr_type(core::mimo::llr_type_name(f)), f);
    EXPECT_EQ(core::mimo::parse_llr_type("float"), core::mimo::llr_format::float32);
    for (int bits : { 2, 4, 6, 8 }) {
        const auto m = core::mimo::modulation_of_bits(bits);
        EXPECT_EQ(core::mimo::parse_modulation(core::mimo::modulation_name(m)), m);
    }
}

TEST(MimoRegistry, ChoosesByAlgorithmAndNamedImplementationFixesIt)
{
    core::mimo_config c;
    c.algorithm = algorithm::lmmse;
    EXPECT_EQ(core::choose_mimo_implementation(c).cpu, "cpu-lmmse");
    c.implementation = "cpu-kbest";
    const auto k = core::choose_mimo_implementation(c);
    EXPECT_EQ(k.cpu, "cpu-kbest");
    EXPECT_EQ(c.algorithm, algorithm::kbest);
    EXPECT_TRUE(k.note.empty());
    // cpu-ml cannot search 8 streams: the automatic choice, with a note.
    c.nt = c.nr = 8;
    c.algorithm = algorithm::mtt;
    c.implementation = "cpu-ml";
    const auto f = core::choose_mimo_implementation(c);
    EXPECT_EQ(f.cpu, "cpu-mtt");
    EXPECT_NE(f.note.find("cpu-ml"), std::string::npos) << f.note;
    const auto listing = core::mimo_listing();
    EXPECT_EQ(listing.family, "mimo");
    size_t references = 0, cpu = 0;
    for (const auto& i : listing.implementations) {
        references += i.reference.empty();
        cpu += i.backend == core::backend_kind::cpu;
    }
    EXPECT_EQ(cpu, 5u);
    EXPECT_EQ(references, 1u);
    c.implementation = "cpu-one-pass";
    EXPECT_EQ(core::choose_mimo_implementation(c).cpu, "cpu-one-pass");
    EXPECT_EQ(c.algorithm, algorithm::one_pass);
}

TEST(MimoKernel, FramesThatCannotBeDetectedComeOutAsZerosWithTheirStatus)
{
    std::mt19937 rng(31);
    core::mimo_config cfg;
    cfg.algorithm = algorithm::mtt;
    auto det = core::mimo::make_detector(cfg);
    auto f = test::make_frame(2, 2, 4, 3, 0.1, test::channel_kind::rayleigh, rng);
    const size_t out_bytes = core::mimo::frame_out_bytes(f.params, cfg.llr_type);
    std::vector<float> out(out_bytes / sizeof(float));
    auto run = [&](const test::mimo_frame& fr, size_t in_bytes, size_t ob) {
        std::fill(out.begin(), out.end(), 7.0f);
        return core::mimo_cpu_kernel::detect_frame(
            *det,
            cfg,
            fr.params,
            reinterpret_cast<const uint8_t*>(fr.data.data()),
            in_bytes,
            reinterpret_cast<uint8_t*>(out.data()),
            ob);
    };
    auto all_zero = [&] {
        for (float v : out)
            if (v != 0.0f)
                return false;
        return true;
    };
    const size_t in_bytes = core::mimo::frame_in_bytes(f.params);
    ASSERT_EQ(in_bytes, f.data.size() * sizeof(test::cf));
    EXPECT_EQ(run(f, in_bytes, out_bytes).status, core::mimo::STATUS_OK);
    EXPECT_FALSE(all_zero());
    EXPECT_EQ(run(f, in_bytes - 8, out_bytes).status, core::mimo::STATUS_BAD_FRAME);
    EXPECT_TRUE(all_zero());
    EXPECT_EQ(run(f, in_bytes, out_bytes - 4).status, core::mimo::STATUS_BAD_FRAME);
    auto g = f;
    g.params.n0 = 0.0f;
    EXPECT_EQ(run(g, in_bytes, out_bytes).status, core::mimo::STATUS_BAD_FRAME);
    EXPECT_TRUE(all_zero());
    g.params.n0 = 1e-45f; // a denormal: its LLRs would leave float's range
    EXPECT_EQ(run(g, in_bytes, out_bytes).status, core::mimo::STATUS_BAD_FRAME);
    g = f;
    g.params.bits_per_symbol = 3;
    EXPECT_EQ(core::mimo::frame_problem(g.params, algorithm::mtt).find("bits_per_symbol"),
              0u);
    g = f;
    g.params.apriori = 2;
    EXPECT_EQ(core::mimo::frame_problem(g.params, algorithm::mtt).find("apriori"), 0u);
    g = f;
    g.params.apriori = 1; // the priors' bytes are missing
    EXPECT_EQ(run(g, in_bytes, out_bytes).status, core::mimo::STATUS_BAD_FRAME);
    g = f;
    g.data[5] = test::cf(std::nanf(""), 0.0f);
    EXPECT_EQ(run(g, in_bytes, out_bytes).status, core::mimo::STATUS_NOT_FINITE);
    EXPECT_TRUE(all_zero());
}

TEST(MimoKernel, VectorsOfAFrameAreDetectedInOrder)
{
    std::mt19937 rng(32);
    core::mimo_config cfg;
    cfg.algorithm = algorithm::ml;
    auto det = core::mimo::make_detector(cfg);
    const auto f = test::make_frame(2, 3, 2, 6, 0.3, test::channel_kind::rayleigh, rng);
    std::vector<float> out(6 * 4);
    const auto r = core::mimo_cpu_kernel::detect_frame(
        *det,
        cfg,
        f.params,
        reinterpret_cast<const uint8_t*>(f.data.data()),
        f.data.size() * sizeof(test::cf),
        reinterpret_cast<uint8_t*>(out.data()),
        out.size() * 4);
    EXPECT_EQ(r.status, core::mimo::STATUS_OK);
    EXPECT_EQ(r.rank, 2);
    for (int v = 0; v < 6; v++) {
        const auto ref = test::exhaustive_llrs(f.h(), 3, 2, 2, f.y(v), 0.3);
        for (int k = 0; k < 4; k++)
            EXPECT_TRUE(test::llr_close(out[v * 4 + k], ref[k]))
                << "vector " << v << " LLR " << k;
    }
}

TEST(MimoKernel, PipelineBatchesMayMixShapesModulationsAndNoise)
{
    std::mt19937 rng(33);
    std::vector<test::mimo_frame> frames;
    const int shapes[][3] = {
        { 2, 2, 4 }, { 1, 1, 8 }, { 2, 4, 2 }, { 1, 3, 6 }, { 2, 2, 6 }
    };
    for (int i = 0; i < 13; i++) {
        const auto* s = shapes[i % 5];
        frames.push_back(test::make_frame(s[0],
                                          s[1],
                                          s[2],
                                          1 + i % 4,
                                          0.05 + 0.05 * (i % 3),
                                          test::channel_kind::rayleigh,
                                          rng));
    }
    frames[6].data[0] = test::cf(std::numeric_limits<float>::infinity(), 0.0f);
    core::mimo_config cfg;
    cfg.implementation = "cpu-mtt";
    const auto got = test::detect_all(frames, cfg, test::cpu_backend(), 4);
    ASSERT_EQ(got.size(), frames.size());
    for (size_t i = 0; i < frames.size(); i++) {
        const auto& f = frames[i];
        SCOPED_TRACE("frame " + std::to_string(i));
        ASSERT_EQ(got[i].llr.size(),
                  size_t(f.params.vectors) * f.params.nt * f.params.bits_per_symbol);
        if (i == 6) {
            EXPECT_EQ(got[i].result.status, core::mimo::STATUS_NOT_FINITE);
            continue;
        }
        EXPECT_EQ(got[i].result.status, core::mimo::STATUS_OK);
        const size_t per = size_t(f.params.nt) * f.params.bits_per_symbol;
        for (int v = 0; v < f.params.vectors; v++) {
            const auto ref = test::exhaustive_llrs(f.h(),
                                                   f.params.nr,
                                                   f.params.nt,
                                                   f.params.bits_per_symbol,
                                                   f.y(v),
                                                   f.params.n0);
            for (size_t k = 0; k < per; k++)
                ASSERT_TRUE(test::llr_close(got[i].llr[v * per + k], ref[k]))
                    << "vector " << v << " LLR " << k;
        }
    }
}

// The staging's bound on H and y (mimo_frame.h): at the bound, no candidate's
// metric, nor metric / N0, passes max_metric; the bound shrinks with N0 below 1.
TEST(MimoConfig, MaxInputComponentKeepsMetricsFinite)
{
    for (const int bits : { 2, 4, 6, 8 }) {
        for (const float n0 : { 1e-20f, 1e-3f, 1.0f, 1e6f }) {
            core::mimo::frame_params p{ 8, 8, bits, 1, n0, 0, 1 };
            const double a = core::mimo::max_input_component(p);
            double smax = 0.0;
            for (const auto& q : core::mimo::constellation_of(core::mimo::modulation(bits)).points)
                smax = std::max(smax, std::abs(q));
            // Worst case: every entry at (a, a), the symbols at the corner.
            const double entry = a * std::sqrt(2.0);
            const double per_antenna = entry + 8 * entry * smax;
            const double metric = 8 * per_antenna * per_antenna;
            EXPECT_LE(metric, core::mimo::max_metric * 1.000001) << bits << " " << n0;
            EXPECT_LE(metric / n0, core::mimo::max_metric * 1.000001) << bits << " " << n0;
            EXPECT_LT(core::mimo::max_metric, double(std::numeric_limits<float>::max()) / 1e6);
        }
    }
    core::mimo::frame_params p{ 8, 8, 8, 1, 1.0f, 0, 1 };
    EXPECT_NEAR(core::mimo::max_input_component(p), 1.79e13, 0.01e13);
    p.n0 = 1e-20f;
    EXPECT_NEAR(core::mimo::max_input_component(p), 1786.0, 10.0);
}
