/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/worker_pool.h"

#include <stdexcept>
#include <string>

#include <algorithm>

namespace gr {
namespace gpurx {
namespace core {

size_t worker_pool::resolve(size_t threads)
{
    return threads ? threads : std::max<size_t>(1, std::thread::hardware_concurrency());
}

worker_pool::worker_pool(size_t threads) : d_size(resolve(threads))
{
    try {
        for (size_t w = 1; w < d_size; w++)
            d_threads.emplace_back([this, w] { worker_loop(w); });
    } catch (const std::exception& e) {
        // A thread that cannot start (no memory left for its stack: a
        // large staging under an address-space limit, or a thread limit)
        // must not leave the started ones waiting on a condition variable
        // that is being destroyed (that hangs), nor joinable threads
        // (that terminates).
        const size_t started = d_threads.size() + 1;
        shut_down();
        throw std::runtime_error("could not start CPU worker thread " + std::to_string(started) + " of " +
                                 std::to_string(d_size) + " (" + e.what() +
                                 "): lower cpu_threads, or max_batch and slots (the staging's memory)");
    }
}

void worker_pool::shut_down()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_quit = true;
    }
    d_wake.notify_all();
    for (auto& t : d_threads)
        t.join();
    d_threads.clear();
}

worker_pool::~worker_pool() { shut_down(); }

// Items are handed out one at a time under the lock: items are whole frames
// or SIMD groups of frames (microseconds to milliseconds each), so the lock
// is never the bottleneck, and the order stays simple to reason about.
bool worker_pool::stop_requested(size_t worker)
{
    if (cancelled())
        return true;
    if (worker == 0 && d_check && d_check()) {
        d_cancelled.store(true, std::memory_order_relaxed);
        return true;
    }
    return false;
}

void worker_pool::run_items(size_t worker)
{
    std::unique_lock<std::mutex> lock(d_mutex);
    while (d_next < d_n) {
        if (worker == 0 && d_check) {
            // Asked outside the lock: the check may take its own. Meanwhile
            // the other workers may have taken the last items: look again.
            lock.unlock();
            stop_requested(0);
            lock.lock();
            if (d_next >= d_n)
                break;
        }
        if (cancelled())
            break;
        const size_t item = d_next++;
        const task_fn* fn = d_fn;
        lock.unlock();
        try {
            (*fn)(item, worker);
        } catch (...) {
            lock.lock();
            if (!d_error)
                d_error = std::current_exception();
            continue;
        }
        lock.lock();
    }
}

void worker_pool::worker_loop(size_t worker)
{
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(d_mutex);
    for (;;) {
        d_wake.wait(lock, [&] { return d_quit || d_generation != seen; });
        if (d_quit)
            return;
        seen = d_generation;
        d_busy++;
        lock.unlock();
        run_items(worker);
        lock.lock();
        if (--d_busy == 0)
            d_idle.notify_all();
    }
}

void worker_pool::parallel_for(size_t n, const task_fn& fn)
{
    if (n == 0)
        return;
    if (d_size == 1 || n == 1) {
        for (size_t i = 0; i < n && !stop_requested(0); i++)
            fn(i, 0);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_fn = &fn;
        d_n = n;
        d_next = 0;
        d_error = nullptr;
        d_generation++;
    }
    d_wake.notify_all();
    run_items(0);
    std::unique_lock<std::mutex> lock(d_mutex);
    // Every item is handed out; wait for the workers still running one.
    d_idle.wait(lock, [&] { return d_busy == 0; });
    // A worker that wakes only now (after a cancel left items unhanded)
    // must find nothing to take: with d_next < d_n left over it would call
    // d_fn, null by then, once the next launch has cleared the cancel.
    d_fn = nullptr;
    d_n = 0;
    d_next = 0;
    if (d_error) {
        auto e = d_error;
        d_error = nullptr;
        std::rethrow_exception(e);
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr
