/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_VITERBI_STREAM_DECODER_H
#define INCLUDED_GPURX_VITERBI_STREAM_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief Continuous Viterbi decoder: one unbounded stream of coded bits in,
 * one decoded bit per trellis step out, by overlapped windows decoded in
 * parallel.
 * \ingroup gpurx
 *
 * The stream's encoder starts in state 0 at its first step and never
 * terminates. Window c decodes the bits of steps [c chunk, (c+1) chunk)
 * from a Viterbi run over steps [c chunk - traceback, (c+1) chunk +
 * traceback) (clipped to the stream): from state 0 when the run starts at
 * the stream's first step, else from every state with metric 0; traced back
 * from the best state at the run's end (the lowest on ties); ties in
 * add-compare-select keep the lower predecessor. With traceback >= 5 (K-1)
 * the bit error rate is that of full-frame Viterbi.
 *
 * Delay: bit t goes out once the input up to step (t div chunk + 1) chunk +
 * traceback has arrived, plus the batching latency (flush_us). End of
 * stream: when the upstream finishes, the remaining steps are decoded, the
 * last windows traced back from the best state after the last complete
 * step: every step in gives a bit out (items of a step cut short at the
 * very end are dropped, logged and posted on "errors" as a dict: "reason",
 * "offset" of the step's first item, "dropped"). stop() keeps the stream's state and the
 * bits not yet delivered (see pipeline_options: a batch running on the CPU
 * is interrupted and runs again); a restart (lock()/unlock()) continues
 * the same stream without a gap.
 *
 * Input: the punctured coded bits, the n of each step together in
 * polynomial order, the puncture pattern's phase counted from the stream's
 * first step; "soft": float32 LLRs, L = ln P(b=1)/P(b=0), positive for bit
 * 1 (finite LLRs beyond +-1e4 are clamped; NaN and Inf are decoded as 0, no
 * information, and logged once); "int8": int8 LLRs at any positive scale;
 * "hard": bytes, 0 or not 0. Output: unpacked uint8 bits.
 *
 * The code: constraint length K (3..9), rate 1/n with n = len(polys)
 * (2..4), polynomials in octal as standards print them ([0o133, 0o171]:
 * the most significant bit taps the current input bit), or bit-reversed as
 * gr-fec's cc_encoder takes them with gr_fec_order=True. On CUDA, the codes
 * K=7 [0o133, 0o171] and [0o133, 0o171, 0o165], K=5 [0o23, 0o33] and K=3
 * [0o7, 0o5] run one thread per window; any other code one warp per window.
 * Batching, backend and GPUs: see pipeline_options (a frame is a segment of
 * up to 65536 payload steps).
 */
class GPURX_API viterbi_stream_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<viterbi_stream_decoder> sptr;
    /*!
     * \param K constraint length, 3..9
     * \param polys generator polynomials, one per coded bit
     * \param traceback acquisition and traceback depth in steps, K-1..16384 (5 (K-1) or more
     *        decodes as well as a whole frame)
     * \param chunk payload steps per window, 1..65536
     * \param gr_fec_order polys given bit-reversed, as gr-fec's cc_encoder
     * \param puncture keep/drop flags over coded bits, empty for none
     * \param input "soft" (float LLRs), "int8" (int8 LLRs) or "hard" (bytes)
     * \param options batching, backend and GPUs (pipeline_options)
     */
    static sptr make(int K = 7,
                     const std::vector<int>& polys = { 0133, 0171 },
                     int traceback = 96,
                     int chunk = 512,
                     bool gr_fec_order = false,
                     const std::vector<int>& puncture = {},
                     const std::string& input = "soft",
                     const pipeline_options& options = pipeline_options());
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
    //! NaN or Inf LLRs received so far (decoded as 0).
    virtual uint64_t nonfinite_llrs() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
