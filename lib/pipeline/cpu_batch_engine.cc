/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/batch_engine.h"
#include "pipeline/worker_pool.h"

#include <cstring>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {

// Storage that is allocated but not written: the OS commits pages only when
// a batch first touches them, so a large max_batch costs address space, not
// RAM or start-up time (kernels lay their scratch out for the slot's
// capacity, batch_view::capacity, so smaller batches touch no new pages).
struct raw_buffer {
    std::unique_ptr<uint8_t[]> p;
    void allocate(size_t n) { p.reset(n ? new uint8_t[n] : nullptr); }
    uint8_t* get() const { return p.get(); }
};

class cpu_batch_engine final : public batch_engine
{
    struct slot {
        raw_buffer frames, params, in, results, out, scratch;
        bool cancelled = false;
    };
    std::unique_ptr<cpu_kernel> d_kernel;
    slot_geometry d_geo;
    worker_pool d_pool;
    std::vector<slot> d_slots;

public:
    cpu_batch_engine(std::unique_ptr<cpu_kernel> kernel, size_t nslots, const slot_geometry& g, size_t threads)
        : d_kernel(std::move(kernel)), d_geo(g), d_pool(threads), d_slots(nslots)
    {
        for (auto& s : d_slots) {
            s.frames.allocate(g.max_frames * sizeof(frame_desc));
            s.params.allocate(g.max_frames * g.types.param_bytes);
            s.in.allocate(g.in_capacity);
            s.results.allocate(g.max_frames * g.types.result_bytes);
            s.out.allocate(g.out_capacity);
            s.scratch.allocate(d_kernel->scratch_bytes(g.max_frames));
        }
    }
    size_t nslots() const override { return d_slots.size(); }
    frame_desc* frames(size_t i) override
    {
        return reinterpret_cast<frame_desc*>(d_slots[i].frames.get());
    }
    uint8_t* params(size_t i) override { return d_slots[i].params.get(); }
    uint8_t* in_data(size_t i) override { return d_slots[i].in.get(); }
    const uint8_t* results(size_t i) override { return d_slots[i].results.get(); }
    const uint8_t* out_data(size_t i) override { return d_slots[i].out.get(); }
    void launch(size_t i,
                size_t nframes,
                size_t,
                size_t,
                const input_run* runs,
                size_t nruns) override
    {
        auto& s = d_slots[i];
        // The kernel reads one input area: runs left in the caller's memory
        // are copied in (on the CPU the copy costs little beside the kernel).
        for (size_t r = 0; r < nruns; r++)
            std::memcpy(s.in.get() + runs[r].offset, runs[r].src, runs[r].bytes);
        d_pool.reset_cancel();
        d_kernel->run({ frames(i),
                        nframes,
                        s.params.get(),
                        s.in.get(),
                        s.out.get(),
                        s.results.get(),
                        s.scratch.get(),
                        d_geo.max_frames },
                      d_pool);
        s.cancelled = d_pool.cancelled();
    }
    bool done(size_t) override { return true; }
    void wait(size_t) override {}
    void set_cancel_check(std::function<bool()> check) override { d_pool.set_cancel_check(std::move(check)); }
    bool cancelled(size_t i) override { return d_slots[i].cancelled; }
    std::string name() const override
    {
        return std::string("cpu (") + d_kernel->name() + ", " + std::to_string(d_pool.size()) +
               " workers)";
    }
};

} // namespace

std::unique_ptr<batch_engine> make_cpu_engine(std::unique_ptr<cpu_kernel> kernel,
                                              size_t nslots,
                                              const slot_geometry& geometry,
                                              size_t cpu_threads)
{
    return std::make_unique<cpu_batch_engine>(std::move(kernel), nslots, geometry, cpu_threads);
}

} // namespace core
} // namespace gpurx
} // namespace gr
