/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Lin et al.'s tiled Viterbi decoder (TVDA, "A Tiling-Scheme Viterbi Decoder
// in Software Defined Radio for GPUs"), on the CPU.
//
// The trellis is cut into chunks of `chunk` steps (the last may be shorter).
//  1. Chunk decoding (the paper's Algorithm 1): every chunk is decoded from
//     every start state, as if each were the path's state at the chunk's
//     start, giving the table m[a][b] of the best metric from start a to end
//     b within the chunk. The first chunk of a frame starting in state 0
//     (terminated, truncated) needs start 0 only, as in the paper.
//  2. Merging (Algorithm 2): neighbouring chunks are composed left to right,
//     D'[a][b] = max over middle s of D[a][s] + m[s][b], remembering the
//     best middle state of each (a, b). a is the frame's start state: 0, or
//     every state for tail-biting, where the wrap constraint start == end
//     then simply picks the best D[s][s] (exact, no wrap-around passes).
//  3. The end state (0, the best, or the best D[s][s]) and the remembered
//     middle states give the path's state at every chunk boundary; each
//     chunk is decoded once more from its known start with decisions kept
//     and traced back from its known end. Re-decoding keeps the memory at
//     one chunk's decisions instead of 2^(K-1) paths per chunk.
// The chunks of a frame are independent in step 1 (the GPU's parallelism);
// here they run one after another and frames run in parallel.
//
// The result is the full-frame reference's maximum-likelihood path; only an
// exact tie between paths of equal metric may be broken differently, since
// the metrics are summed in another order (viterbi_decoder.h).
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_TILED_H
#define INCLUDED_GPURX_VITERBI_VITERBI_TILED_H

#include "viterbi/viterbi_decoder.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class viterbi_tiled final : public viterbi_decoder
{
public:
    //! \p chunk: trellis steps per chunk, >= 1 (throws naming chunk).
    viterbi_tiled(const viterbi_code& code, int chunk);
    const char* name() const override { return "cpu-tiled"; }
    viterbi_path decode(const float* llr, int frame_bits, uint8_t* bits) override;
    int chunk() const { return d_chunk; }

private:
    // Branch metrics of steps [t0, t1) into d_bm.
    void chunk_branch_metrics(const float* llr, int t0, int t1);
    // Decode steps [t0, t1) from `start` alone; final metrics into `row`
    // (states entries), decisions into d_decisions when keep_decisions.
    void chunk_forward(int t0, int t1, int start, double* row, bool keep_decisions);

    viterbi_code d_code;
    int d_chunk;
    std::vector<double> d_bm;           // [step in chunk][output combination]
    std::vector<double> d_metric, d_next;
    std::vector<double> d_table;        // [start][end] of the current chunk
    std::vector<double> d_D, d_D_next;  // [frame start][state]
    std::vector<uint16_t> d_middle;     // [chunk][frame start][state]: best middle state
    std::vector<uint8_t> d_decisions;   // [step in chunk][state]
    std::vector<int> d_boundary;        // path state at each chunk boundary
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
