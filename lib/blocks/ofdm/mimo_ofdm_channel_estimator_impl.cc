/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_ofdm_channel_estimator: the GNU Radio face of the
// "ofdm-chanest" family (ofdm/chanest_*), on the batching pipeline. A
// frame's used subcarriers of every receive antenna are staged into the
// pipeline (one frame per batch item); a completed frame's y vectors, H per
// group and N0 go out on the three ports, after the host's LMMSE smoothing
// when delay_spread asks for it, and with pilots the data carriers alone,
// turned back by each data symbol's common phase error (ofdm_pilots.h), also
// on the host, so both backends share it. The work loop is the stream driver's
// (blocks/drivers/stream_driver.cc) for three outputs of different rates.
#include "blocks/drivers/buffer_limits.h"
#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/pipeline_holder.h"
#include "blocks/drivers/stream_end.h"
#include "ofdm/chanest_implementations.h"
#include "ofdm/mimo_chanest.h"
#include "ofdm/ofdm_pilots.h"
#include "mimo_ofdm_channel_estimator_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <atomic>
#include <cstring>
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

//! What pipeline_holder reads of the family: records, kernels, sizes. The
//! block stages and reads frames itself (three outputs), so the driver
//! forms' methods (shape, stage, PDUs) serve no deployment here.
class chanest_adapter final : public frame_adapter
{
public:
    chanest_adapter(const of::chanest_config& cfg, const core::implementation_choice& choice)
        : d_cfg(cfg), d_choice(choice), d_params(cfg.frame_params())
    {
    }
    core::frame_types types() const override { return of::chanest_frame_types(); }
    core::kernel_factories kernels() const override { return core::chanest_kernel_factories(d_cfg, d_choice); }
    core::implementation_choice implementation() const override { return d_choice; }
    size_t in_item_bytes() const override { return sizeof(gr_complex); }
    size_t out_item_bytes() const override { return sizeof(gr_complex); }
    size_t max_in_items() const override { return of::chanest_in_values(d_params); }
    size_t max_out_bytes() const override { return of::chanest_out_bytes(d_params); }
    bool shape(uint64_t n, frame_shape& out, std::string& why) const override
    {
        if (n != max_in_items()) {
            why = "a frame is " + std::to_string(max_in_items()) + " values, got " + std::to_string(n);
            return false;
        }
        out.set_params(d_params);
        out.in_items = n;
        out.out_bytes = max_out_bytes();
        return true;
    }
    bool stage(const frame_shape&, const uint8_t* src, size_t first, size_t n, uint8_t* dst, std::string&) const override
    {
        std::memcpy(dst + first * sizeof(gr_complex), src, n * sizeof(gr_complex));
        return true;
    }
    void describe(const core::completed_frame&, frame_meta&) const override {}
    bool pdu_items(const pmt::pmt_t&, const uint8_t*&, size_t&, std::string& why) const override
    {
        why = "mimo_ofdm_channel_estimator takes streams, not PDUs";
        return false;
    }
    pmt::pmt_t pdu_output(const core::completed_frame&) const override { return pmt::PMT_NIL; }
    const of::chanest_frame_params& params() const { return d_params; }

private:
    of::chanest_config d_cfg;
    core::implementation_choice d_choice;
    of::chanest_frame_params d_params;
};

//! The family's configuration of the block's parameters, and
//! `implementation` resolved: "cpu" and "cuda" (the block's former values)
//! become options.backend.
of::chanest_config config_of(int nt, int nr, int used, int repeats, int data_symbols, int group,
                             const std::string& impl, pipeline_options& options)
{
    of::chanest_config c;
    c.nt = nt;
    c.nr = nr;
    c.used = used;
    c.repeats = repeats;
    c.data_symbols = data_symbols;
    c.group = group;
    c.validate();
    if (impl == "cpu" || impl == "cuda") {
        if (options.backend != "auto" && options.backend != impl)
            throw std::invalid_argument("implementation \"" + impl + "\" (a backend, kept for compatibility) "
                                        "contradicts options.backend \"" + options.backend +
                                        "\": give the backend in options alone");
        options.backend = impl;
        c.implementation = "auto";
    } else {
        c.implementation = impl;
    }
    return c;
}

// Data symbols whose pilots estimate one symbol's common phase: the symbol
// and its two neighbours. On the 2x2 16-QAM twin (4 pilots, no
// impairments, 200 packets) it decodes 195 at 11 dB where one symbol alone
// decodes 187 (the untracked receiver 199), and with phase noise of 0.005
// and 0.01 rad per sample it loses nothing against one symbol alone.
constexpr int PHASE_WINDOW = 3;

class mimo_ofdm_channel_estimator_impl final : public mimo_ofdm_channel_estimator
{
    const int d_nt, d_nr, d_fft, d_used, d_data, d_group, d_spread;
    const int d_training;         // repeats * nt
    const of::ofdm_pilot_layout d_pilots;
    const bool d_track, d_slope;
    std::vector<float> d_phase;   // the last frame's common phase per data symbol
    std::vector<float> d_slopes;  // and its slope (track_slope)
    std::vector<int> d_bins;      // FFT bin of each used subcarrier
    std::unique_ptr<of::lmmse_smoother> d_smoother; // with delay_spread > 0
    std::unique_ptr<chanest_adapter> d_adapter;
    std::unique_ptr<pipeline_holder> d_holder;
    of::chanest_result d_est;     // the smoother's frame (scratch)
    std::atomic<uint64_t> d_frames{ 0 }; // read by other threads
    output_buffer_limits d_buffer_limits;

    int frame_len() const { return d_training + d_data; }
    int carriers() const { return d_pilots.data_carriers(); }
    int y_per_frame() const { return carriers() * d_data; }
    int groups() const { return carriers() / d_group; }

public:
    mimo_ofdm_channel_estimator_impl(int nt,
                                     int nr,
                                     int fft_len,
                                     int used,
                                     int repeats,
                                     int data_symbols,
                                     int group,
                                     const std::string& impl,
                                     int delay_spread,
                                     pipeline_options options,
                                     int pilots,
                                     bool track_phase,
                                     bool track_slope)
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
          d_training(repeats * nt),
          // A valid layout until the checks below name what is wrong.
          d_pilots(used >= 2 && used % 2 == 0 ? used : 2,
                   pilots >= 0 && pilots % 2 == 0 && pilots <= used / 2 ? pilots : 0),
          d_track(track_phase),
          d_slope(track_slope)
    {
        check(nt == 1 || nt == 2 || nt == 4 || nt == 8,
              "nt must be 1, 2, 4 or 8 (a Hadamard order), got " + std::to_string(nt));
        check(nr >= nt && nr <= 8, "nr must be in nt..8, got " + std::to_string(nr));
        check(fft_len >= 8 && fft_len <= 65536, "fft_len must be in 8..65536, got " + std::to_string(fft_len));
        check(used >= 2 && used % 2 == 0 && used <= fft_len - 2,
              "used must be even and in 2..fft_len-2, got " + std::to_string(used));
        check(repeats >= 2 && repeats <= 16,
              "repeats must be in 2..16 (N0 comes from the residual), got " + std::to_string(repeats));
        check(data_symbols >= 1 && data_symbols <= 4096,
              "data_symbols must be in 1..4096, got " + std::to_string(data_symbols));
        check(group >= 1 && used % group == 0,
              "group must divide used (" + std::to_string(used) + "), got " + std::to_string(group));
        check(delay_spread >= 0 && delay_spread <= fft_len,
              "delay_spread must be in 0..fft_len, got " + std::to_string(delay_spread));
        check(delay_spread == 0 || group == 1,
              "delay_spread (LMMSE smoothing) needs group 1, got group " + std::to_string(group));
        check(pilots >= 0 && pilots % 2 == 0 && pilots <= used / 2,
              "pilots must be even and in 0..used/2, got " + std::to_string(pilots));
        check(pilots == 0 || group == 1, "pilots need group 1, got group " + std::to_string(group));
        check(!track_slope || (track_phase && pilots >= 4),
              "track_slope needs track_phase and at least 4 pilots, got " + std::to_string(pilots));
        for (int i = 0; i < used / 2; i++)
            d_bins.push_back(fft_len - used / 2 + i);
        for (int i = 1; i <= used / 2; i++)
            d_bins.push_back(i);
        if (delay_spread > 0)
            d_smoother = std::make_unique<of::lmmse_smoother>(d_bins, fft_len, delay_spread);
        of::chanest_config cfg = config_of(nt, nr, used, repeats, data_symbols, group, impl, options);
        const core::implementation_choice choice = core::choose_chanest_implementation(cfg);
        d_adapter = std::make_unique<chanest_adapter>(cfg, choice);
        // Validates the options, resolves the backend (one log line).
        d_holder = std::make_unique<pipeline_holder>(*d_adapter, options, d_logger);
        // Whole frames only: every output must hold one frame's y vectors.
        set_output_multiple(y_per_frame());
        // Four frames in flight to the detector: with room for two, the
        // estimator and the detector's batches wait on each other.
        set_min_output_buffer(4 * y_per_frame());
        set_tag_propagation_policy(TPP_DONT);
    }

    int vectors_per_channel() const override { return d_group * d_data; }
    std::string implementation() const override { return d_holder->backend_name(); }
    std::string backend() const override { return d_holder->backend_name(); }
    uint64_t frames() const override { return d_frames.load(std::memory_order_relaxed); }

    // As the drivers' blocks (driver_blocks.h): the pipeline is made in the
    // thread of tb.start(), so a failure raises there; its buffers hold
    // whole frames on every run (buffer_limits.h).
    bool check_topology(int, int noutputs) override
    {
        d_holder->prepare();
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }
    bool start() override
    {
        d_holder->start();
        return gr::block::start();
    }
    bool stop() override
    {
        d_holder->stop();
        return gr::block::stop();
    }

    // One frame is enough to go on, whatever the room for output: asking for
    // as many frames as the output has room for makes the estimator wait
    // until the synchroniser's buffer is full, and the two take turns. No
    // input while frames are in the pipeline: general_work() must run to
    // deliver them once the upstream has finished.
    void forecast(int, gr_vector_int& required) override
    {
        const auto* p = d_holder->pipe();
        const bool pending = p && p->pending() > 0;
        for (auto& r : required)
            r = pending ? 0 : frame_len();
    }

private:
    //! Frame \p f of this call's input into the pipeline's staging.
    void submit(core::batch_pipeline& pipe, const gr_vector_const_void_star& input_items, int f, uint64_t index)
    {
        const of::chanest_frame_params& p = d_adapter->params();
        auto* dst = reinterpret_cast<gr_complex*>(
            pipe.begin_frame(of::chanest_in_bytes(p), of::chanest_out_bytes(p), &p, index));
        const int half = d_used / 2;
        for (int s = 0; s < frame_len(); s++)
            for (int r = 0; r < d_nr; r++) {
                const auto* sym =
                    static_cast<const gr_complex*>(input_items[r]) + (size_t(f) * frame_len() + s) * d_fft;
                gr_complex* row = dst + (size_t(s) * d_nr + r) * d_used;
                // The used bins: fft_len - used/2 .. fft_len - 1, then 1 .. used/2.
                std::memcpy(row, sym + d_fft - half, size_t(half) * sizeof(gr_complex));
                std::memcpy(row + half, sym + 1, size_t(half) * sizeof(gr_complex));
            }
        pipe.commit_frame();
    }

    //! A completed frame onto the outputs, as frame \p at of this call's.
    void emit(const core::completed_run& run, size_t i, int at, gr_vector_void_star& output_items)
    {
        const of::chanest_frame_params& p = d_adapter->params();
        const auto* data = reinterpret_cast<const gr_complex*>(run.data(i));
        const size_t ny = of::chanest_y_values(p), nh = of::chanest_h_values(p);
        const auto* res = run.result_as<of::chanest_frame_result>(i);
        if (res->status != of::CHANEST_OK)
            d_holder->logger()->error("frame {}: the kernel refused it (status {}): its output is zeros",
                                      run.user(i), res->status);
        // Per frame out: y_per_frame() y vectors, groups() H (fewer than the
        // kernel's ny, nh with pilots).
        auto* y_out = static_cast<gr_complex*>(output_items[0]) + size_t(at) * y_per_frame() * d_nr;
        auto* h_out = static_cast<gr_complex*>(output_items[1]) + size_t(at) * groups() * d_nr * d_nt;
        auto* n_out = static_cast<float*>(output_items[2]) + size_t(at) * groups();
        const gr_complex* h = data + ny;
        if (d_smoother) {
            d_est.h.assign(data + ny, data + ny + nh);
            d_est.n0 = res->n0;
            d_smoother->apply(d_est, d_nr, d_nt, d_training);
            h = d_est.h.data();
        }
        if (d_pilots.pilots == 0) {
            std::memcpy(y_out, data, ny * sizeof(gr_complex));
            std::copy(h, h + nh, h_out);
        } else {
            // The pilots against the (smoothed) estimate: one phase per data
            // symbol, then the data carriers alone, turned back by it.
            if (d_track)
                d_phase = of::common_phase(d_pilots, d_nt, d_nr, d_data, data, h, PHASE_WINDOW,
                                           d_slope ? &d_slopes : nullptr);
            of::data_carriers(d_pilots, d_nt, d_nr, d_data, data, h, d_track ? d_phase.data() : nullptr, y_out,
                              h_out, d_slope ? d_slopes.data() : nullptr);
        }
        // An N0 the detector accepts (1e-20..1e20) even for a noiseless frame.
        const float n0 = float(std::min(std::max(res->n0, 1e-20), 1e20));
        std::fill(n_out, n_out + groups(), n0);
        d_frames++;
    }

    bool inputs_finished(const gr_vector_int& ninput_items)
    {
        for (int r = 0; r < d_nr; r++)
            if (ninput_items[r] < frame_len() && upstream_finished(*this, r))
                return true;
        return false;
    }

public:
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        core::batch_pipeline* running = d_holder->pipe_for_work();
        if (!running)
            return WORK_DONE;
        auto& pipe = *running;
        int nin = ninput_items[0];
        for (int r = 1; r < d_nr; r++)
            nin = std::min(nin, ninput_items[r]);
        nin /= frame_len();
        const int room = noutput_items / y_per_frame();
        const uint64_t first_frame = nitems_read(0) / uint64_t(frame_len());
        int consumed = 0, produced = 0; // frames

        // Completed frames a batch's run at a time.
        auto emit_ready = [&](bool block) {
            bool any = false;
            while (produced < room) {
                const core::completed_run run = pipe.front_many(block, size_t(room - produced));
                if (run.empty())
                    break;
                for (size_t i = 0; i < run.size(); i++)
                    emit(run, i, produced++, output_items);
                pipe.pop_many(run.size());
                any = true;
                block = false; // wait for at most one batch per call
            }
            return any;
        };

        for (;;) {
            bool progress = emit_ready(false);
            while (consumed < nin && pipe.can_accept()) {
                submit(pipe, input_items, consumed, first_frame + uint64_t(consumed));
                consumed++;
                progress = true;
            }
            pipe.launch_due();
            if (consumed == nin) {
                emit_ready(false);
                break;
            }
            if (!progress) {
                // Input is waiting but every slot is busy: wait for the
                // oldest batch if there is room for its output, else return.
                if (produced < room && pipe.front_in_flight()) {
                    emit_ready(true);
                    continue;
                }
                break;
            }
        }
        if (produced == 0 && consumed == 0 && pipe.pending() > 0) {
            // No new input: the upstream is idle, or finished - then nothing
            // more will fill the partial batch, so it goes now.
            if (inputs_finished(ninput_items))
                pipe.flush();
            pipeline_idle_wait(pipe);
            emit_ready(false);
        }
        consume_each(consumed * frame_len());
        produce(0, produced * y_per_frame());
        produce(1, produced * groups());
        produce(2, produced * groups());
        return WORK_CALLED_PRODUCE;
    }
};
} // namespace

mimo_ofdm_channel_estimator::sptr make_mimo_ofdm_channel_estimator(const mimo_ofdm_channel_estimator_params& p)
{
    return gnuradio::make_block_sptr<mimo_ofdm_channel_estimator_impl>(
        p.nt, p.nr, p.fft_len, p.used, p.repeats, p.data_symbols, p.group, p.implementation, p.delay_spread,
        p.options, p.pilots, p.track_phase, p.track_slope);
}

} // namespace gpurx
} // namespace gr
