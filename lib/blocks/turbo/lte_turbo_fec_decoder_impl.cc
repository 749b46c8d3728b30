/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_fec_decoder: the LTE turbo decoder as a gr-fec decoder
// object, on the turbo family's adapter (the same implementations and
// checks as lte_turbo_decoder), one frame per call.
#include "blocks/drivers/fec_frame_runner.h"
#include "blocks/turbo/turbo_adapter.h"
#include "turbo/lte_qpp.h"
#include <gnuradio/gpurx/lte_turbo_fec_decoder.h>

namespace gr {
namespace gpurx {

namespace {

// gr-fec's rates leave the tail out (cc_decoder's is 1/n): with 1/3 here,
// its tagged and async deployments turn a packet of 3K+12 values into
// round((3K+12) / 3) - 4 = K information bits.
constexpr double turbo_code_rate = 1.0 / 3.0;

int codeword_length(int K) { return 3 * K + 12; }

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
    int get_input_size() override
    {
        d_request.input_size_read();
        return codeword_length(d_request.rejected() ? d_request.rejected_bits() : d_K);
    }
    int get_output_size() override
    {
        d_request.output_size_read();
        return d_request.rejected() ? d_request.rejected_bits() : d_K;
    }
    bool set_frame_size(unsigned int frame_size) override
    {
        const bool tail_off = d_request.begin_request();
        const long long f = fec_frame_request::signed_size(frame_size);
        if (f < 0) {
            d_logger->warn("lte_turbo_fec_decoder: frame size {} is no codeword's: refused, keeping "
                           "K={} (gr-fec's async decoder then outputs an empty PDU for an empty "
                           "one, and stops its thread on any other)",
                           fec_frame_request::describe(frame_size), d_K);
            return false;
        }
        if (f <= core::lte_max_K && core::lte_valid_K(int(f))) {
            d_K = int(f);
            return true;
        }
        // GNU Radio 3.10.5's tagged decoder asks for round(packet x rate())
        // = (3K+12) / 3 = K+4 without taking the tail off; callers that read
        // both sizes have taken it off, and for them K+4 is a packet of one
        // codeword and 12 more values. No K+4 is itself a block size
        // (every K is a multiple of 8), so the two readings never collide.
        if (!tail_off && f >= 4 && f - 4 <= core::lte_max_K && core::lte_valid_K(int(f - 4))) {
            d_K = int(f - 4);
            return true;
        }
        const long long packet = 3 * (f + (tail_off ? 4 : 0));
        std::string why = "gr-fec asked for frame size " + std::to_string(f) +
                          ", from a packet of about " + std::to_string(packet) +
                          " values, which is not one codeword of an LTE block size K (3K+12 "
                          "values, K of TS 36.212 Table 5.1.3-3; a packet of several codewords, "
                          "or of one with extra values, is not taken apart)";
        // Info level, as gr-fec's cc_decoder logs its refusals: the tagged
        // deployments ask for their MTU (e.g. 12000 bits) once at start. A
        // frame decoded at that size is warned about (generic_work()).
        d_logger->info("lte_turbo_fec_decoder: {}; a frame of this size comes out as zeros", why);
        d_request.reject(f, max_reported_bits, std::move(why));
        return true;
    }
    float get_iterations() override { return d_iterations; }

    void generic_work(void* in, void* out) override
    {
        d_request.frame_done();
        if (d_request.rejected()) {
            d_iterations = 0.0f; // gr-fec's async decoder puts it in the PDU's metadata
            d_runner.reject_frame(d_request.why(), static_cast<uint8_t*>(out),
                                  size_t(d_request.rejected_bits()));
            return;
        }
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
    // A refused size is reported back (get_output_size()) up to this, so
    // that 3 x it + 12 (get_input_size()) stays an int.
    static constexpr long long max_reported_bits = (0x7fffffffLL - 12) / 3;

    int d_K;
    const float d_scale;
    const turbo_adapter d_adapter; // before d_runner, which holds a reference to it
    fec_frame_runner d_runner;
    float d_iterations; // of the last frame, for get_iterations()
    fec_frame_request d_request;
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

} // namespace gpurx
} // namespace gr
