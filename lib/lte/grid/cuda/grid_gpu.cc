/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/grid/cuda/grid_gpu.h"

#include "cuda/cuda_check.h"
#include "lte/grid/cuda/grid_kernels.h"
#include "lte/grid/cuda/grid_setup.h"
#include "lte/grid/ofdm_demod.h"

#include <cuda_runtime_api.h>
#include "cuda/cufft_loader.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

using gpu::device_cf;

namespace {

const char* cufft_result_name(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    default: return "a cuFFT error";
    }
}

//! cuFFT's calls return their own status: a failure becomes a cuda_error
//! naming the call, as GPURX_CUDA_CHECK does for the runtime's.
void check_cufft(cufftResult r, const char* call, const char* file, int line)
{
    if (r != CUFFT_SUCCESS)
        throw cuda_error(cudaErrorUnknown, std::string(call) + " failed: " + cufft_result_name(r) + " (" + file +
                                               ":" + std::to_string(line) + ")");
}
#define GRID_CUFFT_CHECK(call) check_cufft((call), #call, __FILE__, __LINE__)

template <typename T>
T* device_alloc(size_t count, const char* what)
{
    void* p = nullptr;
    GPURX_CUDA_CHECK_CTX(cudaMalloc(&p, std::max<size_t>(1, count) * sizeof(T)), what);
    return static_cast<T*>(p);
}

template <typename T>
T* pinned_alloc(size_t count, const char* what)
{
    void* p = nullptr;
    GPURX_CUDA_CHECK_CTX(cudaMallocHost(&p, std::max<size_t>(1, count) * sizeof(T)), what);
    return static_cast<T*>(p);
}

} // namespace

struct grid_gpu::state {
    cell c;
    int fft = 0, rx = 0, batch = 0, dev = 0, advance = 0, n_sym = 0, n_sc = 0, sub_samples = 0;
    channel_estimator_options opt;
    gpu::grid_layout layout;
    size_t in_count = 0, grid_count = 0, est_count = 0; // values per batch
    size_t grid_per_sf = 0, est_per_sf = 0;

    cufftHandle plan = 0;
    bool have_plan = false;

    // Shared by both slots (the kernels of consecutive batches are ordered).
    device_cf *d_fft = nullptr, *d_ls = nullptr, *d_v = nullptr, *d_symh = nullptr, *d_carry = nullptr;
    device_cf *d_crs = nullptr, *d_factor = nullptr;
    double* d_resid = nullptr;
    device_cf* d_v_narrow = nullptr;
    double* d_resid_narrow = nullptr;
    int* d_wide = nullptr;
    int *d_bin = nullptr, *d_carry_ok = nullptr;

    struct slot {
        cudaStream_t stream = nullptr;
        cudaEvent_t start = nullptr, computed = nullptr, done = nullptr;
        cf *h_in = nullptr, *h_grid = nullptr, *h_est = nullptr;
        float* h_noise = nullptr;
        int* h_ok = nullptr;
        device_cf *d_in = nullptr, *d_grid = nullptr, *d_est = nullptr;
        float* d_noise = nullptr;
        int* d_ok = nullptr;
        subframe_time first;
    };
    slot slots[2];
    int next = 0;      // the slot of the next submit
    int in_flight = 0; // the oldest is (next + 2 - in_flight) % 2
    bool have_last = false; // a batch was enqueued since construction or reset()
    subframe_time last_time; // the last subframe of that batch
    int last_slot = -1;      // its slot: the next batch's kernels wait for it
    float kernel_ms = 0.0f;

    void release() noexcept;
};

void grid_gpu::state::release() noexcept
{
    // Nothing here may throw (it runs in the destructor and after a failed
    // construction): errors are ignored, the memory goes back regardless.
    cudaSetDevice(dev);
    for (auto& s : slots)
        if (s.stream)
            cudaStreamSynchronize(s.stream);
    if (have_plan)
        cufft().destroy(plan);
    for (void* p : { (void*)d_fft, (void*)d_ls, (void*)d_v, (void*)d_symh, (void*)d_carry, (void*)d_crs,
                     (void*)d_factor, (void*)d_resid, (void*)d_bin, (void*)d_carry_ok, (void*)d_v_narrow,
                     (void*)d_resid_narrow, (void*)d_wide })
        if (p)
            cudaFree(p);
    for (auto& s : slots) {
        for (void* p : { (void*)s.d_in, (void*)s.d_grid, (void*)s.d_est, (void*)s.d_noise, (void*)s.d_ok })
            if (p)
                cudaFree(p);
        for (void* p : { (void*)s.h_in, (void*)s.h_grid, (void*)s.h_est, (void*)s.h_noise, (void*)s.h_ok })
            if (p)
                cudaFreeHost(p);
        for (cudaEvent_t e : { s.start, s.computed, s.done })
            if (e)
                cudaEventDestroy(e);
        if (s.stream)
            cudaStreamDestroy(s.stream);
    }
}

grid_gpu::grid_gpu(const cell& c, int fft_size, int n_rx, int batch, int device, const channel_estimator_options& o,
                   int window_advance)
    : d(new state)
{
    // Every parameter checked before the GPU is touched: the CPU classes'
    // constructors check the cell, sizes, advance and options.
    const ofdm_demodulator demod(c, fft_size, n_rx, window_advance);
    const channel_estimator check_options(c, n_rx, o);
    (void)check_options;
    if (batch < 1)
        throw std::invalid_argument("batch=" + std::to_string(batch) + " is not at least 1");
    if (device < 0)
        throw std::invalid_argument("device=" + std::to_string(device) + " is not a CUDA device ordinal");

    state& s = *d;
    s.c = c;
    s.fft = fft_size;
    s.rx = n_rx;
    s.batch = batch;
    s.dev = device;
    s.advance = demod.window_advance();
    s.n_sym = c.symbols_per_subframe();
    s.n_sc = c.n_sc();
    s.sub_samples = demod.subframe_samples();
    s.opt = o;
    s.layout = gpu::make_grid_layout(c, demod, batch, o);
    const int n_pil = s.layout.n_pil;

    const size_t B = size_t(batch);
    s.in_count = B * n_rx * size_t(s.sub_samples);
    s.grid_per_sf = size_t(n_rx) * s.n_sym * s.n_sc;
    s.est_per_sf = size_t(n_rx) * c.ports * s.n_sym * s.n_sc;
    s.grid_count = B * s.grid_per_sf;
    s.est_count = B * s.est_per_sf;
    const size_t rows = B * n_rx * c.ports * gpu::max_crs_symbols;

    // The tables, from the CPU code's functions.
    const std::vector<cf> crs = gpu::crs_table(c);

    int count = 0;
    GPURX_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (device >= count)
        throw std::invalid_argument("device=" + std::to_string(device) + " is not one of the " +
                                    std::to_string(count) + " CUDA devices");
    try {
        GPURX_CUDA_CHECK(cudaSetDevice(device));
        s.d_fft = device_alloc<device_cf>(B * n_rx * s.n_sym * size_t(fft_size), "FFT buffer");
        s.d_ls = device_alloc<device_cf>(rows * n_pil, "LS values");
        s.d_v = device_alloc<device_cf>(rows * n_pil, "smoothed pilots");
        s.d_resid = device_alloc<double>(rows * n_pil, "residuals");
        if (s.layout.half_narrow > 0) {
            s.d_v_narrow = device_alloc<device_cf>(rows * n_pil, "narrow-smoothed pilots");
            s.d_resid_narrow = device_alloc<double>(rows * n_pil, "narrow residuals");
        }
        s.d_wide = device_alloc<int>(B, "average choices");
        s.d_symh = device_alloc<device_cf>(rows * s.n_sc, "CRS symbols");
        s.d_carry = device_alloc<device_cf>(size_t(n_rx) * c.ports * s.n_sc, "carried CRS symbol");
        s.d_carry_ok = device_alloc<int>(1, "carry flag");
        s.d_crs = device_alloc<device_cf>(crs.size(), "CRS table");
        s.d_bin = device_alloc<int>(size_t(s.n_sc), "bin table");
        s.d_factor = device_alloc<device_cf>(size_t(s.n_sc), "factor table");
        static_assert(sizeof(device_cf) == sizeof(cf), "device_cf and std::complex<float> differ in size");
        GPURX_CUDA_CHECK(cudaMemcpy(s.d_crs, crs.data(), crs.size() * sizeof(cf), cudaMemcpyHostToDevice));
        GPURX_CUDA_CHECK(
            cudaMemcpy(s.d_bin, demod.bins().data(), size_t(s.n_sc) * sizeof(int), cudaMemcpyHostToDevice));
        GPURX_CUDA_CHECK(cudaMemcpy(
            s.d_factor, demod.factors().data(), size_t(s.n_sc) * sizeof(cf), cudaMemcpyHostToDevice));
        GPURX_CUDA_CHECK(cudaMemset(s.d_carry_ok, 0, sizeof(int)));
        GPURX_CUDA_CHECK(cudaMemset(s.d_carry, 0, size_t(n_rx) * c.ports * s.n_sc * sizeof(device_cf)));
        for (auto& sl : s.slots) {
            GPURX_CUDA_CHECK(cudaStreamCreateWithFlags(&sl.stream, cudaStreamNonBlocking));
            GPURX_CUDA_CHECK(cudaEventCreate(&sl.start));
            GPURX_CUDA_CHECK(cudaEventCreate(&sl.computed));
            GPURX_CUDA_CHECK(cudaEventCreate(&sl.done));
            sl.h_in = pinned_alloc<cf>(s.in_count, "pinned input staging");
            sl.h_grid = pinned_alloc<cf>(s.grid_count, "pinned grid staging");
            sl.h_est = pinned_alloc<cf>(s.est_count, "pinned estimate staging");
            sl.h_noise = pinned_alloc<float>(B, "pinned noise staging");
            sl.h_ok = pinned_alloc<int>(B, "pinned flag staging");
            sl.d_in = device_alloc<device_cf>(s.in_count, "input");
            sl.d_grid = device_alloc<device_cf>(s.grid_count, "grids");
            sl.d_est = device_alloc<device_cf>(s.est_count, "estimates");
            sl.d_noise = device_alloc<float>(B, "noise variances");
            sl.d_ok = device_alloc<int>(B, "estimate flags");
        }
        // One plan: every symbol of every antenna of the batch, N points
        // each, contiguous, in place.
        int n[1] = { fft_size };
        const size_t transforms = B * n_rx * s.n_sym;
        if (transforms > size_t(1 << 30))
            throw std::invalid_argument("batch=" + std::to_string(batch) + " makes too many FFTs for one plan");
        GRID_CUFFT_CHECK(
            cufft().plan_many(&s.plan, 1, n, nullptr, 1, fft_size, nullptr, 1, fft_size, CUFFT_C2C, int(transforms)));
        s.have_plan = true;
        GPURX_CUDA_CHECK(cudaDeviceSynchronize()); // the tables' copies and memsets are done
    } catch (...) {
        s.release();
        throw;
    }
}

grid_gpu::~grid_gpu() { d->release(); }

int grid_gpu::batch() const { return d->batch; }
int grid_gpu::n_rx() const { return d->rx; }
int grid_gpu::device() const { return d->dev; }
int grid_gpu::subframe_samples() const { return d->sub_samples; }
int grid_gpu::window_advance() const { return d->advance; }
int grid_gpu::in_flight() const { return d->in_flight; }
float grid_gpu::last_kernel_ms() const { return d->kernel_ms; }

void grid_gpu::reset() { d->have_last = false; }

cf* grid_gpu::staging()
{
    if (d->in_flight >= 2)
        throw std::logic_error("grid_gpu: two batches are in flight; collect() one first");
    // The next slot is free: the one in flight, if any, is the other.
    return d->slots[d->next].h_in;
}

void grid_gpu::submit(const cf* host_samples, const subframe_time& first)
{
    if (!host_samples)
        throw std::invalid_argument("host_samples is null");
    cf* dst = staging();
    std::memcpy(dst, host_samples, d->in_count * sizeof(cf));
    submit_staged(first);
}

void grid_gpu::submit_staged(const subframe_time& first)
{
    if (first.sfn < 0 || first.sfn > 1023)
        throw std::invalid_argument("first.sfn=" + std::to_string(first.sfn) + " is outside 0..1023");
    if (first.subframe < 0 || first.subframe > 9)
        throw std::invalid_argument("first.subframe=" + std::to_string(first.subframe) + " is outside 0..9");
    if (d->in_flight >= 2)
        throw std::logic_error("grid_gpu: two batches are in flight; collect() one first");
    enqueue(first);
}

void grid_gpu::enqueue(const subframe_time& first)
{
    state& s = *d;
    const int idx = s.next;
    state::slot& sl = s.slots[idx];
    GPURX_CUDA_CHECK(cudaSetDevice(s.dev));
    const cudaStream_t st = sl.stream;

    GPURX_CUDA_CHECK(cudaMemcpyAsync(sl.d_in, sl.h_in, s.in_count * sizeof(cf), cudaMemcpyHostToDevice, st));
    // The previous batch's kernels first: they share the FFT's work area,
    // the intermediate buffers and the carry (its copies may still run).
    if (s.last_slot >= 0)
        GPURX_CUDA_CHECK(cudaStreamWaitEvent(st, s.slots[s.last_slot].computed, 0));
    GPURX_CUDA_CHECK(cudaEventRecord(sl.start, st));

    gpu::grid_layout L = s.layout;
    L.first_subframe = first.subframe;
    L.carry_usable = gpu::carry_usable(s.opt, s.have_last, s.last_time, first) ? 1 : 0;
    gpu::grid_buffers b;
    b.in = sl.d_in;
    b.fft = s.d_fft;
    b.grid = sl.d_grid;
    b.bin = s.d_bin;
    b.factor = s.d_factor;
    b.crs = s.d_crs;
    b.ls = s.d_ls;
    b.v = s.d_v;
    b.resid = s.d_resid;
    b.v_narrow = s.d_v_narrow;
    b.resid_narrow = s.d_resid_narrow;
    b.wide = s.d_wide;
    b.symh = s.d_symh;
    b.noise = sl.d_noise;
    b.ok = sl.d_ok;
    b.est = sl.d_est;
    b.carry = s.d_carry;
    b.carry_ok = s.d_carry_ok;

    gpu::enqueue_cut_windows(L, b, st);
    GRID_CUFFT_CHECK(cufft().set_stream(s.plan, st));
    auto* fft = reinterpret_cast<cufftComplex*>(s.d_fft);
    GRID_CUFFT_CHECK(cufft().exec_c2c(s.plan, fft, fft, CUFFT_FORWARD));
    gpu::enqueue_grid_and_estimate(L, b, st);
    GPURX_CUDA_CHECK(cudaEventRecord(sl.computed, st));

    GPURX_CUDA_CHECK(cudaMemcpyAsync(sl.h_grid, sl.d_grid, s.grid_count * sizeof(cf), cudaMemcpyDeviceToHost, st));
    GPURX_CUDA_CHECK(cudaMemcpyAsync(sl.h_est, sl.d_est, s.est_count * sizeof(cf), cudaMemcpyDeviceToHost, st));
    GPURX_CUDA_CHECK(
        cudaMemcpyAsync(sl.h_noise, sl.d_noise, size_t(s.batch) * sizeof(float), cudaMemcpyDeviceToHost, st));
    GPURX_CUDA_CHECK(cudaMemcpyAsync(sl.h_ok, sl.d_ok, size_t(s.batch) * sizeof(int), cudaMemcpyDeviceToHost, st));
    GPURX_CUDA_CHECK(cudaEventRecord(sl.done, st));

    sl.first = first;
    s.last_slot = idx;
    s.have_last = true;
    s.last_time = gpu::subframe_after(first, s.batch - 1);
    s.next = 1 - idx;
    s.in_flight++;
}

int grid_gpu::collect(std::vector<subframe_grid>& grids, std::vector<channel_estimate>& ests,
                      std::vector<uint8_t>* ok)
{
    state& s = *d;
    if (s.in_flight == 0)
        return -1;
    const int idx = (s.next + 2 - s.in_flight) % 2;
    state::slot& sl = s.slots[idx];
    GPURX_CUDA_CHECK(cudaSetDevice(s.dev));
    GPURX_CUDA_CHECK(cudaEventSynchronize(sl.done));
    GPURX_CUDA_CHECK(cudaEventElapsedTime(&s.kernel_ms, sl.start, sl.computed));

    const int B = s.batch;
    grids.resize(size_t(B));
    ests.resize(size_t(B));
    if (ok)
        ok->assign(size_t(B), 0);
    int good = 0;
    for (int b = 0; b < B; b++) {
        subframe_grid& g = grids[size_t(b)];
        if (g.n_rx != s.rx || g.n_symbols != s.n_sym || g.n_sc != s.n_sc || g.re.size() != s.grid_per_sf)
            g.resize(s.rx, s.n_sym, s.n_sc);
        std::memcpy(g.re.data(), sl.h_grid + size_t(b) * s.grid_per_sf, s.grid_per_sf * sizeof(cf));
        g.time = gpu::subframe_after(sl.first, b);
        channel_estimate& e = ests[size_t(b)];
        if (e.n_rx != s.rx || e.n_ports != s.c.ports || e.n_symbols != s.n_sym || e.n_sc != s.n_sc ||
            e.h.size() != s.est_per_sf)
            e.resize(s.rx, s.c.ports, s.n_sym, s.n_sc);
        std::memcpy(e.h.data(), sl.h_est + size_t(b) * s.est_per_sf, s.est_per_sf * sizeof(cf));
        e.noise_var = sl.h_noise[b];
        if (sl.h_ok[b])
            good++;
        if (ok)
            (*ok)[size_t(b)] = sl.h_ok[b] ? 1 : 0;
    }
    s.in_flight--;
    return good;
}

int grid_gpu::run(const cf* host_samples, const subframe_time& first, std::vector<subframe_grid>& grids,
                  std::vector<channel_estimate>& ests, std::vector<uint8_t>* ok)
{
    if (d->in_flight > 0)
        throw std::logic_error("grid_gpu::run: batches are in flight; collect() them first");
    submit(host_samples, first);
    return collect(grids, ests, ok);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
