/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_fec_decoder: the LTE turbo decoder as a gr-fec decoder
// object, on the turbo family's adapter (the same implementations and
// checks as lte_turbo_decoder), one frame per call.
#include "blocks/drivers/fec_decoder_object.h"
#include "blocks/turbo/turbo_adapter.h"
#include "turbo/lte_qpp.h"
#include "lte_turbo_fec_decoder_params.h"

namespace gr {
namespace gpurx {

namespace {

// gr-fec's rates leave the tail out (cc_decoder's is 1/n): with 1/3 here,
// its tagged and async deployments turn a packet of 3K+12 values into
// round((3K+12) / 3) - 4 = K information bits.
constexpr double turbo_code_rate = 1.0 / 3.0;

int codeword_length(int K) { return 3 * K + 12; }

// The turbo code's sizes for gr-fec: K information bits, 3K+12 values.
class turbo_fec_code
{
public:
    static constexpr const char* name = "lte_turbo_fec_decoder";
    static constexpr const char* frame = "codeword";
    using adapter_type = turbo_adapter;

    turbo_fec_code(int K, int iterations) : d_K(K), d_iterations(float(iterations)) {}

    double rate() const { return turbo_code_rate; }
    size_t input_values(const turbo_adapter&) const { return size_t(codeword_length(d_K)); }
    int output_bits() const { return d_K; }
    int rejected_input_values(int bits) const { return codeword_length(bits); }
    std::string kept() const { return "K=" + std::to_string(d_K); }
    // A refused size is reported back (get_output_size()) up to this, so
    // that 3 x it + 12 (get_input_size()) stays an int.
    long long max_reported_bits() const { return (0x7fffffffLL - 12) / 3; }

    fec_size take(long long f, bool tail_off, const turbo_adapter&, const gr::logger_ptr&, std::string& why)
    {
        if (f <= core::lte_max_K && core::lte_valid_K(int(f))) {
            d_K = int(f);
            return fec_size::taken;
        }
        // GNU Radio 3.10.5's tagged decoder asks for round(packet x rate())
        // = (3K+12) / 3 = K+4 without taking the tail off; callers that read
        // both sizes have taken it off, and for them K+4 is a packet of one
        // codeword and 12 more values. No K+4 is itself a block size
        // (every K is a multiple of 8), so the two readings never collide.
        if (!tail_off && f >= 4 && f - 4 <= core::lte_max_K && core::lte_valid_K(int(f - 4))) {
            d_K = int(f - 4);
            return fec_size::taken;
        }
        const long long packet = 3 * (f + (tail_off ? 4 : 0));
        why = "gr-fec asked for frame size " + std::to_string(f) + ", from a packet of about " +
              std::to_string(packet) +
              " values, which is not one codeword of an LTE block size K (3K+12 "
              "values, K of TS 36.212 Table 5.1.3-3; a packet of several codewords, "
              "or of one with extra values, is not taken apart)";
        return fec_size::rejected;
    }

    void decoded(const core::completed_frame& f)
    {
        d_iterations = float(f.result_as<core::turbo::frame_result>()->iterations);
    }
    void rejected() { d_iterations = 0.0f; } // gr-fec's async decoder puts it in the PDU's metadata

    int K() const { return d_K; }
    float iterations() const { return d_iterations; }

private:
    int d_K;
    float d_iterations; // of the last frame, for get_iterations()
};

class lte_turbo_fec_decoder_impl final : public fec_decoder_object<lte_turbo_fec_decoder, turbo_fec_code>
{
public:
    lte_turbo_fec_decoder_impl(int K,
                               const core::turbo_config& cfg,
                               float llr_scale,
                               const std::string& backend,
                               fec_soft_input input)
        : generic_decoder("lte_turbo_fec_decoder"),
          fec_decoder_object(turbo_fec_code(K, cfg.iterations),
                             turbo_adapter(cfg, core::turbo::INPUT_FLOAT32),
                             llr_scale,
                             backend,
                             input)
    {
    }

    float get_iterations() override { return d_code.iterations(); }
    int block_size() const override { return d_code.K(); }
};

} // namespace

lte_turbo_fec_decoder::sptr make_lte_turbo_fec_decoder(const lte_turbo_fec_decoder_params& p)
{
    core::lte_qpp(p.K); // throws, naming K, for sizes outside Table 5.1.3-3
    check_llr_scale(p.llr_scale);
    const fec_soft_input input = parse_input_conversion(p.input_conversion);
    return std::make_shared<lte_turbo_fec_decoder_impl>(
        p.K, make_turbo_config(p.iterations, p.algorithm, p.subblocks, p.scaling, p.early_termination), p.llr_scale, p.backend, input);
}

} // namespace gpurx
} // namespace gr
