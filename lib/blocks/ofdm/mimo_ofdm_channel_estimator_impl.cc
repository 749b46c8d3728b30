/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_ofdm_channel_estimator: the GNU Radio face of
// core::ofdm::estimate_mimo_channel, one frame per call.
#include "blocks/drivers/buffer_limits.h"
#include "ofdm/mimo_chanest.h"
#include "ofdm/mimo_chanest_cuda.h"
#include <gnuradio/gpurx/mimo_ofdm_channel_estimator.h>
#include <gnuradio/io_signature.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
namespace of = core::ofdm;

void check(bool ok, const std::string& what)
{
    if (!ok)
        throw std::invalid_argument(what);
}

class mimo_ofdm_channel_estimator_impl final : public mimo_ofdm_channel_estimator
{
    const int d_nt, d_nr, d_fft, d_used, d_data, d_group, d_spread;
    const of::mimo_training d_tr;
    std::vector<int> d_bins;          // FFT bin of each used subcarrier
    std::vector<of::cfloat> d_train;  // (t * nr + r) * used + k
    std::unique_ptr<of::mimo_chanest_cuda> d_gpu; // null: the CPU estimates
    std::unique_ptr<of::lmmse_smoother> d_smoother; // with delay_spread > 0
    std::atomic<uint64_t> d_frames{ 0 }; // read by other threads

    int frame_len() const { return d_tr.symbols() + d_data; }
    int y_per_frame() const { return d_used * d_data; }
    int groups() const { return d_used / d_group; }

    output_buffer_limits d_buffer_limits;

public:
    // Its buffers hold whole frames on every run, not only the first
    // (buffer_limits.h).
    bool check_topology(int, int noutputs) override
    {
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }

    mimo_ofdm_channel_estimator_impl(
        int nt, int nr, int fft_len, int used, int repeats, int data_symbols, int group, const std::string& impl,
        int delay_spread)
        : gr::block("mimo_ofdm_channel_estimator",
                    gr::io_signature::make(std::max(nr, 1), std::max(nr, 1), sizeof(gr_complex) * std::max(fft_len, 1)),
                    gr::io_signature::make3(3, 3, sizeof(gr_complex) * std::max(nr, 1),
                                            sizeof(gr_complex) * std::max(nr * nt, 1), sizeof(float))),
          d_nt(nt),
          d_nr(nr),
          d_fft(fft_len),
          d_used(used),
          d_data(data_symbols),
          d_group(group),
          d_spread(delay_spread),
          d_tr(nt, std::max(used, 1), repeats)
    {
        check(nr >= nt && nr <= 8, "nr must be in nt..8, got " + std::to_string(nr));
        check(fft_len >= 8 && fft_len <= 65536, "fft_len must be in 8..65536, got " + std::to_string(fft_len));
        check(used >= 2 && used % 2 == 0 && used <= fft_len - 2,
              "used must be even and in 2..fft_len-2, got " + std::to_string(used));
        check(repeats >= 2, "repeats must be at least 2 (N0 comes from the residual), got " +
                                std::to_string(repeats));
        check(data_symbols >= 1 && data_symbols <= 4096,
              "data_symbols must be in 1..4096, got " + std::to_string(data_symbols));
        check(group >= 1 && used % group == 0,
              "group must divide used (" + std::to_string(used) + "), got " + std::to_string(group));
        check(delay_spread >= 0 && delay_spread <= fft_len,
              "delay_spread must be in 0..fft_len, got " + std::to_string(delay_spread));
        check(delay_spread == 0 || group == 1,
              "delay_spread (LMMSE smoothing) needs group 1, got group " + std::to_string(group));
        for (int i = 0; i < used / 2; i++)
            d_bins.push_back(fft_len - used / 2 + i);
        for (int i = 1; i <= used / 2; i++)
            d_bins.push_back(i);
        d_train.resize(size_t(d_tr.symbols()) * nr * used);
        if (delay_spread > 0)
            d_smoother = std::make_unique<of::lmmse_smoother>(d_bins, fft_len, delay_spread);
        check(impl == "auto" || impl == "cpu" || impl == "cuda",
              "implementation must be \"auto\", \"cpu\" or \"cuda\", got \"" + impl + "\"");
        const bool usable = of::mimo_chanest_cuda_usable(0);
        if (impl == "cuda" && !usable)
            throw std::runtime_error("implementation \"cuda\": no usable CUDA device 0 (gpurx-info says why)");
        if (impl != "cpu" && usable)
            d_gpu = std::make_unique<of::mimo_chanest_cuda>(d_tr, nr, group, 0);
        d_logger->info("estimating on the {}{}", d_gpu ? "GPU (CUDA device 0)" : "CPU",
                       impl == "auto" && !d_gpu ? ": no usable CUDA device" : "");
        // Whole frames only: every output must hold one frame's y vectors.
        set_output_multiple(y_per_frame());
        // Four frames in flight to the detector: with room for two, the
        // estimator and the detector's batches wait on each other.
        set_min_output_buffer(4 * y_per_frame());
        set_tag_propagation_policy(TPP_DONT);
    }

    int vectors_per_channel() const override { return d_group * d_data; }
    std::string implementation() const override { return d_gpu ? "cuda" : "cpu"; }
    uint64_t frames() const override { return d_frames.load(std::memory_order_relaxed); }

    // One frame is enough to go on, whatever the room for output: asking for
    // as many frames as the output has room for makes the estimator wait
    // until the synchroniser's buffer is full, and the two take turns.
    void forecast(int, gr_vector_int& required) override
    {
        for (auto& r : required)
            r = frame_len();
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        int nin = ninput_items[0];
        for (int r = 1; r < d_nr; r++)
            nin = std::min(nin, ninput_items[r]);
        const int frames = std::min(nin / frame_len(), noutput_items / y_per_frame());
        auto* y_out = static_cast<gr_complex*>(output_items[0]);
        auto* h_out = static_cast<gr_complex*>(output_items[1]);
        auto* n_out = static_cast<float*>(output_items[2]);
        const int T = d_tr.symbols();
        for (int f = 0; f < frames; f++) {
            for (int t = 0; t < T; t++)
                for (int r = 0; r < d_nr; r++) {
                    const auto* sym = static_cast<const gr_complex*>(input_items[r]) +
                                      (size_t(f) * frame_len() + t) * d_fft;
                    for (int k = 0; k < d_used; k++)
                        d_train[(size_t(t) * d_nr + r) * d_used + k] = sym[d_bins[k]];
                }
            of::chanest_result est = d_gpu ? d_gpu->estimate(d_train.data())
                                           : of::estimate_mimo_channel(d_tr, d_nr, d_train.data(), d_group);
            if (d_smoother)
                d_smoother->apply(est, d_nr, d_nt, d_tr.symbols());
            std::copy(est.h.begin(), est.h.end(), h_out + size_t(f) * groups() * d_nr * d_nt);
            // An N0 the detector accepts (1e-20..1e20) even for a noiseless frame.
            const float n0 = float(std::min(std::max(est.n0, 1e-20), 1e20));
            std::fill(n_out + size_t(f) * groups(), n_out + size_t(f + 1) * groups(), n0);
            gr_complex* y = y_out + size_t(f) * y_per_frame() * d_nr;
            for (int k = 0; k < d_used; k++)
                for (int s = 0; s < d_data; s++)
                    for (int r = 0; r < d_nr; r++) {
                        const auto* sym = static_cast<const gr_complex*>(input_items[r]) +
                                          (size_t(f) * frame_len() + T + s) * d_fft;
                        *y++ = sym[d_bins[k]];
                    }
            d_frames++;
        }
        consume_each(frames * frame_len());
        produce(0, frames * y_per_frame());
        produce(1, frames * groups());
        produce(2, frames * groups());
        return WORK_CALLED_PRODUCE;
    }
};
} // namespace

mimo_ofdm_channel_estimator::sptr
mimo_ofdm_channel_estimator::make(
    int nt, int nr, int fft_len, int used, int repeats, int data_symbols, int group, const std::string& implementation,
    int delay_spread)
{
    return gnuradio::make_block_sptr<mimo_ofdm_channel_estimator_impl>(nt, nr, fft_len, used, repeats,
                                                                         data_symbols, group, implementation,
                                                                         delay_spread);
}

} // namespace gpurx
} // namespace gr
