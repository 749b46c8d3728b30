/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The host a --devices run measures on, surveyed at its start and printed:
// where each GPU sits (PCI bus, NUMA node, the node's CPUs), each GPU's link
// alone, the first k GPUs' links all at once (for every count the run
// measures), and the host memory's copy rate at 1 .. all threads. The
// end-to-end figures are bounded by the links alone, summed (the refusal
// bound, bench_checks.h); the links all at once and the copy rate are the
// host's own bounds, printed beside each figure. Shared by bench_turbo,
// bench_viterbi_gpu, bench_mimo and bench_lte_sch (bench_devices.h).
#ifndef INCLUDED_GPURX_BENCH_BENCH_HOST_SURVEY_H
#define INCLUDED_GPURX_BENCH_BENCH_HOST_SURVEY_H

#include "bench/bench_checks.h"
#include "bench/bench_devices.h"
#include "cuda/cuda_probe.h"
#include "pipeline/host_topology.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gr {
namespace gpurx {
namespace bench {

//! Where a GPU sits: PCI bus id, NUMA node, the node's CPUs.
struct gpu_place {
    int ordinal = 0;
    std::string bus;
    int node = -1;
    std::vector<int> cpus; //!< the node's, on a host of several nodes
};

inline gpu_place place_of(int device)
{
    gpu_place p;
    p.ordinal = device;
    char bus[32] = { 0 };
    cuda_ok(cudaDeviceGetPCIBusId(bus, sizeof(bus), device), "cudaDeviceGetPCIBusId");
    p.bus = bus;
    p.node = core::pci_numa_node(p.bus);
    if (core::numa_node_count() > 1)
        p.cpus = core::numa_node_cpus(p.node);
    return p;
}

//! Pinned host buffer (cudaHostAlloc), freed with the object.
struct pinned_buffer {
    void* p = nullptr;
    explicit pinned_buffer(size_t n) { cuda_ok(cudaHostAlloc(&p, n, cudaHostAllocPortable), "cudaHostAlloc"); }
    ~pinned_buffer() { cudaFreeHost(p); }
    pinned_buffer(const pinned_buffer&) = delete;
    pinned_buffer& operator=(const pinned_buffer&) = delete;
    uint8_t* get() const { return static_cast<uint8_t*>(p); }
};

/*!
 * Host memory copy rate, pinned buffer to pinned buffer (what staging does),
 * with \p threads threads each copying its own part of \p bytes; GB/s
 * copied (the memory moves twice that: read and write), best of 3.
 */
inline double host_copy_gbs(size_t threads, const pinned_buffer& from, const pinned_buffer& to, size_t bytes)
{
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        std::vector<std::thread> t;
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t i = 0; i < threads; i++)
            t.emplace_back([&, i] {
                const size_t a = bytes * i / threads, b = bytes * (i + 1) / threads;
                std::memcpy(to.get() + a, from.get() + a, b - a);
            });
        for (auto& x : t)
            x.join();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return double(bytes) / best / 1e9;
}

/*!
 * Pinned copies to and from \p devices all at once (128 MiB per device and
 * direction, each from a host buffer allocated near its GPU): the rate the
 * host's PCIe and memory give these GPUs together, in GB/s summed over
 * them; best of 3 each.
 */
inline link_rates concurrent_dma(const std::vector<int>& devices)
{
    const size_t n = size_t(128) << 20;
    struct dev_bufs {
        int device = 0;
        std::unique_ptr<pinned_buffer> up, down;
        void *d1 = nullptr, *d2 = nullptr;
        cudaStream_t s1{}, s2{};
    };
    std::vector<dev_bufs> b(devices.size());
    for (size_t i = 0; i < devices.size(); i++) {
        auto& x = b[i];
        x.device = devices[i];
        cuda_ok(cudaSetDevice(x.device), "cudaSetDevice");
        {
            core::scoped_thread_pin near(place_of(x.device).cpus);
            x.up = std::make_unique<pinned_buffer>(n);
            x.down = std::make_unique<pinned_buffer>(n);
            std::memset(x.up->get(), 1, n);
            std::memset(x.down->get(), 2, n);
        }
        cuda_ok(cudaMalloc(&x.d1, n), "cudaMalloc");
        cuda_ok(cudaMalloc(&x.d2, n), "cudaMalloc");
        cuda_ok(cudaStreamCreateWithFlags(&x.s1, cudaStreamNonBlocking), "stream");
        cuda_ok(cudaStreamCreateWithFlags(&x.s2, cudaStreamNonBlocking), "stream");
    }
    auto timed = [&](bool up, bool down) {
        double best = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            for (auto& x : b) {
                cuda_ok(cudaSetDevice(x.device), "cudaSetDevice");
                cuda_ok(cudaDeviceSynchronize(), "sync");
            }
            const auto t0 = std::chrono::steady_clock::now();
            for (auto& x : b) {
                cuda_ok(cudaSetDevice(x.device), "cudaSetDevice");
                if (up)
                    cuda_ok(cudaMemcpyAsync(x.d1, x.up->get(), n, cudaMemcpyHostToDevice, x.s1), "H2D copy");
                if (down)
                    cuda_ok(cudaMemcpyAsync(x.down->get(), x.d2, n, cudaMemcpyDeviceToHost, x.s2), "D2H copy");
            }
            for (auto& x : b) {
                cuda_ok(cudaSetDevice(x.device), "cudaSetDevice");
                cuda_ok(cudaDeviceSynchronize(), "sync");
            }
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        return best;
    };
    const double all = double(n) * double(b.size());
    link_rates r;
    r.h2d = all / timed(true, false) / 1e9;
    r.d2h = all / timed(false, true) / 1e9;
    r.both = 2.0 * all / timed(true, true) / 1e9;
    for (auto& x : b) {
        cuda_ok(cudaSetDevice(x.device), "cudaSetDevice");
        cuda_ok(cudaStreamDestroy(x.s1), "stream");
        cuda_ok(cudaStreamDestroy(x.s2), "stream");
        cuda_ok(cudaFree(x.d1), "cudaFree");
        cuda_ok(cudaFree(x.d2), "cudaFree");
    }
    return r;
}

//! What survey_host() measured.
struct host_survey {
    std::vector<int> all;                             //!< the usable GPUs, by ordinal
    std::vector<size_t> counts;                       //!< the GPU counts the run measures (device_counts)
    std::vector<link_rates> links;                    //!< per GPU of all, alone
    std::vector<link_rates> together;                 //!< per count: the first k GPUs all at once
    std::vector<std::pair<size_t, double>> copy_rates; //!< host copy GB/s at 1, 2, 4 .. all threads
    double best_copy = 0;                             //!< the best of copy_rates
    unsigned hw = 1;                                  //!< the host's threads

    //! The first \p k GPUs.
    std::vector<int> first(size_t k) const { return std::vector<int>(all.begin(), all.begin() + k); }
    //! Their links alone.
    std::vector<link_rates> links_of(size_t k) const
    {
        return std::vector<link_rates>(links.begin(), links.begin() + k);
    }
    //! The copy rate measured at the largest thread count <= \p threads.
    double copy_rate_at(size_t threads) const
    {
        double r = copy_rates.empty() ? 0.0 : copy_rates.front().second;
        for (const auto& c : copy_rates)
            if (c.first <= threads)
                r = c.second;
        return r;
    }
};

/*!
 * Measures and prints the host: its threads and NUMA nodes, a table of the
 * GPUs (name, PCI bus, NUMA node and its CPUs, the link alone), the host
 * memory's pinned-to-pinned copy rate at 1, 2, 4 .. all threads (1 GiB), and
 * the first k GPUs' links all at once for every count of device_counts().
 * Call with at least one usable GPU.
 */
inline host_survey survey_host(const core::cuda_probe_result& probe)
{
    host_survey s;
    s.all = usable_devices(probe);
    s.counts = device_counts(s.all.size());
    s.hw = std::max(1u, std::thread::hardware_concurrency());

    std::printf("\nhost: %u CPU threads, %d NUMA node(s)\n\n", s.hw, core::numa_node_count());
    std::printf("| GPU | name | PCI | NUMA node | node CPUs | link alone, pinned GB/s |\n|---|---|---|---|---|---|\n");
    for (int d : s.all)
        s.links.push_back(measure_link(d));
    for (size_t i = 0; i < s.all.size(); i++) {
        const auto p = place_of(s.all[i]);
        const auto node_cpus = core::numa_node_cpus(p.node);
        const std::string node = p.node < 0 ? "- (sysfs: none)" : std::to_string(p.node);
        const std::string cpus = node_cpus.empty() ? "-" : core::format_cpulist(node_cpus);
        std::string name = "?";
        for (const auto& d : probe.devices)
            if (d.ordinal == s.all[i])
                name = d.name;
        std::printf("| %d | %s | %s | %s | %s | H2D %.1f, D2H %.1f, both %.1f |\n", s.all[i], name.c_str(),
                    p.bus.c_str(), node.c_str(), cpus.c_str(), s.links[i].h2d, s.links[i].d2h, s.links[i].both);
    }

    std::printf("\nhost memory copy rate, pinned to pinned, 1 GiB (GB/s copied; the memory moves twice that):\n\n"
                "| threads | GB/s | per thread |\n|---|---|---|\n");
    {
        const size_t bytes = size_t(1) << 30;
        pinned_buffer from(bytes), to(bytes);
        std::memset(from.get(), 3, bytes);
        std::memset(to.get(), 4, bytes);
        std::vector<size_t> ts;
        for (size_t t = 1; t < s.hw; t *= 2)
            ts.push_back(t);
        ts.push_back(s.hw);
        for (size_t t : ts) {
            const double r = host_copy_gbs(t, from, to, bytes);
            s.copy_rates.push_back({ t, r });
            s.best_copy = std::max(s.best_copy, r);
            std::printf("| %zu | %.1f | %.1f |\n", t, r, r / double(t));
            std::fflush(stdout);
        }
    }

    std::printf("\npinned copies to/from the first k GPUs all at once (GB/s, summed over them):\n\n"
                "| GPUs | H2D | D2H | both | H2D per GPU | H2D, sum of links alone |\n|---|---|---|---|---|---|\n");
    for (size_t k : s.counts) {
        s.together.push_back(concurrent_dma(s.first(k)));
        double alone = 0;
        for (size_t i = 0; i < k; i++)
            alone += s.links[i].h2d;
        const auto& t = s.together.back();
        std::printf("| %zu | %.1f | %.1f | %.1f | %.1f | %.1f |\n", k, t.h2d, t.d2h, t.both, t.h2d / double(k),
                    alone);
        std::fflush(stdout);
    }
    return s;
}

/*!
 * The host memory's traffic estimate for an end-to-end run of frames of
 * \p frame_bits bits that move \p host_bytes_per_frame bytes of host memory
 * (DMA in and out, and any copy's read and write): the memory's capacity
 * taken as twice the best copy rate (a copy reads and writes each byte).
 * Gbit/s, all GPUs together; an estimate, not a refusal bound (DMA may
 * reach memory at other rates than cores).
 */
inline double host_memory_estimate_gbps(const host_survey& s, double host_bytes_per_frame, double frame_bits)
{
    return host_bytes_per_frame > 0 ? 2 * s.best_copy / host_bytes_per_frame * frame_bits : 0.0;
}

/*!
 * The figures a --devices mode gathers per GPU count (kernel-bound, end to
 * end with the caller launching and with device threads, and the host's
 * bounds beside them), and the report printed from them: the scaling table
 * and the target lines against min(linear, the host bound). \p precision:
 * decimals of the Gbit/s columns.
 */
struct devices_figures {
    std::vector<double> kern, caller, by_threads, links_bound, together_bound, memory;

    //! The host's bounds for count index \p ci (GPUs' links \p links).
    void add_bounds(const host_survey& host, size_t ci, const std::vector<link_rates>& links, double frame_bits,
                    const frame_bytes& fb)
    {
        links_bound.push_back(link_bound_gbps(links, frame_bits, fb));
        together_bound.push_back(link_bound_gbps({ host.together[ci] }, frame_bits, fb));
        memory.push_back(host_memory_estimate_gbps(host, fb.h2d + fb.d2h, frame_bits));
    }

    std::string report(const std::vector<size_t>& counts, int precision = 2) const
    {
        const std::vector<scaling_column> e2e = { { "e2e in place, caller launches", caller, true, precision },
                                                  { "e2e in place, threads per GPU launch", by_threads, true,
                                                    precision } };
        std::string r = scaling_table(counts, { { "kernel-bound Gbit/s", kern, true, precision }, e2e[0], e2e[1],
                                                { "bound: links alone, summed", links_bound, false, 1 },
                                                { "bound: links all at once", together_bound, false, 1 },
                                                { "host memory estimate", memory, false, 1 } });
        std::vector<double> host_bound(counts.size());
        for (size_t i = 0; i < host_bound.size(); i++)
            host_bound[i] = std::min(together_bound[i], memory[i] > 0 ? memory[i] : together_bound[i]);
        return r + "\n" + target_lines(counts, kern, e2e, host_bound);
    }
};

} // namespace bench
} // namespace gpurx
} // namespace gr

#endif
