/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Which compiled code of the thread-per-frame Viterbi decoder runs a batch
// (viterbi_thread_codes.h lists them; each is instantiated in its own
// viterbi_thread_<code>.cu).
#include "viterbi/cuda/viterbi_launch.h"
#include "viterbi/cuda/viterbi_thread_codes.h"
#include "viterbi/viterbi_frame.h"

#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

namespace {

bool dispatch(const viterbi_gpu_code&, const unsigned*, thread_code_list<>, const batch_view&, int, void*, bool, bool, bool)
{
    return false;
}

// Calls launch_for<C> for the compiled code that equals (K, polys); false
// when none does.
template <class C, class... Rest>
bool dispatch(const viterbi_gpu_code& code, const unsigned* polys, thread_code_list<C, Rest...>,
              const batch_view& dev, int max_steps, void* st, bool has_soft, bool has_other, bool dpx)
{
    if (C::matches(code.K, code.n, polys)) {
        viterbi_thread_launch<C>(dev, code, max_steps, st, has_soft, has_other, dpx);
        return true;
    }
    return dispatch(code, polys, thread_code_list<Rest...>(), dev, max_steps, st, has_soft, has_other, dpx);
}

template <class... C>
bool any_matches(int K, int n, const unsigned* polys, thread_code_list<C...>)
{
    return (false || ... || C::matches(K, n, polys));
}

} // namespace

bool viterbi_thread_compiled(int K, int n, const unsigned* polys)
{
    return any_matches(K, n, polys, compiled_thread_codes());
}

size_t viterbi_thread_scratch_bytes(const viterbi_gpu_code& code, int max_steps)
{
    // Its decisions, and the tail-biting metrics per start state.
    const int S = code.S;
    return size_t(max_steps) * size_t(S >= 32 ? S / 32 : 1) * sizeof(uint32_t) + size_t(S) * sizeof(float);
}

bool cuda_viterbi_thread(const batch_view& dev,
                         const batch_view& host,
                         const viterbi_gpu_code& code,
                         const unsigned* polys,
                         int max_steps,
                         bool dpx,
                         void* stream)
{
    if (dev.nframes == 0)
        return viterbi_thread_compiled(code.K, code.n, polys);
    // The host copy of the parameters says which of the two kernels the
    // batch needs (float frames, the others).
    bool has_soft = false, has_other = false;
    const auto* p = host.params_as<viterbi::frame_params>();
    for (size_t f = 0; f < host.nframes; f++)
        (p[f].input == viterbi::INPUT_SOFT ? has_soft : has_other) = true;
    return dispatch(code, polys, compiled_thread_codes(), dev, max_steps, stream,
                    has_soft, has_other, dpx);
}

} // namespace core
} // namespace gpurx
} // namespace gr
