/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Backend selection shared by every gr-gpurx block: backend "auto" | "cuda" |
// "cpu", and the GPUs a pipeline spreads its batches over.
#ifndef INCLUDED_GPURX_PIPELINE_BACKEND_H
#define INCLUDED_GPURX_PIPELINE_BACKEND_H

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

enum class backend_kind { cpu, cuda };

struct backend_choice {
    backend_kind kind;
    std::vector<int> devices; //!< CUDA device ordinals; empty on the CPU backend
    std::string reason;       //!< one human-readable line: what was chosen and why
    //! backend=auto fell back to the CPU although the machine has an NVIDIA
    //! GPU (or driver) this build cannot use: log \p reason as a warning
    bool warn = false;
};

const char* backend_name(backend_kind kind);

/*!
 * A `devices` setting: "all", one ordinal ("0") or a comma-separated list
 * ("0,1"). Throws std::invalid_argument naming `devices` on anything else,
 * negative or repeated ordinals included. An empty list means "all".
 */
struct device_request {
    bool all = false;
    std::vector<int> list;
    static device_request parse(const std::string& devices);
};

/*!
 * Resolve a user's backend request.
 *  - "cpu": always the CPU backend (devices is ignored).
 *  - "cuda": the listed CUDA devices; throws std::runtime_error naming the
 *    cause when one is not usable (no GPU, driver too old, no kernel image).
 *  - "auto": the listed CUDA devices when usable, else the CPU backend. A
 *    listed device that does not exist on a machine that has GPUs is an error,
 *    not a fallback: the user named a GPU that is not there.
 * Throws std::invalid_argument for any other backend string or a bad devices.
 */
backend_choice select_backend(const std::string& request, const std::string& devices);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
