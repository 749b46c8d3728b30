/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The IDD receiver's registry ("mimo-idd"): "cpu-idd" (idd_cpu_kernel.h)
// and, in builds with CUDA, "cuda-idd" (cuda/idd_cuda_kernel.cc). Each
// composes the MIMO registry's choice for the detector and the
// transport-block registry's for the decoder on its backend; the CUDA one
// keeps every pass on the device. The steps between the two (the priors'
// copies, the choice of a TB's output) are copies, so the two receivers
// differ only where their detectors and decoders do: the CUDA detectors
// compute in fp32, their CPU twins in double.
#ifndef INCLUDED_GPURX_IDD_IDD_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_IDD_IDD_IMPLEMENTATIONS_H

#include "idd/idd_config.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! The detector's and the decoder's kernels as a receiver of \p cfg runs
//! them (cfg.detector_config(), cfg.decoder_config(), each registry's
//! choice for its implementation name).
struct idd_parts {
    kernel_factories detector, decoder;
    implementation_choice detector_choice, decoder_choice;
};
idd_parts idd_part_factories(const mimo_idd_config& cfg);

std::vector<implementation<mimo_idd_config>> idd_implementations();
registry<mimo_idd_config> idd_registry();
//! cfg.implementation resolved; throws std::invalid_argument naming
//! `implementation` for an unknown name.
implementation_choice choose_idd_implementation(mimo_idd_config& cfg);
kernel_factories idd_kernel_factories(const mimo_idd_config& cfg, const implementation_choice& choice);
family_listing idd_listing();

#ifdef GPURX_HAVE_CUDA
std::unique_ptr<cuda_kernel> make_idd_cuda_kernel(const mimo_idd_config& cfg, int device);
#endif

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
