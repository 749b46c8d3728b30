/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A C++ program built against an installed gr-gpurx (tests/consumer): LTE
// turbo encode, BPSK LLRs, decode, in two flowgraphs on the CPU backend;
// exits 0 when every bit comes back.
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpurx/lte_turbo_decoder.h>
#include <gnuradio/gpurx/lte_turbo_encoder.h>
#include <gnuradio/gpurx/runtime_info.h>
#include <gnuradio/top_block.h>

#include <cstdio>
#include <random>
#include <vector>

int main()
{
    const int K = 1024, n = 3 * K + 12, frames = 8;
    std::printf("gr-gpurx %s\n", gr::gpurx::version().c_str());
    const auto sizes = gr::gpurx::lte_turbo_block_sizes();
    if (sizes.size() != 188)
        return 1;

    std::mt19937 rng(1);
    std::vector<uint8_t> bits(size_t(K) * frames);
    for (auto& b : bits)
        b = rng() & 1;

    auto tb = gr::make_top_block("encode");
    auto src = gr::blocks::vector_source_b::make(bits, false, K);
    auto enc = gr::gpurx::lte_turbo_encoder::make(K);
    auto coded = gr::blocks::vector_sink_b::make(n);
    tb->connect(src, 0, enc, 0);
    tb->connect(enc, 0, coded, 0);
    tb->run();

    // Noiseless BPSK at Es/N0 = 0 dB: L = 4 y / N0 with y = +-1.
    std::vector<float> llr;
    for (uint8_t c : coded->data())
        llr.push_back(c ? 4.0f : -4.0f);
    auto tb2 = gr::make_top_block("decode");
    auto src2 = gr::blocks::vector_source_f::make(llr, false, n);
    auto dec = gr::gpurx::lte_turbo_decoder::make(
        K, 4, "scaled-max-log-map", 0, 0.75f, "none", gr::gpurx::pipeline_options(64, 3, 1000, "cpu", "0", 1));
    auto out = gr::blocks::vector_sink_b::make(K);
    tb2->connect(src2, 0, dec, 0);
    tb2->connect(dec, 0, out, 0);
    tb2->run();

    const bool ok = out->data() == bits;
    std::printf("%d frames of K=%d through gr-gpurx (%s backend): %s\n", frames, K, dec->backend().c_str(),
                ok ? "every bit back" : "BITS WRONG");
    return ok ? 0 : 1;
}
