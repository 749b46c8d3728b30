/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Implementations of a family, by name, as VOLK keeps kernels: each family
// declares, as data, what it can run on each backend (its registry), and one
// chooser here serves every family. Each entry says what it is for (its
// role), its arithmetic, the implementation it is checked against and how
// closely (tests/test_agreement.cc reads that tolerance).
//
// What "auto" picks, per backend: the first production entry that can run
// the configuration, in the registry's order (a family lists its entries
// fastest first). Where no production entry can, the CPU runs its
// reference and the CUDA side is left empty (the block runs on the CPU);
// either way the choice carries a note that the block logs once. Paper
// implementations run only when named.
#ifndef INCLUDED_GPURX_PIPELINE_IMPLEMENTATION_H
#define INCLUDED_GPURX_PIPELINE_IMPLEMENTATION_H

#include "backend.h"
#include "batch_kernel.h"
#include "batch_pipeline.h"

#include <stdexcept>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! What an implementation is for.
enum class implementation_role {
    reference,  //!< plain and checked against an independent model; others are checked against it
    production, //!< what "auto" picks where it can run the configuration
    paper,      //!< a published layout kept for comparison; runs only when named
};

inline const char* role_name(implementation_role r)
{
    switch (r) {
    case implementation_role::reference:
        return "reference";
    case implementation_role::production:
        return "production";
    default:
        return "paper";
    }
}

//! How closely an implementation follows its reference on the same input.
struct agreement_tolerance {
    bool bit_exact = true;   //!< equal output, bit for bit (decisions, soft values, counts)
    double decisions = 0.0;  //!< else: the fraction of hard decisions that may differ
    double llr_abs = 0.0;    //!< else, for soft outputs: |got - want| <= llr_abs + llr_rel |want|
    double llr_rel = 0.0;
    std::string why;         //!< why it is not bit for bit ("" when it is)

    static agreement_tolerance exact() { return {}; }
    static agreement_tolerance decisions_within(double fraction, std::string why)
    {
        return { false, fraction, 0.0, 0.0, std::move(why) };
    }
    static agreement_tolerance llrs_within(double abs, double rel, std::string why)
    {
        return { false, 0.0, abs, rel, std::move(why) };
    }
    bool llr_close(double got, double want) const
    {
        return bit_exact ? got == want : std::abs(got - want) <= llr_abs + llr_rel * std::abs(want);
    }
};

struct implementation_info {
    std::string name;        //!< backend, arithmetic, layout ("cuda-fixed16-dpx")
    backend_kind backend;
    implementation_role role;
    std::string arithmetic;  //!< "float", "16-bit fixed point", "double", ...
    std::string description; //!< one line
    std::string reference;   //!< the implementation it is checked against ("" for a reference)
    agreement_tolerance tolerance; //!< against \ref reference
    std::string cpu_twin;    //!< CUDA entries: the CPU implementation of equal arithmetic that
                             //!< runs it where no GPU is usable ("" : the CPU's automatic choice)
};

/*!
 * One entry of a family's registry. \p Config is the family's static
 * configuration. bind() writes into a configuration what naming this entry
 * implies (the turbo family's arithmetic, the MIMO family's algorithm); it
 * may be empty. unsupported() says why the entry cannot run a (bound)
 * configuration, "" when it can; make_cpu/make_cuda build the kernel.
 */
template <typename Config>
struct implementation {
    implementation_info info;
    std::function<void(Config&)> bind;
    std::function<std::string(const Config&)> unsupported;
    std::function<std::unique_ptr<cpu_kernel>(const Config&)> make_cpu;
    std::function<std::unique_ptr<cuda_kernel>(const Config&, int device)> make_cuda;
};

//! What the chooser decided for one configuration: the CPU and CUDA
//! implementations; a warning when a named implementation was not honoured;
//! and, per backend, why "auto" chose less than a production implementation.
struct implementation_choice {
    std::string cpu;
    std::string cuda; //!< "" when none can run it (or the build has no CUDA)
    std::string warning;
    std::string cpu_note;
    std::string cuda_note;
    std::string note; //!< all of the above, for programs that print one line
    //! The note of the backend that runs (\p b: cuda when a GPU runs it).
    const std::string& note_for(backend_kind b) const
    {
        return b == backend_kind::cuda && !cuda.empty() ? cuda_note : cpu_note;
    }
};

//! A family's entry in the module-wide listing (gpurx-info, the agreement test).
struct family_listing {
    std::string family;
    std::vector<implementation_info> implementations;
    std::string default_cpu, default_cuda; //!< what "auto" picks for the default configuration
};

/*!
 * A family's registry: its entries in order of preference (fastest first
 * within a backend), the one chooser, and the kernel factories of a choice.
 */
template <typename Config>
class registry
{
public:
    registry(std::string family, std::vector<implementation<Config>> entries)
        : d_family(std::move(family)), d_entries(std::move(entries))
    {
    }

    const std::string& family() const { return d_family; }
    const std::vector<implementation<Config>>& entries() const { return d_entries; }

    //! The entry named \p name, or nullptr.
    const implementation<Config>* find(const std::string& name) const
    {
        for (const auto& e : d_entries)
            if (e.info.name == name)
                return &e;
        return nullptr;
    }

    /*!
     * Resolve cfg.implementation ("auto" or a name). A named entry that can
     * run the configuration runs on its backend, and \p cfg takes what the
     * name implies (bind); a CUDA entry's CPU side is its twin. A named
     * entry that cannot run it leaves the automatic choice, with a note.
     * Throws std::invalid_argument naming `implementation` and listing the
     * names when the name is unknown.
     */
    implementation_choice choose(Config& cfg) const
    {
        implementation_choice c;
        const implementation<Config>* named = nullptr;
        const std::string want = cfg.implementation;
        std::string fallback;
        if (want != "auto") {
            named = find(want);
            if (!named)
                throw std::invalid_argument("implementation must be \"auto\" or one of " + names() +
                                            ", got \"" + want + "\"");
            Config bound = cfg;
            if (named->bind)
                named->bind(bound);
            const std::string why = named->unsupported(bound);
            if (why.empty()) {
                cfg = bound;
            } else {
                fallback = "implementation \"" + want + "\" cannot run this configuration (" + why +
                           "); using the automatic choice";
                named = nullptr;
            }
        }
        c.warning = fallback;
        if (named && named->info.backend == backend_kind::cpu) {
            c.cpu = want;
        } else if (named && !named->info.cpu_twin.empty()) {
            c.cpu = named->info.cpu_twin;
        } else {
            pick(cfg, backend_kind::cpu, c.cpu, c.cpu_note);
        }
        if (named && named->info.backend == backend_kind::cuda)
            c.cuda = want;
        else
            pick(cfg, backend_kind::cuda, c.cuda, c.cuda_note);
        for (const auto* n : { &c.warning, &c.cpu_note, &c.cuda_note })
            if (!n->empty())
                c.note += (c.note.empty() ? "" : "; ") + *n;
        return c;
    }

    //! Kernel factories for the implementations \p choice names, bound to \p cfg.
    kernel_factories factories(const Config& cfg, const implementation_choice& choice) const
    {
        const auto* cpu = find(choice.cpu);
        if (!cpu || !cpu->make_cpu)
            throw std::invalid_argument("no CPU implementation \"" + choice.cpu + "\"");
        kernel_factories k;
        k.cpu = [make = cpu->make_cpu, cfg] { return make(cfg); };
        if (const auto* cuda = choice.cuda.empty() ? nullptr : find(choice.cuda))
            k.cuda = [make = cuda->make_cuda, cfg](int device) { return make(cfg, device); };
        return k;
    }

    //! The listing, with what "auto" picks for \p defaults.
    family_listing listing(Config defaults = Config()) const
    {
        const auto c = choose(defaults);
        family_listing l{ d_family, {}, c.cpu, c.cuda };
        for (const auto& e : d_entries)
            l.implementations.push_back(e.info);
        return l;
    }

private:
    std::string names() const
    {
        std::string n;
        for (const auto& e : d_entries)
            n += (n.empty() ? "" : ", ") + e.info.name;
        return n;
    }

    // The automatic choice on one backend: the first production entry that
    // can run cfg; else, on the CPU, the first reference that can; a note
    // says why when it is not a production entry.
    void pick(const Config& cfg, backend_kind b, std::string& chosen, std::string& note) const
    {
        std::string why_not;
        bool any = false;
        for (const auto& e : d_entries) {
            if (e.info.backend != b || e.info.role != implementation_role::production)
                continue;
            any = true;
            const std::string why = e.unsupported(cfg);
            if (why.empty()) {
                chosen = e.info.name;
                return;
            }
            why_not += (why_not.empty() ? "" : "; ") + e.info.name + ": " + why;
        }
        if (b == backend_kind::cuda) {
            if (any)
                note = ("no CUDA implementation can run this configuration (" + why_not +
                                 "); it runs on the CPU");
            return;
        }
        // A family whose only CPU implementation is its reference needs no note.
        for (const auto& e : d_entries)
            if (e.info.backend == b && e.info.role == implementation_role::reference &&
                e.unsupported(cfg).empty()) {
                chosen = e.info.name;
                if (any)
                    note = "no production CPU implementation can run this configuration (" +
                           why_not + "); it runs on the reference, " + chosen;
                return;
            }
        throw std::invalid_argument("no CPU implementation of " + d_family +
                                    " can run this configuration (" + why_not + ")");
    }

    std::string d_family;
    std::vector<implementation<Config>> d_entries;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
