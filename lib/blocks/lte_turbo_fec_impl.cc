/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_fec_decoder / lte_turbo_fec_encoder: the LTE turbo code as
// gr-fec coder objects. The decoder runs on the turbo family's adapter (the
// same implementations and checks as lte_turbo_decoder), one frame per call.
#include "blocks/fec_frame_runner.h"
#include "blocks/turbo_adapter.h"
#include "turbo/lte_qpp.h"
#include "turbo/lte_turbo_encoder.h"
#include <gnuradio/gpurx/lte_turbo_fec_decoder.h>
#include <gnuradio/gpurx/lte_turbo_fec_encoder.h>

#include <memory>

namespace gr {
namespace gpurx {

namespace {

// gr-fec's rates leave the tail out (cc_decoder's is 1/n): with 1/3 here,
// its tagged and async deployments turn a packet of 3K+12 values into
// round((3K+12) / 3) - 4 = K information bits.
constexpr double turbo_code_rate = 1.0 / 3.0;

int codeword_length(int K) { return 3 * K + 12; }

// set_frame_size(): a valid K is taken; anything else is refused, keeping K.
// Logged at info level, as gr-fec's cc_decoder logs its own refusals: the
// tagged deployments ask for their MTU (e.g. 12000 bits) once at start.
bool take_block_size(unsigned int frame_size, int& K, const gr::logger_ptr& logger, const char* who)
{
    if (frame_size <= unsigned(core::lte_max_K) && core::lte_valid_K(int(frame_size))) {
        K = int(frame_size);
        return true;
    }
    logger->info("{}: frame size {} is not an LTE block size (TS 36.212 Table 5.1.3-3); "
                 "keeping K={}",
                 who, frame_size, K);
    return false;
}

// The decoder's set_frame_size() also takes K+4: some gr-fec versions'
// tagged decoder (GNU Radio 3.10.5's) asks for round(packet x rate()) =
// (3K+12) / 3 without taking the tail back off, as newer ones and the async
// decoder do. No K+4 is itself a block size (every K is a multiple of 8), so
// the two readings never collide.
bool take_decoder_block_size(unsigned int frame_size, int& K, const gr::logger_ptr& logger)
{
    if (frame_size >= 4 && frame_size - 4 <= unsigned(core::lte_max_K) &&
        core::lte_valid_K(int(frame_size - 4))) {
        K = int(frame_size - 4);
        return true;
    }
    return take_block_size(frame_size, K, logger, "lte_turbo_fec_decoder");
}

class lte_turbo_fec_decoder_impl final : public lte_turbo_fec_decoder
{
public:
    lte_turbo_fec_decoder_impl(int K, const core::turbo_config& cfg, float llr_scale, const std::string& backend)
        : generic_decoder("lte_turbo_fec_decoder"),
          d_K(K),
          d_scale(llr_scale),
          d_adapter(cfg, core::turbo::INPUT_FLOAT32),
          d_runner(d_adapter, backend, d_logger),
          d_iterations(float(cfg.iterations))
    {
    }

    double rate() override { return turbo_code_rate; }
    int get_input_size() override { return codeword_length(d_K); }
    int get_output_size() override { return d_K; }
    bool set_frame_size(unsigned int frame_size) override
    {
        return take_decoder_block_size(frame_size, d_K, d_logger);
    }
    float get_iterations() override { return d_iterations; }

    void generic_work(void* in, void* out) override
    {
        d_runner.run(static_cast<const float*>(in),
                     size_t(codeword_length(d_K)),
                     d_scale,
                     static_cast<uint8_t*>(out),
                     size_t(d_K),
                     [this](const core::completed_frame& f) {
                         d_iterations = float(f.result_as<core::turbo::frame_result>()->iterations);
                     });
    }

    int block_size() const override { return d_K; }
    float llr_scale() const override { return d_scale; }
    std::string backend() const override { return d_runner.backend_name(); }

private:
    int d_K;
    const float d_scale;
    const turbo_adapter d_adapter; // before d_runner, which holds a reference to it
    fec_frame_runner d_runner;
    float d_iterations; // of the last frame, for get_iterations()
};

class lte_turbo_fec_encoder_impl final : public lte_turbo_fec_encoder
{
public:
    explicit lte_turbo_fec_encoder_impl(int K)
        : generic_encoder("lte_turbo_fec_encoder"), d_enc(std::make_unique<core::lte_turbo_encoder>(K))
    {
    }

    double rate() override { return 3.0; }
    int get_input_size() override { return d_enc->K(); }
    int get_output_size() override { return d_enc->codeword_length(); }
    bool set_frame_size(unsigned int frame_size) override
    {
        int K = d_enc->K();
        if (!take_block_size(frame_size, K, d_logger, "lte_turbo_fec_encoder"))
            return false;
        if (K != d_enc->K())
            d_enc = std::make_unique<core::lte_turbo_encoder>(K);
        return true;
    }

    void generic_work(void* in, void* out) override
    {
        d_enc->encode(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out));
    }

    int block_size() const override { return d_enc->K(); }

private:
    std::unique_ptr<core::lte_turbo_encoder> d_enc;
};

} // namespace

lte_turbo_fec_decoder::sptr lte_turbo_fec_decoder::make(int K,
                                                        int iterations,
                                                        const std::string& algorithm,
                                                        int subblocks,
                                                        float scaling,
                                                        const std::string& early_termination,
                                                        float llr_scale,
                                                        const std::string& backend)
{
    core::lte_qpp(K); // throws, naming K, for sizes outside Table 5.1.3-3
    check_llr_scale(llr_scale);
    return std::make_shared<lte_turbo_fec_decoder_impl>(
        K, make_turbo_config(iterations, algorithm, subblocks, scaling, early_termination), llr_scale, backend);
}

lte_turbo_fec_encoder::sptr lte_turbo_fec_encoder::make(int K)
{
    return std::make_shared<lte_turbo_fec_encoder_impl>(K); // core::lte_turbo_encoder names K
}

} // namespace gpurx
} // namespace gr
