/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/device_context.h"
#include "cuda/cuda_check.h"

#include <cuda_runtime.h>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

memory_lease& memory_lease::operator=(memory_lease&& o) noexcept
{
    if (this != &o) {
        release();
        d_ctx = std::move(o.d_ctx);
        d_ptr = o.d_ptr;
        d_bytes = o.d_bytes;
        d_pinned = o.d_pinned;
        o.d_ptr = nullptr;
        o.d_bytes = 0;
    }
    return *this;
}

void memory_lease::release()
{
    if (d_ctx && d_ptr)
        d_ctx->give_back(d_ptr, d_bytes, d_pinned);
    d_ptr = nullptr;
    d_ctx.reset();
}

stream_lease& stream_lease::operator=(stream_lease&& o) noexcept
{
    if (this != &o) {
        release();
        d_ctx = std::move(o.d_ctx);
        d_stream = o.d_stream;
        d_event = o.d_event;
        o.d_stream = nullptr;
        o.d_event = nullptr;
    }
    return *this;
}

void stream_lease::release()
{
    if (d_ctx && d_stream)
        d_ctx->give_back(d_stream, d_event);
    d_stream = nullptr;
    d_event = nullptr;
    d_ctx.reset();
}

std::shared_ptr<device_context> device_context::acquire(int device)
{
    // weak_ptr registry: the context lives exactly as long as someone uses it.
    static std::mutex registry_mutex;
    static std::map<int, std::weak_ptr<device_context>> registry;
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto& slot = registry[device];
    if (auto ctx = slot.lock())
        return ctx;
    std::shared_ptr<device_context> ctx(new device_context(device));
    slot = ctx;
    return ctx;
}

device_context::device_context(int device) : d_device(device)
{
    GPURX_CUDA_CHECK_CTX(cudaSetDevice(device), "device " + std::to_string(device));
    GPURX_CUDA_CHECK(cudaFree(nullptr)); // create the primary context now, not in work()
}

device_context::~device_context()
{
    // Destructors must not throw: free what we can and ignore errors.
    cudaSetDevice(d_device);
    for (auto& kv : d_free_pinned)
        cudaFreeHost(kv.second);
    for (auto& kv : d_free_device)
        cudaFree(kv.second);
    for (auto& se : d_free_streams) {
        cudaEventDestroy(se.second);
        cudaStreamDestroy(se.first);
    }
}

void device_context::make_current() const
{
    GPURX_CUDA_CHECK_CTX(cudaSetDevice(d_device), "device " + std::to_string(d_device));
}

memory_lease device_context::pinned(size_t bytes)
{
    bytes = bytes ? bytes : 1;
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        auto it = d_free_pinned.lower_bound(bytes);
        // Reuse a pooled buffer unless it would waste more than half of it.
        if (it != d_free_pinned.end() && it->first <= 2 * bytes) {
            void* p = it->second;
            const size_t have = it->first;
            d_free_pinned.erase(it);
            return memory_lease(shared_from_this(), p, have, true);
        }
        d_buffers_created++;
    }
    make_current();
    void* p = nullptr;
    GPURX_CUDA_CHECK_CTX(cudaHostAlloc(&p, bytes, cudaHostAllocPortable),
                         std::to_string(bytes) + " bytes of pinned host memory");
    return memory_lease(shared_from_this(), p, bytes, true);
}

memory_lease device_context::device_memory(size_t bytes)
{
    bytes = bytes ? bytes : 1;
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        auto it = d_free_device.lower_bound(bytes);
        if (it != d_free_device.end() && it->first <= 2 * bytes) {
            void* p = it->second;
            const size_t have = it->first;
            d_free_device.erase(it);
            return memory_lease(shared_from_this(), p, have, false);
        }
        d_buffers_created++;
    }
    make_current();
    void* p = nullptr;
    GPURX_CUDA_CHECK_CTX(cudaMalloc(&p, bytes),
                         std::to_string(bytes) + " bytes of device memory on device " +
                             std::to_string(d_device));
    return memory_lease(shared_from_this(), p, bytes, false);
}

stream_lease device_context::stream()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (!d_free_streams.empty()) {
            auto se = d_free_streams.back();
            d_free_streams.pop_back();
            return stream_lease(shared_from_this(), se.first, se.second);
        }
        d_streams_created++;
    }
    make_current();
    cudaStream_t s = nullptr;
    cudaEvent_t e = nullptr;
    GPURX_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GPURX_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return stream_lease(shared_from_this(), s, e);
}

void device_context::give_back(void* ptr, size_t bytes, bool pinned)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    (pinned ? d_free_pinned : d_free_device).emplace(bytes, ptr);
}

void device_context::give_back(cudaStream_t s, cudaEvent_t e)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    d_free_streams.emplace_back(s, e);
}

} // namespace core
} // namespace gpurx
} // namespace gr
