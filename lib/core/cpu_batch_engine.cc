/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "batch_engine.h"
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace {

class cpu_batch_engine final : public batch_engine
{
    struct slot {
        std::vector<frame_desc> frames;
        std::vector<uint8_t> in;
        std::vector<frame_result> results;
        std::vector<uint8_t> out;
        std::vector<uint8_t> scratch;
    };
    batch_kernel& d_kernel;
    std::vector<slot> d_slots;

public:
    cpu_batch_engine(batch_kernel& kernel, size_t nslots, const slot_geometry& g)
        : d_kernel(kernel), d_slots(nslots)
    {
        for (auto& s : d_slots) {
            s.frames.resize(g.max_frames);
            s.in.resize(g.in_capacity);
            s.results.resize(g.max_frames);
            s.out.resize(g.out_capacity);
            s.scratch.resize(kernel.scratch_bytes(g.max_frames));
        }
    }
    size_t nslots() const override { return d_slots.size(); }
    frame_desc* frames(size_t i) override { return d_slots[i].frames.data(); }
    uint8_t* in_data(size_t i) override { return d_slots[i].in.data(); }
    frame_result* results(size_t i) override { return d_slots[i].results.data(); }
    const uint8_t* out_data(size_t i) override { return d_slots[i].out.data(); }
    void launch(size_t i, size_t nframes, size_t, size_t) override
    {
        auto& s = d_slots[i];
        d_kernel.run_cpu(
            { s.frames.data(), nframes, s.in.data(), s.out.data(), s.results.data(), s.scratch.data() });
    }
    bool done(size_t) override { return true; }
    void wait(size_t) override {}
    const char* name() const override { return "cpu"; }
};

} // namespace

std::unique_ptr<batch_engine>
make_cpu_engine(batch_kernel& kernel, size_t nslots, const slot_geometry& geometry)
{
    return std::make_unique<cpu_batch_engine>(kernel, nslots, geometry);
}

} // namespace core
} // namespace gpurx
} // namespace gr
