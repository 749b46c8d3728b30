/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// "cuda-sch": a batch of transport blocks on one GPU, all on the slot's
// stream: descramble, code block set-up, dematch and combine into the soft
// buffers (device memory, kept between batches), the turbo decoder's CUDA
// kernel on the two groups of code blocks, then assembly and CRCs.
#include "cuda/cuda_check.h"
#include "sch/cuda/sch_launch.h"
#include "sch/sch_batch.h"
#include "sch/sch_implementations.h"
#include "turbo/turbo_implementations.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdlib>
#include <array>
#include <map>
#include <tuple>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace {

std::unique_ptr<cuda_kernel> turbo_cuda(turbo_config t, int device)
{
    const auto choice = choose_turbo_implementation(t);
    if (choice.cuda.empty())
        throw std::invalid_argument("cuda-sch: no CUDA turbo decoder runs this configuration (" +
                                    choice.note + ")");
    return turbo_kernel_factories(t, choice, 1.0f / 8.0f).cuda(device);
}

class sch_cuda_kernel final : public cuda_kernel
{
public:
    sch_cuda_kernel(const sch_config& cfg, int device) : d_cfg(cfg)
    {
        d_cfg.validate();
        // GPURX_SCH_CLOSED_FORM set (not "0"): every batch dematches from the
        // closed form, as when the table space is full (the tests run that
        // path this way).
        const char* e = std::getenv("GPURX_SCH_CLOSED_FORM");
        d_tables_allowed = !(e && *e && std::string(e) != "0");
        d_turbo_a = turbo_cuda(d_cfg.turbo_for(true), device);
        d_turbo_b = turbo_cuda(d_cfg.turbo_for(false), device);
        d_soft_llrs = d_cfg.soft_buffer_llrs();
        const size_t soft_bytes = size_t(d_cfg.harq_buffers) * d_soft_llrs * sizeof(int16_t);
        if (soft_bytes) {
            GPURX_CUDA_CHECK_CTX(cudaMalloc(&d_soft, soft_bytes), "cuda-sch soft buffers");
            GPURX_CUDA_CHECK(cudaMemset(d_soft, 0, soft_bytes));
        }
        const int words = (sch::MAX_TBS + 24 + 31) / 32 + 1;
        GPURX_CUDA_CHECK_CTX(cudaMalloc(&d_crc, sch::table_words(words) * sizeof(uint32_t)),
                             "cuda-sch CRC and scrambling tables");
        d_tables = sch::upload_tables(d_crc, words);
        GPURX_CUDA_CHECK_CTX(cudaMalloc(&d_shapes.first, sch::SHAPE_SLOTS * sch::SHAPE_STRIDE * sizeof(int16_t)),
                             "cuda-sch gather tables");
        GPURX_CUDA_CHECK_CTX(cudaMalloc(&d_shapes.n, sch::SHAPE_SLOTS * sizeof(int32_t)), "cuda-sch gather tables");
        d_slot_event.assign(sch::SHAPE_SLOTS, -1);
        // The memset and the tables' cudaMemcpy (from pageable memory: it may
        // return before the DMA lands) run on the legacy default stream, with
        // which the slots' non-blocking streams do not synchronise: done
        // before any batch can read them.
        GPURX_CUDA_CHECK(cudaStreamSynchronize(0));
    }
    ~sch_cuda_kernel() override
    {
        for (auto& r : d_ring) {
            if (r.event)
                cudaEventSynchronize(r.event), cudaEventDestroy(r.event);
            cudaFreeHost(r.host);
        }
        for (cudaEvent_t e : d_build_events)
            cudaEventDestroy(e);
        cudaFree(d_soft);
        cudaFree(d_crc);
        cudaFree(d_shapes.first);
        cudaFree(d_shapes.n);
    }
    const char* name() const override { return "cuda-sch"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return layout(max_frames).bytes;
    }

    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        const auto* tbs = host.params_as<sch::frame_params>();
        int max_G = 0, max_E = 0, max_G_all = 0;
        for (size_t f = 0; f < host.nframes; f++) {
            const auto& p = tbs[f];
            if (p.C > d_cfg.max_code_blocks() || p.G > d_cfg.max_g ||
                p.harq_slot >= d_cfg.harq_buffers)
                throw std::logic_error("cuda-sch: TB " + std::to_string(f) +
                                       " exceeds the decoder's bounds (C " + std::to_string(p.C) +
                                       ", G " + std::to_string(p.G) + ", slot " +
                                       std::to_string(p.harq_slot) + ")");
            if (!sch::descramble_in_dematch(p)) // the others' descrambling is the dematching's
                max_G = std::max(max_G, p.G);
            max_E = std::max({ max_E, p.E_lo, p.E_hi });
            max_G_all = std::max(max_G_all, p.G);
        }
        // Descrambling needs nothing of the code blocks: it runs while the
        // host lays them out below.
        sch::receive_args a{ dev.frames,
                             dev.params_as<sch::frame_params>(),
                             int(dev.nframes),
                             dev.in,
                             dev.out,
                             dev.results_as<sch::frame_result>(),
                             dev.scratch,
                             layout(dev.nframes),
                             0,
                             0,
                             d_soft,
                             d_soft_llrs,
                             d_tables,
                             d_cfg.max_g };
        sch::launch_descramble(a, max_G, stream);
        // The code blocks' turbo frames on the host too: the turbo kernel
        // sizes its launch from them (the device's copy is cb_setup's).
        d_cbs.build(tbs, host.nframes);
        const size_t n = d_cbs.entries.size();
        d_desc.resize(n);
        d_tparams.resize(n);
        for (size_t i = 0; i < n; i++)
            sch::cb_turbo_frame(tbs[d_cbs.entries[i].tb], d_cbs.entries[i], i, a.layout.cb_out_stride, d_desc[i],
                                d_tparams[i]);
        a.ncb = int(n);
        a.single = int(d_cbs.single);
        a.shapes = d_shapes;
        a.tb_shapes = shape_slots(tbs, host.nframes, dev.scratch + a.layout.tb_shapes, stream);
        sch::launch_cb_setup(a, stream);
        sch::launch_dematch(a, max_E, stream);
        auto group = [&](cuda_kernel& k, size_t first, size_t count) {
            if (!count)
                return;
            const auto& L = a.layout;
            batch_view d{};
            d.frames = reinterpret_cast<const frame_desc*>(dev.scratch + L.cb_desc) + first;
            d.nframes = count;
            d.params = reinterpret_cast<const turbo::frame_params*>(dev.scratch + L.cb_params) + first;
            d.in = dev.scratch + L.cb_in;
            d.out = dev.scratch + L.cb_out;
            d.results = reinterpret_cast<turbo::frame_result*>(dev.scratch + L.cb_results) + first;
            d.scratch = dev.scratch + L.turbo_scratch;
            batch_view h{};
            h.frames = d_desc.data() + first;
            h.nframes = count;
            h.params = d_tparams.data() + first;
            k.enqueue(d, h, stream);
        };
        group(*d_turbo_a, 0, d_cbs.single);
        group(*d_turbo_b, d_cbs.single, n - d_cbs.single);
        sch::launch_assemble(a, stream);
        if (d_cfg.extrinsic_output) {
            a.extrinsic_scale = d_cfg.extrinsic_scale;
            sch::launch_extrinsic(a, max_G_all, stream);
        }
    }

private:
    /*!
     * The gather-table slots of every TB's code block shapes, building the
     * tables of shapes not seen before, and their upload to \p dev_slots
     * (through a pinned ring: the copy is asynchronous). nullptr when the
     * tables are full: the batch then dematches from the closed form.
     */
    const int32_t* shape_slots(const sch::frame_params* tbs, size_t n, uint8_t* dev_slots, void* stream)
    {
        if (!d_tables_allowed)
            return nullptr;
        std::vector<int32_t>& slots = d_slot_scratch;
        slots.assign(3 * n, 0);
        sch::shape_builds builds{};
        auto st = static_cast<cudaStream_t>(stream);
        auto flush = [&] {
            if (builds.count == 0)
                return;
            sch::launch_build_shapes(d_shapes, builds, stream);
            // The tables are shared by every slot, each on its own stream: a
            // batch on another stream that meets these shapes waits for this
            // event (below) before its dematching reads them.
            cudaEvent_t ev = nullptr;
            GPURX_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
            d_build_events.push_back(ev);
            GPURX_CUDA_CHECK(cudaEventRecord(ev, st));
            for (int k = 0; k < builds.count; k++)
                d_slot_event[size_t(builds.slot[k])] = int(d_build_events.size() - 1);
            builds.count = 0;
        };
        for (size_t f = 0; f < n; f++) {
            const auto& p = tbs[f];
            for (int which = 0; which < 3; which++) {
                const int r = which == 0 ? 0 : which == 1 ? (p.Cm > 1 ? 1 : -1) : (p.C - 1 >= p.Cm && p.C > 1 ? p.C - 1 : -1);
                if (r < 0)
                    continue;
                const sch::shape_key k{ sch::cb_K(p, r), sch::cb_filler(p, r), sch::cb_ncb(p, r),
                                        sch::cb_k0(p, r) };
                const auto key = std::make_tuple(k.K, k.F, k.ncb, k.k0);
                auto it = d_shape_slot.find(key);
                if (it == d_shape_slot.end()) {
                    if (int(d_shape_slot.size()) == sch::SHAPE_SLOTS) {
                        flush();
                        return nullptr;
                    }
                    it = d_shape_slot.emplace(key, int(d_shape_slot.size())).first;
                    builds.key[builds.count] = k;
                    builds.slot[builds.count] = it->second;
                    if (++builds.count == sch::SHAPE_BUILDS)
                        flush();
                }
                slots[3 * f + size_t(which)] = it->second;
            }
        }
        flush();
        // Shapes whose build may still be running, perhaps on another slot's
        // stream: this stream waits for it (an event seen complete once is
        // forgotten, so a warm decoder makes no CUDA call here).
        for (const int32_t slot : slots) {
            int& e = d_slot_event[size_t(slot)];
            if (e < 0)
                continue;
            const cudaError_t q = cudaEventQuery(d_build_events[size_t(e)]);
            if (q == cudaSuccess) {
                e = -1;
                continue;
            }
            if (q != cudaErrorNotReady)
                GPURX_CUDA_CHECK(q);
            GPURX_CUDA_CHECK(cudaStreamWaitEvent(st, d_build_events[size_t(e)], 0));
        }
        auto& r = d_ring[d_ring_next++ % d_ring.size()];
        if (r.event)
            GPURX_CUDA_CHECK(cudaEventSynchronize(r.event)); // its last copy: long done
        else
            GPURX_CUDA_CHECK(cudaEventCreateWithFlags(&r.event, cudaEventDisableTiming));
        if (r.capacity < slots.size()) {
            cudaFreeHost(r.host);
            GPURX_CUDA_CHECK_CTX(cudaHostAlloc(reinterpret_cast<void**>(&r.host), slots.size() * sizeof(int32_t), 0),
                                 "cuda-sch slot ring");
            r.capacity = slots.size();
        }
        std::copy(slots.begin(), slots.end(), r.host);
        GPURX_CUDA_CHECK(cudaMemcpyAsync(dev_slots, r.host, slots.size() * sizeof(int32_t), cudaMemcpyHostToDevice, st));
        GPURX_CUDA_CHECK(cudaEventRecord(r.event, st));
        return reinterpret_cast<const int32_t*>(dev_slots);
    }

    sch::batch_layout layout(size_t max_frames) const
    {
        const size_t cbs = max_frames * size_t(d_cfg.max_code_blocks());
        return sch::batch_layout(max_frames, size_t(d_cfg.max_code_blocks()), size_t(d_cfg.max_g),
                                 std::max(d_turbo_a->scratch_bytes(cbs), d_turbo_b->scratch_bytes(cbs)), false,
                                 d_cfg.extrinsic_output);
    }

    sch_config d_cfg;
    std::unique_ptr<cuda_kernel> d_turbo_a, d_turbo_b;
    int16_t* d_soft = nullptr;
    size_t d_soft_llrs = 0;
    uint32_t* d_crc = nullptr;
    sch::device_tables d_tables{};
    sch::cb_list d_cbs;
    sch::shape_tables d_shapes{};
    bool d_tables_allowed = true;
    std::map<std::tuple<int, int, int, int>, int> d_shape_slot;
    //! Per shape slot: its build's event in d_build_events, -1 once seen complete.
    std::vector<int> d_slot_event;
    std::vector<cudaEvent_t> d_build_events; //!< one per build launch, destroyed with the kernel
    std::vector<int32_t> d_slot_scratch;
    struct ring_entry {
        int32_t* host = nullptr;
        size_t capacity = 0;
        cudaEvent_t event = nullptr;
    };
    std::array<ring_entry, 8> d_ring; //!< more than the batches a device has in flight
    size_t d_ring_next = 0;
    std::vector<frame_desc> d_desc;
    std::vector<turbo::frame_params> d_tparams;
};

} // namespace

std::unique_ptr<cuda_kernel> make_sch_cuda_kernel(const sch_config& cfg, int device)
{
    return std::make_unique<sch_cuda_kernel>(cfg, device);
}

} // namespace core
} // namespace gpurx
} // namespace gr
