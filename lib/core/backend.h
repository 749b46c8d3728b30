/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Backend selection shared by every gr-gpurx block: "auto" | "cuda" | "cpu".
#ifndef INCLUDED_GPURX_CORE_BACKEND_H
#define INCLUDED_GPURX_CORE_BACKEND_H

#include <string>

namespace gr {
namespace gpurx {
namespace core {

enum class backend_kind { cpu, cuda };

struct backend_choice {
    backend_kind kind;
    int device;         //!< CUDA device ordinal; -1 on the CPU backend
    std::string reason; //!< one human-readable line: what was chosen and why
};

const char* backend_name(backend_kind kind);

/*!
 * Resolve a user's backend request.
 *  - "cpu": always the CPU backend.
 *  - "cuda": CUDA device \p device; throws std::runtime_error naming the cause
 *    when it is not usable (no GPU, driver too old, no kernel image, ...).
 *  - "auto": CUDA device \p device when usable, else the CPU backend.
 * Throws std::invalid_argument for any other string or a negative device.
 */
backend_choice select_backend(const std::string& request, int device);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
