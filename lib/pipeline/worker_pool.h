/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CPU engine's persistent workers. Threads are started once, when the
// engine is made, and sleep between batches: a batch costs a wake-up, not a
// thread start per worker.
#ifndef INCLUDED_GPURX_PIPELINE_WORKER_POOL_H
#define INCLUDED_GPURX_PIPELINE_WORKER_POOL_H

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class worker_pool
{
public:
    //! fn(item, worker): worker is in [0, size()), one item at a time per worker.
    using task_fn = std::function<void(size_t item, size_t worker)>;

    //! \p threads workers including the caller; 0: one per hardware thread.
    explicit worker_pool(size_t threads = 0);
    ~worker_pool();
    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    size_t size() const { return d_size; }

    /*!
     * Run fn on items 0..n-1 across the workers (the calling thread is worker
     * 0) and return when all are done. The first exception thrown by fn is
     * rethrown here after every item has been handed out. Not reentrant.
     * Once cancelled (see set_cancel_check()), items not yet started are
     * skipped.
     */
    void parallel_for(size_t n, const task_fn& fn);

    /*!
     * A question the calling thread of parallel_for() (worker 0) asks before
     * each item it takes and in stop_requested(): "should this work stop?"
     * (e.g. "has GNU Radio asked the block's thread to stop?", which only
     * that thread can answer). Once it says yes, the pool is cancelled: no
     * worker starts another item until reset_cancel(). Empty: never.
     */
    void set_cancel_check(std::function<bool()> check) { d_check = std::move(check); }
    bool cancelled() const { return d_cancelled.load(std::memory_order_relaxed); }
    void reset_cancel() { d_cancelled.store(false, std::memory_order_relaxed); }
    /*!
     * For an item that runs long (many vectors of one frame): true when the
     * pool is cancelled, and, asked by worker 0, when the cancel check says
     * so. The item may then return early; its output is incomplete (a
     * cancelled batch is run again as a whole).
     */
    bool stop_requested(size_t worker);

    //! Threads started since construction (for tests: stays size() - 1).
    size_t threads_started() const { return d_threads.size(); }

    //! Workers for a request of \p threads (0: one per hardware thread).
    static size_t resolve(size_t threads);

private:
    void shut_down(); // stops and joins the worker threads
    void worker_loop(size_t worker);
    void run_items(size_t worker);

    size_t d_size;
    std::vector<std::thread> d_threads;
    std::mutex d_mutex;
    std::condition_variable d_wake, d_idle;
    const task_fn* d_fn = nullptr;
    size_t d_n = 0, d_next = 0, d_busy = 0;
    uint64_t d_generation = 0;
    bool d_quit = false;
    std::exception_ptr d_error;
    std::function<bool()> d_check;
    std::atomic<bool> d_cancelled{ false };
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
