/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "families.h"
#include "gpurx_build_info.h" // generated: version, CUDA architectures
#include "pipeline/backend.h"
#include "cuda/cuda_probe.h"
#include "cuda/cuda_arch.h"
#include <gnuradio/gpurx/runtime_info.h>

#include <sstream>

namespace gr {
namespace gpurx {

bool cuda_available(int device)
{
    try {
        return core::select_backend("auto", std::to_string(device)).kind == core::backend_kind::cuda;
    } catch (const std::exception&) {
        return false;
    }
}

std::string auto_backend(int device)
{
    return core::backend_name(core::select_backend("auto", std::to_string(device)).kind);
}

std::string backend_reason(const std::string& backend, int device)
{
    return core::select_backend(backend, std::to_string(device)).reason;
}

std::string version() { return GPURX_VERSION; }

std::string cuda_architectures() { return GPURX_CUDA_ARCHITECTURES; }

std::string runtime_report()
{
    const auto& p = core::probe_cuda();
    std::ostringstream o;
    o << "gr-gpurx " << version() << " runtime\n";
    o << "  CUDA support compiled in: " << (p.compiled_in ? "yes" : "no") << "\n";
    if (p.compiled_in) {
        // A GPU runs this build only if an architecture here matches it
        // (NN-real: sm_NN machine code for compute capability N.N) or is
        // PTX (NN-virtual) of a capability at most its own, compiled at load.
        o << "  CUDA architectures in this build: " << cuda_architectures() << "\n";
        o << "  CUDA driver version:  "
          << (p.driver_version ? core::cuda_version_string(p.driver_version) : "none") << "\n";
        o << "  CUDA runtime version: " << core::cuda_version_string(p.runtime_version) << "\n";
    }
    if (!p.problem.empty())
        o << "  no CUDA device: " << p.problem << "\n";
    o << "  CUDA devices: " << p.devices.size() << "\n";
    for (const auto& d : p.devices) {
        o << "    [" << d.ordinal << "] " << d.name << ", compute capability " << d.cc_major
          << "." << d.cc_minor << ", " << (d.total_mem >> 20) << " MiB, "
          << d.multiprocessors << " SMs, " << (d.usable ? "usable" : "NOT usable: " + d.problem)
          << "\n";
        if (p.compiled_in) {
            const auto s = core::cuda_arch_supports(cuda_architectures(), d.cc_major, d.cc_minor);
            o << "        this build on sm_" << d.cc_major << d.cc_minor << ": "
              << (s.runs ? "runs (" + s.how + ")" : "cannot run: " + s.how) << "\n";
        }
    }
    const auto choice = core::select_backend("auto", "0");
    o << "  backend=\"auto\" chooses: " << core::backend_name(choice.kind) << " (" << choice.reason
      << ")\n";
    o << "  implementations (* = what each backend uses by default):\n";
    for (const auto& f : core::all_families()) {
        o << "    " << f.family << "\n";
        for (const auto& i : f.implementations) {
            const bool dflt = i.name == (i.backend == core::backend_kind::cpu ? f.default_cpu : f.default_cuda);
            o << "      " << (dflt ? "* " : "  ") << i.name << " [" << core::backend_name(i.backend)
              << ", " << core::role_name(i.role) << ", " << i.arithmetic << "]: " << i.description;
            if (!i.reference.empty())
                o << " (checked " << (i.tolerance.bit_exact ? "bit for bit" : "to tolerance: " + i.tolerance.why)
                  << " against " << i.reference << ")";
            o << "\n";
        }
    }
    return o.str();
}

} // namespace gpurx
} // namespace gr
