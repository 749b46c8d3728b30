/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cuda_check.h"
#include "cuda/cuda_probe.h"
#include "ofdm/mimo_chanest_cuda.h"

#include <cuComplex.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
constexpr int max_nt = 8;

// One thread per (subcarrier k, receive antenna r): H^[r][j] for every j
// and the residual of the T training symbols.
__global__ void ls_kernel(const float2* __restrict__ y, // (t * nr + r) * K + k
                          const float2* __restrict__ l, // K
                          const float* __restrict__ cover, // j * nt + c
                          int nt,
                          int nr,
                          int K,
                          int T,
                          float2* __restrict__ h,    // (k * nr + r) * nt + j
                          float* __restrict__ resid) // k * nr + r
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= K * nr)
        return;
    const int k = idx / nr, r = idx % nr;
    float2 acc[max_nt];
    for (int j = 0; j < nt; j++)
        acc[j] = make_float2(0.0f, 0.0f);
    for (int t = 0; t < T; t++) {
        const float2 v = y[(size_t(t) * nr + r) * K + k];
        for (int j = 0; j < nt; j++) {
            const float p = cover[j * nt + t % nt];
            acc[j].x += p * v.x;
            acc[j].y += p * v.y;
        }
    }
    const float2 lk = l[k];
    for (int j = 0; j < nt; j++) {
        // acc conj(L) / T
        const float re = (acc[j].x * lk.x + acc[j].y * lk.y) / float(T);
        const float im = (acc[j].y * lk.x - acc[j].x * lk.y) / float(T);
        acc[j] = make_float2(re, im);
        h[(size_t(k) * nr + r) * nt + j] = acc[j];
    }
    float e = 0.0f;
    for (int t = 0; t < T; t++) {
        float2 m = make_float2(0.0f, 0.0f);
        for (int j = 0; j < nt; j++) {
            const float p = cover[j * nt + t % nt];
            m.x += p * acc[j].x;
            m.y += p * acc[j].y;
        }
        const float2 v = y[(size_t(t) * nr + r) * K + k];
        const float dx = v.x - (m.x * lk.x - m.y * lk.y);
        const float dy = v.y - (m.x * lk.y + m.y * lk.x);
        e += dx * dx + dy * dy;
    }
    resid[idx] = e;
}
} // namespace

struct mimo_chanest_cuda::impl {
    mimo_training tr;
    int nr, group, device;
    cudaStream_t stream = nullptr;
    float2 *y = nullptr, *l = nullptr, *h = nullptr;
    float *cover = nullptr, *resid = nullptr;
    std::vector<cfloat> h_host;
    std::vector<float> resid_host;

    impl(const mimo_training& t, int nr_, int group_, int device_) : tr(t), nr(nr_), group(group_), device(device_) {}
    // Here, not in mimo_chanest_cuda's destructor: a constructor that throws
    // half way (a failed allocation) frees what it had. Errors are not
    // thrown from a destructor; the device may be gone.
    ~impl()
    {
        cudaSetDevice(device);
        cudaFree(y);
        cudaFree(l);
        cudaFree(h);
        cudaFree(cover);
        cudaFree(resid);
        if (stream)
            cudaStreamDestroy(stream);
    }

    std::string context() const
    {
        return "mimo_chanest_cuda (nt " + std::to_string(tr.nt) + ", nr " + std::to_string(nr) + ", " +
               std::to_string(tr.used) + " subcarriers, device " + std::to_string(device) + ")";
    }
    void check(cudaError_t err, const char* call) const { check_cuda(err, call, __FILE__, __LINE__, context()); }
};

mimo_chanest_cuda::mimo_chanest_cuda(const mimo_training& tr, int nr, int group, int device)
    : d(std::make_unique<impl>(tr, nr, group, device))
{
    if (nr < 1 || nr > 8)
        throw std::invalid_argument("nr must be in 1..8, got " + std::to_string(nr));
    if (group < 1 || tr.used % group != 0)
        throw std::invalid_argument("group must divide the used subcarriers (" + std::to_string(tr.used) +
                                    "), got " + std::to_string(group));
    const size_t K = size_t(tr.used), T = size_t(tr.symbols());
    d->check(cudaSetDevice(device), "cudaSetDevice");
    d->check(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    d->check(cudaMalloc(&d->y, T * nr * K * sizeof(float2)), "cudaMalloc(y)");
    d->check(cudaMalloc(&d->l, K * sizeof(float2)), "cudaMalloc(l)");
    d->check(cudaMalloc(&d->h, K * nr * tr.nt * sizeof(float2)), "cudaMalloc(h)");
    d->check(cudaMalloc(&d->cover, size_t(tr.nt) * tr.nt * sizeof(float)), "cudaMalloc(cover)");
    d->check(cudaMalloc(&d->resid, K * nr * sizeof(float)), "cudaMalloc(resid)");
    std::vector<float> cover(size_t(tr.nt) * tr.nt);
    for (int j = 0; j < tr.nt; j++)
        for (int c = 0; c < tr.nt; c++)
            cover[size_t(j) * tr.nt + c] = tr.cover(j, c);
    d->check(cudaMemcpy(d->cover, cover.data(), cover.size() * sizeof(float), cudaMemcpyHostToDevice),
             "cudaMemcpy(cover)");
    d->check(cudaMemcpy(d->l, tr.sequence().data(), K * sizeof(float2), cudaMemcpyHostToDevice), "cudaMemcpy(l)");
    d->h_host.resize(K * nr * tr.nt);
    d->resid_host.resize(K * nr);
}

mimo_chanest_cuda::~mimo_chanest_cuda() = default;

chanest_result mimo_chanest_cuda::estimate(const cfloat* y)
{
    const mimo_training& tr = d->tr;
    const int nr = d->nr, nt = tr.nt, K = tr.used, T = tr.symbols();
    d->check(cudaSetDevice(d->device), "cudaSetDevice");
    d->check(cudaMemcpyAsync(d->y, y, size_t(T) * nr * K * sizeof(float2), cudaMemcpyHostToDevice, d->stream),
             "cudaMemcpyAsync(y)");
    const int threads = 128, blocks = (K * nr + threads - 1) / threads;
    ls_kernel<<<blocks, threads, 0, d->stream>>>(d->y, d->l, d->cover, nt, nr, K, T, d->h, d->resid);
    d->check(cudaGetLastError(), "ls_kernel launch");
    d->check(cudaMemcpyAsync(d->h_host.data(), d->h, d->h_host.size() * sizeof(float2), cudaMemcpyDeviceToHost,
                             d->stream),
             "cudaMemcpyAsync(h)");
    d->check(cudaMemcpyAsync(d->resid_host.data(), d->resid, d->resid_host.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, d->stream),
             "cudaMemcpyAsync(resid)");
    d->check(cudaStreamSynchronize(d->stream), "cudaStreamSynchronize");
    chanest_result res;
    const int G = K / d->group;
    res.h.assign(size_t(G) * nr * nt, cfloat(0.0f, 0.0f));
    for (int k = 0; k < K; k++)
        for (int i = 0; i < nr * nt; i++)
            res.h[size_t(k / d->group) * nr * nt + i] += d->h_host[size_t(k) * nr * nt + i] / float(d->group);
    double e = 0.0;
    for (float v : d->resid_host)
        e += v;
    if (T > nt)
        res.n0 = e / (double(nr) * K * (T - nt));
    return res;
}

bool mimo_chanest_cuda_usable(int device)
{
    const cuda_probe_result& p = probe_cuda();
    return device >= 0 && size_t(device) < p.devices.size() && p.devices[size_t(device)].usable;
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
