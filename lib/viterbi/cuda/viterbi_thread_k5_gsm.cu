/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The thread-per-frame Viterbi decoder for K=5 (023, 033): GSM.
#include "viterbi/cuda/viterbi_thread_kernels.cuh"

namespace gr {
namespace gpurx {
namespace core {

template void viterbi_thread_launch<thread_code<5, 023, 033>>(const batch_view&, const viterbi_gpu_code&, int, void*, bool, bool, bool);

} // namespace core
} // namespace gpurx
} // namespace gr
