/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One persistent context per GPU, shared by every block on that GPU.
//
// It owns pools of CUDA streams (with their completion events), pinned host
// buffers and device buffers. Blocks lease what they need in start() and give
// it back in stop(); a returned resource goes back to the pool instead of being
// freed, so a flowgraph that is stopped and started again allocates nothing
// new, and no work() call ever allocates. The context itself lives while any
// block (or lease) references it.
#ifndef INCLUDED_GPURX_CUDA_DEVICE_CONTEXT_H
#define INCLUDED_GPURX_CUDA_DEVICE_CONTEXT_H

#include <cuda_runtime_api.h>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class device_context;

//! A pooled memory block; returns to its pool when destroyed.
class memory_lease
{
public:
    memory_lease() = default;
    memory_lease(std::shared_ptr<device_context> ctx, void* ptr, size_t bytes, bool pinned)
        : d_ctx(std::move(ctx)), d_ptr(ptr), d_bytes(bytes), d_pinned(pinned)
    {
    }
    memory_lease(memory_lease&& o) noexcept { *this = std::move(o); }
    memory_lease& operator=(memory_lease&& o) noexcept;
    memory_lease(const memory_lease&) = delete;
    memory_lease& operator=(const memory_lease&) = delete;
    ~memory_lease() { release(); }

    template <typename T = void>
    T* get() const
    {
        return static_cast<T*>(d_ptr);
    }
    size_t bytes() const { return d_bytes; }
    void release();

private:
    std::shared_ptr<device_context> d_ctx;
    void* d_ptr = nullptr;
    size_t d_bytes = 0;
    bool d_pinned = false;
};

//! A pooled stream with an event for marking completion.
class stream_lease
{
public:
    stream_lease() = default;
    stream_lease(std::shared_ptr<device_context> ctx, cudaStream_t s, cudaEvent_t e)
        : d_ctx(std::move(ctx)), d_stream(s), d_event(e)
    {
    }
    stream_lease(stream_lease&& o) noexcept { *this = std::move(o); }
    stream_lease& operator=(stream_lease&& o) noexcept;
    stream_lease(const stream_lease&) = delete;
    stream_lease& operator=(const stream_lease&) = delete;
    ~stream_lease() { release(); }

    cudaStream_t stream() const { return d_stream; }
    cudaEvent_t event() const { return d_event; }
    void release();

private:
    std::shared_ptr<device_context> d_ctx;
    cudaStream_t d_stream = nullptr;
    cudaEvent_t d_event = nullptr;
};

class device_context : public std::enable_shared_from_this<device_context>
{
public:
    //! The context of CUDA device \p device, created on first use.
    static std::shared_ptr<device_context> acquire(int device);
    ~device_context();

    int device() const { return d_device; }
    //! Make this context's device current on the calling thread.
    void make_current() const;

    memory_lease pinned(size_t bytes);
    memory_lease device_memory(size_t bytes);
    stream_lease stream();

    //! Pool statistics, for tests: resources created since the context exists.
    size_t streams_created() const { return d_streams_created; }
    size_t buffers_created() const { return d_buffers_created; }

private:
    explicit device_context(int device);
    friend class memory_lease;
    friend class stream_lease;
    void give_back(void* ptr, size_t bytes, bool pinned);
    void give_back(cudaStream_t s, cudaEvent_t e);

    int d_device;
    std::mutex d_mutex;
    std::multimap<size_t, void*> d_free_pinned;
    std::multimap<size_t, void*> d_free_device;
    std::vector<std::pair<cudaStream_t, cudaEvent_t>> d_free_streams;
    size_t d_streams_created = 0;
    size_t d_buffers_created = 0;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
