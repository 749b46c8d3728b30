/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/batch_pipeline.h"
#include "pipeline/host_topology.h"
#include "pipeline/worker_pool.h"

#include "cuda/cuda_probe.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <thread>

namespace gr {
namespace gpurx {
namespace core {

namespace {
// Frames start on 16-byte boundaries so kernels may use vector loads.
constexpr size_t align_up(size_t n) { return (n + 15) & ~size_t(15); }

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

// One device's thread: takes the device's launched slots in order, copies
// their submit_many() frames into the staging (with the device's other
// copy threads), and launches them. Its threads run on the device's NUMA
// node when the host has several.
struct batch_pipeline::device_worker {
    std::thread thread;
    std::deque<size_t> queue; // slots to stage and launch, oldest first
    std::condition_variable wake;
    std::vector<int> cpus;
    size_t threads = 1;
};

void pipeline_config::validate() const
{
    if (slots < 1 || slots > 1024)
        throw std::invalid_argument("slots must be in 1..1024, got " +
                                    std::to_string(slots));
    if (max_batch < 1 || max_batch > (1u << 20))
        throw std::invalid_argument("max_batch must be in 1..1048576, got " +
                                    std::to_string(max_batch));
    if (staging_threads < 1 || staging_threads > 256)
        throw std::invalid_argument("staging_threads must be in 1..256, got " +
                                    std::to_string(staging_threads));
    if (device_threads > 256)
        throw std::invalid_argument("device_threads must be in 0..256, got " +
                                    std::to_string(device_threads));
    if (max_in_bytes == 0 || max_in_bytes > UINT32_MAX)
        throw std::invalid_argument("max_in_bytes must be in 1..2^32-1, got " +
                                    std::to_string(max_in_bytes));
    if (max_out_bytes > UINT32_MAX)
        throw std::invalid_argument("max_out_bytes must be below 2^32, got " +
                                    std::to_string(max_out_bytes));
    if (cpu_threads > 1024)
        throw std::invalid_argument("cpu_threads must be in 0..1024, got " +
                                    std::to_string(cpu_threads));
    if (flush_timeout.count() < 0)
        throw std::invalid_argument("flush_us must be >= 0, got " +
                                    std::to_string(flush_timeout.count()));
}

slot_geometry pipeline_config::geometry() const
{
    return { max_batch, max_batch * align_up(max_in_bytes), max_batch * align_up(max_out_bytes), types };
}

size_t pipeline_config::slot_bytes() const
{
    const slot_geometry g = geometry();
    return g.max_frames * (sizeof(frame_desc) + types.param_bytes + types.result_bytes) +
           g.in_capacity + g.out_capacity;
}

batch_pipeline::batch_pipeline(std::unique_ptr<batch_engine> engine,
                               const pipeline_config& cfg)
    : d_engine(std::move(engine)), d_cfg(cfg)
{
    d_cfg.validate();
    if (!d_engine)
        throw std::invalid_argument("batch_pipeline: no engine");
    d_cfg.slots = d_engine->nslots(); // several per device on multi-GPU engines
    d_slots.resize(d_cfg.slots);
    for (size_t i = 0; i < d_slots.size(); i++) {
        auto& s = d_slots[i];
        s.entries.reserve(d_cfg.max_batch);
        s.frames = d_engine->frames(i);
        s.params = d_engine->params(i);
        s.in = d_engine->in_data(i);
        s.results = d_engine->results(i);
        s.out = d_engine->out_data(i);
    }
    d_zeros.assign(align_up(d_cfg.max_out_bytes), 0);
    d_stats.resize(d_engine->ndevices());
    for (size_t d = 0; d < d_stats.size(); d++) {
        d_stats[d].label = d_engine->device_label(d);
        d_stats[d].cpus = d_engine->device_cpus(d);
    }
    if (d_cfg.profile)
        d_engine->set_profiling(true);
    if (d_cfg.device_threads > 0)
        start_workers();
}

batch_pipeline::~batch_pipeline()
{
    // Batches queued but not yet launched are dropped with the pipeline;
    // one a device thread is launching is finished first.
    stop_workers();
    // Never free staging memory under a running batch.
    for (size_t i = 0; i < d_slots.size(); i++) {
        auto& s = d_slots[i];
        if (s.state == slot_state::in_flight && !(s.queued && !s.staged)) {
            try {
                d_engine->wait(i);
            } catch (...) {
            }
        }
    }
}

void batch_pipeline::start_workers()
{
    for (size_t d = 0; d < d_engine->ndevices(); d++) {
        auto w = std::make_unique<device_worker>();
        w->cpus = d_engine->device_cpus(d);
        w->threads = d_cfg.device_threads;
        d_workers.push_back(std::move(w));
    }
    try {
        for (size_t d = 0; d < d_workers.size(); d++)
            d_workers[d]->thread = std::thread([this, d] { worker_loop(d); });
    } catch (...) {
        stop_workers(); // the constructor throws: no destructor to join them
        throw;
    }
}

void batch_pipeline::stop_workers()
{
    {
        std::lock_guard<std::mutex> lock(d_async_mutex);
        d_quit = true;
    }
    for (auto& w : d_workers) {
        w->wake.notify_all();
        if (w->thread.joinable())
            w->thread.join();
    }
    d_workers.clear();
}

void batch_pipeline::worker_loop(size_t device)
{
    device_worker& w = *d_workers[device];
    // Pinned first: the copy threads started below inherit the node.
    pin_thread(w.cpus);
    std::unique_ptr<worker_pool> pool;
    std::unique_lock<std::mutex> lock(d_async_mutex);
    for (;;) {
        w.wake.wait(lock, [&] { return d_quit || !w.queue.empty(); });
        if (d_quit)
            return;
        const size_t index = w.queue.front();
        w.queue.pop_front();
        slot& s = d_slots[index];
        lock.unlock();
        std::exception_ptr error;
        double copy_s = 0, launch_s = 0;
        size_t copied = 0;
        try {
            if (!s.copies.empty()) {
                if (!pool && w.threads > 1)
                    pool = std::make_unique<worker_pool>(w.threads);
                const auto t0 = clock::now();
                copied = stage_copies(s, pool.get());
                copy_s = seconds_since(t0);
            }
            const auto t1 = clock::now();
            d_engine->launch(index, s.nkernel, s.in_used, s.out_used, s.runs.data(), s.runs.size());
            launch_s = seconds_since(t1);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        s.staged = true;
        s.error = error;
        auto& st = d_stats[device];
        st.batches += !error;
        st.frames += error ? 0 : s.nkernel;
        st.staged_bytes += double(copied);
        st.copy_s += copy_s;
        st.launch_s += launch_s;
        d_staged_cv.notify_all();
    }
}

size_t batch_pipeline::stage_copies(slot& s, worker_pool* pool)
{
    // Pieces: a job over 1 MiB is cut into one piece per copy thread (below
    // that a hand-off costs more than it saves).
    struct piece {
        const copy_job* job;
        size_t from, to;
    };
    std::vector<piece> pieces;
    size_t bytes = 0;
    const size_t parts = pool ? pool->size() : 1;
    for (const auto& j : s.copies) {
        bytes += j.n * j.in_bytes;
        const size_t k = j.n * j.in_bytes >= (size_t(1) << 20) ? std::min(parts, j.n) : 1;
        for (size_t p = 0; p < k; p++)
            pieces.push_back({ &j, j.n * p / k, j.n * (p + 1) / k });
    }
    auto copy_piece = [&](size_t i, size_t) {
        const piece& p = pieces[i];
        const copy_job& j = *p.job;
        const size_t dst_stride = align_up(j.in_bytes);
        uint8_t* dst = s.in + j.first_in;
        // Source laid out as the staging: one copy of the whole piece (the
        // last frame's padding is not read: the source may end there).
        if (j.src_stride == dst_stride) {
            if (p.to > p.from)
                std::memcpy(dst + p.from * dst_stride, j.src + p.from * j.src_stride,
                            (p.to - p.from - 1) * dst_stride + j.in_bytes);
            return;
        }
        for (size_t f = p.from; f < p.to; f++)
            std::memcpy(dst + f * dst_stride, j.src + f * j.src_stride, j.in_bytes);
    };
    if (pool && pieces.size() > 1)
        pool->parallel_for(pieces.size(), copy_piece);
    else
        for (size_t i = 0; i < pieces.size(); i++)
            copy_piece(i, 0);
    s.copies.clear();
    return bytes;
}

bool batch_pipeline::await_staged(size_t index, bool block)
{
    auto& s = d_slots[index];
    if (!s.queued)
        return true;
    std::unique_lock<std::mutex> lock(d_async_mutex);
    if (!s.staged) {
        if (!block)
            return false;
        const auto t0 = clock::now();
        d_staged_cv.wait(lock, [&] { return s.staged; });
        d_stats[d_engine->device_of(index)].wait_s += seconds_since(t0);
    }
    s.queued = false;
    if (s.error) {
        // Its frames were not run: held as a cancelled batch (resume()
        // launches it again), never handed out as output.
        auto e = s.error;
        s.error = nullptr;
        s.state = slot_state::cancelled;
        d_held = true;
        std::rethrow_exception(e);
    }
    return true;
}

void batch_pipeline::await_all_staged()
{
    for (size_t i = 0; i < d_slots.size(); i++)
        if (d_slots[i].queued)
            await_staged(i, true);
}

std::vector<pipeline_device_stats> batch_pipeline::stats() const
{
    std::vector<pipeline_device_stats> v;
    {
        std::lock_guard<std::mutex> lock(d_async_mutex);
        v = d_stats;
    }
    const auto t = d_engine->stage_times();
    for (size_t d = 0; d < v.size() && d < t.size(); d++)
        v[d].device = t[d];
    return v;
}

void batch_pipeline::reset_stats()
{
    if (d_cfg.profile)
        d_engine->set_profiling(true); // starts the engine's sums again
    std::lock_guard<std::mutex> lock(d_async_mutex);
    for (auto& st : d_stats) {
        pipeline_device_stats fresh;
        fresh.label = st.label;
        fresh.cpus = st.cpus;
        st = fresh;
    }
}

bool batch_pipeline::can_accept() const
{
    if (d_held)
        return false;
    const auto st = d_slots[d_fill].state;
    return st == slot_state::free || st == slot_state::filling;
}

batch_pipeline::slot& batch_pipeline::filling_slot()
{
    auto& s = d_slots[d_fill];
    if (s.state == slot_state::free) {
        s.state = slot_state::filling;
        s.entries.clear();
        s.nkernel = s.in_used = s.out_used = s.read = 0;
        s.runs.clear();
        s.copies.clear();
        s.first_submit = clock::now();
    } else if (s.state != slot_state::filling) {
        throw std::logic_error("batch_pipeline: submit() while no slot can accept a frame");
    }
    return s;
}

uint64_t batch_pipeline::submit(
    const void* in, size_t in_bytes, size_t out_bytes, const void* params, uint64_t user)
{
    std::memcpy(begin_frame(in_bytes, out_bytes, params, user), in, in_bytes);
    return commit_frame();
}

void batch_pipeline::check_sizes(size_t in_bytes, size_t out_bytes) const
{
    if (in_bytes > d_cfg.max_in_bytes || in_bytes == 0)
        throw std::length_error("frame input of " + std::to_string(in_bytes) +
                                " bytes; this pipeline takes 1.." +
                                std::to_string(d_cfg.max_in_bytes));
    if (out_bytes > d_cfg.max_out_bytes)
        throw std::length_error("frame output of " + std::to_string(out_bytes) +
                                " bytes; this pipeline produces at most " +
                                std::to_string(d_cfg.max_out_bytes));
}

uint8_t* batch_pipeline::begin_frame(size_t in_bytes, size_t out_bytes, const void* params, uint64_t user)
{
    if (d_open)
        throw std::logic_error("batch_pipeline: begin_frame() twice without commit_frame()");
    check_sizes(in_bytes, out_bytes);
    // One frame: written out here rather than through book_frames(), whose
    // loop and run bookkeeping cost a frame-by-frame producer more than the
    // stores themselves.
    auto& s = filling_slot();
    const size_t idx = s.nkernel;
    frame_desc& fd = s.frames[idx];
    fd.in_offset = s.in_used;
    fd.out_offset = s.out_used;
    fd.in_bytes = static_cast<uint32_t>(in_bytes);
    fd.out_bytes = static_cast<uint32_t>(out_bytes);
    if (const size_t pb = d_cfg.types.param_bytes)
        std::memcpy(s.params + idx * pb, params, pb);
    uint8_t* dst = s.in + s.in_used;
    s.in_used += align_up(in_bytes);
    s.out_used += align_up(out_bytes);
    s.nkernel++;
    s.entries.push_back(
        { d_next_seq, user, static_cast<int32_t>(idx), static_cast<uint32_t>(out_bytes) });
    d_open = 1;
    return dst;
}

frame_run batch_pipeline::begin_frames(
    size_t n, size_t in_bytes, size_t out_bytes, const void* params, uint64_t user, uint64_t user_step)
{
    if (d_open)
        throw std::logic_error("batch_pipeline: begin_frames() while frames are open (commit_frames() first)");
    check_sizes(in_bytes, out_bytes);
    frame_run r;
    if (n == 0 || !can_accept())
        return r;
    auto& s = filling_slot();
    // The filling slot is never full (a full slot launches at once), and its
    // input area holds max_batch frames of the largest size: m always fit.
    const size_t m = std::min(n, d_cfg.max_batch - s.entries.size());
    r.data = s.in + book_frames(s, in_bytes, out_bytes, params, m, user, user_step);
    r.stride = align_up(in_bytes);
    r.count = m;
    d_open = m;
    return r;
}

// The per-frame work of every submission path, kept to plain stores: with
// one caller feeding several GPUs it is what bounds the frame rate. Locals
// instead of the slot's members in the loop (the record copies would make
// the compiler reload them), and the parameter record copied once and then
// doubled (one memcpy call per doubling, not one per frame).
size_t batch_pipeline::book_frames(slot& s,
                                   size_t in_bytes,
                                   size_t out_bytes,
                                   const void* params,
                                   size_t m,
                                   uint64_t user,
                                   uint64_t user_step)
{
    const size_t pb = d_cfg.types.param_bytes;
    const size_t in_step = align_up(in_bytes), out_step = align_up(out_bytes);
    const size_t first_in = s.in_used, idx0 = s.nkernel;
    size_t in_at = first_in, out_at = s.out_used;
    frame_desc* fd = s.frames + idx0;
    const size_t e0 = s.entries.size();
    s.entries.resize(e0 + m);
    entry* e = s.entries.data() + e0;
    const uint64_t seq0 = d_next_seq;
    const auto ib = static_cast<uint32_t>(in_bytes), ob = static_cast<uint32_t>(out_bytes);
    for (size_t i = 0; i < m; i++) {
        fd[i].in_offset = in_at;
        fd[i].out_offset = out_at;
        fd[i].in_bytes = ib;
        fd[i].out_bytes = ob;
        in_at += in_step;
        out_at += out_step;
        e[i] = { seq0 + i, user + i * user_step, static_cast<int32_t>(idx0 + i), ob };
    }
    if (pb && m) {
        uint8_t* p = s.params + idx0 * pb;
        std::memcpy(p, params, pb);
        for (size_t have = 1; have < m;) {
            const size_t k = std::min(have, m - have);
            std::memcpy(p + have * pb, p, k * pb);
            have += k;
        }
    }
    s.in_used = in_at;
    s.out_used = out_at;
    s.nkernel = idx0 + m;
    return first_in;
}

size_t batch_pipeline::open_frames(const char* caller,
                                   size_t in_bytes,
                                   size_t out_bytes,
                                   const void* params,
                                   size_t n,
                                   uint64_t user,
                                   size_t& first_in)
{
    if (d_open)
        throw std::logic_error(std::string("batch_pipeline: ") + caller + "() inside begin_frame()");
    check_sizes(in_bytes, out_bytes);
    if (n == 0 || !can_accept())
        return 0;
    auto& s = filling_slot();
    const size_t m = std::min(n, d_cfg.max_batch - s.entries.size());
    first_in = book_frames(s, in_bytes, out_bytes, params, m, user, 0);
    d_next_seq += m;
    d_pending += m;
    return m;
}

size_t batch_pipeline::submit_many_in_place(
    const void* in, size_t in_bytes, size_t out_bytes, const void* params, size_t n, uint64_t user)
{
    size_t first_in = 0;
    const size_t m = open_frames("submit_many_in_place", in_bytes, out_bytes, params, n, user, first_in);
    if (m == 0)
        return 0;
    auto& s = d_slots[d_fill];
    // One run for the m frames: the source has the staging's stride, so the
    // run is the staging's bytes (the last frame's padding excluded: the
    // source may end there). A run that continues the previous one in both
    // places grows it instead.
    const auto* src = static_cast<const uint8_t*>(in);
    const size_t bytes = (m - 1) * align_up(in_bytes) + in_bytes;
    input_run* last = s.runs.empty() ? nullptr : &s.runs.back();
    const size_t pad = last ? align_up(last->bytes) - last->bytes : 0;
    if (last && last->offset + last->bytes + pad == first_in && last->src + last->bytes + pad == src)
        last->bytes += pad + bytes;
    else
        s.runs.push_back({ first_in, bytes, src });
    launch_if_full(s);
    return m;
}

size_t batch_pipeline::submit_many(const void* in,
                                   size_t in_stride,
                                   size_t in_bytes,
                                   size_t out_bytes,
                                   const void* params,
                                   size_t n,
                                   uint64_t user)
{
    size_t first_in = 0;
    const size_t m = open_frames("submit_many", in_bytes, out_bytes, params, n, user, first_in);
    if (m == 0)
        return 0;
    auto& s = d_slots[d_fill];
    const auto* src = static_cast<const uint8_t*>(in);
    s.copies.push_back({ first_in, src, in_stride, in_bytes, m });
    if (!async()) {
        // The copies now, spread over staging_threads (runs over 1 MiB: below
        // that a thread hand-off costs more than it saves).
        if (d_cfg.staging_threads > 1 && m * in_bytes >= (size_t(1) << 20) && !d_stager)
            d_stager = std::make_unique<worker_pool>(d_cfg.staging_threads);
        const auto t0 = clock::now();
        const size_t bytes = stage_copies(s, d_cfg.staging_threads > 1 ? d_stager.get() : nullptr);
        const double secs = seconds_since(t0);
        std::lock_guard<std::mutex> lock(d_async_mutex);
        auto& st = d_stats[d_engine->device_of(d_fill)];
        st.staged_bytes += double(bytes);
        st.copy_s += secs;
    }
    launch_if_full(s);
    return m;
}

void batch_pipeline::abort_frame()
{
    if (!d_open)
        throw std::logic_error("batch_pipeline: abort_frame() without begin_frame()");
    abort_frames();
}

void batch_pipeline::abort_frames()
{
    if (!d_open)
        return;
    // The open frames are the slot's last ones: the slot goes back to where
    // it was before them (they are never launched while open).
    auto& s = d_slots[d_fill];
    const size_t first = s.nkernel - d_open;
    s.in_used = s.frames[first].in_offset;
    s.out_used = s.frames[first].out_offset;
    s.nkernel = first;
    s.entries.resize(s.entries.size() - d_open);
    d_open = 0;
    // The withdrawn frame was the slot's only one: the slot is free again,
    // as if begin_frame() had not been called. Left "filling" with no frame
    // (and the withdrawn frame's first_submit), it fell due, and launch_due()
    // or flush() launched it: "done" with no entry, which front() never got
    // past (d_pending == 0; or, with later frames pending, it read entries[0]
    // of the empty vector: the withdrawn frame's stale output came out) and
    // pop() never freed. Once d_fill came round to it, can_accept() stayed
    // false for good. The interleaving that hung the PDU blocks (the
    // encoder: max_batch 1, flush_us 0, so every withdrawn PDU had a slot of
    // its own): handle() withdraws a PDU that fails staging; the poller runs
    // before the next PDU is handled, and launch_due() launches the empty
    // slot; the next PDU fills the other slot, and the one after it loops in
    // take() on "!can_accept(): publish_ready(true)" forever, holding
    // d_mutex, with the poller waiting for d_mutex. The stream drivers
    // withdraw frames too (tagged_driver's close_truncated(), stream_driver).
    if (s.entries.empty())
        s.state = slot_state::free;
}

void* batch_pipeline::open_frame_params()
{
    if (d_open != 1)
        throw std::logic_error(d_open ? "batch_pipeline: open_frame_params() with several frames open"
                                      : "batch_pipeline: open_frame_params() without begin_frame()");
    auto& s = d_slots[d_fill];
    return s.params + (s.nkernel - 1) * d_cfg.types.param_bytes;
}

uint64_t batch_pipeline::commit_frame()
{
    if (!d_open)
        throw std::logic_error("batch_pipeline: commit_frame() without begin_frame()");
    // commit_frames(), written out: this is a frame-by-frame producer's path.
    const uint64_t first = d_next_seq;
    d_next_seq += d_open;
    d_pending += d_open;
    d_open = 0;
    launch_if_full(d_slots[d_fill]);
    return first;
}

uint64_t batch_pipeline::commit_frames()
{
    const uint64_t first = d_next_seq;
    if (!d_open)
        return first;
    d_next_seq += d_open;
    d_pending += d_open;
    d_open = 0;
    launch_if_full(d_slots[d_fill]);
    return first;
}

void batch_pipeline::launch_if_full(slot& s)
{
    if (s.entries.size() == d_cfg.max_batch || d_cfg.flush_timeout.count() == 0)
        launch(d_fill);
}

uint64_t batch_pipeline::submit_rejected(size_t out_bytes, uint64_t user)
{
    if (d_open)
        throw std::logic_error("batch_pipeline: submit_rejected() inside begin_frame()");
    if (out_bytes > d_cfg.max_out_bytes)
        throw std::length_error("rejected frame output of " + std::to_string(out_bytes) +
                                " bytes exceeds max_out_bytes");
    auto& s = filling_slot();
    const uint64_t seq = d_next_seq++;
    s.entries.push_back({ seq, user, -1, static_cast<uint32_t>(out_bytes) });
    d_pending++;
    launch_if_full(s);
    return seq;
}

void batch_pipeline::run_slot(size_t index)
{
    auto& s = d_slots[index];
    s.state = slot_state::in_flight;
    if (s.nkernel == 0) {
        s.state = slot_state::done; // only rejected frames: nothing to run
        return;
    }
    if (d_held) {
        s.state = slot_state::cancelled; // runs when resume() ends the hold
        return;
    }
    if (async()) {
        // The device's thread stages and launches it; front() waits for that.
        const size_t d = d_engine->device_of(index);
        {
            std::lock_guard<std::mutex> lock(d_async_mutex);
            s.queued = true;
            s.staged = false;
            s.error = nullptr;
            d_workers[d]->queue.push_back(index);
        }
        d_workers[d]->wake.notify_one();
        return;
    }
    if (!s.copies.empty()) // left by the device threads before a cancel check was set
        stage_copies(s, nullptr);
    const auto t0 = clock::now();
    d_engine->launch(index, s.nkernel, s.in_used, s.out_used, s.runs.data(), s.runs.size());
    {
        const double secs = seconds_since(t0);
        std::lock_guard<std::mutex> lock(d_async_mutex);
        auto& st = d_stats[d_engine->device_of(index)];
        st.batches++;
        st.frames += s.nkernel;
        st.launch_s += secs;
    }
    if (d_engine->cancelled(index)) {
        s.state = slot_state::cancelled;
        d_held = true;
    }
}

void batch_pipeline::launch(size_t index)
{
    run_slot(index);
    if (index == d_fill)
        advance_fill();
}

void batch_pipeline::set_cancel_check(std::function<bool()> check)
{
    // The check is asked from the launching thread, which must be the
    // caller's (e.g. "has GNU Radio asked this block's thread to stop?"):
    // from now on the caller launches; what the device threads hold is
    // launched first.
    await_all_staged();
    d_cancel_set = bool(check);
    d_engine->set_cancel_check(std::move(check));
}

bool batch_pipeline::resume()
{
    d_held = false;
    // From the oldest slot on: the cancelled ones lie between d_head and
    // d_fill, in submission order.
    for (size_t k = 0; k < d_slots.size(); k++) {
        const size_t i = (d_head + k) % d_slots.size();
        if (d_slots[i].state == slot_state::cancelled) {
            run_slot(i);
            if (d_held)
                return false;
        }
    }
    flush();
    return !d_held;
}

void batch_pipeline::wait_in_flight()
{
    for (size_t i = 0; i < d_slots.size(); i++)
        if (d_slots[i].state == slot_state::in_flight && d_slots[i].nkernel > 0) {
            await_staged(i, true);
            if (d_slots[i].state == slot_state::in_flight)
                d_engine->wait(i);
        }
}

size_t batch_pipeline::unfinished() const
{
    size_t n = 0;
    for (const auto& s : d_slots)
        if (s.state == slot_state::filling || s.state == slot_state::cancelled)
            n += s.entries.size() - s.read;
    return n;
}

void batch_pipeline::advance_fill() { d_fill = (d_fill + 1) % d_slots.size(); }

// While a frame is open its slot cannot be launched (its input is still being
// written): the launch waits for commit_frame() or abort_frame().
void batch_pipeline::launch_due(clock::time_point now)
{
    auto& s = d_slots[d_fill];
    if (!d_open && s.state == slot_state::filling &&
        now - s.first_submit >= d_cfg.flush_timeout)
        launch(d_fill);
}

void batch_pipeline::flush()
{
    if (!d_open && d_slots[d_fill].state == slot_state::filling)
        launch(d_fill);
}

batch_pipeline::clock::time_point batch_pipeline::next_deadline() const
{
    const auto& s = d_slots[d_fill];
    if (s.state != slot_state::filling)
        return clock::time_point::max();
    return s.first_submit + d_cfg.flush_timeout;
}

bool batch_pipeline::has_unlaunched() const
{
    return d_slots[d_fill].state == slot_state::filling;
}

bool batch_pipeline::front_in_flight() const
{
    const auto st = d_slots[d_head].state;
    return st == slot_state::in_flight || st == slot_state::done;
}

inline batch_pipeline::slot* batch_pipeline::head_done(bool block)
{
    if (d_pending == 0)
        return nullptr;
    auto& s = d_slots[d_head];
    if (s.state == slot_state::in_flight) {
        if (s.nkernel > 0) {
            if (!await_staged(d_head, block))
                return nullptr;
            if (block) {
                const auto t0 = clock::now();
                d_engine->wait(d_head);
                const double secs = seconds_since(t0);
                std::lock_guard<std::mutex> lock(d_async_mutex);
                d_stats[d_engine->device_of(d_head)].wait_s += secs;
            } else if (!d_engine->done(d_head))
                return nullptr;
        }
        s.state = slot_state::done;
    }
    if (s.state != slot_state::done)
        return nullptr; // oldest frame still waits in the filling slot
    return &s;
}

const completed_frame* batch_pipeline::front(bool block)
{
    slot* s = head_done(block);
    if (!s)
        return nullptr;
    const entry& e = s->entries[s->read];
    if (e.kernel_index < 0) {
        d_front = { d_zeros.data(), e.out_bytes, nullptr, e.seq, e.user, true };
    } else {
        const frame_desc& fd = s->frames[e.kernel_index];
        d_front = { s->out + fd.out_offset,
                    e.out_bytes,
                    s->results + size_t(e.kernel_index) * d_cfg.types.result_bytes,
                    e.seq,
                    e.user,
                    false };
    }
    return &d_front;
}

completed_run batch_pipeline::front_many(bool block, size_t max)
{
    completed_run r;
    slot* s = head_done(block);
    if (!s)
        return r;
    r.d_e = s->entries.data() + s->read;
    r.d_n = std::min(max, s->entries.size() - s->read);
    r.d_frames = s->frames;
    r.d_out = s->out;
    r.d_results = s->results;
    r.d_result_bytes = d_cfg.types.result_bytes;
    r.d_zeros = d_zeros.data();
    return r;
}

void batch_pipeline::pop()
{
    auto& s = d_slots[d_head];
    if (d_pending == 0 || s.state != slot_state::done)
        throw std::logic_error("batch_pipeline: pop() without a completed front()");
    s.read++;
    d_pending--;
    if (s.read == s.entries.size()) {
        s.state = slot_state::free;
        d_head = (d_head + 1) % d_slots.size();
    }
}

void batch_pipeline::pop_many(size_t n)
{
    auto& s = d_slots[d_head];
    if (n == 0)
        return;
    if (d_pending == 0 || s.state != slot_state::done)
        throw std::logic_error("batch_pipeline: pop() without a completed front()");
    if (n > s.entries.size() - s.read)
        throw std::logic_error("batch_pipeline: pop_many(" + std::to_string(n) + ") beyond the " +
                               std::to_string(s.entries.size() - s.read) + " frames front_many() gives");
    s.read += n;
    d_pending -= n;
    if (s.read == s.entries.size()) {
        s.state = slot_state::free;
        d_head = (d_head + 1) % d_slots.size();
    }
}

void batch_pipeline::drain()
{
    abort_frames();
    if (d_held)
        resume(); // launches the filling slot too
    else
        flush();
    wait_in_flight();
}

std::string gib(size_t bytes) { return std::to_string(double(bytes) / double(1ull << 30)).substr(0, 5) + " GiB"; }

size_t host_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : 0;
}

namespace {

// Staging is sized for max_batch frames of the largest size the block
// accepts. Refuse what cannot fit before allocating anything, with the
// figure, instead of a std::bad_alloc or a machine brought to swapping.
} // namespace

void check_pipeline_memory(const pipeline_config& cfg, const backend_choice& where)
{
    const size_t nslots =
        where.kind == backend_kind::cuda ? cfg.slots * where.devices.size() : cfg.slots;
    const size_t need = cfg.slot_bytes() * nslots;
    const size_t host = host_memory_bytes();
    const bool cuda = where.kind == backend_kind::cuda;
    // Pinned memory cannot be swapped out: allow at most half of the RAM.
    const size_t host_limit = cuda ? host / 2 : host;
    if (host && need > host_limit)
        throw std::invalid_argument(
            "max_batch=" + std::to_string(cfg.max_batch) + " needs " + gib(need) + " of " +
            (cuda ? "pinned " : "") + "host memory for " + std::to_string(nslots) +
            " slots of frames up to " + std::to_string(cfg.max_in_bytes) +
            " bytes; this machine allows " + gib(host_limit) + ": lower max_batch or slots");
    if (cuda) {
        const auto& p = probe_cuda();
        for (int d : where.devices) {
            const size_t per_device = cfg.slot_bytes() * (nslots / where.devices.size());
            const size_t total = d < int(p.devices.size()) ? p.devices[d].total_mem : 0;
            if (total && per_device > total / 2)
                throw std::invalid_argument(
                    "max_batch=" + std::to_string(cfg.max_batch) + " needs " + gib(per_device) +
                    " of memory on CUDA device " + std::to_string(d) + ", which has " +
                    gib(total) + ": lower max_batch or slots");
        }
    }
}

std::unique_ptr<batch_pipeline>
make_pipeline(const kernel_factories& kernels, const backend_choice& where, const pipeline_config& cfg)
{
    cfg.validate();
    const bool cuda = where.kind == backend_kind::cuda;
    const size_t nslots = cuda ? cfg.slots * where.devices.size() : cfg.slots;
    check_pipeline_memory(cfg, where);
    std::unique_ptr<batch_engine> engine;
    if (cuda) {
        if (!kernels.cuda)
            throw std::invalid_argument("make_pipeline: this family has no CUDA implementation");
#ifdef GPURX_HAVE_CUDA
        engine = make_cuda_engine(kernels.cuda, nslots, cfg.geometry(), where.devices);
#else
        throw std::runtime_error("gr-gpurx was built without CUDA: no CUDA engine");
#endif
    } else {
        engine = make_cpu_engine(kernels.cpu(), nslots, cfg.geometry(), cfg.cpu_threads);
    }
    return std::make_unique<batch_pipeline>(std::move(engine), cfg);
}

} // namespace core
} // namespace gpurx
} // namespace gr
